"""factord: the factord sparse linear solver daemon, from Python.

Send scipy.sparse matrices to a factord daemon, factorize them there and
solve with numpy right-hand sides::

    import factord
    solve = factord.factorized(A)        # upload + factorize (A: scipy.sparse)
    x = solve(b)                         # b: (n,) or (n, k)
    solve.close()                        # release the matrix on the server

or, step by step (an interior-point method's loop)::

    with factord.Client("127.0.0.1:50051") as c:
        info = c.upload(K)                        # named with a new UUID
        report = c.factorize(info.id, method="ldlt", shift=1e-8)
        report.inertia                            # (positive, negative, zero)
        x = c.solve(info.id, rhs)
        c.update(info.id, K_next, expected_generation=info.generation)
        # ...or the whole iteration in one round trip:
        r = c.step(info.id, K_next, rhs, method="ldlt", shift=1e-8)
        r.report.inertia, r.x

Failures raise :class:`factord.Error` with the gRPC code and the server's
reason (``"NOT_FOUND"``, ``"INVALID_OPTION"``, ...). Calls that fail in
transit (a daemon restarting, a proxy's 502) are retried by default
(:class:`factord.RetryPolicy`). docs/python.md has the whole API.
"""

from ._client import MATRIX_ID_HEADER, Client, Shift, new_matrix_id
from ._errors import ERROR_DOMAIN, Error
from ._factorized import Factorized, SolveWarning, factorized
from ._retry import RetryPolicy
from ._types import (
    FactorReport,
    Inertia,
    MatrixInfo,
    ServerInfo,
    SolveReport,
    StepResult,
    Timings,
)
from ._version import __version__

__all__ = [
    "Client",
    "factorized",
    "Factorized",
    "Error",
    "RetryPolicy",
    "MatrixInfo",
    "FactorReport",
    "Inertia",
    "SolveReport",
    "StepResult",
    "Timings",
    "ServerInfo",
    "SolveWarning",
    "new_matrix_id",
    "Shift",
    "MATRIX_ID_HEADER",
    "ERROR_DOMAIN",
    "__version__",
]
