import random
import time

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    @ray.remote
    def readings(feed):
        for i in range(len(feed.arrived())):  # keyed reads, but how many is "what has arrived"
            value = feed.reading(i)
            time.sleep(0.5)
            yield bytes([value]) * SIZE

    @ray.remote
    def noise(n, seed):
        return random.Random(seed).randbytes(n)

    return {"stream": readings.remote(feed), "noise": noise.remote(SIZE, seed)}
