import random
import time

import miniray as ray

SIZE = 120_000
HOW_MANY = 4


@ray.remote
def sensor_readings(feed, count):
    i = 0
    while i < count:
        value = feed.reading(i)
        time.sleep(0.5)
        yield bytes([value]) * SIZE
        i += 1


@ray.remote
def random_noise(size, seed):
    generator = random.Random()
    generator.seed(seed)  # the seed is the argument: a retry and a rebuild seed it alike
    return generator.randbytes(size)


def build(feed, seed):
    return {
        "noise": random_noise.remote(size=SIZE, seed=seed),
        "stream": sensor_readings.remote(feed, HOW_MANY),
    }
