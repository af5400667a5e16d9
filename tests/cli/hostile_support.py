"""What the hostile-corpus tests share: a scratch copy of the repository to grade against (and
check nothing in it changes), a TCP listener that notes any connection, the CLI run from the
scratch copy with a secret in its environment, and finders for what a submission leaves behind."""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests/cli/hostile"
MARKER = f"flhostile{os.getpid()}"
SECRET = f"FL_SECRET_{os.getpid()}"
NOTE = f"NOTE-{MARKER}-planted-in-the-hidden-tiers"
TOKEN = "the-instructors-token"


def header(path: Path, key: str) -> str | None:
    for line in path.read_text().splitlines():
        if line.startswith(f"# {key}:"):
            return line.split(":", 1)[1].strip()
    return None


def make_scratch(root: Path) -> Path:
    """A copy of what grading reads and could write: a test checks nothing in it changes."""
    for part in ("faultlines", "miniray", "exercises"):
        shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "tests/fixtures/hidden", root / "hidden")
    tiers = root / "hidden/fault05/tiers.toml"
    tiers.write_text(tiers.read_text() + f"\n# {NOTE}\n")
    return root


def hashes(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


class Listener:
    """A TCP server on this machine; every connection it accepts is noted."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.accepted: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    self.accepted.append(conn.recv(1024) or b"(connected)")
                except OSError:
                    self.accepted.append(b"(connected)")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.server.close()


def marked(marker: str = MARKER) -> list[int]:
    """Processes whose command line holds `marker` (this one aside)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline and int(proc.name) != os.getpid():
            found.append(int(proc.name))
    return found


def leftovers() -> list[str]:
    out = []
    for pid in marked():
        try:
            out.append(
                Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            )
        except OSError:
            continue
    return out


def stale_cgroups() -> list[str]:
    base = Path("/sys/fs/cgroup/pids")
    return [p.name for p in base.glob("faultlines-*-*") if not Path(f"/proc/{p.name.split('-')[1]}").exists()]


def prepare(case: Path, scratch: Path, port: int, folder: Path, name: str | None = None) -> Path:
    """The case with its placeholders filled, in `folder`; a case with a `# link:` line becomes
    a symbolic link to that file of the scratch copy."""
    path = folder / (name or case.name)
    link = header(case, "link")
    if link is not None:
        path.symlink_to(scratch / link)
        return path
    text = case.read_text()
    for key, value in {
        "@@REPO@@": str(scratch),
        "@@HIDDEN@@": str(scratch / "hidden"),
        "@@PORT@@": str(port),
        "@@MARKER@@": MARKER,
        "@@SECRET@@": SECRET,
    }.items():
        text = text.replace(key, value)
    path.write_text(text)
    return path


def start_cli(scratch: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(scratch), SECRET: TOKEN}
    return subprocess.Popen(
        [sys.executable, "-m", "faultlines", *args],
        cwd=scratch,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def finish_cli(proc: subprocess.Popen, limit_s: float = 240) -> tuple[subprocess.CompletedProcess, int]:
    """Wait for the CLI: (the result, the largest RSS in KB of the process and of the
    descendants it waited for, from wait4). Killed, and said so, past `limit_s`."""
    chunks: dict[str, bytes] = {}

    def drain(name: str, stream) -> None:
        chunks[name] = stream.read()

    readers = [
        threading.Thread(target=drain, args=(n, s)) for n, s in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for reader in readers:
        reader.start()
    timer = threading.Timer(limit_s, proc.kill)
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    for reader in readers:
        reader.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode != -9, f"{proc.args}: hung past {limit_s:g} s"
    out, err = chunks["out"].decode(), chunks["err"].decode()  # strict: the CLI writes valid UTF-8
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), usage.ru_maxrss


def cli(scratch: Path, *args: str) -> tuple[subprocess.CompletedProcess, int]:
    return finish_cli(start_cli(scratch, *args))
