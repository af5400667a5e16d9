# An actor keeps its count in a module-level dict: a restarted actor is a new process, which in
# Ray starts from the dict as the driver exported it, so additions are lost.
import miniray as ray

TOTALS = {"sum": 0, "last": 0}


def make_tally(store):
    @ray.remote(max_restarts=-1, max_task_retries=-1)
    class Tally:
        def add(self, seq, amount):
            if seq <= TOTALS["last"]:
                return
            TOTALS["sum"] += amount
            TOTALS["last"] = seq

        def total(self):
            return TOTALS["sum"]

    return Tally
