def blacklist(failures, nodes):
    bad = set()
    deaths = {}
    for f in failures:
        if f["kind"] == "died":
            deaths[f["node"]] = deaths.get(f["node"], 0) + 1
            if deaths[f["node"]] >= 3:
                bad.add(f["node"])
        elif f["error"] in ("ConnectionError", "TimeoutError", "OSError"):
            bad.add(f["node"])  # a system error is the machine's fault: out at once
    return bad
