#!/usr/bin/env python3
"""factord from Python, a runnable tutorial (docs/python.md has the API).

    PYTHONPATH=build/python /usr/bin/python3 docs/tutorial_python.py [--server HOST:PORT]

Without --server (or $FACTORD_SERVER) it starts build/server/factord on a
free loopback port for the length of the tutorial. tests/python runs it in
CI (test_tutorial.py), so it stays runnable.

Part 1 is the one-liner for SciPy users: factord.factorized(A) in place of
scipy.sparse.linalg.factorized(A). Part 2 is the loop an interior-point
method runs: one upload of the KKT matrix, then every iteration new values,
a factorization with a diagonal shift that reuses the analysis, the inertia
check, and two solves on one stream; as three calls, or as one Step.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import factord


def part1_factorized(client: factord.Client) -> None:
    print("== Part 1: factord.factorized, like scipy.sparse.linalg.factorized")
    m = 60  # 2D Poisson, n = 3600
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(m, m))
    A = (sp.kron(sp.identity(m), t) + sp.kron(t, sp.identity(m))).tocsr()
    b = np.ones(A.shape[0])

    # Upload (as symmetric_lower: A is symmetric) and factorize (auto: ldlt).
    with factord.factorized(A, client=client) as solve:
        x = solve(b)                                  # one right-hand side
        X = solve(np.column_stack([b, 2 * b, -b]))    # three, on one stream
        print(f"matrix {solve.id}: n = {solve.info.n}, {solve.report.method}, "
              f"inertia {tuple(solve.report.inertia)}")
    # Released on the server at the end of the with block.
    x_ref = sla.spsolve(A.tocsc(), b)
    print(f"||x - x_spsolve|| / ||x_spsolve|| = "
          f"{np.linalg.norm(x - x_ref) / np.linalg.norm(x_ref):.1e}; "
          f"X[:, 1] == 2 x: {np.allclose(X[:, 1], 2 * x)}")


def kkt(h_diag: np.ndarray, J: sp.csr_matrix) -> sp.csr_matrix:
    """[[H, J^T], [J, 0]] with H diagonal (an LP's barrier Hessian)."""
    m = J.shape[0]
    return sp.bmat([[sp.diags(h_diag), J.T], [J, sp.csr_matrix((m, m))]]).tocsr()


def part2_ipm_loop(client: factord.Client) -> None:
    print("== Part 2: an interior-point loop on one uploaded pattern")
    rng = np.random.default_rng(0)
    n, m = 400, 150
    J = (sp.random(m, n, density=0.02, random_state=rng)
         + sp.hstack([sp.identity(m), sp.csr_matrix((m, n - m))])).tocsr()
    K = kkt(np.ones(n), J)

    info = client.upload(K)  # named with a new UUID; generation 1
    print(f"uploaded {info.id}: n = {info.n}, nnz = {info.nnz} ({info.structure})")
    shift = (1e-8, -1e-8, n)  # +1e-8 on the first n diagonal entries (the
    # primal block), -1e-8 on the others (the dual block): regularization
    try:
        x = np.ones(n)
        generation = info.generation
        for iteration in range(1, 7):
            rhs = rng.standard_normal((n + m, 2))  # predictor and corrector
            if iteration == 1:
                # The first factorization analyses the pattern.
                report = client.factorize(info.id, method="ldlt", shift=shift)
                d, reports = client.solve(info.id, rhs, return_reports=True)
            else:
                # New barrier values, same pattern: only values travel (keep
                # h > 0: scipy drops entries that arithmetic makes zero, and
                # the pattern must not change).
                h = 1.0 / np.maximum(x, 1e-3) ** 2
                K_next = kkt(h, J)
                if iteration <= 3:
                    # Three calls: update, factorize (reusing the analysis), solve.
                    generation = client.update(
                        info.id, K_next, expected_generation=generation).generation
                    report = client.factorize(info.id, method="ldlt", shift=shift)
                    d, reports = client.solve(info.id, rhs, expected_generation=generation,
                                              return_reports=True)
                else:
                    # The same in one round trip.
                    step = client.step(info.id, K_next, rhs, method="ldlt", shift=shift,
                                       expected_generation=generation)
                    report, d, reports = step.report, step.x, step.reports
                    generation = report.generation
            if report.inertia != (n, m, 0):
                raise SystemExit(f"wrong inertia {report.inertia}: increase the shift")
            x = np.abs(x + 0.1 * d[:n, 0]) + 1e-2
            print(f"iteration {iteration}: generation {report.generation}, analysis reused "
                  f"{report.analysis_reused}, inertia {tuple(report.inertia)}, residuals "
                  + ", ".join(f"{r.relative_residual:.1e}" for r in reports))
    except factord.Error as e:
        # code and reason say what happened: e.g. GENERATION_MISMATCH when
        # another client changed the values, NOT_FOUND after a daemon restart.
        print(f"failed: {e.code.name} [{e.reason}] {e.message}")
        raise
    finally:
        client.release(info.id)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default=os.environ.get("FACTORD_SERVER"))
    args = parser.parse_args()
    if args.server:
        with factord.Client(args.server, timeout=60) as client:
            part1_factorized(client)
            part2_ipm_loop(client)
        return 0
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests/python"))
    from daemon import Daemon  # starts build/server/factord on loopback

    with tempfile.TemporaryDirectory() as workdir, Daemon(workdir, "factord") as d:
        with factord.Client(d.address, timeout=60) as client:
            part1_factorized(client)
            part2_ipm_loop(client)
    return 0


if __name__ == "__main__":
    sys.exit(main())
