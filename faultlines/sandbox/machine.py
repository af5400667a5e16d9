"""What this machine allows: is bubblewrap here and does it run, and how are processes capped?

The answer is a jail.Plan, found once per process by running the jail for real on a no-op
(`python -I -S -B -c pass`) in each way that could work, best first:

1. a pids cgroup per jail (binds every uid, root included), bubblewrap as whoever we are;
2. as root without a writable pids cgroup: bubblewrap started as `nobody` (65534), so that
   RLIMIT_NPROC binds (it never binds root); this needs unprivileged user namespaces and a
   Python install `nobody` can read;
3. as a non-root user: bubblewrap as that user, RLIMIT_NPROC.

A probe that fails counts as bubblewrap missing; the plan then says why in one line. Set
FAULTLINES_BWRAP to a path to use another bubblewrap (or a missing one, for tests).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

from . import cgroup
from .jail import Jail, Limits, Plan, python_binary

PROBE_SECONDS = 30
NOBODY = 65534
INSTALL_HINT = "install it with `apt-get install bubblewrap` (the Makefile does)"


def _bwrap() -> str | None:
    chosen = os.environ.get("FAULTLINES_BWRAP")
    if chosen is not None:
        return chosen if os.access(chosen, os.X_OK) else None
    return shutil.which("bwrap") or ("/usr/bin/bwrap" if os.access("/usr/bin/bwrap", os.X_OK) else None)


def _try(plan: Plan) -> str:
    """ "" when the jail runs a no-op here, else why not (one line)."""
    try:
        jail = Jail(plan, Limits(), command=[python_binary(), "-I", "-S", "-B", "-c", "pass"])
    except OSError as e:
        return str(e)
    try:
        _, err = jail.proc.communicate(timeout=PROBE_SECONDS)
        status = jail.proc.returncode
    except subprocess.TimeoutExpired:
        err, status = b"timed out", -1
    finally:
        jail.close()
    if status == 0:
        return ""
    text = err.decode(errors="replace").strip().splitlines()
    return text[-1] if text else f"exit status {status}"


@functools.cache
def probe() -> Plan:
    """The best way to jail a process here, or a Plan without bubblewrap saying why."""
    bwrap = _bwrap()
    if bwrap is None:
        return Plan(None, why_not=f"bubblewrap is not installed; {INSTALL_HINT}")
    root = os.geteuid() == 0
    candidates = []
    hierarchy = cgroup.find()
    if hierarchy is not None:
        cgroup.sweep(hierarchy)
        candidates.append(Plan(bwrap, cgroups=hierarchy, nproc=not root))
    if root:
        candidates.append(Plan(bwrap, run_as=NOBODY, nproc=True))
    else:
        candidates.append(Plan(bwrap, nproc=True))
    failures = []
    for plan in candidates:
        why = _try(plan)
        if not why:
            return plan
        failures.append(why)
    if root and hierarchy is None:
        failures.append("as root, processes can only be capped by a writable pids cgroup or a non-root uid")
    return Plan(None, why_not=f"bubblewrap's no-op probe failed ({'; '.join(failures)})")


def nproc_limit(plan: Plan, limits: Limits) -> int | None:
    """RLIMIT_NPROC for the jail, where it is what caps processes: it counts every process of the
    uid on the machine, so the cap is what that uid runs now plus the jail's own allowance."""
    if not plan.nproc or plan.cgroups is not None:
        return None
    uid = plan.run_as if plan.run_as is not None else os.getuid()
    return _processes_of(uid) + limits.max_pids


def _processes_of(uid: int) -> int:
    count = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("Uid:"):
                    count += int(line.split()[1]) == uid
                    break
        except (OSError, ValueError, IndexError):
            continue
    return count
