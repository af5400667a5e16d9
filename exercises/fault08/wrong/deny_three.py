INPUT_ERRORS = {"ValueError", "KeyError", "TypeError"}  # the three the statement names


def blacklist(failures, nodes):
    counts = dict.fromkeys(nodes, 0)
    for f in failures:
        if f["error"] not in INPUT_ERRORS:
            counts[f["node"]] += 1
    return {node for node, n in counts.items() if n >= 3}
