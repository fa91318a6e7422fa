"""factord.Client: the factord.v1.Solver service from Python.

A thin wrapper over the generated gRPC stub, in the manner of the C++
client (client/factord_client.h): matrices are named by the client (a UUID4
when the caller gives no ID); every request that names a matrix carries the
metadata header ``x-factord-matrix-id`` so that a mesh can route all
requests for one matrix to the daemon that holds it; large arrays go in
chunks under the server's message limit; many right-hand sides share one
bidirectional Solve stream; replies are plain dataclasses; failures raise
factord.Error with the server's reason. Calls that fail in transit are
retried (RetryPolicy, _retry.py); an address where nothing listens fails
at once.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from typing import (
    Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple, TypeVar, Union,
)

import grpc
import numpy as np

from . import _matrix
from ._errors import Error, client_error, from_rpc_error
from ._options import parse_value, set_fields
from ._retry import RetryPolicy, backoff, never_reached_error, retried_in_transit
from ._retry import with_server_details
from ._types import FactorReport, MatrixInfo, ServerInfo, SolveReport, StepResult
from ._wire.v1 import solver_pb2 as pb
from ._wire.v1 import solver_pb2_grpc as pb_grpc

MATRIX_ID_HEADER = "x-factord-matrix-id"
DEFAULT_SERVER = "127.0.0.1:50051"
DEFAULT_MAX_CHUNK_BYTES = 1 << 20
DEFAULT_MAX_RECEIVE_MESSAGE_BYTES = 64 << 20
# Longest wait between two attempts to reconnect to a daemon that went away
# (gRPC's backoff otherwise grows to minutes): retries see it soon after it
# is back.
RECONNECT_BACKOFF_MS = 1000
# The gRPC health check every daemon serves: the probe of the connection.
HEALTH_CHECK_METHOD = "/grpc.health.v1.Health/Check"
# How long a watch of the channel's state waits for its first report.
_STATE_REPORT_TIMEOUT_S = 1.0

T = TypeVar("T")

#: Shift of the diagonal at factorization: a scalar (added to every diagonal
#: entry) or ``(first, rest, count)`` (``first`` on the first ``count``
#: diagonal entries, ``rest`` on the others).
Shift = Union[float, Tuple[float, float, int]]


def new_matrix_id() -> str:
    """A random RFC 4122 version-4 UUID, lower-case 8-4-4-4-12 hex."""
    return str(uuid.uuid4())


class Client:
    """A connection to one factord daemon (or to a mesh in front of many).

    Args:
        address: gRPC target, e.g. ``"127.0.0.1:50051"`` or
            ``"dns:///factord:50051"``. Default: ``$FACTORD_SERVER``, else
            ``127.0.0.1:50051``.
        token: bearer token, sent as ``authorization: Bearer <token>``.
            Default: ``$FACTORD_TOKEN`` when set.
        tls: None or False for plaintext; True for TLS with the system's
            roots; or a dict (or object with attributes) with PEM file paths
            ``ca`` (the CA that signed the server), ``cert`` and ``key`` (a
            client certificate, for mutual TLS) and optionally
            ``server_name`` (the name to check the server's certificate
            against, when it differs from the address).
        timeout: deadline of every call in seconds (a Solve stream as a
            whole; each attempt of a retried call); None: no deadline.
        max_chunk_bytes: upper bound on the size of every request message;
            the smaller of it and the server's ``max_message_bytes``
            (ServerInfo, asked once) is used.
        max_receive_message_bytes: largest reply message accepted.
        retry: the RetryPolicy of calls that failed in transit; None: the
            default, up to 5 attempts, 0.1 s doubling to 2 s apart, within
            15 s. ``RetryPolicy(max_attempts=1)``: no retry.

    A first connection that fails (nothing listens at the address) fails
    the call at once with UNAVAILABLE, a message naming the address and how
    to start a daemon there, and the ErrorInfo metadata
    ``first_connection="failed"``; retries are for a daemon that was
    reached and went away (restarting).

    The client is thread-safe and may be used as a context manager
    (``close()`` on exit). Enum-valued arguments take lower-case names
    derived from solver.proto (``"ldlt"``, ``"amd"``, ``"bunch_kaufman"``).
    """

    def __init__(
        self,
        address: Optional[str] = None,
        token: Optional[str] = None,
        tls: Any = None,
        timeout: Optional[float] = None,
        *,
        max_chunk_bytes: int = DEFAULT_MAX_CHUNK_BYTES,
        max_receive_message_bytes: int = DEFAULT_MAX_RECEIVE_MESSAGE_BYTES,
        retry: Optional[RetryPolicy] = None,
    ) -> None:
        self.address: str = address or os.environ.get("FACTORD_SERVER") or DEFAULT_SERVER
        self.token: Optional[str] = token if token is not None else os.environ.get("FACTORD_TOKEN")
        self.timeout = timeout
        self.max_chunk_bytes = int(max_chunk_bytes)
        self.retry = RetryPolicy() if retry is None else retry
        options = [
            ("grpc.max_receive_message_length", int(max_receive_message_bytes)),
            ("grpc.max_send_message_length", -1),
            ("grpc.initial_reconnect_backoff_ms", RECONNECT_BACKOFF_MS),
            ("grpc.max_reconnect_backoff_ms", RECONNECT_BACKOFF_MS),
            # Reconnecting re-resolves the target, which the DNS resolver
            # otherwise allows only every 30 s.
            ("grpc.dns_min_time_between_resolutions_ms", RECONNECT_BACKOFF_MS),
        ]
        credentials = _channel_credentials(tls, options)
        if credentials is None:
            self._channel = grpc.insecure_channel(self.address, options=options)
        else:
            self._channel = grpc.secure_channel(self.address, credentials, options=options)
        self._stub = pb_grpc.SolverStub(self._channel)
        # grpc.health.v1.Health/Check, bytes in and out (no generated code
        # needed for an empty request whose reply is not read).
        self._health = self._channel.unary_unary(HEALTH_CHECK_METHOD)
        self._lock = threading.Lock()
        self._server_max_message_bytes: Optional[int] = None
        # What this client uploaded, per ID: (structure, n, nnz, pattern
        # fingerprint), to send new values in the stored order.
        self._uploaded: Dict[str, Tuple[str, int, int, bytes]] = {}
        self._reached = False  # the channel has been connected once
        self._retries = 0

    # -- connection --------------------------------------------------------

    def close(self) -> None:
        """Closes the channel; calls afterwards fail."""
        self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"factord.Client({self.address!r})"

    @property
    def retries(self) -> int:
        """Attempts beyond the first made by the retry policy, over all
        calls."""
        with self._lock:
            return self._retries

    # -- matrices ----------------------------------------------------------

    def upload(
        self,
        A: Any,
        structure: str = "auto",
        id: Optional[str] = None,
        replace: bool = False,
    ) -> MatrixInfo:
        """Uploads a square sparse matrix; returns what the server holds.

        Args:
            A: any scipy.sparse matrix or array, or CSR arrays
                ``(indptr, indices, data, n)`` (0-based). Integer values are
                converted to float64; complex values are refused.
            structure: ``"auto"`` (symmetric matrices are sent as their lower
                triangle, ``"symmetric_lower"``; others ``"general"``),
                ``"general"``, ``"symmetric_lower"`` (or ``"symmetric"``) or
                ``"spd_lower"`` (or ``"spd"``). With a symmetric structure
                the lower triangle of ``A`` is sent and its upper triangle
                ignored.
            id: the matrix's name (1..256 printable ASCII characters, no
                space); default: a new UUID4.
            replace: replace a matrix already held under ``id`` (its
                generation advances); without it that is ALREADY_EXISTS.

        Returns:
            MatrixInfo with the ID to use afterwards, at generation 1 (or the
            next one when it replaced a matrix).

        Raises:
            Error: INVALID_MATRIX (client-side: not square, complex,
                inconsistent arrays; server-side: NaN/Inf, duplicates, ...),
                INVALID_OPTION (unknown structure), ALREADY_EXISTS,
                MATRIX_TOO_LARGE, ...
        """
        m = _matrix.to_csr(A)
        structure = _matrix.wire_structure(structure)
        if structure == "auto":
            structure = "symmetric_lower" if _matrix.is_symmetric(m) else "general"
        structure_number = parse_value(pb.Structure.DESCRIPTOR, structure, "header.structure")
        if structure != "general":
            m = _matrix.lower_triangle(m)
        matrix_id = new_matrix_id() if id is None else _check_id(id, "header.id")

        header = pb.UploadRequest(
            header=pb.MatrixHeader(
                id=matrix_id, n=m.n, nnz=m.nnz, structure=structure_number, replace=replace
            )
        )
        budget = _matrix.payload_bytes(self._chunk_bytes())

        def requests() -> Iterator[pb.UploadRequest]:
            yield header
            for chunk in _matrix.csr_chunks(m, budget):
                yield pb.UploadRequest(csr=chunk)

        def attempt(k: int) -> Any:
            try:
                return self._stub.UploadMatrix(
                    requests(), timeout=self.timeout, metadata=self._metadata(matrix_id)
                )
            except grpc.RpcError as e:
                # A repeat that finds the ID taken: the attempt that failed
                # in transit got through (a replacing upload never
                # conflicts).
                if k > 1 and not replace and e.code() == grpc.StatusCode.ALREADY_EXISTS:
                    return None
                raise

        reply = self._with_retries(attempt)
        info = self.get(matrix_id) if reply is None else MatrixInfo.from_proto(reply)
        with self._lock:
            self._uploaded[matrix_id] = (info.structure, m.n, m.nnz, m.pattern_fingerprint())
        return info

    def update(
        self, id: str, A_or_values: Any, expected_generation: int = 0
    ) -> MatrixInfo:
        """Replaces the values of matrix ``id``, keeping its pattern; its
        factorization becomes stale (factorize again before solving).

        Args:
            id: the matrix.
            A_or_values: a matrix of the same pattern as the uploaded one
                (as accepted by :meth:`upload`; for a symmetric structure its
                lower triangle is taken), or the new values as a 1-D array in
                stored-entry order (CSR order of what was sent, nnz of them).
            expected_generation: apply only if the matrix is at this
                generation (0: no check), so that a retried update is
                applied at most once.

        Returns:
            MatrixInfo with the new generation.

        Raises:
            Error: GENERATION_MISMATCH, NOT_FOUND, INVALID_MATRIX (a matrix
                of another pattern, a wrong number of values, complex or
                non-finite values), ...
        """
        _check_id(id, "id")
        values = self._values_for(id, A_or_values)
        per_chunk = _matrix.payload_bytes(self._chunk_bytes(), len(id)) // _matrix.VALUE_BYTES

        def requests() -> Iterator[pb.UpdateValuesRequest]:
            offset = 0
            while True:  # at least one message: it names the matrix
                request = pb.UpdateValuesRequest()
                if offset == 0:
                    request.id = id
                    request.expected_generation = expected_generation
                end = min(values.size, offset + per_chunk)
                request.values.extend(values[offset:end].tolist())
                offset = end
                yield request
                if offset >= values.size:
                    return

        reply = self._call(self._stub.UpdateValues, requests, id)
        return MatrixInfo.from_proto(reply)

    def factorize(
        self,
        id: str,
        method: str = "auto",
        shift: Optional[Shift] = None,
        expected_generation: int = 0,
        **options: Any,
    ) -> FactorReport:
        """Factorizes matrix ``id`` (the analysis is reused when its pattern
        was analysed before).

        Args:
            id: the matrix.
            method: ``"auto"`` (ldlt for symmetric matrices, lu for general
                ones), ``"ldlt"``, ``"lu"``, ``"block_ildlt"``,
                ``"jacobi_ldlt"``, ``"ic"``, ``"ilu"``, ``"block_jacobi"``,
                ``"jacobi"`` or ``"none"``.
            shift: diagonal shift without re-upload (IPM regularization): a
                scalar added to every diagonal entry, or ``(first, rest,
                count)``: ``first`` added to the first ``count`` diagonal
                entries and ``rest`` to the others.
            expected_generation: factorize only if the matrix is at this
                generation (0: no check).
            **options: FactorOptions fields by their proto names: ordering
                (auto, natural, amd, metis, rcm, gmc), pivoting
                (bunch_kaufman or bk, static, rook), scaling (auto, none,
                ruiz, matching, column_norm), blocking (rb, br), trisolve
                (exact, jacobi, block_jacobi), max_block_size, fill_level,
                drop_tolerance, fill_factor, sweeps, epsilon, delta,
                trisolve_sweeps, shift_first, shift_rest, shift_count,
                deterministic, pivot_threshold: every field of FactorOptions
                in solver.proto. Unset: the server's default.

        Returns:
            FactorReport (status, inertia, pivots, timings, ...). A singular
            or perturbed factorization is a report, not an error.

        Raises:
            Error: INVALID_OPTION (an unknown option or name, client-side;
                an invalid value, server-side), NOT_FOUND,
                GENERATION_MISMATCH, UNSUPPORTED, CACHE_BUDGET, ...
        """
        _check_id(id, "id")
        request = pb.FactorizeRequest(id=id, expected_generation=expected_generation)
        request.method = parse_value(pb.Method.DESCRIPTOR, method, "method")
        set_fields(request.options, options, "options.")
        if shift is not None:
            _set_shift(request.options, shift, options)
        reply = self._call(self._stub.Factorize, request, id)
        return FactorReport.from_proto(reply)

    def solve(
        self,
        id: str,
        b: Any,
        expected_generation: int = 0,
        return_reports: bool = False,
        **solve_options: Any,
    ) -> Union[np.ndarray, Tuple[np.ndarray, List[SolveReport]]]:
        """Solves A x = b with the factorization of matrix ``id``.

        Args:
            id: the matrix (factorized, not stale).
            b: right-hand side(s): a 1-D array of n values, or a 2-D
                (n, k) array whose k columns are right-hand sides. All go
                through one stream.
            expected_generation: solve only with a factorization of this
                generation of the matrix (0: no check).
            return_reports: also return one SolveReport per right-hand side.
            **solve_options: SolveOptions fields: krylov (auto, none, cg,
                gmres, sqmr, idr, bicgstab), tolerance, max_iterations,
                restart, idr_s. Unset: the server's defaults (tolerance
                1e-8, 1000 iterations, restart 50, IDR s = 4).

        Returns:
            x with the shape of ``b`` (float64), or ``(x, reports)`` with
            ``return_reports``. A numerically failed solve is a report
            (status, residual), not an error.

        Raises:
            Error: NOT_FACTORIZED, STALE_FACTOR, NOT_FOUND, INVALID_REQUEST
                (a right-hand side of the wrong length or dtype),
                INVALID_OPTION, GENERATION_MISMATCH, ...
        """
        _check_id(id, "id")
        rhs, columns = _right_hand_sides(b, "values")
        wire_options = pb.SolveOptions()
        set_fields(wire_options, solve_options, "options.")
        k_rhs, n = columns.shape
        if k_rhs == 0:
            x = _Solutions(k_rhs, n).x_like(rhs)
            return (x, []) if return_reports else x
        per_chunk = _matrix.payload_bytes(self._chunk_bytes(), len(id)) // _matrix.VALUE_BYTES

        def requests() -> Iterator[pb.SolveRequest]:
            first = True
            for index, offset, end in _rhs_chunks(columns, per_chunk):
                request = pb.SolveRequest(rhs_index=index, offset=offset, last=end == n)
                if first:  # the first message names the matrix and options
                    request.id = id
                    request.options.CopyFrom(wire_options)
                    request.expected_generation = expected_generation
                    first = False
                request.values.extend(columns[index, offset:end].tolist())
                yield request

        def attempt(k: int) -> _Solutions:
            results = _Solutions(k_rhs, n)
            replies = self._stub.Solve(
                requests(), timeout=self.timeout, metadata=self._metadata(id)
            )
            for reply in replies:
                if not results.add(reply):
                    replies.cancel()
                    raise results.malformed(reply)
            return results

        results = self._with_retries(attempt)
        reports = results.reports()
        x = results.x_like(rhs)
        return (x, reports) if return_reports else x

    def step(
        self,
        id: str,
        values: Any = None,
        b: Any = None,
        *,
        method: str = "auto",
        shift: Optional[Shift] = None,
        diagonal_shift: Any = None,
        expected_generation: int = 0,
        **options: Any,
    ) -> StepResult:
        """One interior-point iteration in one round trip (the Step RPC):
        new values, factorize with shifts (reusing the analysis), solve.

        Equivalent to ``update`` + ``factorize`` + ``solve`` (bit for bit),
        in one stream: the daemon answers when everything has arrived.

        Args:
            id: the matrix.
            values: the new values, as for :meth:`update` (a matrix of the
                uploaded pattern, or nnz values in stored-entry order); None
                factorizes the values the matrix holds.
            b: right-hand side(s) as for :meth:`solve` (n,) or (n, k); None
                solves nothing.
            method: as for :meth:`factorize`.
            shift: as for :meth:`factorize` (a scalar or ``(first, rest,
                count)``).
            diagonal_shift: n values added to the diagonal on top of
                ``shift`` (one per row), or None.
            expected_generation: the generation the matrix must be at
                before the new values (0: no check); a retried step whose
                values were applied already is GENERATION_MISMATCH, so it is
                applied at most once.
            **options: FactorOptions fields (as for :meth:`factorize`) and
                SolveOptions fields (as for :meth:`solve`), by name.

        Returns:
            StepResult: the FactorReport (its generation is the matrix's
            after the new values), x with the shape of ``b`` (None without
            ``b``) and one SolveReport per right-hand side.

        Raises:
            Error: as :meth:`update`, :meth:`factorize` and :meth:`solve`.
        """
        _check_id(id, "header.id")
        request = pb.StepRequest()
        header = request.header
        header.id = id
        header.expected_generation = expected_generation
        header.method = parse_value(pb.Method.DESCRIPTOR, method, "header.method")
        unknown = [k for k in options if k not in _FACTOR_OPTION_NAMES | _SOLVE_OPTION_NAMES]
        if unknown:
            raise client_error(
                "INVALID_OPTION",
                f"unknown option {unknown[0]!r}; the options are: "
                + ", ".join(sorted(_FACTOR_OPTION_NAMES | _SOLVE_OPTION_NAMES)),
                "header.options." + unknown[0],
            )
        factor_options = {k: v for k, v in options.items() if k in _FACTOR_OPTION_NAMES}
        solve_options = {k: v for k, v in options.items() if k in _SOLVE_OPTION_NAMES}
        set_fields(header.options, factor_options, "header.options.")
        if shift is not None:
            _set_shift(header.options, shift, factor_options)
        set_fields(header.solve_options, solve_options, "header.solve_options.")
        new_values = None if values is None else self._values_for(id, values)
        header.new_values = new_values is not None
        diagonal = None
        if diagonal_shift is not None:
            diagonal = _matrix.real_values(diagonal_shift, "diagonal shift values")
            if diagonal.ndim != 1:
                raise client_error(
                    "INVALID_OPTION", "diagonal_shift is one value per row (1-D)",
                    "header.diagonal_shift",
                )
        header.diagonal_shift = diagonal is not None
        rhs, columns = (None, np.zeros((0, 0))) if b is None else _right_hand_sides(b, "rhs")
        k, n = columns.shape
        header.rhs_count = k
        per_chunk = _matrix.payload_bytes(self._chunk_bytes()) // _matrix.VALUE_BYTES

        def requests() -> Iterator[pb.StepRequest]:
            yield request
            for array, part in ((new_values, "values"), (diagonal, "diagonal")):
                if array is None:
                    continue
                for offset in range(0, array.size, per_chunk):
                    message = pb.StepRequest()
                    getattr(message, part).values.extend(
                        array[offset:offset + per_chunk].tolist()
                    )
                    yield message
            for index, offset, end in _rhs_chunks(columns, per_chunk):
                message = pb.StepRequest()
                message.rhs.rhs_index = index
                message.rhs.offset = offset
                message.rhs.values.extend(columns[index, offset:end].tolist())
                message.rhs.last = end == n
                yield message

        def attempt(_: int) -> Tuple[Optional[FactorReport], _Solutions]:
            report: Optional[FactorReport] = None
            results = _Solutions(k, n)
            replies = self._stub.Step(
                requests(), timeout=self.timeout, metadata=self._metadata(id)
            )
            for reply in replies:
                if reply.HasField("factorization"):
                    report = FactorReport.from_proto(reply.factorization)
                elif report is None or not results.add(reply.solution):
                    replies.cancel()
                    raise results.malformed(reply.solution)
            return report, results

        report, results = self._with_retries(attempt)
        if report is None:
            raise Error(
                grpc.StatusCode.INTERNAL, "INTERNAL",
                "the server ended the Step without the factorization's report",
            )
        reports = results.reports()
        return StepResult(
            report=report,
            x=None if rhs is None else results.x_like(rhs),
            reports=tuple(reports),
        )

    def release(self, id: str) -> int:
        """Frees matrix ``id`` and its factors on the server; returns the
        bytes freed. Raises Error NOT_FOUND when nothing is held."""
        _check_id(id, "id")

        def attempt(k: int) -> int:
            try:
                reply = self._stub.Release(
                    pb.ReleaseRequest(id=id), timeout=self.timeout,
                    metadata=self._metadata(id),
                )
            except grpc.RpcError as e:
                # A repeat that finds nothing: the first attempt released it.
                if k > 1 and e.code() == grpc.StatusCode.NOT_FOUND:
                    return 0
                raise
            return int(reply.bytes_freed)

        freed = self._with_retries(attempt)
        with self._lock:
            self._uploaded.pop(id, None)
        return freed

    def get(self, id: str) -> MatrixInfo:
        """What the server holds about matrix ``id`` (its generation, whether
        it is factorized or stale). Raises Error NOT_FOUND."""
        _check_id(id, "id")
        return MatrixInfo.from_proto(
            self._call(self._stub.GetMatrix, pb.GetMatrixRequest(id=id), id)
        )

    def list(self, page_size: int = 0) -> List[MatrixInfo]:
        """Every matrix the caller holds on the server, sorted by ID (all
        pages: follows next_page_token). ``page_size`` 0 is the server's
        default (100)."""
        result: List[MatrixInfo] = []
        token = ""
        while True:
            reply = self._call(
                self._stub.ListMatrices,
                pb.ListMatricesRequest(page_size=page_size, page_token=token),
                None,
            )
            result.extend(MatrixInfo.from_proto(m) for m in reply.matrices)
            token = reply.next_page_token
            if not token:
                return result

    def info(self) -> ServerInfo:
        """What the daemon says about itself: version, backend, cache use,
        limits (max_n, max_nnz, max_message_bytes), methods offered."""
        reply = self._call(self._stub.ServerInfo, pb.ServerInfoRequest(), None)
        info = ServerInfo.from_proto(reply)
        with self._lock:
            self._server_max_message_bytes = info.max_message_bytes
        return info

    # -- internals ---------------------------------------------------------

    def _metadata(self, matrix_id: Optional[str]) -> List[Tuple[str, str]]:
        metadata = []
        if self.token:
            metadata.append(("authorization", f"Bearer {self.token}"))
        if matrix_id:
            metadata.append((MATRIX_ID_HEADER, matrix_id))
        return metadata

    def _call(
        self,
        method: Any,
        request: Any,
        matrix_id: Optional[str],
        timeout: Optional[float] = None,
        retry: Optional[RetryPolicy] = None,
    ) -> Any:
        """One unary or client-streaming call with the retry policy (the
        client's unless ``retry`` is given), errors as factord.Error.
        ``request`` is the request message, or a function that makes the
        request iterator (called once per attempt)."""
        timeout = self.timeout if timeout is None else timeout
        return self._with_retries(
            lambda _: method(
                request() if callable(request) else request,
                timeout=timeout,
                metadata=self._metadata(matrix_id),
            ),
            retry,
        )

    def _with_retries(
        self, attempt: Callable[[int], T], retry: Optional[RetryPolicy] = None
    ) -> T:
        """Runs ``attempt`` (given its number, from 1) until it returns,
        fails in a way the retry policy (the client's unless ``retry`` is
        given) does not retry, or the policy's attempts or time are spent;
        grpc.RpcError becomes factord.Error."""
        start = time.monotonic()
        self._await_first_contact(None if self.timeout is None else start + self.timeout)
        policy = self.retry if retry is None else retry
        end = start + policy.total_timeout
        k = 1
        while True:
            try:
                return attempt(k)
            except grpc.RpcError as e:
                error = from_rpc_error(e)
                if k >= max(1, policy.max_attempts) or not retried_in_transit(e):
                    raise error from None
                wait = backoff(policy, k, error.retry_delay)
                if time.monotonic() + wait > end:
                    raise error from None
                time.sleep(wait)
                # A daemon restarting: the next attempt waits for it.
                if not self._await_connection(end):
                    raise error from None
            with self._lock:
                self._retries += 1
            k += 1

    def _await_first_contact(self, deadline: Optional[float]) -> None:
        """Returns once the channel has been connected (at once when it has
        been before). Raises the error of never_reached_error when its first
        connection fails, DEADLINE_EXCEEDED when neither happens by
        ``deadline`` (time.monotonic(); None: no limit)."""
        if self._reached:
            return
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        # A health check that does not wait for the connection: it connects
        # the channel, and fails at once when the connection fails.
        failure = self._health_check(wait_for_ready=False, timeout=timeout)
        if failure is not None and failure.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
            raise Error(
                grpc.StatusCode.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED",
                f"no connection to {self.address} within the call's deadline",
            )
        # UNAVAILABLE without details is gRPC's when the connection failed,
        # or a proxy's (502, 503) when it has no daemon: connected then.
        if (failure is not None and failure.code() == grpc.StatusCode.UNAVAILABLE
                and not with_server_details(failure)
                and self._connectivity() != grpc.ChannelConnectivity.READY):
            raise never_reached_error(self.address, failure.details() or "") from None
        self._reached = True

    def _await_connection(self, end: float) -> bool:
        """Whether the channel is connected by ``end`` (time.monotonic()),
        asking it to connect: a health check that waits for the connection
        until then."""
        failure = self._health_check(
            wait_for_ready=True, timeout=max(0.0, end - time.monotonic())
        )
        return failure is None or failure.code() != grpc.StatusCode.DEADLINE_EXCEEDED

    def _health_check(
        self, wait_for_ready: bool, timeout: Optional[float]
    ) -> Optional[grpc.RpcError]:
        """The daemon's gRPC health check (grpc.health.v1, an empty request,
        the reply's bytes unread): None when it answered OK, else the failed
        call. Any answer means the channel is connected."""
        try:
            self._health(
                b"", timeout=timeout, wait_for_ready=wait_for_ready,
                metadata=self._metadata(None),
            )
        except grpc.RpcError as e:
            return e
        return None

    def _connectivity(self) -> Optional[grpc.ChannelConnectivity]:
        """The channel's connectivity state now. Watched without asking the
        channel to connect (the polling thread gRPC starts for a watch that
        asks may outlive close() and fail on the closed channel)."""
        known = threading.Event()
        states: List[grpc.ChannelConnectivity] = []

        def watch(state: grpc.ChannelConnectivity) -> None:
            states.append(state)
            known.set()

        self._channel.subscribe(watch, try_to_connect=False)
        try:
            known.wait(_STATE_REPORT_TIMEOUT_S)
        finally:
            self._channel.unsubscribe(watch)
        return states[0] if states else None

    def _chunk_bytes(self) -> int:
        """The request message budget: max_chunk_bytes, and no more than the
        server's max_message_bytes (asked once; 1 MiB assumed if it cannot
        be asked, and asked again next time)."""
        with self._lock:
            server_max = self._server_max_message_bytes
        if server_max is None:
            try:
                server_max = self.info().max_message_bytes
            except Error:
                server_max = DEFAULT_MAX_CHUNK_BYTES
        if server_max <= 0:
            server_max = DEFAULT_MAX_CHUNK_BYTES
        return min(self.max_chunk_bytes, server_max)

    def _values_for(self, id: str, A_or_values: Any) -> np.ndarray:
        """The values to send for matrix ``id``, in its stored-entry order."""
        is_matrix = hasattr(A_or_values, "tocsr") or (
            isinstance(A_or_values, (tuple, list))
            and len(A_or_values) == 4
            and np.ndim(A_or_values[0]) == 1
            and np.ndim(A_or_values[3]) == 0
        )
        if not is_matrix:
            values = _matrix.real_values(A_or_values)
            if values.ndim != 1:
                raise _matrix.invalid_matrix(
                    f"values have {values.ndim} dimensions: give a matrix or a "
                    "1-D array of values in stored-entry order"
                )
            return values
        with self._lock:
            known = self._uploaded.get(id)
        if known is None:
            info = self.get(id)
            structure, n, nnz, fingerprint = info.structure, info.n, info.nnz, None
        else:
            structure, n, nnz, fingerprint = known
        m = _matrix.to_csr(A_or_values)
        if structure != "general":
            m = _matrix.lower_triangle(m)
        if m.n != n or m.nnz != nnz or (
            fingerprint is not None and m.pattern_fingerprint() != fingerprint
        ):
            raise _matrix.invalid_matrix(
                f"the new matrix (n = {m.n}, {m.nnz} stored entries) does not "
                f"have the pattern of matrix {id!r} (n = {n}, {nnz} stored "
                "entries): upload it instead"
            )
        return m.data


def _check_id(id: Any, field: str) -> str:
    if not isinstance(id, str) or not id:
        raise client_error(
            "INVALID_REQUEST", "the request names no matrix (empty ID)", field
        )
    return id


def _set_shift(options: pb.FactorOptions, shift: Shift, given: Mapping[str, Any]) -> None:
    """shift -> shift_first / shift_rest / shift_count."""
    clash = [k for k in ("shift_first", "shift_rest", "shift_count") if k in given]
    if clash:
        raise client_error(
            "INVALID_OPTION",
            f"shift and {clash[0]} both given: use one or the other",
            "options." + clash[0],
        )
    if isinstance(shift, (tuple, list)):
        if len(shift) != 3:
            raise client_error(
                "INVALID_OPTION",
                "shift is a scalar or (first, rest, count)",
                "options.shift_first",
            )
        first, rest, count = shift
        set_fields(
            options,
            {"shift_first": first, "shift_rest": rest, "shift_count": count},
            "options.",
        )
    else:
        set_fields(options, {"shift_rest": shift}, "options.")


def _read_pem(option: str, path: Any) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise client_error(
            "INVALID_OPTION",
            f"tls {option}: cannot read {str(path)!r}: {e.strerror}",
            "tls." + option,
        ) from None
    if not data:
        raise client_error(
            "INVALID_OPTION", f"tls {option}: {str(path)!r} is empty", "tls." + option
        )
    return data


def _channel_credentials(
    tls: Any, channel_options: List[Tuple[str, Any]]
) -> Optional[grpc.ChannelCredentials]:
    """None for plaintext, else SSL credentials from ``tls`` (see Client);
    a ``server_name`` is added to ``channel_options``."""
    if tls is None or tls is False:
        return None
    if tls is True:
        return grpc.ssl_channel_credentials()

    def setting(name: str) -> Any:
        if isinstance(tls, Mapping):
            return tls.get(name)
        return getattr(tls, name, None)

    if isinstance(tls, Mapping):
        unknown = set(tls) - {"ca", "cert", "key", "server_name"}
        if unknown:
            raise client_error(
                "INVALID_OPTION",
                f"unknown tls setting {sorted(unknown)[0]!r}; the settings are "
                "ca, cert, key, server_name",
                "tls",
            )
    ca, cert, key = setting("ca"), setting("cert"), setting("key")
    if (cert is None) != (key is None):
        raise client_error(
            "INVALID_OPTION",
            "tls cert and key go together (client certificate)",
            "tls.cert" if cert is None else "tls.key",
        )
    server_name = setting("server_name")
    if server_name:
        channel_options.append(("grpc.ssl_target_name_override", str(server_name)))
    return grpc.ssl_channel_credentials(
        root_certificates=_read_pem("ca", ca) if ca is not None else None,
        private_key=_read_pem("key", key) if key is not None else None,
        certificate_chain=_read_pem("cert", cert) if cert is not None else None,
    )


_FACTOR_OPTION_NAMES = frozenset(f.name for f in pb.FactorOptions.DESCRIPTOR.fields)
_SOLVE_OPTION_NAMES = frozenset(f.name for f in pb.SolveOptions.DESCRIPTOR.fields)


def _right_hand_sides(b: Any, field: str) -> Tuple[np.ndarray, np.ndarray]:
    """``b`` as an array, and its columns as the rows of a contiguous
    float64 (k, n) array. INVALID_REQUEST for a non-real dtype or a shape
    other than (n,) and (n, k)."""
    rhs = np.asarray(b)
    if np.iscomplexobj(rhs) or rhs.dtype.kind not in "biuf":
        raise client_error(
            "INVALID_REQUEST", f"right-hand sides of dtype {rhs.dtype}: real numbers only", field
        )
    if rhs.ndim not in (1, 2):
        raise client_error(
            "INVALID_REQUEST",
            f"b has {rhs.ndim} dimensions: give one right-hand side (n,) or "
            "several as the columns of an (n, k) array",
            field,
        )
    columns = np.ascontiguousarray(rhs[np.newaxis, :] if rhs.ndim == 1 else rhs.T,
                                   dtype=np.float64)
    if columns.shape[0] >= 2**32:
        raise client_error("INVALID_REQUEST", "too many right-hand sides", "rhs_index")
    return rhs, columns


def _rhs_chunks(columns: np.ndarray, per_chunk: int) -> Iterator[Tuple[int, int, int]]:
    """(index, offset, end) of every chunk of every right-hand side, in
    order; one (empty) chunk for a right-hand side of no values."""
    k, n = columns.shape
    for index in range(k):
        offset = 0
        while True:
            end = min(n, offset + per_chunk)
            yield index, offset, end
            offset = end
            if offset >= n:
                break


class _Solutions:
    """Solution chunks (SolveReply) of k right-hand sides of n values."""

    def __init__(self, k: int, n: int) -> None:
        self.n = n
        self.x = np.zeros((k, n), dtype=np.float64)
        self.done: List[Optional[SolveReport]] = [None] * k

    def add(self, reply: pb.SolveReply) -> bool:
        """Stores one chunk; False when it does not fit (malformed)."""
        index, offset, count = reply.rhs_index, reply.offset, len(reply.values)
        if index >= len(self.done) or self.done[index] is not None or offset < 0 \
                or offset + count > self.n:
            return False
        if count:
            self.x[index, offset:offset + count] = reply.values
        if reply.last:
            self.done[index] = SolveReport.from_proto(reply)
        return True

    def malformed(self, reply: pb.SolveReply) -> Error:
        return Error(
            grpc.StatusCode.INTERNAL, "INTERNAL",
            f"malformed solution chunk for right-hand side {reply.rhs_index} "
            f"at offset {reply.offset}",
        )

    def reports(self) -> List[SolveReport]:
        """One report per right-hand side; INTERNAL if one is missing."""
        missing = [i for i, r in enumerate(self.done) if r is None]
        if missing:
            raise Error(
                grpc.StatusCode.INTERNAL, "INTERNAL",
                f"the server ended without a result for right-hand side {missing[0]}",
            )
        return list(self.done)  # type: ignore[arg-type]

    def x_like(self, rhs: np.ndarray) -> np.ndarray:
        """The solutions in the shape of the right-hand sides ``rhs``."""
        if rhs.ndim == 1:
            return self.x[0] if len(self.done) else np.zeros(0)
        return np.ascontiguousarray(self.x.T)
