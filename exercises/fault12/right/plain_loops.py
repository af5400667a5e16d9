# Correct, written apart from the reference: one plain loop per question, no comprehensions.
def diagnose(timeline, memory):
    straggler, longest = None, -1
    for event in timeline:
        if event.get("ph") != "X" or not event["name"].startswith("map-"):
            continue
        if event["dur"] > longest:
            straggler, longest = event["name"], event["dur"]
    spilled = []
    leaked = None
    for row in memory:
        if row["where"] == "SPILLED":
            spilled.append(row["object_id"])
        site = row["call_site"]
        if site != "(put object)" and leaked is None:
            leaked = site.split(" ")[0]
    return {"straggler": straggler, "spilled": spilled, "leaked": leaked}
