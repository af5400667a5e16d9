"""The OOM cascade on miniray's memory monitor: kills, OOM retries, and the memory= lever.

The two sim.use_memory lines say what each attempt would allocate on a real node; the rest is
plain Ray. (On real Ray, memory use is whatever the code allocates: do not reproduce this on a
shared cluster, where the monitor kills real work.)
"""

import time

import miniray as ray
from miniray import sim
from miniray.util import state

GiB = 1024**3

# 1. A task that needs more than its node has. Ray retries OOM kills on a counter of their own
#    (unlimited by default, with backoff); capped at 3 here so the job ends.
ray.init(num_cpus=4, memory=8 * GiB, _system_config={"task_oom_retries": 3})
sim.use_memory("hog", 10 * GiB)


@ray.remote
def hog():
    time.sleep(10)
    return "done"


try:
    ray.get(hog.remote())
except ray.exceptions.OutOfMemoryError as e:
    attempts = state.list_tasks()[0]["attempt_number"] + 1
    print(f"{type(e).__name__} after {attempts} attempts, at {sim.now():g} s")
    print(str(e).splitlines()[0])
ray.shutdown()


# 2. Four tasks that use 3 GiB each on that node: without a request all four start and the
#    monitor kills the newest; asking for memory=3 GiB runs them two at a time.
def four_parts(request):
    ray.init(num_cpus=4, memory=8 * GiB)
    sim.use_memory("part", 3 * GiB)

    @ray.remote
    def part():
        time.sleep(10)
        return 1

    if request:
        part = part.options(memory=request)
    done = sum(ray.get([part.remote() for _ in range(4)]))
    kills = sum(1 for r in sim.event_log() if r.kind == "memory.kill")
    asked = f"memory={request // GiB} GiB" if request else "no memory= request"
    print(f"{asked}: {done} tasks done at {sim.now():g} s after {kills} OOM kills")
    ray.shutdown()


four_parts(None)
four_parts(3 * GiB)
