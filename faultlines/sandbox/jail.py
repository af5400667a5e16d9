"""One jailed process: bubblewrap around a Python that runs only `faultlines.sandbox.inside`.

What the jail holds (see `bwrap_args`):
- its own user, PID, network, IPC, UTS and cgroup namespaces: no network at all (not even
  loopback is up), no parent to signal (its PID 1 is bubblewrap), and no nested user namespaces;
- every capability dropped, a new session (no terminal to inject into), an empty environment;
- a read-only view of only what it needs: the system's shared libraries, the Python install,
  miniray/ and the few faultlines files the inside uses; no /proc and no /sys (a uid 0 without
  capabilities could still write host-wide sysctls through /proc/sys), nothing of the exercise;
- a private scratch folder, /tmp, a small tmpfs that dies with it.

Limits: the pids cgroup (or RLIMIT_NPROC under a non-root uid) caps processes; CPU, memory and
file-size rlimits are set by the inside before any learner code runs (it has no capability to
raise them back); the judge enforces the wall clock. When the judge is done, or dies, the jail
dies whole: `--die-with-parent` kills bubblewrap with its parent, the PID namespace goes with its
PID 1, and the cgroup is emptied and removed.

Without bubblewrap (`grade` on a machine without it, never with hidden tiers or in grade-all),
the same inside runs as a plain child process: limits, an empty environment, its own session.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import cgroup as cgroups

SCRATCH = "/tmp"  # the private scratch folder, inside
CODE = "/fl"  # where the inside's code is mounted, inside


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


@dataclass(frozen=True)
class Limits:
    """What one jailed process may use. The counted budgets come first; these are the floor."""

    wall_seconds: float = field(default_factory=lambda: float(_env_int("FAULTLINES_WALL_SECONDS", 300)))
    cpu_seconds: int = field(default_factory=lambda: _env_int("FAULTLINES_CPU_SECONDS", 120))
    memory_bytes: int = field(default_factory=lambda: _env_int("FAULTLINES_MEMORY_MB", 2048) * 1024**2)
    # The judge's own address space (what the jail's messages make it hold is capped by this too).
    judge_memory_bytes: int = field(
        default_factory=lambda: _env_int("FAULTLINES_JUDGE_MEMORY_MB", 3072) * 1024**2
    )
    max_pids: int = 16  # bubblewrap's two processes, the Python, and a few the learner may start
    scratch_bytes: int = 16 * 1024**2
    file_bytes: int = 16 * 1024**2
    open_files: int = 64


@dataclass(frozen=True)
class Plan:
    """How this machine jails a process (machine.probe decides)."""

    bwrap: str | None  # None: no jail, a plain child process (grade only, see machine.py)
    cgroups: cgroups.Hierarchy | None = None  # a pids cgroup per jail
    run_as: int | None = None  # start bubblewrap as this uid (from root, when no cgroup binds root)
    nproc: bool = False  # RLIMIT_NPROC binds (the uid inside the jail is not root)
    why_not: str = ""  # with bwrap None: why there is no jail

    @property
    def jailed(self) -> bool:
        return self.bwrap is not None

    def to_dict(self) -> dict:
        """For a judge process started with this plan (grade-all): plain data, no probe again."""
        groups = self.cgroups
        return {
            "bwrap": self.bwrap,
            "cgroups": [str(groups.base), groups.version] if groups is not None else None,
            "run_as": self.run_as,
            "nproc": self.nproc,
            "why_not": self.why_not,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Plan:
        groups = data.get("cgroups")
        hierarchy = cgroups.Hierarchy(Path(groups[0]), int(groups[1])) if groups else None
        return cls(
            data.get("bwrap"), hierarchy, data.get("run_as"), bool(data.get("nproc")), data.get("why_not", "")
        )

    def describe(self) -> str:
        if self.bwrap is None:
            return f"no sandbox ({self.why_not})"
        cap = "a pids cgroup" if self.cgroups is not None else "RLIMIT_NPROC under a non-root uid"
        who = f"uid {self.run_as}" if self.run_as is not None else f"uid {os.geteuid()}"
        return f"bubblewrap ({self.bwrap}) as {who}, processes capped by {cap}"


def python_binary() -> str:
    """The real interpreter (a venv's python is a symlink): it runs with -I -S, no site-packages."""
    return os.path.realpath(sys.executable)


def code_files() -> list[tuple[Path, str]]:
    """(host path, path inside) of the code the inside imports: miniray and a few faultlines files."""
    import faultlines
    import miniray

    fl = Path(faultlines.__file__).resolve().parent
    mr = Path(miniray.__file__).resolve().parent
    return [
        (mr, f"{CODE}/miniray"),
        (fl / "__init__.py", f"{CODE}/faultlines/__init__.py"),
        (fl / "sandbox", f"{CODE}/faultlines/sandbox"),
        (fl / "grader" / "budgets.py", f"{CODE}/faultlines/grader/budgets.py"),
        (fl / "grader" / "submission.py", f"{CODE}/faultlines/grader/submission.py"),
        (fl / "grader" / "notebook_state.py", f"{CODE}/faultlines/grader/notebook_state.py"),
    ]


def _system_mounts() -> list[str]:
    args: list[str] = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    if os.path.exists("/etc/ld.so.cache"):
        args += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    prefix = os.path.realpath(sys.base_prefix)
    if not (prefix + "/").startswith("/usr/"):
        args += ["--ro-bind", prefix, prefix]
    python = python_binary()
    if not python.startswith(prefix + "/") and not python.startswith("/usr/"):
        args += ["--ro-bind", python, python]
    return args


def bwrap_args(plan: Plan, limits: Limits) -> list[str]:
    """bubblewrap's own options; none of it is secret (it shows as /proc/1/cmdline to bwrap's peers)."""
    assert plan.bwrap is not None
    args = [
        plan.bwrap,
        "--unshare-all",  # user, ipc, pid, net, uts, cgroup
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--clearenv",
        "--setenv",
        "HOME",
        SCRATCH,
        "--hostname",
        "sandbox",
        *_system_mounts(),
    ]
    for host, inside in code_files():
        args += ["--ro-bind", str(host), inside]
    args += [
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        str(limits.scratch_bytes),
        "--tmpfs",
        SCRATCH,
        "--chdir",
        SCRATCH,
    ]
    return args


BOOT = "import sys; sys.path[:0] = {path!r}; from faultlines.sandbox.inside import main; main()"


def inside_command(jailed: bool) -> list[str]:
    if jailed:
        path = [CODE]
    else:  # the code where it is: the folders holding the faultlines and miniray packages
        import faultlines
        import miniray

        path = sorted({str(Path(str(m.__file__)).resolve().parent.parent) for m in (faultlines, miniray)})
    return [python_binary(), "-I", "-S", "-B", "-c", BOOT.format(path=path)]


class Jail:
    """One started jailed process: its stdin is the judge's requests, its stdout the replies."""

    def __init__(self, plan: Plan, limits: Limits, command: list[str] | None = None) -> None:
        self.plan = plan
        self.limits = limits
        self.group: cgroups.PidsCgroup | None = None
        self._scratch: tempfile.TemporaryDirectory | None = None
        argv = command or inside_command(plan.jailed)
        kwargs: dict = {}
        if plan.jailed:
            argv = bwrap_args(plan, limits) + ["--", *argv]
            if plan.cgroups is not None:
                self.group = cgroups.create(plan.cgroups, limits.max_pids, owner=plan.run_as)
                if self.group is None:
                    raise OSError(f"cannot create a pids cgroup under {plan.cgroups.base}")
                # Join before bubblewrap starts, so every process of the tree is in it.
                argv = ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', str(self.group.join_file), *argv]
            if plan.run_as is not None:
                kwargs.update(user=plan.run_as, group=plan.run_as, extra_groups=[])
            cwd = "/"
        else:
            self._scratch = tempfile.TemporaryDirectory(prefix="faultlines-sandbox-")
            cwd = self._scratch.name
            kwargs.update(start_new_session=True)
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env={},
                close_fds=True,
                **kwargs,
            )
        except BaseException:
            self._cleanup()
            raise

    @property
    def to_inside(self) -> int:
        assert self.proc.stdin is not None
        return self.proc.stdin.fileno()

    @property
    def from_inside(self) -> int:
        assert self.proc.stdout is not None
        return self.proc.stdout.fileno()

    @property
    def errors(self) -> int:
        assert self.proc.stderr is not None
        return self.proc.stderr.fileno()

    def kill(self) -> None:
        """End the whole jail now: its PID namespace dies with bubblewrap, the cgroup is emptied."""
        try:
            if self.plan.jailed:
                self.proc.kill()
            else:
                os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.group is not None:
            self.group.kill_all()

    def close(self) -> int:
        """Kill, reap and clean up; returns how many processes were still there to kill after
        the jailed Python's own end (0 when the namespace took them all with it)."""
        self.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        left = 0
        if self.group is not None:
            left = self.group.kill_all()
        elif not self.plan.jailed:
            try:
                os.killpg(self.proc.pid, 0)
                left = 1
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self._cleanup()
        return left

    def _cleanup(self) -> None:
        if self.group is not None:
            self.group.remove()
            self.group = None
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None
