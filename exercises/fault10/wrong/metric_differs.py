def should_promote(shard, refit):
    # behind the refit means it needs promoting
    return shard["reported_version"] != refit["version"]
