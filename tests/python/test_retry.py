"""The client's retry policy (factord.RetryPolicy, python/factord/_retry.py)
and its first connection: which failures are retried, the backoff, an
address where nothing listens (fails at once, naming it), a daemon
restarted while calls are made (they wait for it) and one that stays away
(the call fails when the window ends)."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import grpc
import numpy as np
import pytest
import scipy.sparse as sp

import factord
from conftest import start_daemon
from daemon import Daemon
from factord import _retry
from fake_calls import FakeCall, status_with_details


def free_loopback_port() -> int:
    """A loopback port nothing listens on (handed out by the kernel, then
    closed): connections to it are refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def small_spd() -> sp.csr_matrix:
    return sp.diags([-1.0, 4.0, -1.0], [-1, 0, 1], shape=(20, 20), format="csr")


def test_only_failures_in_transit_are_retried() -> None:
    for code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.INTERNAL,
                 grpc.StatusCode.UNKNOWN, grpc.StatusCode.CANCELLED):
        assert _retry.retried_in_transit(FakeCall(code, "reset")), code
    for code in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.NOT_FOUND,
                 grpc.StatusCode.INVALID_ARGUMENT):
        assert not _retry.retried_in_transit(FakeCall(code, "x")), code
    # A daemon's own verdict (its details in the trailer) is final, but
    # UNAVAILABLE (draining) is worth another try.
    details = status_with_details()
    assert not _retry.retried_in_transit(FakeCall(grpc.StatusCode.INTERNAL, "x", details))
    assert _retry.retried_in_transit(FakeCall(grpc.StatusCode.UNAVAILABLE, "x", details))


def test_backoff_grows_to_its_cap_with_jitter() -> None:
    policy = factord.RetryPolicy()
    assert policy.max_attempts > 1  # on by default
    expected = [0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0]
    for attempt, nominal in enumerate(expected, start=1):
        for _ in range(20):
            wait = _retry.backoff(policy, attempt, None)
            assert 0.8 * nominal - 1e-9 <= wait <= 1.2 * nominal + 1e-9, attempt
    # A longer delay asked by the daemon is waited instead.
    assert _retry.backoff(policy, 1, 1.5) == 1.5


def test_nothing_listening_fails_at_once_naming_the_address() -> None:
    address = f"127.0.0.1:{free_loopback_port()}"
    with factord.Client(address, timeout=30) as c:
        for call in (c.info, lambda: c.upload(small_spd(), id="m"),
                     lambda: c.get("m")):
            start = time.monotonic()
            with pytest.raises(factord.Error) as e:
                call()
            assert time.monotonic() - start < 2.0
            assert e.value.code == grpc.StatusCode.UNAVAILABLE
            assert e.value.reason == "UNAVAILABLE"
            assert e.value.metadata == {"target": address, "first_connection": "failed"}
            assert f"no factord daemon answers at {address}" in e.value.message
            assert f"factord --listen={address}" in e.value.message
            assert "onnection refused" in e.value.message, e.value.message
        assert c.retries == 0


def kill(d: Daemon) -> None:
    """SIGKILL: the daemon is gone at once (a SIGTERM would wait for the
    client's connection up to its --shutdown_grace)."""
    d.process.kill()
    d.stop()


def test_a_daemon_restarted_during_calls_is_waited_for(workdir: Path) -> None:
    first = start_daemon(workdir, "restart-1")
    port = first.port
    down_s = 2.5  # longer than the default backoffs together (1.5 s)
    second: list = []

    def restart() -> None:
        time.sleep(down_s)
        second.append(start_daemon(workdir, "restart-2", [f"--listen=127.0.0.1:{port}"]))

    try:
        with factord.Client(first.address, timeout=30) as c:
            info = c.upload(small_spd())
            kill(first)
            thread = threading.Thread(target=restart)
            thread.start()
            try:
                start = time.monotonic()
                again = c.upload(small_spd(), id=info.id)  # the new daemon holds nothing
                waited = time.monotonic() - start
            finally:
                thread.join()
            assert again.id == info.id and again.generation == 1
            assert waited >= 0.9 * down_s
            assert waited < factord.RetryPolicy().total_timeout
            assert c.retries >= 1
            x = c.solve(c.factorize(info.id).id, np.ones(20))
            assert np.allclose(small_spd() @ x, 1.0)
    finally:
        for d in second:
            d.stop()


def test_a_daemon_that_stays_away_fails_the_call_when_the_window_ends(
    workdir: Path,
) -> None:
    d = start_daemon(workdir, "gone")
    policy = factord.RetryPolicy(total_timeout=1.0)
    with factord.Client(d.address, timeout=30, retry=policy) as c:
        c.info()
        kill(d)
        start = time.monotonic()
        with pytest.raises(factord.Error) as e:
            c.info()
        waited = time.monotonic() - start
    assert e.value.code == grpc.StatusCode.UNAVAILABLE
    assert "first_connection" not in e.value.metadata  # it was reached
    assert 0.9 <= waited < 3.0
    # Without retries it fails at once.
    d = start_daemon(workdir, "gone-2")
    with factord.Client(d.address, timeout=30,
                        retry=factord.RetryPolicy(max_attempts=1)) as c:
        c.info()
        kill(d)
        start = time.monotonic()
        with pytest.raises(factord.Error):
            c.info()
        assert time.monotonic() - start < 1.0
        assert c.retries == 0
