SYSTEM = ("ConnectionError", "TimeoutError", "OSError")


def blacklist(failures, nodes):
    recent = failures[-5:]  # only what happened lately says anything about a node
    counts = {}
    for f in recent:
        if f["kind"] == "died" or f["error"] in SYSTEM:
            counts[f["node"]] = counts.get(f["node"], 0) + 1
    return {node for node, n in counts.items() if n >= 3}
