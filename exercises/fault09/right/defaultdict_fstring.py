# Correct, written apart from the reference: a defaultdict keyed by a string naming the group and
# its recovery; the answer is picked from a tuple by the count.
from collections import defaultdict


def make_policy():
    failures = defaultdict(int)
    answers = ("front", "front")  # the first two failed attempts of a recovery

    def policy(pg, now):
        if pg.state == "RESCHEDULING":
            key = f"{pg.name}@{pg.recovering_since!r}"
            failures[key] += 1
            if failures[key] <= len(answers):
                return answers[failures[key] - 1]
        return "backoff"

    return policy
