def should_promote(shard, refit):
    # The weight-version metric says whether the shard is behind... or does it?
    return shard["reported_version"] < refit["version"]
