"""Lesson 3's opening story, as a plain Ray script: a worker node made six objects, the driver
read one of them, and then the node died. What comes back, and what runs again?

The lesson runs the same story on miniray (faultlines/stories/lineage.py, `node_loss`), and its
page sets this recording's outcome beside miniray's; tests/lessons check that they agree.

* `report`: big, and read by the driver before the loss: the driver's node keeps a copy, so it
  comes back and its task does not run again;
* `cleaned`: big, `clean(load())`, used only on the worker node: lost, rebuilt by running
  `load` and `clean` again (lineage reconstruction);
* `rows`: a small int, inlined with its owner (the driver): never on the node;
* `snap`: big, from a task with `max_retries=0`, never read: lost for good;
* `stashed`: `ray.put` inside a task on the dead node: its owner died with it;
* `table`: `ray.put` by the driver, on the driver's node.
"""

from _cluster import BIG, SmallCluster
from _observe import RunLog, outcome

NAMES = ("report", "cleaned", "rows", "snap", "stashed", "table")


def run(ray, cluster_utils, workdir):
    cluster = SmallCluster(ray, cluster_utils)
    try:
        cluster.add("w", units=10)
        logs = {name: RunLog(workdir, name) for name in ("load", "clean", "count", "snapshot", "summarize")}

        @ray.remote
        def load():
            logs["load"].bump()
            return b"l" * BIG

        @ray.remote
        def clean(data):
            logs["clean"].bump()
            return b"c" * len(data)

        @ray.remote
        def count(data):
            logs["count"].bump()
            return len(data)  # small: stored inline, with its owner

        @ray.remote(max_retries=0)
        def snapshot():
            logs["snapshot"].bump()
            return b"s" * BIG

        @ray.remote
        def summarize():
            logs["summarize"].bump()
            return b"r" * BIG

        @ray.remote
        def stash():
            return [ray.put(b"p" * BIG)]  # owned by this task's worker, on the node that will die

        w = {"resources": {"w": 1}}
        cleaned = clean.options(**w).remote(load.options(**w).remote())
        rows = count.options(**w).remote(cleaned)
        snap = snapshot.options(**w).remote()
        report = summarize.options(**w).remote()
        [stashed] = ray.get(stash.options(**w).remote())
        table = ray.put(b"t" * BIG)  # put by the driver: stored on the driver's node
        refs = {
            "report": report,
            "cleaned": cleaned,
            "rows": rows,
            "snap": snap,
            "stashed": stashed,
            "table": table,
        }
        # Everything is made; the driver reads only the report (and the small row count).
        ray.wait(list(refs.values()), num_returns=len(refs), fetch_local=False)
        read_before = {"report": outcome(ray, report), "rows": outcome(ray, rows)}

        cluster.kill("w")  # the node dies with its object store; a fresh one joins

        after = {}
        for name in NAMES:
            got = outcome(ray, refs[name])
            after[name] = "came back" if "error" not in got else got["error"]["class"]
        return {
            "read_before": read_before,
            "after_the_loss": after,
            "runs": {name: log.count() for name, log in logs.items()},
        }
    finally:
        cluster.close()
