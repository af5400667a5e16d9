"""What the judge spends on what the jail sends (wire.py, proxies.Made) and what it answers
(served.py): bounded per message and per grading, whatever the jail writes."""

from __future__ import annotations

import time

import pytest

from faultlines.sandbox import proxies, wire
from faultlines.sandbox.exposure import Exposure
from faultlines.sandbox.served import Served

P = 2**61 - 1  # multiples of it all hash to 0


def _decode(value, deadline=None):
    return wire.decode(value, lambda v, d: None, 0, wire.Budget(deadline, time.monotonic))


def test_set_members_and_dict_keys_built_to_collide_are_refused_in_a_moment():
    colliding = [k * P for k in range(1, 200_001)]
    for message in (["s", *colliding], ["d", *[x for k in colliding for x in (k, 0)]], ["f", *colliding]):
        started = time.monotonic()
        with pytest.raises(wire.WireError, match="share a hash"):
            _decode(message)
        assert time.monotonic() - started < 5
    assert _decode(["s", *range(200_000)]) == set(range(200_000))  # honest members: all decoded
    assert _decode(["s", 1, 1.0, True, -1, -2]) == {1, -1, -2}


def test_the_deadline_runs_while_the_judge_decodes_and_values_are_counted():
    with pytest.raises(wire.OutOfTime):
        _decode(["l", *[["l", i] for i in range(100_000)]], deadline=time.monotonic() - 1)
    with pytest.raises(wire.WireError, match="more than"):
        wire.decode(["l", *range(1000)], lambda v, d: None, 0, wire.Budget(None, time.monotonic, items=999))


def test_what_the_jails_objects_cost_the_judge_is_capped_per_grading():
    made = proxies.Made()
    for i in range(proxies.MAX_TYPE_NAMES):
        made.object_class(f"T{i}", False)
    assert made.object_class("T0", False) is made.object_class("T0", False)
    with pytest.raises(wire.WireError, match="type names"):
        made.object_class("OneMore", False)
    for i in range(proxies.MAX_EXCEPTION_CLASSES):
        made.exception_class("m", f"E{i}", ["ValueError"])
    with pytest.raises(wire.WireError, match="kinds of exception"):
        made.exception_class("m", "OneMore", ["ValueError"])
    made.stand_ins = proxies.MAX_STAND_INS
    with pytest.raises(wire.WireError, match="of its objects"):
        made.one()
    assert proxies.Made().object_class("x" * 500, True).__name__ == "object"  # a name past 100 chars


class _Bridge(Served):
    def __init__(self, handed: list) -> None:
        super().__init__(Exposure("nothing"))
        self.handed = handed

    def handed_over(self, obj) -> bool:
        return any(obj is h for h in self.handed)


def test_only_a_function_handed_over_is_called_and_only_the_tables_calls_are_answered():
    def given(x):
        return x + 1

    served = _Bridge([given])
    assert served.ops["call"](given, [1], {}) == 2
    with pytest.raises(TypeError, match="not a function the exercise handed over"):
        served.ops["call"](time.sleep, [0], {})
    for name in ("sim.kill_node", "__import__", "util.state.list_workers", "observe.trace.finish"):
        with pytest.raises(AttributeError, match="has no"):
            served.ops["api"](name, [], {})
    with pytest.raises(AttributeError, match="not a clock"):
        served.ops["local"]("os.system", ["true"])
    with pytest.raises(TypeError, match="takes plain data"):
        served.ops["local"]("time.sleep", [object()])
