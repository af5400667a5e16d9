def make_policy():
    failed = {}

    def policy(pg, now):
        if pg.state != "RESCHEDULING":
            return "backoff"
        # One recovery per node loss: key by when it began.
        failed[pg.recovering_since] = failed.get(pg.recovering_since, 0) + 1
        return "front" if failed[pg.recovering_since] < 3 else "backoff"

    return policy
