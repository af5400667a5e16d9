# Correct, written apart from the reference: collections.Counter over the failures that
# implicate a node, with the rule in a predicate of its own.
from collections import Counter


def implicates(failure):
    if failure["kind"] == "died":
        return True
    return failure["error"] in ("ConnectionError", "TimeoutError", "OSError")


def blacklist(failures, nodes):
    strikes = Counter(f["node"] for f in failures if implicates(f))
    return {node for node in nodes if strikes[node] >= 3}
