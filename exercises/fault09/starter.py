def make_policy():
    """Return a policy(pg, now) -> "front" | "backoff", asked after each failed attempt of a group."""

    def policy(pg, now):
        return "front" if pg.state == "RESCHEDULING" else "backoff"  # Ray 2.60's rule

    return policy
