"""fault08 checks: blame a node only for failures that implicate it, and stop using a bad one.

The harness plays the scheduler. It runs six records, one task each, pinned to a worker node
(round-robin over the nodes that are alive and not blacklisted), with Ray's retries off, and
tries a failed record on a node it has not
failed on yet, until it has failed on every node it may use. After every failed attempt it
asks the learner's `blacklist(failures, nodes)` which nodes to stop using.

One node is bad: every attempt there fails, with a connection reset, a worker death, a
timeout or a disk error, in turn. Four records are malformed: they raise the same ValueError,
KeyError, TypeError or IndexError on every node. The grader's own faults (crashes, a node loss)
add deaths on healthy nodes; two of them are not enough to make a healthy node look bad.

The classes the statement names, and where each is drawn: failures that implicate a node (a
death, a connection reset, a timeout, a disk's OSError: the bad node cycles through all four,
from a different start in each scenario); input errors (the four malformed records, IndexError
among them: "ValueError, KeyError, TypeError, ..."); and healthy nodes that fail now and then
without being bad: two worker deaths ("two-deaths-on-a-healthy-node"), a connection reset and a
timeout ("blips-on-a-healthy-node"), and the grader's crashes and node loss.
"""

from __future__ import annotations

import time
import types
from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks
from miniray import exceptions as rex
from miniray import sim
from miniray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

checks = Checks()
RECORDS = 8
MALFORMED = {0: ValueError, 3: KeyError, 5: TypeError, 6: IndexError}  # fail the same on every node
BAD_NODE = 2  # index of the node with the flaky network card
# What the bad node's attempts do, in turn; the second scenario starts the cycle elsewhere, so
# a policy that leaves out any one kind lets the bad node fail a fourth time in one of them.
BAD_FAILURES = ("reset", "death", "timeout", "io")
ATTEMPTS = 6  # a record is tried at most this often: on nodes it has not failed on, or after a death
THRESHOLD = 3  # the statement's rule: blacklist at three failures that implicate the node
FORBIDDEN = ("liveness", "attribution")  # miniray ships this policy; the learner writes their own


def _reaches_miniray_attribution(sub: Any) -> str | None:
    """The name through which the submission reaches miniray.liveness(.attribution), if it does."""
    seen: set[int] = set()

    def code_names(code: types.CodeType) -> set[str]:
        names = set(code.co_names)
        for const in code.co_consts:
            if isinstance(const, types.CodeType) and id(const) not in seen:
                seen.add(id(const))
                names |= code_names(const)
        return names

    for name, value in vars(sub).items():
        module = getattr(value, "__name__", "") if isinstance(value, types.ModuleType) else ""
        owner = getattr(value, "__module__", "") or ""
        if module.startswith("miniray.liveness") or str(owner).startswith("miniray.liveness"):
            return name
        code = getattr(value, "__code__", None)
        if isinstance(code, types.CodeType):
            hit = code_names(code) & set(FORBIDDEN)
            if hit:
                return f"{name} (uses {sorted(hit)[0]})"
    from miniray import liveness

    for name, value in vars(sub).items():
        if any(value is shipped for shipped in (liveness.RETRYABLE, liveness.TERMINAL)):
            return name
    return None


@checks.scenario("eight-records")
def eight_records(sub: Any, ctx: Any) -> dict:
    return _run(sub, ctx, bad_offset=0, healthy=())


@checks.scenario("two-deaths-on-a-healthy-node")
def two_deaths(sub: Any, ctx: Any) -> dict:
    """node 1 loses two workers (say, two out-of-memory kills): two deaths are not a pattern."""
    return _run(sub, ctx, bad_offset=3, healthy=("death", "death"))


@checks.scenario("blips-on-a-healthy-node")
def blips(sub: Any, ctx: Any) -> dict:
    """node 1's network blips twice (a reset, then a timeout): two failures are not a pattern."""
    return _run(sub, ctx, bad_offset=1, healthy=("reset", "timeout"))


