import random
import time

import miniray as ray

SIZE = 120_000
COUNT = 4


def build(feed, seed):
    # Every value is a function of the arguments: the readings by their number (a key into the
    # feed, not "what has arrived by now"), the noise by its seed. A retry or a rebuild from
    # lineage then yields the same items, as many of them, and draws the same bytes.
    @ray.remote
    def readings(feed, count):
        for i in range(count):
            reading = feed.reading(i)
            time.sleep(0.5)
            yield bytes([reading]) * SIZE

    @ray.remote
    def noise(n, seed):
        return random.Random(seed).randbytes(n)

    return {"stream": readings.remote(feed, COUNT), "noise": noise.remote(SIZE, seed)}
