import miniray as ray


def book_trip(api, trip, legs):
    # Quote only: the reservation is left to the caller, who never makes it.
    return {leg: api.quote(trip, leg) for leg in legs}


def run_trip(api, trip, submit):
    try:
        ray.get(submit())
    except ray.exceptions.TaskCancelledError:
        return "cancelled"
    return "booked" if api.booking(trip) else "cancelled"
