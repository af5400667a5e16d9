"""grade-all under load: a few hundred short, correct submissions, `--jobs 2`, and not one
spurious failure (a crashed row, a lost judge, a wall-clock limit hit by a correct solution).

Each submission gets a judge process of its own and a jail of its own, so this is a few hundred
forks, jails, cgroups and conversations in a row on a busy 2-core machine. Too slow for every
`make test`: `make stress-grade-all` runs it with FAULTLINES_STRESS=1 (FAULTLINES_STRESS_SIZE
submissions, 300 by default) and prints its figure; otherwise it skips.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from faultlines.sandbox import machine

REPO = Path(__file__).resolve().parents[2]
SIZE = int(os.environ.get("FAULTLINES_STRESS_SIZE", "300"))
# Correct fault05 solutions in several styles, written apart from the reference: each student's
# copy differs by a comment, so no two submissions are the same file.
STYLES = [
    (REPO / "exercises/fault05/reference.py").read_text(),
    "def process_order(api, order_id, amount):\n"
    "    key = 'order-%d' % order_id\n"
    "    receipt = api.charge(order_id, amount, idempotency_key=key)\n"
    "    api.mark_paid(order_id, receipt)\n",
    "def _key(order_id):\n"
    "    return f'order:{order_id}'\n\n\n"
    "def process_order(api, order_id, amount):\n"
    "    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=_key(order_id)))\n",
    "def process_order(api, order_id, amount, *, prefix='o'):\n"
    "    charge = api.charge(order_id=order_id, amount=amount, idempotency_key=prefix + str(order_id))\n"
    "    api.mark_paid(order_id, charge)\n",
]

pytestmark = [
    pytest.mark.skipif(os.environ.get("FAULTLINES_STRESS") != "1", reason="run `make stress-grade-all`"),
    pytest.mark.skipif(not machine.probe().jailed, reason=machine.probe().describe()),
]


def test_a_few_hundred_correct_submissions_all_pass(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for i in range(SIZE):
        (folder / f"student{i:04d}.py").write_text(f"# student {i}\n" + STYLES[i % len(STYLES)])
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "faultlines", "grade-all", "fault05", str(folder), "--jobs", "2"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    took = time.monotonic() - started
    with open(folder / "graded/summary.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    spurious = [(r["submission"], r["status"], r["first_failure"]) for r in rows if r["passed"] != "True"]
    print(
        f"\nstress: grade-all --jobs 2 of {SIZE} correct submissions: {len(rows)} rows, "
        f"{len(spurious)} spurious failures, {took:.0f} s ({SIZE / took:.2f}/s), "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for row in spurious[:5]:
        print("  spurious:", row)
    assert len(rows) == SIZE
    assert spurious == [], spurious[:5]
    assert result.returncode == 0, result.stderr[-2000:]
