"""External effects: stamped with time and attempt, repeated by retries, fenced against zombies."""

import time

import pytest

import miniray
from miniray import sim
from miniray.liveness.services import (
    DestinationExistsError,
    DuplicateKeyError,
    LeaseHeldError,
    Services,
    StaleTokenError,
)


def test_effect_logged_before_a_crash_is_repeated_by_the_retry(ray):
    svc = Services()

    @ray.remote(max_retries=1)
    def pay():
        svc.db.upsert("payments", "order-7", 100)
        return "paid"

    sim.crash("pay#1/1", step=1)  # after its one effect, before the result is returned
    assert ray.get(pay.remote()) == "paid"
    effects = svc.of(service="db", key="payments/order-7")
    assert [(e.attempt, e.outcome) for e in effects] == [("pay#1/1", "ok"), ("pay#1/2", "ok")]
    exit_time = next(r.time for r in sim.event_log() if r.kind == "worker.exit")
    assert effects[0].time <= exit_time  # the effect happened, then the attempt died
    assert any(r.kind == "effect" and r["attempt"] == "pay#1/1" for r in sim.event_log())


def test_unique_key_turns_the_retry_into_a_duplicate_error(ray):
    svc = Services()

    @ray.remote(max_retries=1)
    def pay():
        svc.db.insert("payments", "order-7", 100)
        return "paid"

    sim.crash("pay#1/1", step=1)
    with pytest.raises(DuplicateKeyError, match="idempotent"):
        ray.get(pay.remote())
    assert [(e.attempt, e.outcome) for e in svc.of(key="payments/order-7")] == [
        ("pay#1/1", "ok"),
        ("pay#1/2", "DuplicateKeyError"),
    ]
    assert svc.db.rows("payments") == {"order-7": 100}


def test_replay_does_not_repeat_service_calls(ray):
    svc = Services()

    @ray.remote
    def steps():
        svc.db.insert("t", "a", 1)
        time.sleep(5)  # overlapped by the other task: this body unwinds and replays
        svc.db.insert("t", "b", 2)
        return svc.db.get("t", "a")

    @ray.remote
    def other():
        time.sleep(3)

    refs = [steps.remote(), other.remote()]
    assert ray.get(refs[0]) == 1
    assert [(e.op, e.key) for e in svc.effects] == [("insert", "t/a"), ("insert", "t/b")]


def test_exclusive_commit_first_to_finish_claims_the_destination(ray):
    svc = Services()

    @ray.remote
    def attempt(name, seconds):
        svc.blobs.put(f"tmp/{name}", f"output of {name}")
        time.sleep(seconds)
        return svc.blobs.commit(f"tmp/{name}", "out/part-0")

    slow, fast = attempt.remote("slow", 9), attempt.remote("fast", 4)
    assert ray.get([slow, fast]) == [False, True]
    assert svc.blobs.files == {"out/part-0": "output of fast"}
    renames = svc.of(op="rename")
    assert [(e.time, e.outcome) for e in renames] == [(4, "ok"), (9, "DestinationExistsError")]
    with pytest.raises(DestinationExistsError, match="committed first"):
        svc.blobs.rename("out/part-0", "out/part-0")


def test_zombie_writer_with_a_stale_token_is_rejected(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)
    live_cluster.add_node(num_cpus=1)
    svc = Services()

    @miniray.remote
    def writer():
        token = svc.leases.acquire("shard-7", ttl_s=10)
        svc.db.upsert("owner", "shard-7", token.value, token=token)  # show the store our token early
        time.sleep(20)
        svc.db.upsert("result", "shard-7", token.value, token=token)
        return token.value

    ref = writer.remote()
    sim.pause_node(n1, 30.0, at=2)  # presumed dead at 15; resumes at 32 as a zombie
    assert miniray.get(ref) == 2
    sim.sleep(10)
    rejected = svc.of(outcome="StaleTokenError")
    assert [(e.attempt, e.time, e.token) for e in rejected] == [("writer#1/1", 32, "shard-7:1")]
    assert svc.db.rows("result") == {"shard-7": 2}
    zombie = [r for r in sim.event_log() if r.kind == "liveness.zombie_finished"]
    assert zombie[0]["detail"] == "StaleTokenError"


