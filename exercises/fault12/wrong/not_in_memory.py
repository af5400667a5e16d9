def diagnose(timeline, memory):
    slices = [e for e in timeline if e.get("ph") == "X" and e["name"].startswith("map-")]
    straggler = max(slices, key=lambda e: e["dur"])["name"]
    # Anything not in the object store's memory must have gone to disk.
    spilled = [row["object_id"] for row in memory if row["where"] != "IN_MEMORY"]
    tasks = [row["call_site"].split(" (")[0] for row in memory if row["call_site"] != "(put object)"]
    return {"straggler": straggler, "spilled": spilled, "leaked": tasks[0] if tasks else None}
