import miniray as ray


def book_trip(api, trip, legs):
    prices = {leg: api.quote(trip, leg) for leg in legs}
    return api.reserve_all(trip, prices)


def run_trip(api, trip, submit):
    # Keep trying until the booking goes through.
    for _ in range(3):
        try:
            ray.get(submit())
            return "booked"
        except ray.exceptions.RayError:
            continue
    return "booked" if api.booking(trip) else "cancelled"
