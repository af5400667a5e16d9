def diagnose(timeline, memory):
    maps = [e for e in timeline if e.get("ph") == "X" and e["name"].startswith("map-")]
    straggler = max(maps, key=lambda e: e["dur"])["name"]
    spilled = [row["object_id"] for row in memory if row["where"] == "SPILLED"]
    sites = [row["call_site"] for row in memory]
    leaked = max(set(sites), key=sites.count).split(" (")[0]  # the call site with the most live objects
    return {"straggler": straggler, "spilled": spilled, "leaked": leaked}
