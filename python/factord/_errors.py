"""factord.Error: a failed call, with the server's structured details.

Every failed factord RPC carries a google.rpc.Status in its
``grpc-status-details-bin`` trailer (proto/factord/v1/errors.proto): an
ErrorInfo whose reason names a factord.v1.ErrorReason value, a RetryInfo
where retrying can succeed, and a BadRequest naming the invalid field. This
module decodes that trailer into :class:`Error`. Errors without details
(the daemon was never reached, or gRPC itself refused a message) get a
reason from their code as in the C++ client (client/grpc_status.cc), and
requests this package refuses before sending them are raised in the same
shape.
"""

from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import grpc

# google.rpc.Status and its details. When googleapis-common-protos is
# installed it owns these message names in protobuf's default descriptor
# pool, and a second definition of them would fail to load; then its modules
# are used. Otherwise the ones generated from proto/google/rpc (same names
# and field numbers).
try:
    from google.rpc import error_details_pb2, status_pb2
except ImportError:
    from ._wire.google.rpc import error_details_pb2, status_pb2

ERROR_DOMAIN = "factord.v1"
STATUS_DETAILS_KEY = "grpc-status-details-bin"


class Error(Exception):
    """A factord call that failed.

    Attributes:
        code: the gRPC status code (``grpc.StatusCode.NOT_FOUND``, ...): what
            kind of failure it is.
        reason: the ErrorInfo reason, the name of a factord.v1.ErrorReason
            value (``"NOT_FOUND"``, ``"INVALID_OPTION"``, ``"QUEUE_FULL"``,
            ...): which failure it is. Empty when neither the server nor the
            code gives one.
        message: the server's (or this package's) English message.
        retry_delay: seconds to wait before the same call may succeed
            (RetryInfo), or None when retrying cannot help.
        field_violations: (field, description) pairs of a BadRequest, e.g.
            ``("options.fill_factor", "must be at least 1")``.
        metadata: ErrorInfo metadata, e.g. ``{"expected": "3", "current":
            "4"}`` for GENERATION_MISMATCH.
        domain: the ErrorInfo domain, ``"factord.v1"``.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: str,
        message: str,
        retry_delay: Optional[float] = None,
        field_violations: Sequence[Tuple[str, str]] = (),
        *,
        metadata: Optional[Mapping[str, str]] = None,
        domain: str = ERROR_DOMAIN,
    ) -> None:
        super().__init__(code, reason, message)
        self.code = code
        self.reason = reason
        self.message = message
        self.retry_delay = retry_delay
        self.field_violations: List[Tuple[str, str]] = list(field_violations)
        self.metadata: Dict[str, str] = dict(metadata or {})
        self.domain = domain

    def __str__(self) -> str:
        # As factorctl prints a failure the daemon reported:
        # "NOT_FOUND: ... [NOT_FOUND]".
        text = f"{self.code.name}: {self.message}"
        return f"{text} [{self.reason}]" if self.reason else text

    def __repr__(self) -> str:
        return (
            f"factord.Error({self.code.name}, {self.reason!r}, "
            f"{self.message!r}, retry_delay={self.retry_delay!r}, "
            f"field_violations={self.field_violations!r})"
        )


def client_error(
    reason: str,
    message: str,
    field: str = "",
    code: grpc.StatusCode = grpc.StatusCode.INVALID_ARGUMENT,
) -> Error:
    """An Error for a request refused before it is sent (INVALID_ARGUMENT by
    default), with a BadRequest violation on ``field`` when one is named."""
    violations = [(field, message)] if field else []
    return Error(code, reason, message, None, violations)


def _fallback_reason(code: grpc.StatusCode, message: str) -> str:
    """The reason of an error that carries none, from what gRPC itself
    reports when a call fails on the client's side or in transport."""
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        # gRPC: "Received message larger than max (N vs. M)", "Sent ...".
        return "MESSAGE_TOO_LARGE" if "larger than max" in message else ""
    return {
        grpc.StatusCode.UNAVAILABLE: "UNAVAILABLE",
        grpc.StatusCode.DEADLINE_EXCEEDED: "DEADLINE_EXCEEDED",
        grpc.StatusCode.CANCELLED: "CANCELLED",
    }.get(code, "")


def _type_name(type_url: str) -> str:
    # Any.type_url is "<prefix>/<full name>"; any prefix is accepted.
    return type_url.rsplit("/", 1)[-1]


def from_rpc_error(error: grpc.RpcError) -> Error:
    """Decodes a failed call (a grpc.RpcError that is also a grpc.Call) into
    an Error, reading the google.rpc.Status of its trailer."""
    code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
    if code is None:
        code = grpc.StatusCode.UNKNOWN
    message = (error.details() if hasattr(error, "details") else "") or ""
    trailer = None
    if hasattr(error, "trailing_metadata"):
        for key, value in error.trailing_metadata() or ():
            if key == STATUS_DETAILS_KEY:
                trailer = value
    reason, retry_delay, violations, metadata = "", None, [], {}
    domain = ERROR_DOMAIN
    if trailer:
        try:
            status = status_pb2.Status.FromString(trailer)
        except Exception:  # a malformed trailer: keep code and message
            status = None
        if status is not None:
            for detail in status.details:
                name = _type_name(detail.type_url)
                if name == "google.rpc.ErrorInfo":
                    info = error_details_pb2.ErrorInfo.FromString(detail.value)
                    reason, domain = info.reason, info.domain
                    metadata = dict(info.metadata)
                elif name == "google.rpc.RetryInfo":
                    delay = error_details_pb2.RetryInfo.FromString(
                        detail.value
                    ).retry_delay
                    retry_delay = delay.seconds + delay.nanos * 1e-9
                elif name == "google.rpc.BadRequest":
                    bad = error_details_pb2.BadRequest.FromString(detail.value)
                    violations = [
                        (v.field, v.description) for v in bad.field_violations
                    ]
    if not reason:
        reason = _fallback_reason(code, message)
    return Error(
        code,
        reason,
        message,
        retry_delay,
        violations,
        metadata=metadata,
        domain=domain,
    )
