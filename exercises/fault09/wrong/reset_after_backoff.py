def make_policy():
    failed = {}

    def policy(pg, now):
        if pg.state != "RESCHEDULING":
            return "backoff"
        key = (pg.name, pg.recovering_since)
        failed[key] = failed.get(key, 0) + 1
        if failed[key] < 3:
            return "front"
        failed[key] = 0  # backed off once: give it a fresh start
        return "backoff"

    return policy
