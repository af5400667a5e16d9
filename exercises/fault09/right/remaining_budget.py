# Correct, written apart from the reference: each recovery gets a budget of two retries at the
# front, spent one per failed attempt; it counts down instead of up.
def make_policy():
    budget = {}

    def policy(pg, now):
        if pg.state != "RESCHEDULING":
            return "backoff"
        left = budget.setdefault((pg.name, pg.recovering_since), 2)
        if left == 0:
            return "backoff"
        budget[(pg.name, pg.recovering_since)] = left - 1
        return "front"

    return policy
