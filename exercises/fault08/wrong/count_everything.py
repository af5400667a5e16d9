def blacklist(failures, nodes):
    counts = {node: 0 for node in nodes}
    for failure in failures:
        counts[failure["node"]] += 1
    return {node for node, n in counts.items() if n >= 3}