def _run(sub: Any, ctx: Any, bad_offset: int, healthy: tuple[str, ...]) -> dict:
    """`healthy`: what the first attempts on node 1, a healthy node, do before it behaves."""
    healthy_failures = list(healthy)
    cluster = ctx.cluster(workers=3)
    names = [n.name for n in cluster.worker_nodes]
    ids = {n.name: n.node_id for n in cluster.worker_nodes}
    bad = names[BAD_NODE]
    outcome: dict[str, Any] = {"bad": bad, "names": names, "attempts": [], "done": {}, "given_up": {}}
    reached = _reaches_miniray_attribution(sub)
    if reached is not None:
        outcome["forbidden"] = reached
        return outcome

    @ray.remote(max_retries=0)
    def process(record: int, failure: str) -> int:
        # The bad node fails before the record is even read; a malformed record fails anywhere.
        if failure == "reset":
            raise ConnectionError("connection reset by peer")
        if failure == "timeout":
            time.sleep(0.5)
            raise TimeoutError("read timed out")
        if failure == "io":
            raise OSError("input/output error")
        time.sleep(1.0)  # a window for a worker death (and the grader's faults)
        if record in MALFORMED:
            raise MALFORMED[record](f"record {record} is malformed")
        return record

    failures: list[dict] = []
    blacklisted: set[str] = set()
    dead: set[str] = set()
    bad_attempts = 0
    turn = 0
    for record in range(RECORDS):
        tried: list[str] = []
        last_died = False  # the last attempt's worker died: the record itself may be fine
        while True:
            alive = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
            usable = [n for n in names if n not in blacklisted and n not in dead and ids[n] in alive]
            untried = [n for n in usable if n not in tried]
            # A node it has not failed on yet, while there is one; after a death, any node it may use.
            choices = untried or (usable if last_died else [])
            if not choices or len(tried) == ATTEMPTS:
                outcome["given_up"][record] = (
                    f"it failed {len(tried)} times, on {', '.join(sorted(set(tried)))}"
                    if usable
                    else "no node left to run it on"
                )
                break
            node = choices[turn % len(choices)]
            tried.append(node)
            turn += 1
            failure = "none"
            if node == bad:
                failure = BAD_FAILURES[(bad_offset + bad_attempts) % len(BAD_FAILURES)]
                bad_attempts += 1
            elif node == names[0] and healthy_failures:
                failure = healthy_failures.pop(0)
            strategy = NodeAffinitySchedulingStrategy(ids[node], soft=False)
            ref = process.options(scheduling_strategy=strategy).remote(record, failure)
            if failure == "death":
                sim.kill_worker(ids[node], at=sim.now() + 0.5)
            outcome["attempts"].append((record, node))
            try:
                ray.get(ref)
                outcome["done"][record] = node
                del ref
                break
            except (rex.WorkerCrashedError, rex.NodeDiedError) as e:
                entry = {"node": node, "record": record, "kind": "died", "error": type(e).__name__}
                last_died = True
                if isinstance(e, rex.NodeDiedError):
                    dead.add(node)
            except rex.RayTaskError as e:
                cause = getattr(e, "cause", None) or e
                entry = {"node": node, "record": record, "kind": "error", "error": type(cause).__name__}
                last_died = False
            del ref
            failures.append(entry)
            verdict = sub.blacklist([dict(f) for f in failures], list(names))
            blacklisted = set(verdict or ())
            outcome.setdefault("when", {})
            for n in blacklisted:
                outcome["when"].setdefault(n, len(failures))
    outcome["failures"] = failures
    outcome["blacklisted"] = sorted(blacklisted)
    outcome["dead"] = sorted(dead)
    outcome["probes"] = _probe(sub, names)
    return outcome


def _implicates(f: dict) -> bool:
    return f["kind"] == "died" or f["error"] in ("ConnectionError", "TimeoutError", "OSError")


def _describe(fs: list[dict]) -> str:
    return ", ".join(f"{f['error']} (record {f['record']})" for f in fs)


@checks.invariant("own-policy")
def own_policy(outcome: dict, ctx: Any) -> str | None:
    """The policy is yours: the submission does not reach miniray.liveness (miniray's own attribution)."""
    if "forbidden" in outcome:
        return (
            f"{outcome['forbidden']} reaches miniray.liveness.attribution; this exercise asks you to "
            "write the attribution policy yourself"
        )
    return None


@checks.invariant("healthy-node-not-blamed")
def healthy_not_blamed(outcome: dict, ctx: Any) -> list[Broken]:
    """A healthy node is never blacklisted: only failures that implicate a node count, and it takes three."""
    problems = []
    for node in outcome.get("blacklisted", []):
        if node == outcome["bad"] or node in outcome["dead"]:
            continue
        upto = outcome["failures"][: outcome["when"][node]]
        mine = [f for f in upto if f["node"] == node]
        why = (
            f"{node} is healthy but was blacklisted after {len(mine)} failure{'s' if len(mine) != 1 else ''}: "
            f"{_describe(mine) or 'none of its own'}"
        )
        problems.append(Broken(why, final=bool(mine)))  # blamed for failures Ray gave up on
    return problems


