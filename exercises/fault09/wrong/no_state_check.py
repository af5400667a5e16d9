def make_policy():
    failed = {}

    def policy(pg, now):
        key = (pg.name, pg.recovering_since)  # every group gets the recovery's priority
        failed[key] = failed.get(key, 0) + 1
        return "front" if failed[key] < 3 else "backoff"

    return policy
