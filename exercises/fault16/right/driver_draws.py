import random
import time

import miniray as ray

SIZE = 120_000


def build(feed, seed):
    """Draw the noise once, in the driver, and put it: a put object is never re-run, and the
    driver's node outlives the workers. The readings are asked for by number."""
    noise = ray.put(random.Random(seed).randbytes(SIZE))

    @ray.remote(max_retries=5)
    def readings(feed, numbers):
        for number in numbers:
            block = bytes([feed.reading(number)]) * SIZE
            time.sleep(0.5)
            yield block

    return {"stream": readings.remote(feed, list(range(4))), "noise": noise}
