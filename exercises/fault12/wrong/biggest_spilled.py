def diagnose(timeline, memory):
    maps = [e for e in timeline if e.get("ph") == "X" and e["name"].startswith("map-")]
    straggler = max(maps, key=lambda e: e["dur"])["name"]
    spilled = [max(memory, key=lambda row: row["object_size"])["object_id"]]  # the biggest object
    held = [row["call_site"] for row in memory if row["call_site"] != "(put object)"]
    leaked = held[0].split(" (")[0] if held else None
    return {"straggler": straggler, "spilled": spilled, "leaked": leaked}
