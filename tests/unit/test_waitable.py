"""The waitable primitive: an event happens once, its waiters run in order, conditions count."""

from miniray.waitable import Condition, Event, all_of, any_of


def test_waiters_run_once_in_the_order_they_came_and_late_ones_at_once():
    seen = []
    ev = Event()
    ev.add(lambda e: seen.append(("a", e.value)))
    ev.add(lambda e: seen.append(("b", e.value)))
    assert seen == [] and not ev.triggered
    ev.succeed(7)
    ev.succeed(8)  # happens once: the second call changes nothing
    ev.add(lambda e: seen.append(("late", e.value)))
    assert seen == [("a", 7), ("b", 7), ("late", 7)]


def test_a_waiter_added_while_firing_waits_for_the_next_event():
    first, second, seen = Event(), Event(), []
    first.add(lambda e: second.add(lambda e2: seen.append(e2.value)))
    first.succeed(1)
    assert seen == []
    second.succeed(2)
    assert seen == [2]


def test_all_of_and_any_of_count_what_happened():
    a, b, c = Event(), Event(), Event()
    b.succeed()
    both, either = all_of([a, b]), any_of([a, c])
    assert not both.triggered and not either.triggered
    a.succeed()
    assert both.triggered and either.triggered
    assert all_of([]).triggered  # nothing to wait for
    assert not Condition([Event(), Event()], need=2).triggered
