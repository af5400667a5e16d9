import miniray as ray


def book_trip(api, trip, legs):
    quotes = [api.quote(trip, leg) for leg in legs]
    return api.reserve_all(trip, dict(zip(legs, quotes)))


def run_trip(api, trip, submit):
    pending = submit()
    try:
        return "booked" if ray.get(pending) else "booked"
    except ray.exceptions.TaskCancelledError as cancelled:
        reserved = api.booking(trip)
        print(f"{trip}: cancelled ({type(cancelled).__name__}); reserved legs: {reserved}")
        return "cancelled" if not reserved else "booked"
