import miniray as ray


def book_trip(api, trip, legs):
    # Travel first, the car apart: it is the cheap part.
    main = [leg for leg in legs if leg != "car"]
    prices = {leg: api.quote(trip, leg) for leg in main}
    booking = api.reserve_all(trip, prices)
    if "car" in legs:
        api.reserve(trip, "car", api.quote(trip, "car"))
    return booking


def run_trip(api, trip, submit):
    try:
        ray.get(submit())
        return "booked"
    except ray.exceptions.TaskCancelledError:
        return "cancelled" if api.booking(trip) is None else "booked"
