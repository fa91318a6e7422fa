"""What the client makes of the caller's matrices before sending them
(factord/_matrix.py): canonical CSR, symmetry detection, the lower triangle,
refusals, and chunks under the message budget. No daemon needed."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import factord
from factord import _matrix
from matrices import poisson2d, random_kkt, random_unsymmetric


def dense(m: _matrix.Csr) -> np.ndarray:
    return sp.csr_matrix((m.data, m.indices, m.indptr), shape=(m.n, m.n)).toarray()


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "bsr", "lil", "dok", "dia"])
def test_every_scipy_format_gives_the_same_csr(fmt: str) -> None:
    a = random_unsymmetric(30, seed=1)
    m = _matrix.to_csr(a.asformat(fmt))
    assert m.indptr.dtype == np.int64 and m.indices.dtype == np.int32
    assert m.data.dtype == np.float64
    np.testing.assert_array_equal(dense(m), a.toarray())
    for r in range(m.n):  # sorted within rows
        row = m.indices[m.indptr[r]:m.indptr[r + 1]]
        assert np.all(np.diff(row) > 0)


def test_sparse_arrays_and_integer_values() -> None:
    a = sp.csr_array(np.array([[2, 0, 1], [0, 3, 0], [1, 0, 4]], dtype=np.int32))
    m = _matrix.to_csr(a)
    assert m.data.dtype == np.float64
    np.testing.assert_array_equal(dense(m), a.toarray())


def test_coo_duplicates_are_summed_and_explicit_zeros_kept() -> None:
    a = sp.coo_matrix(([1.0, 2.0, 0.0, 5.0], ([0, 0, 1, 1], [0, 0, 0, 1])), shape=(2, 2))
    m = _matrix.to_csr(a)
    assert m.nnz == 3  # (0,0) summed, the explicit zero at (1,0) kept
    np.testing.assert_array_equal(dense(m), [[3.0, 0.0], [0.0, 5.0]])


def test_csr_tuple_with_unsorted_rows() -> None:
    indptr = [0, 2, 3, 5]
    indices = [2, 0, 1, 2, 0]
    data = [3.0, 1.0, 4.0, 6.0, 5.0]
    m = _matrix.to_csr((indptr, indices, data, 3))
    np.testing.assert_array_equal(m.indices, [0, 2, 1, 0, 2])
    np.testing.assert_array_equal(m.data, [1.0, 3.0, 4.0, 5.0, 6.0])


def test_symmetry_detection() -> None:
    assert _matrix.is_symmetric(_matrix.to_csr(poisson2d(6)))
    assert _matrix.is_symmetric(_matrix.to_csr(random_kkt(30, 10)))
    assert not _matrix.is_symmetric(_matrix.to_csr(random_unsymmetric(30)))
    # Same pattern, one value off.
    a = poisson2d(4).tolil()
    a[0, 1] = -1.5
    assert not _matrix.is_symmetric(_matrix.to_csr(a.tocsr()))
    # An explicit zero without its mirror is still a symmetric matrix.
    b = sp.csr_matrix(([2.0, 0.0, 2.0], [0, 1, 1], [0, 2, 3]), shape=(2, 2))
    assert _matrix.is_symmetric(_matrix.to_csr(b))
    # NaN is not equal to itself: not symmetric (the server then refuses it).
    c = sp.csr_matrix(np.array([[np.nan, 1.0], [1.0, 2.0]]))
    assert not _matrix.is_symmetric(_matrix.to_csr(c))


def test_lower_triangle() -> None:
    a = random_kkt(20, 8)
    low = _matrix.lower_triangle(_matrix.to_csr(a))
    np.testing.assert_array_equal(dense(low), np.tril(a.toarray()))


@pytest.mark.parametrize(
    "matrix, words",
    [
        (sp.random(3, 4, density=0.5, format="csr"), "not square"),
        (sp.identity(3, dtype=np.complex128, format="csr"), "complex"),
        (sp.csr_matrix(np.eye(2, dtype=np.float32) * (1 + 0j)), "complex"),
        (np.eye(3), "dense"),
        ("A", "cannot read"),
        (([0, 1, 2], [0, 1], [1.0, 2.0], 3), "indptr has 3 entries"),
        (([0, 1, 3], [0, 1], [1.0, 2.0], 2), "indptr[n] = 3"),
        (([0, 1, 2], [0, 5], [1.0, 2.0], 2), "out of range"),
        (([0, 1, 2], [0, 1], np.array(["a", "b"]), 2), "not numbers"),
    ],
)
def test_refused_before_sending(matrix: object, words: str) -> None:
    with pytest.raises(factord.Error) as e:
        _matrix.to_csr(matrix)
    assert e.value.reason == "INVALID_MATRIX"
    assert e.value.code.name == "INVALID_ARGUMENT"
    assert words in e.value.message


def reassemble(chunks: list, n: int) -> tuple:
    row_nnz, cols, vals = [], [], []
    for c in chunks:
        row_nnz += list(c.row_nnz)
        cols += list(c.col_idx)
        vals += list(c.values)
    indptr = np.concatenate([[0], np.cumsum(row_nnz)]) if row_nnz else np.zeros(1)
    return indptr, np.array(cols), np.array(vals)


@pytest.mark.parametrize("budget", [64, 100, 1000, 1 << 20])
def test_chunks_stay_under_the_budget_and_reassemble(budget: int) -> None:
    # Long rows (a dense first row and column), empty rows, ordinary rows.
    a = sp.lil_matrix((300, 300))
    a[0, :] = np.arange(1, 301)
    a[:, 0] = np.arange(1, 301).reshape(-1, 1)
    for i in range(1, 300, 3):
        a[i, i] = 4.0
    a[299, 299] = 0.0  # an explicit zero: stays
    m = _matrix.to_csr(a.tocsr())
    chunks = list(_matrix.csr_chunks(m, budget))
    for c in chunks:
        assert len(c.row_nnz) * 10 + len(c.col_idx) * 13 <= budget
        assert c.ByteSize() <= budget + _matrix.MESSAGE_OVERHEAD_BYTES
        assert len(c.col_idx) == len(c.values)
        assert len(c.row_nnz) or len(c.col_idx)  # every chunk makes progress
    indptr, cols, vals = reassemble(chunks, m.n)
    np.testing.assert_array_equal(indptr, m.indptr)
    np.testing.assert_array_equal(cols, m.indices)
    np.testing.assert_array_equal(vals, m.data)
    # Every row is declared no later than the chunk of its first entry.
    declared, sent = 0, 0
    for c in chunks:
        declared += len(c.row_nnz)
        sent += len(c.col_idx)
        assert sent <= m.indptr[declared]


def test_payload_bytes_leaves_room_for_the_id() -> None:
    assert _matrix.payload_bytes(1 << 20) == (1 << 20) - 192
    assert _matrix.payload_bytes(1 << 20, 36) == (1 << 20) - 192 - 36
    assert _matrix.payload_bytes(10) == 64  # never below 64
