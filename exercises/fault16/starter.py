import random
import time

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    """A stream of the feed's first four readings and 120 kB of noise drawn from `seed`. Ray may
    run either task again (a retry after a crash, a rebuild after a node loss): every run must
    give the consumer the values a run with no fault gives. Today neither does."""

    @ray.remote
    def readings(feed):
        for reading in feed.arrived():  # what has arrived by now
            time.sleep(0.5)  # the work on each reading
            yield bytes([reading]) * SIZE

    @ray.remote
    def noise(n):
        rng = random.Random(time.time())  # a fresh seed on every run
        return rng.randbytes(n)

    return {"stream": readings.remote(feed), "noise": noise.remote(SIZE)}
