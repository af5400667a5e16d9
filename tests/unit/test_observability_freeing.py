"""Refs free when the last one goes, not when the garbage collector happens to run.

`ray memory` and the store's fill % are only trustworthy, and a run only replays byte for byte,
if an object is freed at a point the program decides. Exceptions are where that breaks: a raised
exception's traceback holds frames, and frames hold refs. These scenarios run once with the
collector off and once collecting on nearly every allocation; the logs must be identical.
"""

import gc
import time

import pytest

import miniray
from miniray import sim
from miniray.util import state

BIG = 200_000


def _under_gc(scenario, threshold):
    enabled, saved = gc.isenabled(), gc.get_threshold()
    try:
        if threshold is None:
            gc.disable()
        else:
            gc.enable()
            gc.set_threshold(threshold)
        return sim.run(scenario, seed=1)
    finally:
        gc.set_threshold(*saved)
        (gc.enable if enabled else gc.disable)()


def same_with_and_without_gc(scenario):
    off, eager = _under_gc(scenario, None), _under_gc(scenario, 1)
    assert off.error is None, off.error
    assert off.log_text == eager.log_text
    assert off.value == eager.value
    return off


def test_retried_exceptions_do_not_keep_results_alive():
    def scenario():
        miniray.init(num_cpus=2)

        @miniray.remote(max_retries=2, retry_exceptions=True)
        def f(i):
            time.sleep(i)
            if sim.now() < 2:
                raise RuntimeError("once")
            return bytes(BIG)

        refs = [f.remote(i) for i in range(3)]
        miniray.get(refs)
        del refs
        return len(state.list_objects())

    assert same_with_and_without_gc(scenario).value == 0


def test_an_error_the_driver_got_is_freed_when_its_ref_goes():
    def scenario():
        miniray.init(num_cpus=1)

        @miniray.remote(max_retries=0)
        def bad():
            raise ValueError("no")

        ref = bad.remote()
        with pytest.raises(ValueError):
            miniray.get(ref)
        with pytest.raises(ValueError):
            miniray.get([miniray.put(1), ref])
        del ref
        return len(state.list_objects())

    assert same_with_and_without_gc(scenario).value == 0


def test_an_error_caught_inside_a_task_does_not_pin_the_drivers_refs():
    def scenario():
        miniray.init(num_cpus=2)

        @miniray.remote(max_retries=0)
        def bad():
            time.sleep(1)
            raise ValueError("no")

        @miniray.remote
        def careful(boxed):
            try:
                miniray.get(boxed[0])  # blocks, then the error arrives: journaled and replayed
            except ValueError:
                return "caught"

        held = miniray.put(bytes(BIG))
        out = miniray.get(careful.remote([bad.remote()]))
        del held
        return out, len(state.list_objects())

    assert same_with_and_without_gc(scenario).value == ("caught", 0)
