"""Test matrices built with scipy, and small helpers of the Python tests."""

from __future__ import annotations

from typing import Optional

import numpy as np
import scipy.sparse as sp

import factord


def poisson2d(m: int) -> sp.csr_matrix:
    """The 5-point Laplacian on an m x m grid (n = m^2, SPD)."""
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(m, m))
    eye = sp.identity(m)
    return (sp.kron(eye, t) + sp.kron(t, eye)).tocsr()


def random_kkt(n: int, m: int, seed: int = 0, delta: float = 1e-8) -> sp.csr_matrix:
    """An IPM-like KKT matrix [[H + D, J^T], [J, -delta I]]: H sparse SPD-ish,
    J (m x n) of full row rank: symmetric indefinite with n positive and m
    negative eigenvalues."""
    rng = np.random.default_rng(seed)
    h = sp.random(n, n, density=4.0 / n, random_state=rng)
    h = h @ h.T + sp.diags(rng.uniform(1.0, 2.0, n))
    j = sp.random(m, n, density=3.0 / n, random_state=rng)
    j = j + sp.hstack([sp.identity(m), sp.csr_matrix((m, n - m))])  # full row rank
    return sp.bmat([[h, j.T], [j, -delta * sp.identity(m)]]).tocsr()


def planted_growth() -> sp.csr_matrix:
    """A 40 x 40 symmetric matrix on which ldlt (default pivot threshold
    0.01, ordering auto) reports status "ok" with an inertia it does not
    trust: pivot growth, nothing perturbed. The system of
    tests/pardiso/pardiso_numerics_test.c (which explains it): leaves with
    pivots +-1/9.9e8 (weak pivots) whose updates leave a pivot of about 2e7
    next to couplings of about 2e9, twice, so that two threshold pivots with
    |l| near 100 follow. At pivot threshold 0.1 the inertia is trusted:
    (36, 4, 0)."""
    clique, r, z = 30, 30, 31
    rows, cols, vals = [], [], []

    def add(i: int, j: int, v: float) -> None:
        rows.append(i)
        cols.append(j)
        vals.append(v)
        if i != j:
            rows.append(j)
            cols.append(i)
            vals.append(v)

    for i in range(clique):
        add(i, i, 1.0)
        for j in range(i):
            add(i, j, 0.01)
    add(r, r, 1.0)
    for i in range(20):
        add(r, i, 0.0)
    add(z, z, 1.0)
    add(z, r, 0.5)
    for i in range(10, 17):
        add(z, i, 0.0)
    for g, (sign, d) in enumerate(((1.0, 2e7), (-1.0, 2.06e7))):
        inv1 = 9.9e8
        inv2 = inv1 - d
        x1 = z + 1 + 4 * g
        x2, y, q = x1 + 1, x1 + 2, x1 + 3
        add(x1, x1, sign / inv1)
        add(x2, x2, -sign / inv2)
        add(y, y, 1.0)
        add(q, q, 0.0)
        add(q, x1, 1.0)
        add(r, x1, 1.0)
        add(0, x1, sign)
        add(q, x2, 1.0)
        add(r, x2, -1.0)
        add(0, x2, -sign)
        add(q, y, 0.5)
        for i in range(20 + 3 * g, 23 + 3 * g):
            add(y, i, 0.0)
        add(q, r, 0.0)
        for i in range(1 + 3 * g, 4 + 3 * g):
            add(q, i, 0.0)
    # Explicit zeros are part of the pattern (they shape the ordering).
    a = sp.coo_matrix((vals, (rows, cols)), shape=(40, 40)).tocsr()
    a.sort_indices()
    return a


def random_unsymmetric(n: int, seed: int = 0) -> sp.csr_matrix:
    """A sparse, diagonally dominant, unsymmetric matrix."""
    rng = np.random.default_rng(seed)
    a = sp.random(n, n, density=5.0 / n, random_state=rng)
    dominance = np.asarray(abs(a).sum(axis=1)).ravel() + 1.0
    return (a + sp.diags(dominance)).tocsr()


def release_quietly(c: factord.Client, matrix_id: Optional[str]) -> None:
    if matrix_id is None:
        return
    try:
        c.release(matrix_id)
    except factord.Error:
        pass
