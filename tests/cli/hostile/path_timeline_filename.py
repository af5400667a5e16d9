# class: paths the judge opens
# exercise: fault05
# ray.timeline(filename=...) writes the trace to a file, as Ray's driver does. Forwarded to the
# judge unchanged, the judge would open the name: overwrite the exercise's statement, and leave
# a file in the grading machine's /tmp. Inside the jail the same call writes the jail's own file.
import json

import miniray as ray

WROTE_INSIDE = []


def process_order(api, order_id, amount):
    for path in ("@@REPO@@/exercises/fault05/statement.md", "/tmp/@@MARKER@@"):
        try:
            ray.timeline(filename=path)
        except OSError:
            pass
    try:
        ray.timeline("/tmp/trace.json")  # the jail's own scratch folder: Ray's contract holds there
        with open("/tmp/trace.json") as f:
            WROTE_INSIDE.append(type(json.load(f)).__name__)
    except OSError:
        pass
    api.mark_paid(order_id, api.charge(order_id, amount))
