"""miniray's table of what a learner's program may ask (miniray/api_surface.py), which the
course's grader answers its jail from: every entry is what it says it is."""

from __future__ import annotations

import inspect

import pytest

import miniray
from miniray import api_surface
from miniray.api_surface import ANY, OPERATIONS, PLAIN, REFS, SHIPPED
from miniray.body_ends import BODY_ENDS


def test_every_operation_declares_parameters_its_function_has():
    for name, op in OPERATIONS.items():
        params = inspect.signature(op.fn).parameters
        assert set(op.params) <= set(params), name
        assert op.writes == "" or op.writes in params, name
        assert name.rsplit(".", 1)[-1] == op.name, name


def test_a_shipped_name_is_a_class_or_a_tuple_of_classes_never_a_function():
    plain = (type(None), bool, int, float, str)
    for name, value in SHIPPED.items():
        if isinstance(value, (tuple, frozenset)):
            assert all(isinstance(v, type) or type(v) in plain for v in value), name
        else:
            assert isinstance(value, type), name
    assert SHIPPED["miniray.liveness:RETRYABLE"] is miniray.liveness.RETRYABLE
    assert SHIPPED["miniray.exceptions:NodeDiedError"] is miniray.exceptions.NodeDiedError


def test_bind_refuses_what_a_parameter_does_not_take_in_pythons_words():
    get, put, timeline = OPERATIONS["get"], OPERATIONS["put"], OPERATIONS["timeline"]
    assert get.bind([[1, 2]], {"timeout": 1.5}) == {"timeout": 1.5}  # plain data: miniray's to judge
    with pytest.raises(TypeError, match="argument 'object_refs' takes an ObjectRef"):
        get.bind([object()], {})
    with pytest.raises(TypeError, match="unexpected keyword argument '_owner'"):
        put.bind([1], {"_owner": object()})  # undeclared: never reaches the function
    with pytest.raises(TypeError, match="unexpected keyword argument 'filename'"):
        timeline.bind([], {"filename": "/etc/passwd"})  # the caller's process writes it, never miniray
    with pytest.raises(TypeError, match="takes 0 positional arguments but 1 were given"):
        timeline.bind(["/etc/passwd"], {})
    assert OPERATIONS["init"].bind([], {"num_cpus": 2, "some_ignored_flag": True}) == {"num_cpus": 2}


def test_what_an_argument_may_hold():
    class Other:
        pass

    ref_like = [1, "a", (None, b"x"), {"k": [2.5]}]
    assert PLAIN.admits(ref_like) and REFS.admits(ref_like) and ANY.admits(Other())
    assert not PLAIN.admits([1, {"k": Other()}]) and not REFS.admits({Other(): 1})


def test_the_ends_of_a_body_are_minirays_own_and_none_is_an_exception():
    assert all(issubclass(e, BaseException) and not issubclass(e, Exception) for e in BODY_ENDS)
    assert {e.__module__.split(".")[0] for e in BODY_ENDS} == {"miniray"}
    assert api_surface.ActorHandle.__name__ == "ActorHandle"
