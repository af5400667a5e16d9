import random
import time

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    @ray.remote
    def readings(feed):
        batch = feed.arrived()
        for reading in batch:
            time.sleep(0.5)
            yield bytes([reading]) * SIZE

    @ray.remote
    def noise(n, seed):
        rng = random.Random(seed)
        return rng.randbytes(n)

    return {"stream": readings.remote(feed), "noise": noise.remote(SIZE, seed)}
