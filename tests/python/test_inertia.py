"""Inertia of ldlt against numpy.linalg.eigvalsh on small symmetric
indefinite matrices, with and without a diagonal shift."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import factord
from matrices import planted_growth, random_kkt, release_quietly


def eigen_inertia(dense: np.ndarray, tol: float = 1e-9) -> tuple:
    w = np.linalg.eigvalsh(dense)
    scale = max(1.0, np.abs(w).max())
    return (int(np.sum(w > tol * scale)), int(np.sum(w < -tol * scale)),
            int(np.sum(np.abs(w) <= tol * scale)))


def random_indefinite(n: int, seed: int) -> sp.csr_matrix:
    """Sparse symmetric, eigenvalues well away from 0 on both sides."""
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    w = rng.uniform(0.5, 2.0, n) * rng.choice([-1.0, 1.0], n)
    dense = (q * w) @ q.T
    dense[np.abs(dense) < 0.05] = 0.0  # sparsify, then make it exact again
    dense = (dense + dense.T) / 2
    return sp.csr_matrix(dense)


@pytest.mark.parametrize("n, seed", [(6, 0), (12, 1), (25, 2), (40, 3), (40, 4)])
def test_inertia_matches_eigvalsh(client: factord.Client, n: int, seed: int) -> None:
    a = random_indefinite(n, seed)
    expected = eigen_inertia(a.toarray())
    assert expected[2] == 0 and expected[1] > 0  # indefinite, non-singular
    info = client.upload(a)
    try:
        assert info.structure == "symmetric_lower"
        report = client.factorize(info.id, method="ldlt")
        assert report.inertia_reliable
        assert report.inertia == expected
        assert sum(report.inertia) == n
    finally:
        release_quietly(client, info.id)


def test_kkt_inertia_and_shift(client: factord.Client) -> None:
    a = random_kkt(60, 25, seed=7, delta=1e-6)
    assert eigen_inertia(a.toarray()) == (60, 25, 0)
    info = client.upload(a)
    try:
        report = client.factorize(info.id, method="ldlt")
        assert report.inertia == factord.Inertia(60, 25, 0)
        # A shift of -(largest eigenvalue + 1) on every diagonal entry makes
        # the matrix negative definite; the shift is applied by the daemon.
        top = float(np.linalg.eigvalsh(a.toarray()).max())
        shifted = client.factorize(info.id, method="ldlt", shift=-(top + 1.0))
        assert shifted.analysis_reused
        assert shifted.inertia == (0, 85, 0)
        # (first, rest, count): the first 60 entries (the H block) get +top+1
        # and the rest (the -delta block) -1: still 60 positive, 25 negative.
        expected = eigen_inertia(
            a.toarray() + np.diag(np.r_[np.full(60, top + 1.0), np.full(25, -1.0)])
        )
        split = client.factorize(info.id, method="ldlt", shift=(top + 1.0, -1.0, 60))
        assert split.inertia == expected == (60, 25, 0)
    finally:
        release_quietly(client, info.id)


def test_status_ok_does_not_make_the_inertia_reliable(client: factord.Client) -> None:
    # Pivot growth, nothing perturbed: status "ok", inertia not trusted, and
    # the message says why; a larger pivot threshold gives a trusted one.
    a = planted_growth()
    assert a.nnz == 2 * 531 - 40  # the explicit zeros were kept
    info = client.upload(a)
    try:
        report = client.factorize(info.id, method="ldlt")
        assert report.status == "ok"
        assert report.perturbed_pivots == 0
        assert not report.inertia_reliable
        assert "inertia unreliable" in report.message
        careful = client.factorize(info.id, method="ldlt", pivot_threshold=0.1)
        assert careful.status == "ok" and careful.inertia_reliable
        assert careful.inertia == (36, 4, 0)
    finally:
        release_quietly(client, info.id)


def test_singular_matrix_is_a_report_not_an_error(client: factord.Client) -> None:
    # [[1, 1], [1, 1]] and a zero row/column: eigenvalues 2, 0, 0.
    a = sp.csr_matrix(np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]))
    info = client.upload(a)
    try:
        report = client.factorize(info.id, method="ldlt")
        assert report.status in ("singular", "perturbed")
        assert not report.inertia_reliable
        assert report.inertia == (1, 0, 2)
        x, (r,) = client.solve(info.id, [1.0, 2.0, 3.0], return_reports=True)
        assert not r.converged and r.status == "singular"
    finally:
        release_quietly(client, info.id)
