SYSTEM_ERRORS = {"ConnectionError", "TimeoutError", "OSError"}


def blacklist(failures, nodes):
    counts = {node: 0 for node in nodes}
    for failure in failures:
        if failure["kind"] == "died" or failure["error"] in SYSTEM_ERRORS:
            counts[failure["node"]] += 1
    return {node for node, n in counts.items() if n >= 2}
