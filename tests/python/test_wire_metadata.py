"""What goes on the wire besides the messages: the routing header
x-factord-matrix-id on every call that names a matrix (and on no other),
the bearer token, deadlines; seen by a gRPC client interceptor."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

import grpc
import numpy as np

import factord
from factord._wire.v1 import solver_pb2_grpc
from matrices import poisson2d


class Recorder(
    grpc.UnaryUnaryClientInterceptor,
    grpc.StreamUnaryClientInterceptor,
    grpc.StreamStreamClientInterceptor,
):
    """Records (method, metadata, timeout) of every call."""

    def __init__(self) -> None:
        self.calls: List[Tuple[str, dict, Optional[float]]] = []

    def _record(self, details: grpc.ClientCallDetails) -> None:
        self.calls.append((details.method, dict(details.metadata or ()), details.timeout))

    def intercept_unary_unary(self, continuation: Callable, details: Any, request: Any) -> Any:
        self._record(details)
        return continuation(details, request)

    def intercept_stream_unary(self, continuation: Callable, details: Any, requests: Any) -> Any:
        self._record(details)
        return continuation(details, requests)

    def intercept_stream_stream(self, continuation: Callable, details: Any, requests: Any) -> Any:
        self._record(details)
        return continuation(details, requests)


def recording_client(address: str, **kwargs: Any) -> Tuple[factord.Client, Recorder]:
    c = factord.Client(address, **kwargs)
    recorder = Recorder()
    c._stub = solver_pb2_grpc.SolverStub(grpc.intercept_channel(c._channel, recorder))
    return c, recorder


def test_every_call_naming_a_matrix_carries_the_routing_header(daemon) -> None:
    c, recorder = recording_client(daemon.address, timeout=30, token="t0ken")
    with c:
        a = poisson2d(4)
        info = c.upload(a, id="route-me")
        c.update("route-me", a)
        c.factorize("route-me")
        c.solve("route-me", np.ones(16))
        c.step("route-me", a, np.ones(16))
        c.get("route-me")
        c.list()
        c.info()
        c.release("route-me")
    assert info.id == "route-me"
    names = [method.rsplit("/", 1)[-1] for method, _, _ in recorder.calls]
    # ServerInfo first: the client asks the message limit once.
    assert names == ["ServerInfo", "UploadMatrix", "UpdateValues", "Factorize", "Solve",
                     "Step", "GetMatrix", "ListMatrices", "ServerInfo", "Release"]
    for method, metadata, timeout in recorder.calls:
        name = method.rsplit("/", 1)[-1]
        assert method.startswith("/factord.v1.Solver/")
        if name in ("ServerInfo", "ListMatrices"):
            assert factord.MATRIX_ID_HEADER not in metadata
        else:
            assert metadata[factord.MATRIX_ID_HEADER] == "route-me", name
        assert metadata["authorization"] == "Bearer t0ken"
        assert timeout is not None and 0 < timeout <= 30


def test_token_from_the_environment(daemon, monkeypatch) -> None:
    monkeypatch.setenv("FACTORD_TOKEN", "from-env")
    c, recorder = recording_client(daemon.address, timeout=30)
    with c:
        c.info()
    assert recorder.calls[0][1]["authorization"] == "Bearer from-env"
    monkeypatch.delenv("FACTORD_TOKEN")
    c, recorder = recording_client(daemon.address)
    with c:
        c.info()
    method, metadata, timeout = recorder.calls[0]
    assert "authorization" not in metadata and timeout is None
