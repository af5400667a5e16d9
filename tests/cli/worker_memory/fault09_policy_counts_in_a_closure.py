# The reference's policy, counting in a closure: the placement scheduler calls it in the driver,
# so its memory is the driver's (and must stay so, jailed or not).
BOUND = 3


def make_policy():
    failed = {}

    def policy(pg, now):
        if pg.state != "RESCHEDULING":
            return "backoff"
        key = (pg.name, pg.recovering_since)
        failed[key] = failed.get(key, 0) + 1
        return "front" if failed[key] < BOUND else "backoff"

    return policy
