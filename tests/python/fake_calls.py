"""Failed gRPC calls made by hand, to test the decoding of factord.Error
without a daemon. The google.rpc messages are the ones factord decodes with
(its generated ones, or googleapis-common-protos' when installed)."""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

import grpc

from factord._errors import error_details_pb2, status_pb2


class FakeCall(grpc.RpcError):
    """What a failed call raises: code, details and trailing metadata."""

    def __init__(self, code: grpc.StatusCode, details: str,
                 trailer: Optional[bytes] = None) -> None:
        self._code, self._details = code, details
        self._trailer: Sequence[Tuple[str, object]] = (
            [("grpc-status-details-bin", trailer)] if trailer is not None else []
        )

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details

    def trailing_metadata(self) -> Sequence[Tuple[str, object]]:
        return self._trailer


def status_with_details() -> bytes:
    """A serialized google.rpc.Status: QUEUE_FULL with metadata, a 1.5 s
    RetryInfo (under a non-canonical type URL prefix) and a BadRequest."""
    status = status_pb2.Status(code=8, message="queue full")
    info = error_details_pb2.ErrorInfo(reason="QUEUE_FULL", domain="factord.v1")
    info.metadata["queue"] = "256"
    retry = error_details_pb2.RetryInfo()
    retry.retry_delay.seconds, retry.retry_delay.nanos = 1, 500_000_000
    bad = error_details_pb2.BadRequest()
    bad.field_violations.add(field="options.x", description="why")
    for detail in (info, retry, bad):
        status.details.add().Pack(detail)
    status.details[1].type_url = "example.org/google.rpc.RetryInfo"
    return status.SerializeToString()
