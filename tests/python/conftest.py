"""Fixtures of the factord Python tests: daemons on loopback and clients
(matrices.py builds the matrices, daemon.py starts factord).

The session starts its own factord on a free loopback port and stops it at
the end. Every test has a deadline: pytest-timeout's when the plugin is
there (``timeout`` in pytest.ini), else a SIGALRM fixture; every client call
has one too, so nothing hangs.
"""

from __future__ import annotations

import signal
import tempfile
from pathlib import Path
from typing import Iterator, Sequence

import pytest

import factord
from daemon import Daemon

CALL_TIMEOUT_S = 60.0
TEST_TIMEOUT_S = 120


def start_daemon(workdir: Path, name: str, flags: Sequence[str] = ()) -> Daemon:
    try:
        return Daemon(workdir, name, flags)
    except RuntimeError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="session")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="factord-python-tests-") as d:
        yield Path(d)


@pytest.fixture(scope="session")
def daemon(workdir: Path) -> Iterator[Daemon]:
    # A message limit below the client's 1 MiB chunks, so that every test
    # also checks that the client chunks under the server's limit.
    d = start_daemon(workdir, "factord", ["--max_message_bytes=262144"])
    yield d
    d.stop()


@pytest.fixture
def client(daemon: Daemon) -> Iterator[factord.Client]:
    with factord.Client(daemon.address, timeout=CALL_TIMEOUT_S) as c:
        yield c


@pytest.fixture(autouse=True)
def _deadline(request: pytest.FixtureRequest) -> Iterator[None]:
    """SIGALRM deadline when pytest-timeout is not installed."""
    if request.config.pluginmanager.hasplugin("timeout"):
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"test took more than {TEST_TIMEOUT_S} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(TEST_TIMEOUT_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
