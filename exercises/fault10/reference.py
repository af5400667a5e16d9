def should_promote(shard, refit):
    # The refit wrote to the group it settled when it started: (index, incarnation) pairs. A
    # shard that restarted since, or joined as STALE mid-refit, holds the checkpoint's weights.
    return (shard["index"], shard["incarnation"]) in refit["group"]
