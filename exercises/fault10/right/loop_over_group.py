# Correct, written apart from the reference: a plain loop over the group, comparing both parts.
def should_promote(shard, refit):
    for index, incarnation in refit["group"]:
        if index == shard["index"]:
            return incarnation == shard["incarnation"]
    return False