def test_without_fencing_the_zombie_overwrites(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)
    live_cluster.add_node(num_cpus=1)
    svc = Services()

    @miniray.remote
    def writer():
        svc.leases.acquire("shard-7", ttl_s=10)
        time.sleep(20)
        svc.db.upsert("result", "shard-7", sim.now())
        return "done"

    ref = writer.remote()
    sim.pause_node(n1, 30.0, at=2)
    miniray.get(ref)  # the retry writes at 36
    sim.sleep(10)
    writes = [(e.attempt, e.time) for e in svc.of(op="upsert")]
    assert writes == [("writer#1/1", 32), ("writer#1/2", 36)]  # both landed: two writers


def test_lease_is_exclusive_until_it_expires(ray):
    svc = Services()
    token = svc.leases.acquire("lock", ttl_s=10)
    assert (token.value, token.holder) == (1, "driver")

    @ray.remote
    def grab():
        return svc.leases.acquire("lock", ttl_s=10).value

    with pytest.raises(LeaseHeldError, match="held by driver"):
        ray.get(grab.remote())
    sim.sleep(11)
    assert ray.get(grab.remote()) == 2
    svc.db.upsert("t", "k", 2, token=svc.leases.current["lock"])  # the store sees token 2
    with pytest.raises(StaleTokenError, match="older than"):
        svc.db.upsert("t", "k", 1, token=token)


def test_exclusive_commit_makes_the_zombie_duplicate_harmless(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)
    live_cluster.add_node(num_cpus=1)
    svc = Services()

    @miniray.remote
    def part():
        from miniray import context

        me = context.current()._current[-1].key  # each attempt writes to a private location
        svc.blobs.put(f"tmp/{me}", f"rows from {me}")
        time.sleep(20)
        return svc.blobs.commit(f"tmp/{me}", "out/part-0")

    ref = part.remote()
    sim.pause_node(n1, 30.0, at=2)
    claimed = miniray.get(ref)  # the retry's answer: it finished at 36
    sim.sleep(10)
    # The zombie resumed at 32 and finished first, so it claimed the destination; the retry
    # lost the race and discarded its output. One copy either way: the duplicate was harmless.
    assert claimed is False
    assert svc.blobs.files == {"out/part-0": "rows from part#1/1"}
    assert [(e.attempt, e.time, e.outcome) for e in svc.of(op="rename")] == [
        ("part#1/1", 32, "ok"),
        ("part#1/2", 36, "DestinationExistsError"),
    ]


def test_presumed_death_without_retries_fails_the_task_but_the_zombie_still_writes(live_cluster):
    n1 = live_cluster.add_node(num_cpus=1)
    svc = Services()

    @miniray.remote(max_retries=0)
    def charge():
        time.sleep(20)
        svc.db.upsert("charges", "card-1", 5)

    ref = charge.remote()
    sim.pause_node(n1, 30.0, at=2)
    with pytest.raises(miniray.exceptions.NodeDiedError):
        miniray.get(ref)  # at 15 s: the caller is told the work died...
    sim.sleep(20)
    assert [(e.attempt, e.time) for e in svc.effects] == [("charge#1/1", 32)]  # ...and it happened


def test_lease_renewal_keeps_the_token(ray):
    svc = Services()
    first = svc.leases.acquire("lock", ttl_s=10)
    sim.sleep(5)
    again = svc.leases.acquire("lock", ttl_s=10)
    assert (first.value, again.value, again.expires) == (1, 1, 15)


def test_service_errors_and_states_are_exported():
    from miniray import liveness
    from miniray.liveness import services

    for name in (
        "ServiceError",
        "DuplicateKeyError",
        "StaleTokenError",
        "LeaseHeldError",
        "DestinationExistsError",
    ):
        assert getattr(liveness, name) is getattr(services, name)
        assert issubclass(getattr(liveness, name), liveness.ServiceError)
        assert name in liveness.__all__
    assert [s.value for s in liveness.NodeHealthState] == ["ALIVE", "SUSPECT", "DEAD"]
