import random
import time

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    @ray.remote
    def readings(feed, n):
        for i in range(n):
            reading = feed.reading(i)
            time.sleep(0.5)
            yield bytes([reading]) * SIZE

    # Random draws must not be repeated, so the task may not run twice.
    @ray.remote(max_retries=0)
    def noise(n, seed):
        return random.Random(seed).randbytes(n)

    return {"stream": readings.remote(feed, 4), "noise": noise.remote(SIZE, seed)}
