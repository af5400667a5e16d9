def diagnose(timeline, memory):
    """Read the run's timeline (Chrome-trace event dicts) and `ray memory` rows, and return
    {"straggler": the slow map task's name, "spilled": the ids of the spilled objects,
     "leaked": the function whose outputs the driver still holds}."""
    return {"straggler": None, "spilled": [], "leaked": None}
