def diagnose(timeline, memory):
    # The straggler: the longest task bar ("X" slices carry their duration in microseconds).
    maps = [e for e in timeline if e.get("ph") == "X" and e["name"].startswith("map-")]
    straggler = max(maps, key=lambda e: e["dur"])["name"]
    # Spilled objects: `ray memory` says where each object lives; SPILLED is on disk.
    spilled = [row["object_id"] for row in memory if row["where"] == "SPILLED"]
    # The leak: task outputs the driver still references after they were used. Objects it put
    # on purpose show as "(put object)"; every other call site still alive is held too long.
    held = [row["call_site"] for row in memory if row["call_site"] != "(put object)"]
    leaked = held[0].split(" (")[0] if held else None
    return {"straggler": straggler, "spilled": spilled, "leaked": leaked}
