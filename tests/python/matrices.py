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
