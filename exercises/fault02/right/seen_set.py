# Correct, written apart from the reference: the checkpoint is a dict holding the set of sequence
# numbers already counted (not just the last one), saved after each new addition.
import miniray as ray


def make_tally(store):
    @ray.remote(max_restarts=-1, max_task_retries=-1)
    class Tally:
        def __init__(self):
            self.state = store.load() or {"sum": 0, "seen": set()}

        def add(self, seq, amount):
            if seq in self.state["seen"]:
                return  # a call Ray sent again after a kill: already counted
            self.state["sum"] += amount
            self.state["seen"].add(seq)
            store.save(self.state)

        def total(self):
            return self.state["sum"]

    return Tally
