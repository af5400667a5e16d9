def should_promote(shard, refit):
    # "a newer engine of a group member is still that member"
    return any(
        index == shard["index"] and incarnation <= shard["incarnation"]
        for index, incarnation in refit["group"]
    )
