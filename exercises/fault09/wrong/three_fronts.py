def make_policy():
    failed = {}

    def policy(pg, now):
        if pg.state != "RESCHEDULING":
            return "backoff"
        key = (pg.name, pg.recovering_since)
        failed[key] = failed.get(key, 0) + 1
        return "front" if failed[key] <= 3 else "backoff"  # three attempts at the front...

    return policy
