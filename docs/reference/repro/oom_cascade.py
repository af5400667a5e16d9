"""The OOM cascade: every attempt of a memory-hungry task is killed, and retries only repeat it.

miniray has no memory monitor, so the kills are injected where Ray's monitor would make them:
each attempt of hog() dies as it starts. Then the fix's mechanism: a `memory=` request makes
the scheduler run fewer such tasks at once on a node.
"""

import time

import miniray as ray
from miniray import sim
from miniray.util import state

GiB = 1024**3

# Four attempts (max_retries=3 by default), each killed as it starts.
sim.schedule([f"crash hog#1/{attempt} step=0" for attempt in range(1, 5)])
ray.init(num_cpus=4)


@ray.remote
def hog():
    time.sleep(10)
    return "done"


try:
    ray.get(hog.remote())
except ray.exceptions.WorkerCrashedError as e:
    attempts = state.list_tasks()[0]["attempt_number"] + 1
    print(f"{type(e).__name__} after {attempts} attempts, at {sim.now():g} s")
ray.shutdown()

ray.init(num_cpus=4)  # 4 CPUs, 8 GiB of memory to schedule against


@ray.remote(memory=3 * GiB)
def sized():
    time.sleep(10)
    return 1


done = sum(ray.get([sized.remote() for _ in range(4)]))
print(f"{done} tasks asking for 3 GiB each on an 8 GiB node: {sim.now():g} s, two at a time")
ray.shutdown()
