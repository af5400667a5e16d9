def make_policy():
    def policy(pg, now):
        # Counts the group's attempts over its whole life, not per recovery.
        if pg.state == "RESCHEDULING" and pg.scheduling_attempt < 4:
            return "front"
        return "backoff"

    return policy
