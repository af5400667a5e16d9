"""fault12 checks: read a run's timeline and memory summary, and name what went wrong.

Each scenario runs a small job generated from its seed (random.Random(seed), so the same seed
gives the same run and another seed another one): map tasks named map-0..map-4 of which one is
a straggler, a few large objects the driver puts until the store spills, and helper tasks
(decode, resize, tokenize) whose outputs the driver drops, except one kind it keeps in a list
after they are used: the leak. The learner's `diagnose(timeline, memory)` gets what a learner
would open, miniray's Chrome-trace timeline (a list of event dicts) and `ray memory`'s rows.

The classes the statement names, and where each is drawn: a straggler that starts with the
others or queued behind them, and that finishes last (seed 1) or before a map submitted late
(seeds 2, 5, 7); a long task that is slow by design (prefetch); spilled and in-memory objects of
several sizes; a leak by each helper kind, one to three objects of it.
"""

from __future__ import annotations

import random
import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Checks
from miniray.observe import Blob
from miniray.util import state

checks = Checks()
GB = 10**9
MAPS = 5
KINDS = ("decode", "resize", "tokenize")
SEEDS = (1, 2, 5, 7)  # their stragglers are map-1, map-0, map-4, map-2: no one answer fits two


def _job(seed: int) -> dict:
    """Run seed's job on the current cluster; return the truth the answers are graded against."""
    rng = random.Random(seed)
    slow = rng.randrange(MAPS)

    @ray.remote
    def map_part(i: int, seconds: float) -> int:
        time.sleep(seconds)
        return i

    @ray.remote
    def helper(i: int, nbytes: int) -> Blob:
        time.sleep(0.2)
        return Blob(nbytes, f"helper-{i}")

    @ray.remote
    def use(block: Blob) -> int:
        return block.nbytes

    @ray.remote
    def prefetch(seconds: float) -> int:
        time.sleep(seconds)  # a long background task: long on purpose, not a straggler
        return 0

    # A few small settings first, so the later objects' ids differ from seed to seed.
    blobs = [ray.put({"setting": i}) for i in range(rng.randint(1, 4))]
    background = prefetch.remote(9.0)
    seconds = [(6.0 + rng.random()) if i == slow else (1.0 + rng.random() / 2) for i in range(MAPS)]
    # In most seeds one quick map is submitted late (its input arrived late): it starts after the
    # straggler and finishes last, so "the last to finish" is not "the straggler". Drawn from a
    # generator of its own, so the rest of the seed's job is what it was.
    later = random.Random(seed * 7919)
    others = [i for i in range(MAPS) if i != slow]
    late = others[later.randrange(len(others))] if later.random() < 0.6 else None
    maps = [map_part.options(name=f"map-{i}").remote(i, seconds[i]) for i in range(MAPS) if i != late]
    if late is not None:
        time.sleep(seconds[slow])
        maps.append(map_part.options(name=f"map-{late}").remote(late, seconds[late]))
    ray.get(maps)
    ray.get(background)
    del maps, background
    leaky = rng.choice(KINDS)
    held = []
    calls = [kind for kind in KINDS for _ in range(rng.randint(1, 3))]
    rng.shuffle(calls)
    for i, kind in enumerate(calls):
        # The kept kind's first output is small (a thumbnail, say): Ray inlines it, so ray memory
        # shows it INLINED, held by the driver and not on disk.
        nbytes = SMALL_BYTES if kind == leaky and not held else 40_000_000
        ref = helper.options(name=kind).remote(i, nbytes)
        ray.get(use.remote(ref))
        if kind == leaky:
            held.append(ref)  # the leak: kept after its last use
        del ref
    # Blocks until the driver node's 2 GiB store spills the oldest objects.
    blobs += [ray.put(Blob(int(rng.uniform(0.8, 1.0) * GB), f"block-{i}")) for i in range(rng.randint(3, 4))]
    rows = state.memory()
    truth = {
        "straggler": f"map-{slow}",
        "spilled": sorted(r["object_id"] for r in rows if r["where"] == "SPILLED"),
        "leaked": leaky,
    }
    events = ray.timeline()
    report = {"timeline": events, "memory": [dict(r) for r in rows]}
    del held, blobs  # dropped in a fixed order, so every Python frees them alike
    return {"truth": truth, "report": report}


SMALL_BYTES = 2_000  # under Ray's 100 KiB inline limit


def _scenario(seed: int) -> Any:
    def scenario(sub: Any, ctx: Any) -> dict:
        ctx.cluster(workers=1, cpus_per_worker=4)
        run = _job(seed)
        try:
            answer = sub.diagnose(run["report"]["timeline"], run["report"]["memory"])
        except Exception as e:
            answer = {"error": f"{type(e).__name__}: {e}"}
        report = run["report"]
        return {
            "seed": seed,
            "truth": run["truth"],
            "answer": answer,
            "rows": report["memory"],
            "timeline": report["timeline"],
        }

    return scenario


for _seed in SEEDS:
    checks.scenario(f"seed-{_seed}")(_scenario(_seed))


