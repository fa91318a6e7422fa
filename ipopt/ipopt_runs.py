"""Shared parts of the Ipopt runners (compare_solvers.py, robustness.py):
a factord daemon on loopback that the runner starts, kills and restarts
itself, and one run of build/ipopt/factord-ipopt-nlp read back from its JSON
line. Python 3 standard library only (Debian's /usr/bin/python3)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path


class Daemon:
    """build/server/factord on 127.0.0.1, its log in a temporary directory.
    start() with port 0 picks a free port (the daemon logs which); a restart
    reuses the port so that the clients' FACTORD_SERVER stays valid."""

    def __init__(self, build: Path, workdir: Path, extra_flags=()):
        self.exe = build / "server" / "factord"
        self.workdir = workdir
        self.extra_flags = list(extra_flags)
        self.port = 0
        self.proc = None
        self.starts = 0

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.workdir / f"factord.{self.starts}.log"

    def start(self, timeout: float = 20.0) -> None:
        if not self.exe.is_file():
            raise RuntimeError(f"missing {self.exe}: build the factord target")
        self.starts += 1
        log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            # No /metrics listener: its default port would clash between
            # daemons (the tests start several).
            [str(self.exe), f"--listen=127.0.0.1:{self.port}", "--metrics_listen=",
             *self.extra_flags],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = re.search(r"serving gRPC on port (\d+)", self.log_path.read_text())
            if match:
                self.port = int(match.group(1))
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"factord did not start:\n{self.log_path.read_text()}")

    def kill(self, sig=signal.SIGKILL) -> None:
        """Stops this daemon (SIGKILL: a crash, no draining) and waits."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)

    def log_text(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""


@dataclass
class Problem:
    """A problem of factord-ipopt-nlp: its label and its flags."""
    label: str
    flags: list = field(default_factory=list)
    published: float | None = None  # the published optimum, when known


def parse_problem(spec: str) -> Problem:
    """nonconvex_chain | poisson_control[:N] | PATH.SIF (a QP)."""
    if spec == "nonconvex_chain":
        return Problem(spec, ["--problem=nonconvex_chain"])
    if spec.startswith("poisson_control"):
        grid = spec.partition(":")[2] or "200"
        return Problem(f"poisson_control_{grid}",
                       ["--problem=poisson_control", f"--grid={grid}"])
    path = Path(spec)
    name = path.name.split(".")[0]
    return Problem(name, [f"--problem={path}"], published_optimum(path, name))


def published_optimum(path: Path, name: str):
    table = path.parent / "optimal.tsv"
    if not table.exists():
        return None
    for line in table.read_text().splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 2 and parts[0] == name:
            return float(parts[1])
    return None


@dataclass
class Run:
    """What one factord-ipopt-nlp run reported (record: its JSON line, None
    when there was none), its exit code (None: killed at the timeout), the
    runner's own wall time, and its stderr lines with the monotonic time each
    was read."""
    record: dict | None
    exit_code: int | None
    elapsed: float
    stderr_lines: list
    ended: float = 0.0  # monotonic time at which the process was seen to end

    @property
    def stderr(self) -> str:
        return "".join(line for _, line in self.stderr_lines)

    @property
    def solved(self) -> bool:
        return bool(self.record) and self.record["status"] in (
            "Solve_Succeeded", "Solved_To_Acceptable_Level")

    @property
    def status(self) -> str:
        if self.record:
            return self.record["status"]
        return "timeout" if self.exit_code is None else f"exit {self.exit_code}"


# The linear solvers Ipopt loads from the library search path, and which
# of factord's libraries serves each: build/<folder>/<file>.
FACTORD_LIBRARIES = {
    "pardiso": ("pardiso", "libpardiso.so"),
    "ma57": ("hsl", "libhsl.so"),
    "ma27": ("hsl", "libhsl.so"),
}


def factord_library(solver: str, build: Path) -> Path:
    """The library of factord that Ipopt loads for `solver`."""
    folder, name = FACTORD_LIBRARIES[solver]
    return build / folder / name


# Where factord's libraries run the KKT systems (docs/in_process.md):
#   daemon     every system on the loopback daemon (FACTORD_LOCAL_BELOW=0);
#   local      in the Ipopt process (FACTORD_SERVER=local), no daemon;
#   threshold  the daemon, with the C API's default size threshold: the
#              systems below it stay in process.
WHERE = ("daemon", "local", "threshold")


def solver_env(solver: str, build: Path, daemon: Daemon | None, extra=None,
               where: str = "daemon") -> dict:
    """The environment of a run: for pardiso, ma57 and ma27, Ipopt finds
    factord's libpardiso.so or libhsl.so through LD_LIBRARY_PATH, and the
    library the daemon through FACTORD_SERVER (`where`: WHERE)."""
    env = dict(os.environ)
    if solver in FACTORD_LIBRARIES:
        lib_dir = str(factord_library(solver, build).parent)
        env["LD_LIBRARY_PATH"] = lib_dir + (
            ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
        if where == "local":
            env["FACTORD_SERVER"] = "local"
            env.pop("FACTORD_LOCAL_BELOW", None)
        elif daemon is not None:
            env["FACTORD_SERVER"] = daemon.address
            if where == "daemon":
                # Every system to the daemon, however small.
                env.setdefault("FACTORD_LOCAL_BELOW", "0")
            else:
                env.pop("FACTORD_LOCAL_BELOW", None)
    env.update(extra or {})
    return env


class NlpProcess:
    """A running factord-ipopt-nlp whose output threads collect stdout and
    time-stamp stderr lines."""

    def __init__(self, build: Path, problem: Problem, solver: str, env: dict,
                 extra_flags=()):
        exe = build / "ipopt" / "factord-ipopt-nlp"
        if not exe.is_file():
            raise RuntimeError(f"missing {exe}: build the factord-ipopt-nlp target")
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [str(exe), *problem.flags, f"--linear_solver={solver}", *extra_flags],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.stdout = []
        self.stderr_lines = []
        self.threads = [
            threading.Thread(target=self._read, args=(self.proc.stdout, False)),
            threading.Thread(target=self._read, args=(self.proc.stderr, True))]
        for t in self.threads:
            t.start()

    def _read(self, stream, timed: bool) -> None:
        for line in stream:
            if timed:
                self.stderr_lines.append((time.monotonic(), line))
            else:
                self.stdout.append(line)

    def running(self) -> bool:
        return self.proc.poll() is None

    def wait(self, timeout: float) -> Run:
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            code = None
        ended = time.monotonic()
        for t in self.threads:
            t.join()
        elapsed = ended - self.started
        record = None
        for line in reversed(self.stdout):
            if line.startswith("{"):
                record = json.loads(line)
                break
        return Run(record, code, elapsed, self.stderr_lines, ended)


def run_nlp(build: Path, problem: Problem, solver: str, env: dict,
            timeout: float = 600, extra_flags=()) -> Run:
    return NlpProcess(build, problem, solver, env, extra_flags).wait(timeout)


def wait_for_file(path: Path, nlp: NlpProcess, timeout: float) -> bool:
    """True once `path` exists; False if nlp ended or time ran out first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            return True
        if not nlp.running():
            return False
        time.sleep(0.01)
    return False


def scratch_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="factord-ipopt-"))