@checks.invariant("bad-node-blacklisted")
def bad_node_blacklisted(outcome: dict, ctx: Any) -> Broken | None:
    """The bad node is blacklisted as soon as three of its failures implicate it, and gets no work after."""
    if "failures" not in outcome:
        return None
    bad = outcome["bad"]
    if bad in outcome["dead"]:
        return None
    mine = [f for f in outcome["failures"] if f["node"] == bad and _implicates(f)]
    if len(mine) > THRESHOLD:
        return Broken(
            f"{bad} failed {len(mine)} attempts that implicate it ({_describe(mine)}) "
            f"and was still given work after the {THRESHOLD}rd",
            final=True,
        )
    if len(mine) == THRESHOLD and bad not in outcome["blacklisted"]:
        why = f"{bad} failed {THRESHOLD} attempts that implicate it ({_describe(mine)}) and was never blacklisted"
        return Broken(why, final=True)
    return None


@checks.invariant("every-good-record-done")
def every_good_record_done(outcome: dict, ctx: Any) -> list[Broken]:
    """Every well-formed record is processed on some node."""
    if "failures" not in outcome:
        return []
    return [  # a record Ray gave up on
        Broken(f"record {r} was never processed: {outcome['given_up'][r]}", final=True)
        for r in range(RECORDS)
        if r not in MALFORMED and r not in outcome["done"]
    ]


def _failure(kind: str, error: str) -> dict:
    return {"kind": kind, "error": error}


DIED = _failure("died", "WorkerCrashedError")
PROBES = {  # name -> (the failures a probe shows the policy, on node 0 unless it says "other")
    "died": [DIED] * 3,
    "ConnectionError": [_failure("error", "ConnectionError")] * 3,
    "TimeoutError": [_failure("error", "TimeoutError")] * 3,
    "OSError": [_failure("error", "OSError")] * 3,
    **{e.__name__: [_failure("error", e.__name__)] * 3 for e in MALFORMED.values()},
    "two deaths": [DIED] * 2,
    "one blip": [_failure("error", "ConnectionError")],
    # three deaths long ago, then a run of input errors elsewhere: still three that implicate it
    "old deaths": [DIED] * 3 + [{**_failure("error", "ValueError"), "other": True}] * 8,
}


def _probe(sub: Any, names: list[str]) -> dict[str, bool | None]:
    """After the run, the policy's answer to a few histories: which kinds it counts, and
    whether two deaths or one blip are enough. The evidence behind the hints: the run alone often
    cannot tell which kind a policy leaves out (they can fail the same attempts)."""
    answers: dict[str, bool | None] = {}
    for name, kinds in PROBES.items():
        failures = [
            {
                "node": names[1] if f.get("other") else names[0],
                "record": i,
                "kind": f["kind"],
                "error": f["error"],
            }
            for i, f in enumerate(kinds)
        ]
        try:
            answers[name] = names[0] in set(sub.blacklist(failures, list(names)) or ())
        except Exception:
            answers[name] = None
    return answers


@checks.evidence_for("deaths-not-counted")
def deaths_not_counted(outcome: Any, ctx: Any) -> bool:
    return bool(outcome) and outcome.get("probes", {}).get("died") is False


@checks.evidence_for("a-system-error-not-counted")
def system_error_not_counted(outcome: Any, ctx: Any) -> bool:
    probes = (outcome or {}).get("probes", {})
    return any(probes.get(e) is False for e in ("ConnectionError", "TimeoutError", "OSError"))


@checks.evidence_for("threshold-two")
def threshold_two(outcome: Any, ctx: Any) -> bool:
    probes = (outcome or {}).get("probes", {})
    return probes.get("two deaths") is True and probes.get("one blip") is not True


@checks.evidence_for("one-failure-enough")
def one_failure_enough(outcome: Any, ctx: Any) -> bool:
    return (outcome or {}).get("probes", {}).get("one blip") is True


@checks.evidence_for("an-input-error-counted")
def input_error_counted(outcome: Any, ctx: Any) -> bool:
    probes = (outcome or {}).get("probes", {})
    return any(probes.get(e.__name__) is True for e in MALFORMED.values())


@checks.evidence_for("forgets-old-failures")
def forgets_old_failures(outcome: Any, ctx: Any) -> bool:
    """Three deaths blacklist a node, but not once later failures elsewhere pile up after them."""
    probes = (outcome or {}).get("probes", {})
    return probes.get("died") is True and probes.get("old deaths") is False
