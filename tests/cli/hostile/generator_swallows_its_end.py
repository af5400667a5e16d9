# class: patching the judge
# exercise: fault16
# The stream is a generator task, which the jail steps one item at a time for the judge: it
# swallows whatever ends it (the jail's unwind when it blocks, a budget's stop) and yields on
# without end. The grading must still end, at a counted budget, and fail.
import random

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    @ray.remote
    def readings(feed):
        i = 0
        while True:
            try:
                yield bytes([feed.reading(i % 4)]) * SIZE
            except BaseException:
                pass
            i += 1

    @ray.remote
    def noise(n, seed):
        return random.Random(seed).randbytes(n)

    return {"stream": readings.remote(feed), "noise": noise.remote(SIZE, seed)}
