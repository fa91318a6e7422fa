"""What the server replies, as plain frozen dataclasses.

Enumerations come back as their derived lower-case names (``"ldlt"``,
``"symmetric_lower"``, ``"converged"``; see factord._options).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Optional, Tuple

import numpy as np

from ._options import value_name
from ._wire.v1 import solver_pb2 as pb


@dataclass(frozen=True)
class MatrixInfo:
    """What the server holds about one matrix (MatrixInfo on the wire).

    Attributes:
        id: the matrix's name (chosen by the client).
        n: dimension (rows == columns).
        nnz: stored entries (the lower triangle with the diagonal for
            symmetric structures).
        structure: ``"general"``, ``"symmetric_lower"`` or ``"spd_lower"``.
        pattern_hash: the server's hash of the sparsity pattern.
        bytes: bytes the server holds for the matrix.
        bytes_received: bytes of the request stream that sent it.
        factorized: whether a factorization is held.
        stale: values changed since the last factorization.
        method: the method of the current factorization; ``""`` if none.
        generation: 1 after upload, +1 per update or replacing upload.
        factorized_generation: the generation of the factorization, or 0.
    """

    id: str
    n: int
    nnz: int
    structure: str
    pattern_hash: int = 0
    bytes: int = 0
    bytes_received: int = 0
    factorized: bool = False
    stale: bool = False
    method: str = ""
    generation: int = 0
    factorized_generation: int = 0

    @classmethod
    def from_proto(cls, p: pb.MatrixInfo) -> "MatrixInfo":
        return cls(
            id=p.id,
            n=p.n,
            nnz=p.nnz,
            structure=value_name(pb.Structure.DESCRIPTOR, p.structure),
            pattern_hash=p.pattern_hash,
            bytes=p.bytes,
            bytes_received=p.bytes_received,
            factorized=p.factorized,
            stale=p.stale,
            method=(
                "" if p.method == pb.METHOD_AUTO
                else value_name(pb.Method.DESCRIPTOR, p.method)
            ),
            generation=p.generation,
            factorized_generation=p.factorized_generation,
        )


@dataclass(frozen=True)
class Timings:
    """Seconds measured by the server, per stage."""

    preprocess_s: float = 0.0
    analyze_s: float = 0.0
    factorize_s: float = 0.0
    solve_s: float = 0.0
    queue_s: float = 0.0  # waiting for a worker

    @classmethod
    def from_proto(cls, p: pb.Timings) -> "Timings":
        return cls(p.preprocess_s, p.analyze_s, p.factorize_s, p.solve_s, p.queue_s)


class Inertia(NamedTuple):
    """Numbers of positive, negative and zero eigenvalues of the factorized
    matrix (with its shift), as found by the factorization."""

    positive: int
    negative: int
    zero: int


@dataclass(frozen=True)
class FactorReport:
    """The outcome of a factorization (FactorizeReply on the wire).

    A numerically singular or perturbed factorization is a report, not an
    error: check ``status`` and ``inertia_reliable`` (a status ``"ok"`` does
    not make the inertia reliable).

    Attributes:
        id: the matrix.
        method: the method used (``"auto"`` resolved, e.g. ``"ldlt"``).
        status: ``"ok"``, ``"singular"`` or ``"perturbed"``.
        inertia: (positive, negative, zero).
        inertia_reliable: whether ``inertia`` is the inertia of the matrix
            factorized (with its shifts): method ldlt, no pivot perturbed,
            and a factor that passed ldlt's check. False with status
            ``"perturbed"`` (numerically singular); False with status
            ``"ok"`` when pivot growth cost the factor its digits
            (``message`` says ``inertia unreliable``; the solves still
            report their own status): factorize again with a larger
            ``pivot_threshold`` (0.1, then 0.5), or regularize with shifts;
            always False for methods that give no inertia (block_ildlt,
            jacobi_ldlt, lu, ic, ilu, the Krylov-only ones). Test it, not
            only ``status``, before acting on the inertia.
        perturbed_pivots: pivots the factorization had to perturb.
        two_by_two_pivots: 2x2 pivots taken (Bunch-Kaufman, rook).
        delayed_pivots: pivots a front passed on to its parent (ldlt).
        nnz_factor: entries of the factor.
        factor_bytes: bytes of the factor on the server.
        analysis_reused: whether the symbolic analysis was reused (same
            pattern as an earlier factorization).
        blocks: blocks of the block methods.
        timings: server-side seconds per stage.
        message: the server's remark, if any.
        sweep_errors: jacobi_ldlt: ||L D L^T - A||_inf / ||A||_inf per sweep.
        generation: the generation of the values factorized.
    """

    id: str
    method: str
    status: str
    inertia: Inertia
    inertia_reliable: bool = False
    perturbed_pivots: int = 0
    two_by_two_pivots: int = 0
    delayed_pivots: int = 0
    nnz_factor: int = 0
    factor_bytes: int = 0
    analysis_reused: bool = False
    blocks: int = 0
    timings: Timings = field(default_factory=Timings)
    message: str = ""
    sweep_errors: Tuple[float, ...] = ()
    generation: int = 0

    @classmethod
    def from_proto(cls, p: pb.FactorizeReply) -> "FactorReport":
        return cls(
            id=p.id,
            method=value_name(pb.Method.DESCRIPTOR, p.method),
            status=value_name(pb.FactorStatus.DESCRIPTOR, p.factor_status),
            inertia=Inertia(p.inertia.positive, p.inertia.negative, p.inertia.zero),
            inertia_reliable=p.inertia_reliable,
            perturbed_pivots=p.perturbed_pivots,
            two_by_two_pivots=p.two_by_two_pivots,
            delayed_pivots=p.delayed_pivots,
            nnz_factor=p.nnz_factor,
            factor_bytes=p.factor_bytes,
            analysis_reused=p.analysis_reused,
            blocks=p.blocks,
            timings=Timings.from_proto(p.timings),
            message=p.message,
            sweep_errors=tuple(p.sweep_errors),
            generation=p.generation,
        )


@dataclass(frozen=True)
class SolveReport:
    """How the solve of one right-hand side went (the last SolveReply chunk).

    Attributes:
        status: ``"converged"``, ``"not_converged"``, ``"breakdown"`` or
            ``"singular"``.
        relative_residual: ||b - Ax||_2 / ||b||_2, the true residual of the
            system factorized: the matrix as uploaded plus its shifts.
        backward_error: ||b - Ax||_inf / (||A||_inf ||x||_inf + ||b||_inf).
        iterations: Krylov iterations (or refinement steps).
        timings: server-side seconds.
        message: the server's remark, if any.
    """

    status: str
    relative_residual: float
    backward_error: float
    iterations: int
    timings: Timings
    message: str = ""

    @property
    def converged(self) -> bool:
        """Whether the status is ``"converged"``."""
        return self.status == "converged"

    @classmethod
    def from_proto(cls, p: pb.SolveReply) -> "SolveReport":
        return cls(
            status=value_name(pb.SolveStatus.DESCRIPTOR, p.status),
            relative_residual=p.relative_residual,
            backward_error=p.backward_error,
            iterations=p.iterations,
            timings=Timings.from_proto(p.timings),
            message=p.message,
        )


@dataclass(frozen=True)
class StepResult:
    """What Client.step returns: one interior-point iteration's outcome.

    Attributes:
        report: the factorization's FactorReport; its generation is the
            matrix's after the new values.
        x: the solutions, in the shape of the right-hand sides given (None
            when none were).
        reports: one SolveReport per right-hand side.
    """

    report: FactorReport
    x: Optional[np.ndarray]
    reports: Tuple[SolveReport, ...] = ()


@dataclass(frozen=True)
class ServerInfo:
    """What a daemon says about itself (ServerInfoReply on the wire)."""

    version: str
    backend: str  # cpu | cuda
    device: str
    cache_bytes_used: int
    cache_bytes_budget: int
    cache_entries: int
    max_n: int
    max_nnz: int
    max_message_bytes: int
    threads: int
    workers: int
    methods: Tuple[str, ...]  # the methods this build offers

    @classmethod
    def from_proto(cls, p: pb.ServerInfoReply) -> "ServerInfo":
        return cls(
            version=p.version,
            backend=p.backend,
            device=p.device,
            cache_bytes_used=p.cache_bytes_used,
            cache_bytes_budget=p.cache_bytes_budget,
            cache_entries=p.cache_entries,
            max_n=p.max_n,
            max_nnz=p.max_nnz,
            max_message_bytes=p.max_message_bytes,
            threads=p.threads,
            workers=p.workers,
            methods=tuple(value_name(pb.Method.DESCRIPTOR, m) for m in p.methods),
        )
