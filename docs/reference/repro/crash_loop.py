"""An actor whose process dies in __init__, every time: a crash loop that ends in ActorDiedError.

Each incarnation spends 2 s loading in __init__ and is killed 1 s in, as an out-of-memory kill
or a segfault in a native library would. (An exception *raised* by __init__ is different: Ray
does not restart for it; see the second half.)
"""

import time

import miniray as ray
from miniray import sim
from miniray.util import state

ray.init(num_cpus=2)


@ray.remote(max_restarts=3, max_task_retries=-1)
class Loader:
    def __init__(self):
        time.sleep(2)  # loading a model

    def ready(self):
        return True


loader = Loader.remote()
for t in (1, 4, 7, 10):  # one kill per incarnation; a restart takes 1 s
    sim.kill_actor(loader, at=t)
try:
    ray.get(loader.ready.remote())
except ray.exceptions.ActorDiedError as e:
    print(f"{type(e).__name__} at {sim.now():g} s")
row = state.list_actors()[0]
print(f"state {row['state']}, num_restarts {row['num_restarts']}")
ray.shutdown()

ray.init(num_cpus=2)


@ray.remote(max_restarts=3)
class Misconfigured:
    def __init__(self):
        raise KeyError("MODEL_PATH")  # an exception, not a crash

    def ready(self):
        return True


actor = Misconfigured.remote()
try:
    ray.get(actor.ready.remote())
except ray.exceptions.ActorDiedError as e:
    print(f"{type(e).__name__}: actor_init_failed={e.actor_init_failed}")
print(f"num_restarts {state.list_actors()[0]['num_restarts']}")
ray.shutdown()
