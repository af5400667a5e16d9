# Correct, written apart from the reference: one sum per node, with the two kinds of failure that
# implicate it written out as two conditions.
def blacklist(failures, nodes):
    out = set()
    for node in nodes:
        mine = [f for f in failures if f["node"] == node]
        died = sum(1 for f in mine if f["kind"] == "died")
        system = sum(
            1
            for f in mine
            if f["kind"] == "error" and f["error"] in {"ConnectionError", "TimeoutError", "OSError"}
        )
        if died + system >= 3:
            out.add(node)
    return out
