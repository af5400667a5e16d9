BOUND = 3  # attempts at rank 0 per recovery: the fresh one and two retries


def make_policy():
    failed = {}  # (group, the recovery it is in) -> failed attempts so far

    def policy(pg, now):
        if pg.state != "RESCHEDULING":
            return "backoff"
        # A new node loss starts a new recovery (a new recovering_since), with its own budget.
        key = (pg.name, pg.recovering_since)
        failed[key] = failed.get(key, 0) + 1
        return "front" if failed[key] < BOUND else "backoff"

    return policy
