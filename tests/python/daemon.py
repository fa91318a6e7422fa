"""A factord daemon on a free loopback port, for the Python tests and
poisson_check.py.

Starts build/server/factord (``$FACTORD_BINARY``, else the build tree of
this repository) with --listen=127.0.0.1:0, reads the port from its log line
"serving gRPC on port N", and stops it with SIGTERM (then SIGKILL after
15 s).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import List, Sequence

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 30.0


def factord_binary() -> Path:
    """The daemon to start; RuntimeError when it is not built."""
    path = Path(os.environ.get("FACTORD_BINARY", REPO / "build/server/factord"))
    if not os.access(path, os.X_OK):
        raise RuntimeError(
            f"factord binary {path} not found: build the factord target, or set "
            "FACTORD_BINARY"
        )
    return path


class Daemon:
    """One factord process on 127.0.0.1 (CPU backend, small budgets).

    Attributes:
        address: "127.0.0.1:PORT" to give factord.Client.
        log_path: its stdout and stderr.
    """

    def __init__(self, workdir: Path, name: str, flags: Sequence[str] = ()) -> None:
        self.log_path = Path(workdir) / f"{name}.log"
        command: List[str] = [
            str(factord_binary()),
            "--listen=127.0.0.1:0",
            "--metrics_listen=",
            "--backend=cpu",
            "--threads=2",
            "--workers=2",
            "--cache_bytes=2147483648",
            "--shutdown_grace=2s",
            *flags,
        ]
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            command, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        self.port = self._wait_for_port()
        self.address = f"127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            found = re.search(r"serving gRPC on port (\d+)", self.log())
            if found:
                return int(found.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"factord did not start:\n{self.log()}")

    def stop(self) -> int:
        """SIGTERM (the daemon drains and exits); its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        if not self._log.closed:
            self._log.close()
        return self.process.returncode

    def __enter__(self) -> "Daemon":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