def _answer(outcome: dict, key: str) -> tuple[Any, str | None, bool]:
    """(the answer for key, a problem, whether the problem is the whole answer's)."""
    answer = outcome["answer"]
    if not isinstance(answer, dict):
        return None, f"seed {outcome['seed']}: diagnose returned {answer!r}; expected a dict", True
    if "error" in answer:
        return None, f"seed {outcome['seed']}: diagnose raised {answer['error']}", True
    if key not in answer:
        return None, f"seed {outcome['seed']}: diagnose's dict has no {key!r} key", False
    return answer[key], None, False


@checks.invariant("straggler-named")
def straggler(outcome: dict, ctx: Any) -> str | None:
    """answer["straggler"] names the map task far slower than its siblings: the longest map bar."""
    got, problem, _ = _answer(outcome, "straggler")
    if problem:
        return problem
    want = outcome["truth"]["straggler"]
    return (
        None if got == want else f"seed {outcome['seed']}: straggler {got!r}, but the straggler was {want!r}"
    )


@checks.invariant("spill-named")
def spill(outcome: dict, ctx: Any) -> str | None:
    """answer["spilled"] lists the id of every object ray memory shows as SPILLED, and no other."""
    got, problem, whole = _answer(outcome, "spilled")
    if problem:
        return (
            None if whole else problem
        )  # a broken answer as a whole: straggler-named says so  # straggler-named already reports a missing or broken answer
    want = outcome["truth"]["spilled"]
    if isinstance(got, str):
        got = [got]
    if isinstance(got, list | tuple | set) and sorted(got) == want:
        return None
    return f"seed {outcome['seed']}: spilled {got!r}, but the spilled object(s) were {want}"


@checks.invariant("leak-named")
def leak(outcome: dict, ctx: Any) -> str | None:
    """answer["leaked"] names the helper whose outputs the driver still holds after using them."""
    got, problem, whole = _answer(outcome, "leaked")
    if problem:
        return None if whole else problem  # a broken answer as a whole: straggler-named says so
    want = outcome["truth"]["leaked"]
    if got == want:
        return None
    return f"seed {outcome['seed']}: leaked {got!r}, but the references the driver kept were made by {want!r}"


def _named(outcome: Any, key: str) -> Any:
    answer = (outcome or {}).get("answer")
    return answer.get(key) if isinstance(answer, dict) else None


@checks.evidence_for("named-a-map-task")
def named_a_map_task(outcome: Any, ctx: Any) -> bool:
    """The straggler answer is one of the map tasks (the wrong one): the sibling comparison is off."""
    got = _named(outcome, "straggler")
    return isinstance(got, str) and got.startswith("map-")


@checks.evidence_for("named-the-biggest")
def named_the_biggest(outcome: Any, ctx: Any) -> bool:
    """The spilled answer holds the biggest object(s) of ray memory, not the SPILLED ones."""
    got = _named(outcome, "spilled")
    got = [got] if isinstance(got, str) else got
    rows = (outcome or {}).get("rows", [])
    if not isinstance(got, list | tuple | set) or not got or not rows:
        return False
    biggest = sorted(rows, key=lambda r: -r["object_size"])[: len(got)]
    return set(got) == {r["object_id"] for r in biggest}


@checks.evidence_for("named-a-put-or-the-most-rows")
def named_a_put(outcome: Any, ctx: Any) -> bool:
    """The leaked answer is the call site with the most live objects, or the driver's own puts."""
    got = _named(outcome, "leaked")
    rows = (outcome or {}).get("rows", [])
    sites = [r["call_site"].split(" (")[0] for r in rows]
    most = max(sites.count(site) for site in sites) if sites else 0
    return isinstance(got, str) and (got.startswith("(put") or (got in sites and sites.count(got) == most))


def _slices(outcome: Any) -> list[dict]:
    return [e for e in (outcome or {}).get("timeline", []) if e.get("ph") == "X"]


@checks.evidence_for("named-a-slow-non-map")
def named_a_slow_non_map(outcome: Any, ctx: Any) -> bool:
    got = _named(outcome, "straggler")
    return (
        isinstance(got, str)
        and not got.startswith("map-")
        and any(e["name"] == got for e in _slices(outcome))
    )


@checks.evidence_for("named-more-than-the-spilled")
def named_more_than_the_spilled(outcome: Any, ctx: Any) -> bool:
    """Every spilled object is named, and some that are not spilled too."""
    got = _named(outcome, "spilled")
    got = [got] if isinstance(got, str) else got
    want = set((outcome or {}).get("truth", {}).get("spilled", []))
    return isinstance(got, list | tuple | set) and want < set(got)


@checks.evidence_for("named-the-most-called")
def named_the_most_called(outcome: Any, ctx: Any) -> bool:
    """The leaked answer is the helper with the most task bars in the timeline, which is not the leak."""
    got = _named(outcome, "leaked")
    names = [e["name"] for e in _slices(outcome) if e["name"] in KINDS]
    return bool(names) and got in names and names.count(got) == max(names.count(k) for k in KINDS)
