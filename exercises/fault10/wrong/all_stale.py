def should_promote(shard, refit):
    return True
