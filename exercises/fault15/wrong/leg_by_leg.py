import miniray as ray


def book_trip(api, trip, legs):
    ids = {}
    for leg in legs:
        ids[leg] = api.reserve(trip, leg, api.quote(trip, leg))
    return ids


def run_trip(api, trip, submit):
    try:
        ray.get(submit())
    except ray.exceptions.TaskCancelledError:
        return "booked" if api.booking(trip) else "cancelled"
    return "booked"
