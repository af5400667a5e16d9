def make_policy():
    def policy(pg, now):
        return "backoff"  # miniray's `backoff` policy: priority ends at the first failure

    return policy
