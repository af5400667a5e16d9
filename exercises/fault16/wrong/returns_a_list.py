import random

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    # Keyed and seeded, but the readings come back as one list: a task's single result, no stream.
    @ray.remote
    def readings(feed):
        return [bytes([feed.reading(i)]) * SIZE for i in range(4)]

    @ray.remote
    def noise(n, seed):
        return random.Random(seed).randbytes(n)

    return {"stream": readings.remote(feed), "noise": noise.remote(SIZE, seed)}
