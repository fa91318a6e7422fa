"""The retry policy of factord.Client, as in the C++ client
(client/factord_client.h, RetryPolicy; docs/fleet.md, "Client retry
policy"): which failures are retried, how long to wait between attempts,
and the error of a first connection that failed.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Optional

import grpc

from ._errors import STATUS_DETAILS_KEY, Error

# Codes that gRPC or a proxy on the way makes (a stream reset when the
# daemon behind a proxy died); factord details every error it sends, so one
# of these without details was not a daemon's answer.
_TRANSIT_CODES = (
    grpc.StatusCode.INTERNAL,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.CANCELLED,
)


@dataclasses.dataclass(frozen=True)
class RetryPolicy:
    """Retries of calls that failed on the way to or from a daemon, not in
    it. On by default; ``RetryPolicy(max_attempts=1)`` turns them off.

    Retried: UNAVAILABLE (the daemon restarting, draining or gone, the
    connection lost during the call, a proxy's 502 or 503), and INTERNAL,
    UNKNOWN or CANCELLED that came without factord's error details (a
    stream reset by a proxy). Never retried: what a daemon decided,
    DEADLINE_EXCEEDED, and a first connection that failed (nothing listens
    at the address: the call fails at once). Before each further attempt
    the client waits the backoff, then, while the connection is down, for
    the daemon to be back, until ``total_timeout`` after the first attempt.
    Every call is safe to repeat (uploads name their ID, updates may state
    the generation they expect).

    Attributes:
        max_attempts: attempts of one call in all (5; 1: no retry).
        initial_backoff: seconds before the second attempt (0.1), multiplied by
            ``backoff_multiplier`` for each further one, at most
            ``max_backoff``, with +-20% jitter; a longer delay asked by the
            daemon (``Error.retry_delay``) is waited instead.
        max_backoff: the longest wait between two attempts, seconds (2).
        backoff_multiplier: growth of the wait per attempt (2).
        total_timeout: seconds after the call's first attempt when no
            further one starts (15); each attempt has the client's
            ``timeout``.
    """

    max_attempts: int = 5
    initial_backoff: float = 0.1
    max_backoff: float = 2.0
    backoff_multiplier: float = 2.0
    total_timeout: float = 15.0


def with_server_details(error: grpc.RpcError) -> bool:
    """Whether the failed call carries a google.rpc.Status trailer: it was
    a daemon's answer."""
    if not hasattr(error, "trailing_metadata"):
        return False
    return any(key == STATUS_DETAILS_KEY for key, _ in error.trailing_metadata() or ())


def retried_in_transit(error: grpc.RpcError) -> bool:
    """Whether the policy retries ``error``: UNAVAILABLE, or INTERNAL,
    UNKNOWN or CANCELLED without factord's details."""
    code = error.code() if hasattr(error, "code") else None
    if code == grpc.StatusCode.UNAVAILABLE:
        return True
    return code in _TRANSIT_CODES and not with_server_details(error)


def backoff(policy: RetryPolicy, attempt: int, retry_delay: Optional[float]) -> float:
    """Seconds to wait after failed attempt ``attempt`` (>= 1)."""
    wait = policy.initial_backoff * max(1.0, policy.backoff_multiplier) ** (attempt - 1)
    wait = min(wait, policy.max_backoff) * random.uniform(0.8, 1.2)
    return max(wait, retry_delay or 0.0)


def listen_address(target: str) -> str:
    """The HOST:PORT of a gRPC target, for factord's --listen."""
    for scheme in ("dns:///", "dns:", "ipv4:", "ipv6:"):
        if target.startswith(scheme):
            return target[len(scheme):]
    return target


def never_reached_error(target: str, cause: str) -> Error:
    """The UNAVAILABLE of a first connection to ``target`` that failed
    (``cause``: gRPC's account), worded as the C++ client's."""
    return Error(
        grpc.StatusCode.UNAVAILABLE,
        "UNAVAILABLE",
        f"no factord daemon answers at {target} ({cause}): start one with "
        f"`factord --listen={listen_address(target)}`, or give the address "
        "of one that runs",
        metadata={"target": target, "first_connection": "failed"},
    )
