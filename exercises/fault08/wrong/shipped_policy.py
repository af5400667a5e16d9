from miniray.liveness import RETRYABLE


def blacklist(failures, nodes):
    names = {cls.__name__ for cls in RETRYABLE}
    counts = {node: 0 for node in nodes}
    for failure in failures:
        if failure["kind"] == "died" or failure["error"] in names:
            counts[failure["node"]] += 1
    return {node for node, n in counts.items() if n >= 3}
