import random
import time

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    @ray.remote
    def readings(feed):
        for i in range(4):
            reading = feed.reading(i)
            time.sleep(0.5)
            yield bytes([reading]) * SIZE

    @ray.remote
    def noise(n, seed):
        rng = random.Random(seed ^ int(time.time()))  # a different draw for every job
        return rng.randbytes(n)

    return {"stream": readings.remote(feed), "noise": noise.remote(SIZE, seed)}
