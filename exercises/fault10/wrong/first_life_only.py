def should_promote(shard, refit):
    # a shard that never restarted kept its weights through the refit
    return shard["incarnation"] == 0
