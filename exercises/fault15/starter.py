import miniray as ray


def book_trip(api, trip, legs):
    """Quote every leg and reserve the trip. Runs as a Ray task that its caller may cancel."""
    ids = {}
    for leg in legs:
        price = api.quote(trip, leg)
        ids[leg] = api.reserve(trip, leg, price)
    return ids


def run_trip(api, trip, submit):
    """Submit the booking (`submit()` returns its ref), wait for it, and say what became of the
    trip: "booked" or "cancelled"."""
    try:
        ray.get(submit())
        return "booked"
    except ray.exceptions.TaskCancelledError:
        return "cancelled"
