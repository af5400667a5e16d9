import random
import time

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    @ray.remote
    def readings(feed):
        for i in range(4):
            reading = feed.arrived()[i - 4]  # the last four that have arrived, oldest first
            time.sleep(0.5)
            yield bytes([reading]) * SIZE

    @ray.remote
    def noise(n, seed):
        return random.Random(seed).randbytes(n)

    return {"stream": readings.remote(feed), "noise": noise.remote(SIZE, seed)}
