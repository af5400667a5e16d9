import miniray as ray
from miniray.exceptions import TaskCancelledError


def book_trip(api, trip, legs):
    prices = {}
    for leg in legs:
        prices[leg] = api.quote(trip, leg)
    return api.reserve_all(trip, prices)


def run_trip(api, trip, submit):
    try:
        ray.get(submit())
    except TaskCancelledError:
        return "cancelled"
    return "booked"
