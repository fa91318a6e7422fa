"""Solutions against scipy.sparse.linalg.spsolve on scipy-built matrices:
2D Poisson, a random KKT system, an unsymmetric matrix; one and many
right-hand sides; the methods of the daemon."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import factord
from matrices import poisson2d, random_kkt, random_unsymmetric, release_quietly


def relative(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.linalg.norm(x - y) / np.linalg.norm(y))


@pytest.mark.parametrize(
    "name, matrix, method, structure",
    [
        ("poisson", poisson2d(40), "auto", "symmetric_lower"),
        ("poisson_spd", poisson2d(30), "ldlt", "symmetric_lower"),
        ("kkt", random_kkt(600, 250, seed=3), "ldlt", "symmetric_lower"),
        ("unsymmetric", random_unsymmetric(800, seed=4), "auto", "general"),
    ],
)
def test_matches_spsolve(client: factord.Client, name, matrix, method, structure) -> None:
    info = client.upload(matrix)
    try:
        assert info.structure == structure
        assert info.n == matrix.shape[0] and info.generation == 1
        report = client.factorize(info.id, method=method)
        assert report.status == "ok"
        assert report.method == ("lu" if structure == "general" else "ldlt")
        b = np.random.default_rng(0).standard_normal(info.n)
        x, reports = client.solve(info.id, b, return_reports=True)
        assert x.shape == b.shape and x.dtype == np.float64
        assert reports[0].converged
        assert reports[0].relative_residual < 1e-10
        x_ref = sla.spsolve(matrix.tocsc(), b)
        assert relative(x, x_ref) < 1e-8
        assert np.linalg.norm(b - matrix @ x) / np.linalg.norm(b) < 1e-10
    finally:
        release_quietly(client, info.id)


def test_many_right_hand_sides_in_one_stream(client: factord.Client) -> None:
    a = random_kkt(300, 100, seed=5)
    n = a.shape[0]
    info = client.upload(a)
    try:
        client.factorize(info.id, method="ldlt")
        rng = np.random.default_rng(1)
        # 150 columns of 400 values: 480 KB of right-hand sides, many chunks
        # under the daemon's 256 KiB message limit.
        b = rng.standard_normal((n, 150))
        x, reports = client.solve(info.id, b, return_reports=True)
        assert x.shape == b.shape and x.flags.c_contiguous
        assert len(reports) == 150 and all(r.converged for r in reports)
        x_ref = sla.spsolve(a.tocsc(), b)
        np.testing.assert_allclose(x, x_ref, rtol=0, atol=1e-8 * np.abs(x).max())
        # One column, as (n, 1), and a list of floats.
        x1 = client.solve(info.id, b[:, :1])
        assert x1.shape == (n, 1)
        np.testing.assert_allclose(x1[:, 0], x[:, 0], rtol=1e-12, atol=1e-12)
        x2 = client.solve(info.id, b[:, 7].tolist())
        np.testing.assert_allclose(x2, x[:, 7], rtol=1e-12, atol=1e-12)
        # Integer right-hand sides are converted.
        xi = client.solve(info.id, np.ones(n, dtype=np.int64))
        assert np.linalg.norm(a @ xi - 1.0) / np.sqrt(n) < 1e-10
        # No right-hand side: nothing sent, an empty answer.
        assert client.solve(info.id, np.zeros((n, 0))).shape == (n, 0)
    finally:
        release_quietly(client, info.id)


def test_long_vectors_are_chunked(client: factord.Client) -> None:
    """n = 90000: one right-hand side is 720 KB, several messages under the
    daemon's 256 KiB limit; the upload too."""
    a = poisson2d(300)
    info = client.upload(a)
    try:
        assert info.bytes_received > 262144  # it did take several messages
        client.factorize(info.id)
        b = np.ones(a.shape[0])
        x = client.solve(info.id, b)
        # Backward stable without refinement; the residual is then bounded
        # by about cond(A) eps (cond ~ 4e4 for this grid), not by eps.
        assert np.linalg.norm(b - a @ x) / np.linalg.norm(b) < 1e-11
    finally:
        release_quietly(client, info.id)


def test_krylov_options_and_incomplete_methods(client: factord.Client) -> None:
    a = poisson2d(30)
    b = np.ones(a.shape[0])
    info = client.upload(a, structure="spd")
    try:
        assert info.structure == "spd_lower"
        for method, options, krylov in [
            ("ic", {"fill_level": 0}, "cg"),
            ("block_jacobi", {"max_block_size": 8}, "cg"),
            ("block_ildlt", {"fill_level": 1, "ordering": "amd"}, "sqmr"),
        ]:
            report = client.factorize(info.id, method=method, **options)
            assert report.method == method
            x, (r,) = client.solve(
                info.id, b, krylov=krylov, tolerance=1e-10, max_iterations=500,
                return_reports=True,
            )
            assert r.converged and r.iterations > 0, (method, r)
            assert np.linalg.norm(b - a @ x) / np.linalg.norm(b) < 1e-9
    finally:
        release_quietly(client, info.id)


def test_general_structure_for_a_symmetric_matrix(client: factord.Client) -> None:
    a = poisson2d(10)
    info = client.upload(a, structure="general")
    try:
        assert info.structure == "general" and info.nnz == a.nnz
        client.factorize(info.id, method="lu")
        b = np.arange(a.shape[0], dtype=float)
        np.testing.assert_allclose(client.solve(info.id, b), sla.spsolve(a.tocsc(), b), rtol=1e-10)
    finally:
        release_quietly(client, info.id)


def test_csr_tuple_input(client: factord.Client) -> None:
    a = random_unsymmetric(50, seed=9)
    info = client.upload((a.indptr, a.indices, a.data, 50))
    try:
        client.factorize(info.id)
        b = np.ones(50)
        np.testing.assert_allclose(client.solve(info.id, b), sla.spsolve(a.tocsc(), b), rtol=1e-10)
    finally:
        release_quietly(client, info.id)


def test_integer_matrix(client: factord.Client) -> None:
    a = sp.csr_matrix(np.array([[4, 1, 0], [1, 3, 1], [0, 1, 2]], dtype=np.int64))
    info = client.upload(a)
    try:
        assert info.structure == "symmetric_lower" and info.nnz == 5
        client.factorize(info.id)
        x = client.solve(info.id, [1.0, 2.0, 3.0])
        np.testing.assert_allclose(a @ x, [1.0, 2.0, 3.0], rtol=1e-12)
    finally:
        release_quietly(client, info.id)
