import random
import time

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    # "A generator over external data must never be replayed": so it never is.
    @ray.remote(max_retries=0)
    def readings(feed):
        for reading in feed.arrived():
            time.sleep(0.5)
            yield bytes([reading]) * SIZE

    @ray.remote
    def noise(n, seed):
        return random.Random(seed).randbytes(n)

    return {"stream": readings.remote(feed), "noise": noise.remote(SIZE, seed)}
