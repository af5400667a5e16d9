import random
import time

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    # A generator object is an argument like any other: Ray records it in the lineage and every
    # run gets a copy of it as it was at submission, so every run draws the same bytes.
    rng = random.Random(seed)

    @ray.remote
    def draw(rng, n):
        return rng.randbytes(n)

    @ray.remote
    def stream(feed, n):
        first = feed.arrived()[:n]  # the oldest n readings never change, however many arrive
        for value in first:
            time.sleep(0.5)
            yield bytes([value]) * SIZE

    return {"noise": draw.remote(rng, SIZE), "stream": stream.remote(feed, 4)}
