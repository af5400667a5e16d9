"""Adding a fault kind, as docs/design/contributing.md shows it: one entry plus its handler in
miniray/fault_kinds.py, added to a copy of miniray, which a fresh Python then uses. CPython only:
it starts a process (tests/unit also runs in Pyodide, which has none)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import miniray

TOY = """

@kind(
    "slow_worker",
    "A toy kind for the contributing guide: the target's worker dies `duration` seconds later.",
    events=(Kind.WORKER_DIED,),
    params=("target", "duration"),
    move="slowdown",
)
def _slow_worker(inj: FaultInjector, fault: Fault) -> None:
    worker = inj.worker(fault.target)
    if worker is not None:
        inj.rt.call_later(fault.duration, inj.rt.kill_worker, worker, "fault")
"""

USE_IT = """
import time
import miniray as ray
from miniray import sim
from miniray.fault_kinds import moves

ray.init(num_cpus=1)
assert moves()["slowdown"] == "slow_worker"
assert "slow_worker" in sim.__all__

@ray.remote(max_retries=0)
def work():
    time.sleep(5)
    return "done"

ref = work.remote()
sim.sleep(1)
sim.slow_worker(ray.nodes()[0]["NodeID"], 2.0)
try:
    ray.get(ref)
except ray.exceptions.WorkerCrashedError:
    print("killed at", sim.now())
print([r.kind for r in sim.event_log() if r.kind in ("fault", "worker.died")])
"""


def test_adding_a_kind_is_one_entry_plus_its_handler(tmp_path):
    copy = tmp_path / "miniray"
    shutil.copytree(Path(miniray.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    table = copy / "fault_kinds.py"
    table.write_text(table.read_text() + TOY)  # the only file touched
    script = tmp_path / "use_it.py"
    script.write_text(textwrap.dedent(USE_IT))
    out = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    assert "killed at 3.0" in out.stdout
    assert "['fault', 'worker.died']" in out.stdout
