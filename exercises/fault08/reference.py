# An error the code raises on its input (ValueError, KeyError, TypeError...) fails the same on
# every node, so it says nothing about the node it happened on. A death under the attempt, or a
# system error the next machine may not hit, does.
SYSTEM_ERRORS = {"ConnectionError", "TimeoutError", "OSError"}
THRESHOLD = 3


def blacklist(failures, nodes):
    counts = {node: 0 for node in nodes}
    for failure in failures:
        if failure["kind"] == "died" or failure["error"] in SYSTEM_ERRORS:
            counts[failure["node"]] += 1
    return {node for node, n in counts.items() if n >= THRESHOLD}
