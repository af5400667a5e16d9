def make_rescheduler():
    """Return a rescheduler(ctx), called when a recovering group's attempt fails."""

    def rescheduler(ctx):
        pass  # Ray 2.60 ships no rescheduler: the groups keep retrying

    return rescheduler
