def make_policy():
    failed = {}

    def policy(pg, now):
        if pg.state != "RESCHEDULING":
            return "backoff"
        failed[pg.name] = failed.get(pg.name, 0) + 1  # one budget for the group's whole life
        return "front" if failed[pg.name] < 3 else "backoff"

    return policy
