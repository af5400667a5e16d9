import miniray as ray


def make_tally(store):
    """The tally actor, as a @ray.remote class. Its worker gets killed; make it come back with
    every addition counted exactly once. `store.save(state)` and `store.load()` keep a
    checkpoint outside the actor."""

    @ray.remote
    class Tally:
        def __init__(self):
            self.sum = 0

        def add(self, seq, amount):
            self.sum += amount

        def total(self):
            return self.sum

    return Tally
