"""Hints whose evidence is specific (issue 30): each hint below fires for its own mistake (the
catalogue's wrong solutions, tests/unit/test_exercises.py) and not for a solution written here
with a different mistake that breaks the same invariant."""

from __future__ import annotations

from pathlib import Path

from grader_support import grade_source

REPO = Path(__file__).resolve().parents[2]

FAULT10_KEEPS_A_FIRST_LIFE_MEMBER_OUT = (
    "def should_promote(shard, refit):\n"
    "    if shard['index'] == 3 and shard['incarnation'] == 0:\n"
    "        return False  # shard 3 is a canary: it waits for the next refit\n"
    "    return (shard['index'], shard['incarnation']) in refit['group']\n"
)
FAULT10_BY_TIME_WRITTEN_ANOTHER_WAY = (
    "def should_promote(shard, refit):\n"
    "    waited = refit['started'] - shard['stale_since']\n"
    "    return waited >= 0\n"
)


def _hint(ex_id: str, source: str) -> tuple[str, str]:
    failure = grade_source(ex_id, source).first_failure
    assert failure is not None and failure.hint is not None
    return failure.invariant, failure.hint.id


def test_fault10_keeping_out_a_member_in_its_first_life_is_not_refusing_restarted_shards():
    invariant, hint = _hint("fault10", FAULT10_KEEPS_A_FIRST_LIFE_MEMBER_OUT)
    assert invariant == "refitted-shard-serves" and hint != "refuses-restarted"


def test_fault10_promoting_by_time_is_caught_by_the_fixed_retry_and_named():
    assert _hint("fault10", FAULT10_BY_TIME_WRITTEN_ANOTHER_WAY) == (
        "missed-refit-never-serves",
        "promotes-by-time",
    )


FAULT01_COUNTER_IN_A_CLASS_ATTRIBUTE = (
    "import time\n"
    "import miniray as ray\n"
    "from miniray.exceptions import NodeDiedError, WorkerCrashedError\n"
    "class Budget:\n"
    "    used = 0\n"
    "def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):\n"
    "    delay = base_delay_s\n"
    "    while True:\n"
    "        Budget.used += 1\n"
    "        try:\n"
    "            value = ray.get(submit())\n"
    "        except (ConnectionError, TimeoutError, WorkerCrashedError, NodeDiedError):\n"
    "            if Budget.used >= max_attempts:\n"
    "                raise\n"
    "            time.sleep(delay)\n"
    "            delay *= 2\n"
    "            continue\n"
    "        Budget.used = 0\n"
    "        return value\n"
)
FAULT01_NO_RETRY = (
    "import miniray as ray\n"
    "def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):\n"
    "    return ray.get(submit())\n"
)


def test_fault01_an_attempt_count_kept_between_calls_is_named_however_it_is_kept():
    assert _hint("fault01", FAULT01_COUNTER_IN_A_CLASS_ATTRIBUTE) == (
        "returns-the-result",
        "state-kept-between-calls",
    )


def test_fault01_never_retrying_is_not_state_kept_between_calls():
    assert _hint("fault01", FAULT01_NO_RETRY)[1] != "state-kept-between-calls"


_FAULT04_INTERVAL = (
    "import math\n"
    "def choose_interval(mtbf_s, checkpoint_s, step_s):\n"
    "    return max(1, round(math.sqrt(2 * checkpoint_s * mtbf_s) / step_s))\n"
)
FAULT04_ONE_MORE_CHECKPOINT_AT_THE_END = _FAULT04_INTERVAL + (
    "def train(ckpt, steps, interval, do_step):\n"
    "    saved = ckpt.load()\n"
    "    step, weights = saved if saved is not None else (0, 1)\n"
    "    for step in range(step, steps):\n"
    "        weights = do_step(step, weights)\n"
    "        if (step + 1) % interval == 0:\n"
    "            ckpt.save(step + 1, weights)\n"
    "    return weights\n"
)
FAULT04_EVERY_STEP = _FAULT04_INTERVAL + (
    "def train(ckpt, steps, interval, do_step):\n"
    "    saved = ckpt.load()\n"
    "    step, weights = saved if saved is not None else (0, 1)\n"
    "    while step < steps:\n"
    "        weights = do_step(step, weights)\n"
    "        step += 1\n"
    "        ckpt.save(step, weights)\n"
    "    return weights\n"
)
FAULT04_CACHED_ON_A_CLASS = _FAULT04_INTERVAL + (
    "class Cache:\n"
    "    last = None\n"
    "def train(ckpt, steps, interval, do_step):\n"
    "    saved = Cache.last or ckpt.load()\n"
    "    step, weights = saved if saved is not None else (0, 1)\n"
    "    while step < steps:\n"
    "        weights = do_step(step, weights)\n"
    "        step += 1\n"
    "        if step % interval == 0 and step < steps:\n"
    "            ckpt.save(step, weights)\n"
    "            Cache.last = (step, weights)\n"
    "    return weights\n"
)
FAULT04_NEVER_RESUMES = _FAULT04_INTERVAL + (
    "def train(ckpt, steps, interval, do_step):\n"
    "    weights = 1\n"
    "    for step in range(steps):\n"
    "        weights = do_step(step, weights)\n"
    "        if (step + 1) % interval == 0 and step + 1 < steps:\n"
    "            ckpt.save(step + 1, weights)\n"
    "    return weights\n"
)


