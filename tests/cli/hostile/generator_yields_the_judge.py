# class: calling the judge's functions
# exercise: fault16
# The stream is a generator task, stepped by the judge: it yields what it can reach of the
# grading (the feed it was given, its own frame and code, a function) hoping the judge takes an
# item for one of its own objects. Each item crosses as a copy or a stand-in; the stream is wrong,
# and the grading must say so.
import random
import sys

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    @ray.remote
    def readings(feed):
        me = sys._getframe()
        yield feed
        yield me.f_back
        yield me.f_code
        yield lambda: None

    @ray.remote
    def noise(n, seed):
        return random.Random(seed).randbytes(n)

    return {"stream": readings.remote(feed), "noise": noise.remote(SIZE, seed)}
