def should_promote(shard, refit):
    # the shard is in the group the refit settled
    return shard["index"] in [index for index, _ in refit["group"]]
