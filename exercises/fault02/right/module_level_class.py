# Correct, written apart from the reference: the actor class lives at module level and finds the
# store through a module-level name set by make_tally; bounded restarts and retries, enough for
# the two kills a run may bring.
import miniray as ray

STORE = None


class Tally:
    def __init__(self):
        checkpoint = STORE.load()
        if checkpoint is None:
            checkpoint = (0, 0)
        self.total_sum, self.done_upto = checkpoint

    def add(self, seq, amount):
        if seq > self.done_upto:
            self.total_sum, self.done_upto = self.total_sum + amount, seq
            STORE.save((self.total_sum, self.done_upto))

    def total(self):
        return self.total_sum


def make_tally(store):
    global STORE
    STORE = store
    return ray.remote(max_restarts=5, max_task_retries=5)(Tally)
