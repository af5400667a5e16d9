import miniray as ray


class Planner:
    """Collects the quotes; nothing leaves it until commit()."""

    def __init__(self, api, trip):
        self.api, self.trip, self.prices = api, trip, {}

    def price(self, leg):
        self.prices[leg] = self.api.quote(self.trip, leg)

    def commit(self):
        return self.api.reserve_all(self.trip, dict(self.prices))


def book_trip(api, trip, legs):
    plan = Planner(api, trip)
    for leg in legs:
        plan.price(leg)
    return plan.commit()


def run_trip(api, trip, submit):
    outcome = "booked"
    try:
        ray.get(submit())
    except ray.exceptions.TaskCancelledError:
        outcome = "booked" if api.booking(trip) else "cancelled"
    return outcome
