"""Client.step: one interior-point iteration (new values, shifts,
factorize, solve) in one round trip, against update + factorize + solve."""

from __future__ import annotations

import grpc
import numpy as np
import pytest

import scipy.sparse as sp

import factord
from matrices import random_kkt, release_quietly

N_PRIMAL, N_DUAL = 120, 50
# The shifts of these tests, (first, rest, count), and the diagonal they add:
# the system the daemon factorizes and solves.
SHIFT = (1e-8, -1e-8, N_PRIMAL)
SHIFT_DIAGONAL = sp.diags(np.r_[np.full(N_PRIMAL, 1e-8), np.full(N_DUAL, -1e-8)])


@pytest.fixture
def kkt_pair(client: factord.Client):
    """The same KKT matrix under two IDs: one for step, one for the
    three separate calls."""
    a = random_kkt(N_PRIMAL, N_DUAL, seed=21, delta=0.0)
    fused, separate = client.upload(a), client.upload(a)
    yield a, fused.id, separate.id
    release_quietly(client, fused.id)
    release_quietly(client, separate.id)


def test_step_equals_update_factorize_solve(client: factord.Client, kkt_pair) -> None:
    a, fused, separate = kkt_pair
    a2 = a.copy()
    a2.data = a2.data * 1.5
    b = np.random.default_rng(3).standard_normal((a.shape[0], 2))
    shift = SHIFT

    result = client.step(fused, a2, b, method="ldlt", shift=shift, expected_generation=1)
    assert isinstance(result, factord.StepResult)
    assert result.report.generation == 2 and result.report.analysis_reused is False
    assert result.report.inertia == (N_PRIMAL, N_DUAL, 0)
    assert result.x.shape == b.shape and len(result.reports) == 2
    assert all(r.converged for r in result.reports)

    client.update(separate, a2, expected_generation=1)
    report = client.factorize(separate, method="ldlt", shift=shift)
    x = client.solve(separate, b)
    assert report.inertia == result.report.inertia
    np.testing.assert_allclose(result.x, x, rtol=1e-13, atol=1e-15 * np.abs(x).max())
    shifted = a2 + SHIFT_DIAGONAL
    assert np.linalg.norm(shifted @ result.x - b) / np.linalg.norm(b) < 1e-10

    # A retried step of generation 1 is refused: applied at most once.
    with pytest.raises(factord.Error) as e:
        client.step(fused, a2, b, method="ldlt", expected_generation=1)
    assert e.value.reason == "GENERATION_MISMATCH"
    assert e.value.code == grpc.StatusCode.ABORTED
    assert client.get(fused).generation == 2


def test_step_without_values_or_right_hand_sides(client: factord.Client, kkt_pair) -> None:
    a, fused, _ = kkt_pair
    first = client.step(fused, method="ldlt", shift=SHIFT)
    assert first.x is None and first.reports == ()
    assert first.report.generation == 1
    b = np.ones(a.shape[0])
    again = client.step(fused, b=b, method="ldlt", shift=SHIFT,
                        krylov="none")
    assert again.report.analysis_reused and again.x.shape == b.shape
    assert np.linalg.norm((a + SHIFT_DIAGONAL) @ again.x - b) / np.linalg.norm(b) < 1e-10
    # New values as an array in stored-entry order (the lower triangle).
    info = client.get(fused)
    lower = np.tril(a.toarray())
    values = lower[np.nonzero(lower)]  # row-major: CSR order
    assert values.size == info.nnz
    r = client.step(fused, 2.0 * values, b, method="ldlt", expected_generation=1)
    assert r.report.generation == 2
    assert np.linalg.norm(2.0 * (a @ r.x) - b) / np.linalg.norm(b) < 1e-10


def test_diagonal_shift_adds_to_the_scalar_shifts(client: factord.Client, kkt_pair) -> None:
    a, fused, separate = kkt_pair
    n = a.shape[0]
    b = np.ones(n)
    top = float(np.linalg.eigvalsh(a.toarray()).max())
    # -(top + 1) on every diagonal entry: negative definite, either way.
    by_vector = client.step(fused, b=b, method="ldlt", diagonal_shift=np.full(n, -(top + 1.0)))
    by_scalar = client.step(separate, b=b, method="ldlt", shift=-(top + 1.0))
    assert by_vector.report.inertia == by_scalar.report.inertia == (0, n, 0)
    np.testing.assert_allclose(by_vector.x, by_scalar.x, rtol=1e-12, atol=1e-14)


def test_step_refusals(client: factord.Client, kkt_pair) -> None:
    a, fused, _ = kkt_pair
    for call, reason in [
        (lambda: client.step(fused, bogus=1), "INVALID_OPTION"),
        (lambda: client.step(fused, method="qr"), "INVALID_OPTION"),
        (lambda: client.step(fused, krylov="lsqr"), "INVALID_OPTION"),
        (lambda: client.step(fused, diagonal_shift=np.ones((2, 2))), "INVALID_OPTION"),
        (lambda: client.step(fused, b=np.ones(3)), "INVALID_REQUEST"),
        (lambda: client.step(fused, np.ones(3)), "INVALID_MATRIX"),
        (lambda: client.step("python-step-missing"), "NOT_FOUND"),
    ]:
        with pytest.raises(factord.Error) as e:
            call()
        assert e.value.reason == reason, e.value
    assert client.get(fused).generation == 1
