from collections import Counter


def diagnose(timeline, memory):
    bars = [e for e in timeline if e.get("ph") == "X"]
    maps = [e for e in bars if e["name"].startswith("map-")]
    straggler = max(maps, key=lambda e: e["dur"])["name"]
    spilled = [row["object_id"] for row in memory if row["where"] == "SPILLED"]
    helpers = Counter(e["name"] for e in bars if e["name"] in ("decode", "resize", "tokenize"))
    return {"straggler": straggler, "spilled": spilled, "leaked": helpers.most_common(1)[0][0]}
