"""factord.factorized: the scipy.sparse.linalg.factorized look-alike, and
that it releases its matrix when closed, at the end of a with block, or when
garbage-collected."""

from __future__ import annotations

import gc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import factord
from matrices import poisson2d, random_kkt, random_unsymmetric


def held(client: factord.Client, matrix_id: str) -> bool:
    try:
        client.get(matrix_id)
        return True
    except factord.Error as e:
        assert e.reason == "NOT_FOUND"
        return False


@pytest.mark.parametrize(
    "matrix", [poisson2d(25), random_kkt(200, 80, seed=2), random_unsymmetric(300, seed=3)]
)
def test_like_scipy_factorized(client: factord.Client, matrix: sp.csr_matrix) -> None:
    solve_ref = sla.factorized(matrix.tocsc())
    b = np.random.default_rng(4).standard_normal((matrix.shape[0], 3))
    with factord.factorized(matrix, client=client) as solve:
        assert held(client, solve.id) and solve.report.status == "ok"
        for column in range(3):
            np.testing.assert_allclose(
                solve(b[:, column]), solve_ref(b[:, column]), rtol=1e-9, atol=1e-12
            )
        x = solve(b)  # several columns at once
        assert x.shape == b.shape and len(solve.reports) == 3
        np.testing.assert_allclose(x[:, 1], solve_ref(b[:, 1]), rtol=1e-9, atol=1e-12)
    assert solve.closed and not held(client, solve.id)


def test_close_is_idempotent_and_solving_after_it_fails(client: factord.Client) -> None:
    solve = factord.factorized(poisson2d(5), client=client)
    solve.close()
    solve.close()
    assert not held(client, solve.id)
    with pytest.raises(factord.Error) as e:
        solve(np.ones(25))
    assert e.value.reason == "INVALID_REQUEST"


def test_garbage_collection_releases(client: factord.Client) -> None:
    solve = factord.factorized(poisson2d(5), client=client)
    matrix_id = solve.id
    assert held(client, matrix_id)
    del solve
    gc.collect()
    assert not held(client, matrix_id)


def test_options_go_to_factorize_and_solve(client: factord.Client) -> None:
    a = poisson2d(20)
    b = np.ones(a.shape[0])
    with factord.factorized(
        a, client=client, method="ic", fill_level=1, krylov="cg", tolerance=1e-12
    ) as solve:
        assert solve.report.method == "ic"
        x = solve(b)
        assert solve.reports[0].iterations > 0
        assert np.linalg.norm(b - a @ x) / np.linalg.norm(b) < 1e-11


def test_default_client_from_the_environment(daemon, monkeypatch) -> None:
    monkeypatch.setenv("FACTORD_SERVER", daemon.address)
    with factord.factorized(poisson2d(4)) as solve:
        assert solve.client.address == daemon.address
        np.testing.assert_allclose(poisson2d(4) @ solve(np.ones(16)), np.ones(16), rtol=1e-12)


def test_a_failed_factorization_releases_the_upload(client: factord.Client) -> None:
    before = {m.id for m in client.list()}
    with pytest.raises(factord.Error) as e:
        factord.factorized(poisson2d(5), client=client, method="block_ildlt", fill_factor=-1.0)
    assert e.value.reason == "INVALID_OPTION"
    assert {m.id for m in client.list()} == before


def test_singular_matrix_warns(client: factord.Client) -> None:
    a = sp.csr_matrix(np.array([[1.0, 1.0], [1.0, 1.0]]))
    with pytest.warns(factord.SolveWarning):
        solve = factord.factorized(a, client=client, method="ldlt")
    with solve:
        with pytest.warns(factord.SolveWarning, match="did not converge"):
            solve(np.array([1.0, 2.0]))
    # A well-posed one does not warn.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with factord.factorized(poisson2d(3), client=client) as ok:
            ok(np.ones(9))
