# Correct, written apart from the reference: the class is decorated plainly and given its restart
# options with .options(); the checkpoint is saved as a dict of plain attributes.
import miniray as ray


def make_tally(store):
    @ray.remote
    class Tally:
        def __init__(self):
            saved = store.load()
            self.__dict__.update(saved if saved else {"sum": 0, "last": 0})

        def add(self, seq, amount):
            if seq > self.last:
                self.sum += amount
                self.last = seq
                store.save({"sum": self.sum, "last": self.last})

        def total(self):
            return self.sum

    return Tally.options(max_restarts=-1, max_task_retries=-1)
