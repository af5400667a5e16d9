"""Task retries: the rows of issue 2's table about worker death and application errors."""

import os

import pytest

from miniray import exceptions as E
from miniray import sim


def test_worker_death_default_retries_runs_four_times(ray, runs):
    @ray.remote
    def dies():
        runs.mark()
        os._exit(1)

    with pytest.raises(E.WorkerCrashedError):
        ray.get(dies.remote())
    assert runs["body"] == 4


@pytest.mark.parametrize("max_retries,expected", [(0, 1), (2, 3)])
def test_worker_death_with_max_retries(ray, runs, max_retries, expected):
    @ray.remote(max_retries=max_retries)
    def dies():
        runs.mark()
        os._exit(1)

    with pytest.raises(E.WorkerCrashedError):
        ray.get(dies.remote())
    assert runs["body"] == expected


def test_value_error_runs_once_and_is_both_classes(ray, runs):
    @ray.remote
    def bad():
        runs.mark()
        raise ValueError("the remote message")

    with pytest.raises(ValueError) as info:
        ray.get(bad.remote())
    err = info.value
    assert isinstance(err, E.RayTaskError) and isinstance(err, ValueError)
    assert type(err).__name__ == "RayTaskError(ValueError)"
    # Ray 2.60 shows the remote frames without a "Traceback (most recent call last):" header
    assert "the remote message" in str(err) and '  File "' in str(err)
    assert isinstance(err.cause, ValueError)
    assert runs["body"] == 1


@pytest.mark.parametrize(
    "opts,expected",
    [
        ({"retry_exceptions": True, "max_retries": 2}, 3),
        ({"retry_exceptions": True}, 4),
    ],
)
def test_retry_exceptions_true(ray, runs, opts, expected):
    @ray.remote(**opts)
    def bad():
        runs.mark()
        raise ValueError("again")

    with pytest.raises(ValueError):
        ray.get(bad.remote())
    assert runs["body"] == expected


@pytest.mark.parametrize("raised,expected", [(ValueError, 1), (ConnectionError, 4)])
def test_retry_exceptions_list(ray, runs, raised, expected):
    @ray.remote(retry_exceptions=[ConnectionError])
    def bad():
        runs.mark()
        raise raised("x")

    with pytest.raises(raised):
        ray.get(bad.remote())
    assert runs["body"] == expected


def test_consecutive_attempts_are_one_second_apart(ray):
    @ray.remote
    def dies():
        os._exit(1)

    with pytest.raises(E.WorkerCrashedError):
        ray.get(dies.remote())
    # Read from the log: a list the body appended to would be each worker process's own copy.
    starts = [r.time for r in sim.event_log() if r.kind == "task.start"]
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert gaps == [1.0, 1.0, 1.0]


def test_retry_that_succeeds_returns_the_value(ray, runs):
    @ray.remote(max_retries=2)
    def flaky():
        runs.mark()
        if runs["body"] < 3:
            os._exit(1)
        return "ok"

    assert ray.get(flaky.remote()) == "ok"
    assert runs["body"] == 3


def test_error_in_argument_propagates_without_running(ray, runs):
    @ray.remote
    def bad():
        raise KeyError("k")

    @ray.remote
    def consumer(x):
        runs.mark()
        return x

    with pytest.raises(KeyError):
        ray.get(consumer.remote(bad.remote()))
    assert runs["body"] == 0


def test_a_repeated_failure_shows_the_same_text_and_a_chained_one_shows_its_cause(ray):
    # The text of a task's traceback is cached per (exception, frames): two identical failures must
    # read the same, two messages must differ, and a chained exception keeps its "direct cause".
    @ray.remote(max_retries=0)
    def fails(n):
        if n == 2:
            try:
                raise KeyError("inner")
            except KeyError as inner:
                raise ValueError("outer") from inner
        raise ValueError(f"bad input {n}")

    texts = []
    for n in (1, 1, 3, 2):
        with pytest.raises(E.RayTaskError) as info:
            ray.get(fails.remote(n))
        texts.append(str(info.value))
    assert texts[0] == texts[1] and "bad input 1" in texts[0]
    assert "bad input 3" in texts[2] and texts[2] != texts[0]
    assert "KeyError: 'inner'" in texts[3] and "direct cause" in texts[3] and "ValueError: outer" in texts[3]
