"""factord.factorized: scipy.sparse.linalg.factorized, on a daemon.

``solve = factord.factorized(A)`` uploads A under a new UUID and factorizes
it; ``solve(b)`` returns x. The matrix is released on the server when the
object is closed (``close()``, the end of a ``with`` block) or garbage
collected (weakref.finalize), whichever comes first.
"""

from __future__ import annotations

import warnings
import weakref
from typing import Any, Dict, List, Optional

import numpy as np

from ._client import Client, Shift
from ._errors import client_error
from ._options import field_names, set_fields
from ._retry import RetryPolicy
from ._types import FactorReport, MatrixInfo, SolveReport
from ._wire.v1 import solver_pb2 as pb

# Release on close / collection: a short deadline, so that a daemon gone
# away cannot hold up the program (it frees idle matrices itself).
RELEASE_TIMEOUT_S = 5.0


class SolveWarning(RuntimeWarning):
    """A factorization that is not ``ok`` or a solve that did not converge,
    reported by :func:`factorized` (as scipy warns on a singular matrix).
    The reports themselves are on the Factorized object."""


def _release(client: Client, matrix_id: str, close_client: bool) -> None:
    timeout = RELEASE_TIMEOUT_S
    if client.timeout is not None:
        timeout = min(client.timeout, RELEASE_TIMEOUT_S)
    try:
        # One attempt: this may run in a finalizer, which must not wait for
        # a daemon that is gone.
        client._call(
            client._stub.Release, pb.ReleaseRequest(id=matrix_id), matrix_id,
            timeout=timeout, retry=RetryPolicy(max_attempts=1),
        )
    except Exception:  # already released, evicted, or the daemon is gone
        pass
    finally:
        if close_client:
            client.close()


class Factorized:
    """A factorized matrix held by a daemon; call it to solve.

    Made by :func:`factorized`. ``x = f(b)`` (or ``f.solve(b)``) solves
    A x = b for a 1-D b or for the columns of a 2-D b, like the function
    scipy.sparse.linalg.factorized returns.

    Attributes:
        client: the Client it uses.
        id: the matrix's ID on the server.
        info: the MatrixInfo of the upload.
        report: the FactorReport of the factorization.
        reports: the SolveReports of the last solve, one per right-hand side.
    """

    def __init__(
        self,
        client: Client,
        info: MatrixInfo,
        report: FactorReport,
        solve_options: Dict[str, Any],
        close_client: bool,
    ) -> None:
        self.client = client
        self.id = info.id
        self.info = info
        self.report = report
        self.reports: List[SolveReport] = []
        self._solve_options = dict(solve_options)
        self._finalizer = weakref.finalize(self, _release, client, info.id, close_client)

    def solve(self, b: Any, **solve_options: Any) -> np.ndarray:
        """x with A x = b (b of shape (n,) or (n, k)); ``solve_options`` as
        for Client.solve, over those given to factorized(). Warns
        (SolveWarning) when a right-hand side did not converge."""
        if self.closed:
            raise client_error(
                "INVALID_REQUEST",
                f"matrix {self.id} was released (the Factorized object is closed)",
                "id",
            )
        options = {**self._solve_options, **solve_options}
        x, reports = self.client.solve(self.id, b, return_reports=True, **options)
        self.reports = reports
        failed = [(i, r) for i, r in enumerate(reports) if not r.converged]
        if failed:
            i, r = failed[0]
            warnings.warn(
                f"factord: {len(failed)} of {len(reports)} right-hand sides did not "
                f"converge (right-hand side {i}: {r.status}, relative residual "
                f"{r.relative_residual:.3g})",
                SolveWarning,
                stacklevel=2,
            )
        return x

    __call__ = solve

    def close(self) -> None:
        """Releases the matrix on the server (once; later calls do nothing)."""
        self._finalizer()

    @property
    def closed(self) -> bool:
        """Whether the matrix was released."""
        return not self._finalizer.alive

    def __enter__(self) -> "Factorized":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"n={self.info.n}, method={self.report.method}"
        return f"<factord.Factorized {self.id} {state}>"


_FACTOR_OPTIONS = frozenset(field_names(pb.FactorOptions))
_SOLVE_OPTIONS = frozenset(field_names(pb.SolveOptions))


def factorized(
    A: Any,
    client: Optional[Client] = None,
    *,
    structure: str = "auto",
    method: str = "auto",
    shift: Optional[Shift] = None,
    **options: Any,
) -> Factorized:
    """Uploads and factorizes A; returns a callable that solves with it.

    Like scipy.sparse.linalg.factorized:
    ``solve = factorized(A); x = solve(b)``. Use it as a context manager, or
    call ``close()``, to release the matrix on the server; it is also
    released when garbage collected.

    Args:
        A: any scipy.sparse matrix, or ``(indptr, indices, data, n)``.
        client: the Client to use; default: a new one from
            ``$FACTORD_SERVER`` / ``$FACTORD_TOKEN``, closed with the
            returned object.
        structure: as for Client.upload (``"auto"`` detects symmetry).
        method: as for Client.factorize (``"auto"``: ldlt for symmetric
            matrices, lu for general ones).
        shift: as for Client.factorize.
        **options: FactorOptions fields (ordering, pivoting, ...) for the
            factorization and SolveOptions fields (krylov, tolerance, ...)
            for every solve.

    Returns:
        Factorized, with ``report`` (the FactorReport) and ``info``.

    Raises:
        Error: as Client.upload and Client.factorize (INVALID_OPTION for an
            option that is neither a factorization nor a solve option).

    Warns:
        SolveWarning: when the factorization's status is not ``ok``.
    """
    factor_options: Dict[str, Any] = {}
    solve_options: Dict[str, Any] = {}
    for key, value in options.items():
        if key in _FACTOR_OPTIONS:
            factor_options[key] = value
        elif key in _SOLVE_OPTIONS:
            solve_options[key] = value
        else:
            raise client_error(
                "INVALID_OPTION",
                f"unknown option {key!r}; the options are: "
                + ", ".join(sorted(_FACTOR_OPTIONS | _SOLVE_OPTIONS)),
                "options." + key,
            )
    # Check the solve options now rather than at the first solve.
    set_fields(pb.SolveOptions(), solve_options, "options.")
    close_client = client is None
    if client is None:
        client = Client()
    try:
        info = client.upload(A, structure=structure)
    except BaseException:
        if close_client:
            client.close()
        raise
    try:
        report = client.factorize(info.id, method=method, shift=shift, **factor_options)
    except BaseException:
        _release(client, info.id, close_client)
        raise
    result = Factorized(client, info, report, solve_options, close_client)
    if report.status != "ok":
        warnings.warn(
            f"factord: the factorization of {info.id} is {report.status} "
            f"({report.message or 'no message'})",
            SolveWarning,
            stacklevel=2,
        )
    return result

