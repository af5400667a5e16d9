def diagnose(timeline, memory):
    bars = [e for e in timeline if e.get("ph") == "X"]
    straggler = max(bars, key=lambda e: e["dur"])["name"]  # the longest bar of the run
    spilled = [row["object_id"] for row in memory if row["where"] == "SPILLED"]
    held = [row["call_site"] for row in memory if row["call_site"] != "(put object)"]
    return {"straggler": straggler, "spilled": spilled, "leaked": held[0].split(" (")[0] if held else None}
