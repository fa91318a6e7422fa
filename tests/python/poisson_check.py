#!/usr/bin/env python3
"""The Python package's headline check: ``factord.factorized(A)(b)`` agrees
with scipy.sparse.linalg.spsolve on the 2D Poisson matrix.

    PYTHONPATH=build/python /usr/bin/python3 tests/python/poisson_check.py --grid 320

builds the 5-point Laplacian on a grid x grid mesh with scipy (320: n =
102400), solves one random right-hand side with spsolve (SuperLU) and with
factord (upload + factorize, method auto = ldlt, then solve), and checks
||x - x_spsolve|| / ||x_spsolve|| <= 1e-10 and ||b - A x|| / ||b|| <= 1e-12.
Prints one JSON object with the figures and times; exits 1 when a bound is
not met. Without --server it starts build/server/factord on loopback
itself. test_headline.py runs the same check on a smaller grid in CI.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from typing import Any, Dict, Optional

import numpy as np
import scipy.sparse.linalg as sla

import factord
from matrices import poisson2d

DIFF_BOUND = 1e-10
RESIDUAL_BOUND = 1e-12


def check(client: factord.Client, grid: int, seed: int = 0) -> Dict[str, Any]:
    """Runs the comparison on a grid x grid Poisson matrix; the figures."""
    a = poisson2d(grid)
    n = a.shape[0]
    b = np.random.default_rng(seed).standard_normal(n)

    t0 = time.perf_counter()
    x_ref = sla.spsolve(a.tocsc(), b)
    t_spsolve = time.perf_counter() - t0

    t0 = time.perf_counter()
    with factord.factorized(a, client=client) as solve:
        t_factorized = time.perf_counter() - t0
        t1 = time.perf_counter()
        x = solve(b)
        t_solve = time.perf_counter() - t1
        report = solve.report
    t_factord = time.perf_counter() - t0

    diff = float(np.linalg.norm(x - x_ref) / np.linalg.norm(x_ref))
    residual = float(np.linalg.norm(b - a @ x) / np.linalg.norm(b))
    return {
        "grid": grid,
        "n": n,
        "nnz": int(a.nnz),
        "method": report.method,
        "nnz_factor": report.nnz_factor,
        "relative_difference": diff,
        "relative_residual": residual,
        "spsolve_s": round(t_spsolve, 3),
        "factord_total_s": round(t_factord, 3),
        "factord_upload_factorize_s": round(t_factorized, 3),
        "factord_solve_s": round(t_solve, 3),
        "server_factorize_s": round(report.timings.factorize_s, 3),
        "server_analyze_s": round(report.timings.analyze_s, 3),
        "ok": diff <= DIFF_BOUND and residual <= RESIDUAL_BOUND,
    }


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--grid", type=int, default=320, help="grid side (n = grid^2)")
    parser.add_argument("--server", help="factord address; default: start one")
    args = parser.parse_args(argv)
    if args.server:
        with factord.Client(args.server) as client:
            result = check(client, args.grid)
    else:
        from daemon import Daemon

        with tempfile.TemporaryDirectory() as workdir, Daemon(workdir, "factord") as d:
            with factord.Client(d.address) as client:
                result = check(client, args.grid)
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
