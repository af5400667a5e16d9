def should_promote(shard, refit):
    # Went STALE before the refit started, so the refit must have included it: the group is
    # never looked at.
    return shard["stale_since"] <= refit["started"]
