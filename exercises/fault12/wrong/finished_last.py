def diagnose(timeline, memory):
    maps = [e for e in timeline if e.get("ph") == "X" and e["name"].startswith("map-")]
    straggler = max(maps, key=lambda e: e["ts"] + e["dur"])["name"]  # the map that finished last
    spilled = [row["object_id"] for row in memory if row["where"] == "SPILLED"]
    held = [row["call_site"] for row in memory if row["call_site"] != "(put object)"]
    return {"straggler": straggler, "spilled": spilled, "leaked": held[0].split(" (")[0] if held else None}