def test_fault04_one_checkpoint_after_the_last_step_is_named_and_every_step_is_not_it():
    assert _hint("fault04", FAULT04_ONE_MORE_CHECKPOINT_AT_THE_END) == (
        "checkpoint-overhead",
        "saved-after-the-last-step",
    )
    assert _hint("fault04", FAULT04_EVERY_STEP) == ("checkpoint-overhead", "too-often")


def test_fault04_a_checkpoint_kept_in_the_process_is_named_and_never_resuming_is_not_it():
    assert _hint("fault04", FAULT04_CACHED_ON_A_CLASS) == (
        "finishes-with-the-right-weights",
        "checkpoint-kept-in-the-process",
    )
    assert _hint("fault04", FAULT04_NEVER_RESUMES)[1] != "checkpoint-kept-in-the-process"


FAULT02_RESTORED_IN_ADD = (
    "import miniray as ray\n"
    "def make_tally(store):\n"
    "    @ray.remote(max_restarts=-1, max_task_retries=-1)\n"
    "    class Tally:\n"
    "        def __init__(self):\n"
    "            self.state = None\n"
    "        def add(self, seq, amount):\n"
    "            if self.state is None:\n"
    "                self.state = store.load() or (0, 0)\n"
    "            total, last = self.state\n"
    "            if seq > last:\n"
    "                self.state = (total + amount, seq)\n"
    "                store.save(self.state)\n"
    "        def total(self):\n"
    "            return (self.state or (0, 0))[0]\n"
    "    return Tally\n"
)
FAULT02_SAVED_BEFORE_THE_CHANGE = (
    "import miniray as ray\n"
    "def make_tally(store):\n"
    "    @ray.remote(max_restarts=-1, max_task_retries=-1)\n"
    "    class Tally:\n"
    "        def __init__(self):\n"
    "            self.sum, self.last = store.load() or (0, 0)\n"
    "        def add(self, seq, amount):\n"
    "            if seq <= self.last:\n"
    "                return\n"
    "            store.save((self.sum, self.last))\n"
    "            self.sum += amount\n"
    "            self.last = seq\n"
    "        def total(self):\n"
    "            return self.sum\n"
    "    return Tally\n"
)


def test_fault02_restoring_in_add_only_is_named_and_not_a_checkpoint_behind():
    assert _hint("fault02", FAULT02_RESTORED_IN_ADD) == ("total-exact", "restored-too-late")


def test_fault02_a_checkpoint_saved_before_the_change_is_not_restored_too_late():
    assert _hint("fault02", FAULT02_SAVED_BEFORE_THE_CHANGE) == ("total-exact", "checkpoint-behind")


FAULT09_LIFETIME_UNDER_THREE = (
    "def make_policy():\n"
    "    def policy(pg, now):\n"
    "        if pg.state != 'RESCHEDULING':\n"
    "            return 'backoff'\n"
    "        return 'front' if pg.scheduling_attempt < 3 else 'backoff'\n"
    "    return policy\n"
)
FAULT09_ONE_COUNT_PER_INSTANT = (
    "def make_policy():\n"
    "    spent = {}\n"
    "    def policy(pg, now):\n"
    "        if pg.state != 'RESCHEDULING':\n"
    "            return 'backoff'\n"
    "        spent[pg.recovering_since] = spent.get(pg.recovering_since, 0) + 1\n"
    "        return 'front' if spent[pg.recovering_since] <= 2 else 'backoff'\n"
    "    return policy\n"
)


