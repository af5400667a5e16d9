def blacklist(failures, nodes):
    # Skips the one input error it knows about; every other error still blames the node.
    counts = {node: 0 for node in nodes}
    for failure in failures:
        if failure["error"] != "ValueError":
            counts[failure["node"]] += 1
    return {node for node, n in counts.items() if n >= 3}
