"""The actor class the actor scenarios share, built per backend.

``make_tally(ray)`` returns a remote class: a counter whose state lives in the
actor process, with methods to crash that process or raise from a method.
Runs of ``__init__`` and of crashing methods are counted in files (see RunLog).
"""

import os
import time

from _observe import actor_state, pass_time


def make_tally(ray):
    @ray.remote
    class Tally:
        def __init__(self, init_log, restart_delay_s=0.0):
            if init_log.count() > 0 and restart_delay_s:
                # Slow re-creation keeps the actor RESTARTING long enough to observe.
                time.sleep(restart_delay_s)
            init_log.bump()  # after the sleep: see RunLog on replayed bodies
            self.n = 0

        def incr(self):
            self.n += 1
            return self.n

        def crash(self):
            os._exit(1)

        def crash_first_time(self, log):
            if log.bump() == 1:
                os._exit(1)
            return "survived"

        def fail(self):
            raise ValueError("method failed")

    return Tally


def watch_states(ray, handle, until, step_s=0.05, limit_s=30.0):
    """Sample the actor's state every ``step_s`` (backend clock) until ``until(transitions)``.

    Returns the observed transitions, e.g. ["ALIVE", "RESTARTING", "ALIVE"].
    Polling instead of sampling at fixed points: on real Ray the dying call's
    error can arrive after the restart already finished.
    """
    seen = collapse([actor_state(ray, handle)])
    waited = 0.0
    while not until(seen) and waited < limit_s:
        pass_time(ray, step_s)
        waited += step_s
        seen = collapse(seen + [actor_state(ray, handle)])
    return seen


def back_alive(seen):
    return len(seen) >= 2 and seen[-1] == "ALIVE" or seen[-1] == "DEAD"


def dead(seen):
    return seen[-1] == "DEAD"


def collapse(states):
    """Consecutive duplicates removed: the state transitions that were observed."""
    out = []
    for s in states:
        if not out or out[-1] != s:
            out.append(s)
    return out
