def should_promote(shard, refit):
    """Called for each STALE shard when a refit ends: may it serve again (True) or not (False)?

    shard: {"index", "incarnation", "stale_since", "reported_version"}
    refit: {"version", "started", "group": [(index, incarnation), ...]}
    """
    return True  # the shipped rule: every STALE shard is promoted
