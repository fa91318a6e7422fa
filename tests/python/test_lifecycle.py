"""A matrix's life on the daemon through the Python client: client-named
IDs, replace, new values (matrix or array) with generations, stale and
missing factorizations, get, paged list, release."""

from __future__ import annotations

import uuid

import grpc
import numpy as np
import pytest
import scipy.sparse as sp

import factord
from matrices import poisson2d, random_kkt, random_unsymmetric, release_quietly


def test_ids_are_uuid4_by_default_or_the_callers(client: factord.Client) -> None:
    a = poisson2d(5)
    info = client.upload(a)
    named = f"python-test-{uuid.uuid4()}"
    try:
        assert uuid.UUID(info.id).version == 4
        assert client.upload(a, id=named).id == named
        got = client.get(named)
        assert (got.id, got.n, got.nnz, got.generation) == (named, 25, info.nnz, 1)
        assert not got.factorized and got.method == ""
    finally:
        release_quietly(client, info.id)
        release_quietly(client, named)


def test_replace_and_already_exists(client: factord.Client) -> None:
    named = f"python-test-{uuid.uuid4()}"
    try:
        client.upload(poisson2d(4), id=named)
        with pytest.raises(factord.Error) as e:
            client.upload(poisson2d(4), id=named)
        assert e.value.code == grpc.StatusCode.ALREADY_EXISTS
        assert e.value.reason == "ALREADY_EXISTS"
        info = client.upload(random_unsymmetric(9), id=named, replace=True)
        assert (info.generation, info.n, info.structure) == (2, 9, "general")
    finally:
        release_quietly(client, named)


def test_update_values_generations_and_stale_factor(client: factord.Client) -> None:
    a = random_kkt(80, 30, seed=11)
    n = a.shape[0]
    b = np.ones(n)
    info = client.upload(a)
    try:
        with pytest.raises(factord.Error) as e:
            client.solve(info.id, b)
        assert e.value.reason == "NOT_FACTORIZED"
        assert e.value.code == grpc.StatusCode.FAILED_PRECONDITION
        first = client.factorize(info.id, method="ldlt", expected_generation=1)
        assert first.generation == 1 and not first.analysis_reused

        # New values as a matrix of the same pattern (scipy, full storage).
        a2 = a.copy()
        a2.data = a2.data * 2.0
        updated = client.update(info.id, a2, expected_generation=1)
        assert updated.generation == 2 and updated.stale
        with pytest.raises(factord.Error) as e:
            client.solve(info.id, b)
        assert e.value.reason == "STALE_FACTOR"
        # A retried update of generation 1 is refused: applied at most once.
        with pytest.raises(factord.Error) as e:
            client.update(info.id, a2, expected_generation=1)
        assert e.value.reason == "GENERATION_MISMATCH"
        assert e.value.code == grpc.StatusCode.ABORTED
        assert e.value.metadata.get("current") == "2"
        second = client.factorize(info.id, method="ldlt")
        assert second.analysis_reused and second.generation == 2
        x = client.solve(info.id, b, expected_generation=2)
        assert np.linalg.norm(a2 @ x - b) / np.linalg.norm(b) < 1e-10
        with pytest.raises(factord.Error) as e:
            client.solve(info.id, b, expected_generation=1)
        assert e.value.reason == "GENERATION_MISMATCH"

        # New values as an array in stored order (the lower triangle's CSR).
        lower = sp.tril(a, format="csr")
        lower.sort_indices()
        assert client.update(info.id, lower.data * 3.0).generation == 3
        client.factorize(info.id, method="ldlt")
        x = client.solve(info.id, b)
        assert np.linalg.norm(3.0 * (a @ x) - b) / np.linalg.norm(b) < 1e-10

        # Another pattern, or another count of values, is refused.
        assert a[0, n - 1] == 0
        other = a2.tolil()
        other[0, n - 1] = other[n - 1, 0] = 1.0
        with pytest.raises(factord.Error) as e:
            client.update(info.id, other.tocsr())
        assert e.value.reason == "INVALID_MATRIX"
        with pytest.raises(factord.Error) as e:
            client.update(info.id, lower.data[:-1])
        assert e.value.reason == "INVALID_MATRIX"
        with pytest.raises(factord.Error) as e:
            client.update(info.id, lower.data * 1j)
        assert e.value.reason == "INVALID_MATRIX"
        assert client.get(info.id).generation == 3
    finally:
        release_quietly(client, info.id)


def test_update_by_another_client_reads_the_structure(daemon, client: factord.Client) -> None:
    a = random_kkt(40, 10, seed=12)
    info = client.upload(a)
    try:
        with factord.Client(daemon.address, timeout=60) as other:
            a2 = a.copy()
            a2.data += 1.0
            assert other.update(info.id, a2).generation == 2
    finally:
        release_quietly(client, info.id)


def test_list_follows_pages_and_release(client: factord.Client) -> None:
    prefix = f"python-list-{uuid.uuid4()}-"
    ids = [f"{prefix}{k}" for k in range(5)]
    try:
        for i in ids:
            client.upload(poisson2d(3), id=i)
        mine = [m.id for m in client.list(page_size=2) if m.id.startswith(prefix)]
        assert mine == sorted(ids)
        assert client.release(ids[0]) > 0
        with pytest.raises(factord.Error) as e:
            client.get(ids[0])
        assert e.value.reason == "NOT_FOUND" and e.value.code == grpc.StatusCode.NOT_FOUND
        with pytest.raises(factord.Error) as e:
            client.release(ids[0])
        assert e.value.reason == "NOT_FOUND"
        assert ids[0] not in [m.id for m in client.list()]
    finally:
        for i in ids:
            release_quietly(client, i)


def test_server_info(client: factord.Client) -> None:
    info = client.info()
    assert info.backend == "cpu" and info.version == factord.__version__
    assert info.max_message_bytes == 262144
    assert "ldlt" in info.methods and "lu" in info.methods