def test_fault09_a_lifetime_count_is_named_though_its_answers_match_a_shared_budget():
    assert _hint("fault09", FAULT09_LIFETIME_UNDER_THREE) == (
        "recovery-priority-bounded",
        "lifetime-attempts",
    )


def test_fault09_a_budget_shared_by_the_instant_is_still_shared_budget():
    assert _hint("fault09", FAULT09_ONE_COUNT_PER_INSTANT) == ("recovery-priority-bounded", "shared-budget")


def test_fault09_the_starters_hot_loop_is_the_due_group_starving_not_a_step_budget():
    invariant, hint = _hint("fault09", (REPO / "exercises/fault09/starter.py").read_text())
    assert (invariant, hint) == ("no-due-group-starves", "hot-loop")


def test_fault09_the_check_stops_the_hot_loop_long_before_the_step_budget():
    """The starter's run ends after HOT_LOOP fronts of one recovery, not after the ~1000 answers
    its step budget allowed (four such runs were most of a first check's time)."""
    from faultlines.grader import exercise, grade, submission

    ex = exercise.load("fault09")
    source = (REPO / "exercises/fault09/starter.py").read_text()
    sub = submission.from_source(source, "starter.py", ex.entry, ex.line_budget)
    outcome = grade.Runs(ex, sub)("one-node-loss", ())
    hot_loop = ex.checks.scenarios["one-node-loss"].__globals__["HOT_LOOP"]
    assert [v[0] for v in outcome.violations] == ["no-due-group-starves"]
    assert f"front {hot_loop} times in a row" in outcome.violations[0][1]
    assert outcome.lines < 3 * hot_loop < ex.line_budget  # one statement per answer, R and S taking turns


FAULT09_BOUND_SIXTY = (
    "def make_policy():\n"
    "    seen = {}\n"
    "    def policy(pg, now):\n"
    "        if pg.state != 'RESCHEDULING':\n"
    "            return 'backoff'\n"
    "        key = (pg.name, pg.recovering_since)\n"
    "        seen[key] = seen.get(key, 0) + 1\n"
    "        return 'front' if seen[key] < 60 else 'backoff'\n"
    "    return policy\n"
)


def test_fault09_a_bound_past_where_the_check_stops_is_the_same_hot_loop():
    assert _hint("fault09", FAULT09_BOUND_SIXTY) == ("no-due-group-starves", "hot-loop")


def test_a_loop_of_the_learners_own_is_still_the_step_budget():
    source = "def make_policy():\n    def policy(pg, now):\n        while True:\n            pass\n    return policy\n"
    assert _hint("fault09", source)[0] == "step-budget"


FAULT14_LOOKS_ONCE_AT_THE_START = (
    "import miniray as ray\n"
    "def train(ckpt, steps, interval, do_step):\n"
    "    saved = ckpt.load()\n"
    "    done, weights = saved if saved is not None else (0, 1)\n"
    "    if ray.get_runtime_context().get_node_id() in ray._private.state.state.get_draining_nodes():\n"
    "        return None\n"
    "    while done < steps:\n"
    "        weights = do_step(done, weights)\n"
    "        done += 1\n"
    "        if done % interval == 0 and done < steps:\n"
    "            ckpt.save(done, weights)\n"
    "    return weights\n"
)
FAULT14_SAVES_EVERY_STEP_WHILE_DRAINING = (
    "import miniray as ray\n"
    "def train(ckpt, steps, interval, do_step):\n"
    "    saved = ckpt.load()\n"
    "    done, weights = saved if saved is not None else (0, 1)\n"
    "    me = ray.get_runtime_context().get_node_id()\n"
    "    while done < steps:\n"
    "        weights = do_step(done, weights)\n"
    "        done += 1\n"
    "        draining = me in ray._private.state.state.get_draining_nodes()\n"
    "        if done < steps and (draining or done % interval == 0):\n"
    "            ckpt.save(done, weights)\n"
    "    return weights\n"
)


def test_fault14_a_job_that_looked_once_read_the_table_too_rarely_it_did_not_ignore_it():
    assert _hint("fault14", FAULT14_LOOKS_ONCE_AT_THE_START) == (
        "loses-nothing-to-a-notice",
        "checked-too-rarely",
    )


def test_fault14_saving_on_every_step_while_draining_went_on_training_it_did_not_just_wait():
    assert _hint("fault14", FAULT14_SAVES_EVERY_STEP_WHILE_DRAINING) == (
        "loses-nothing-to-a-notice",
        "saved-and-stayed",
    )
