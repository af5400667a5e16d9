import miniray as ray
from miniray.exceptions import TaskCancelledError


def book_trip(api, trip, legs):
    prices = {}
    for leg in legs:
        prices[leg] = api.quote(trip, leg)
    booking_id = api.reserve_all(trip, prices)
    return booking_id


def run_trip(api, trip, submit):
    ref = submit()
    try:
        ray.get(ref)
    except TaskCancelledError:
        if api.booking(trip) is None:
            return "cancelled"
    return "booked"
