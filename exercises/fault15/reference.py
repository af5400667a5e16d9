import miniray as ray


def book_trip(api, trip, legs):
    # The long part first, with no effect in the world: a cancel while it quotes leaves nothing.
    prices = {leg: api.quote(trip, leg) for leg in legs}
    # Then the effect, as one call that reserves every leg or none: a cancel, forced or not,
    # lands before it (nothing reserved) or after it (everything reserved), never inside it.
    return api.reserve_all(trip, prices)


def run_trip(api, trip, submit):
    try:
        ray.get(submit())
        return "booked"
    except ray.exceptions.TaskCancelledError:
        # A cancel may reach the task after its reservation was made: ask the agency, not the
        # exception. And never submit again: the caller asked for it to stop.
        return "booked" if api.booking(trip) else "cancelled"
