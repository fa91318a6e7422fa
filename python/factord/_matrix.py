"""Matrices in, CSR chunks out.

The caller's matrix (any scipy.sparse matrix or array, or CSR arrays
``(indptr, indices, data, n)``) becomes canonical 0-based CSR with float64
values: rows' column indices sorted, scipy's duplicates summed, explicit
zeros kept (they are part of the pattern on the wire). Symmetric structures
send the lower triangle with the diagonal. Only numpy is needed here; scipy
matrices are read through their own ``tocsr``.

Chunking follows the C++ client (client/csr_chunks.h): the size of a
message is bounded by the worst-case encoded size of its elements (a row
length 10 bytes, a column index 5, a value 8) plus 192 bytes for tags and
small fields, so no message exceeds the chunk budget whatever the values.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np

from ._errors import client_error
from ._wire.v1 import solver_pb2 as pb

MESSAGE_OVERHEAD_BYTES = 192
MIN_CHUNK_BYTES = 256
ROW_BYTES = 10  # varint int64
ENTRY_BYTES = 5 + 8  # varint non-negative int32 + double
VALUE_BYTES = 8

STRUCTURE_ALIASES = {
    "symmetric": "symmetric_lower",
    "spd": "spd_lower",
}


@dataclass
class Csr:
    """A square matrix in canonical 0-based CSR form (what is sent)."""

    n: int
    indptr: np.ndarray  # int64, n + 1 entries
    indices: np.ndarray  # int32, indptr[n] entries, sorted within each row
    data: np.ndarray  # float64, indptr[n] entries

    @property
    def nnz(self) -> int:
        return int(self.indptr[self.n])

    def rows(self) -> np.ndarray:
        """The row of every entry."""
        return np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.indptr))

    def pattern_fingerprint(self) -> bytes:
        """A digest of n, the row pointers and the column indices: equal for
        equal patterns (used to refuse new values in another pattern)."""
        h = hashlib.blake2b(digest_size=16)
        h.update(np.int64(self.n).tobytes())
        h.update(self.indptr.tobytes())
        h.update(self.indices.tobytes())
        return h.digest()


def invalid_matrix(message: str) -> Exception:
    return client_error("INVALID_MATRIX", message, "header")


def real_values(data: Any, what: str = "values") -> np.ndarray:
    """``data`` as a contiguous float64 array: integers and booleans are
    converted; complex and other dtypes are refused (INVALID_MATRIX)."""
    array = np.asarray(data)
    if np.iscomplexobj(array):
        raise invalid_matrix(
            f"complex {what} ({array.dtype}): factord solves real systems"
        )
    if array.dtype.kind not in "biuf":
        raise invalid_matrix(f"{what} of dtype {array.dtype} are not numbers")
    return np.ascontiguousarray(array, dtype=np.float64)


def _square_dimension(shape: Any) -> int:
    if len(shape) != 2 or shape[0] != shape[1]:
        raise invalid_matrix(
            "the matrix is not square: shape "
            + "x".join(str(int(s)) for s in shape)
        )
    n = int(shape[0])
    if n >= 2**31:
        raise invalid_matrix(f"n = {n} is over 2^31 - 1 (column indices are int32)")
    return n


def to_csr(matrix: Any) -> Csr:
    """Canonical CSR of a scipy.sparse matrix or of ``(indptr, indices,
    data, n)`` arrays. INVALID_MATRIX for anything else, a non-square
    shape, complex or non-numeric values, or inconsistent arrays."""
    if hasattr(matrix, "tocsr") and hasattr(matrix, "shape"):  # scipy.sparse
        n = _square_dimension(matrix.shape)
        values_dtype = np.dtype(matrix.dtype)
        if values_dtype.kind == "c" or values_dtype.kind not in "biuf":
            real_values(np.zeros(0, dtype=values_dtype))  # raises
        csr = matrix.tocsr(copy=True)
        csr.sum_duplicates()  # sorts the indices, as scipy defines the matrix
        indptr, indices, data = csr.indptr, csr.indices, csr.data
    elif isinstance(matrix, (tuple, list)) and len(matrix) == 4:
        indptr, indices, data, n = matrix
        n = _square_dimension((n, n))
    elif isinstance(matrix, np.ndarray):
        raise invalid_matrix(
            "a dense array: pass scipy.sparse.csr_matrix(A) or "
            "(indptr, indices, data, n)"
        )
    else:
        raise invalid_matrix(
            f"cannot read a matrix from {type(matrix).__name__}: pass a "
            "scipy.sparse matrix or (indptr, indices, data, n)"
        )
    data = real_values(data)
    indptr = np.asarray(indptr)
    indices = np.asarray(indices)
    if indptr.dtype.kind not in "iu" or indices.dtype.kind not in "iu":
        raise invalid_matrix("indptr and indices must be integer arrays")
    indptr = np.ascontiguousarray(indptr, dtype=np.int64)
    if indptr.ndim != 1 or indptr.size != n + 1:
        raise invalid_matrix(f"indptr has {indptr.size} entries, expected n + 1 = {n + 1}")
    if indptr[0] != 0:
        raise invalid_matrix("indptr[0] is not 0")
    if n > 0 and np.any(np.diff(indptr) < 0):
        row = int(np.argmax(np.diff(indptr) < 0))
        raise invalid_matrix(f"indptr decreases at row {row}")
    nnz = int(indptr[n])
    if indices.size != nnz or data.size != nnz:
        raise invalid_matrix(
            f"indptr[n] = {nnz} but indices has {indices.size} and data "
            f"{data.size} entries"
        )
    if nnz and (indices.min() < 0 or indices.max() >= n):
        k = int(np.argmax((indices < 0) | (indices >= n)))
        raise invalid_matrix(f"entry {k}: column index {int(indices[k])} out of range 0..{n - 1}")
    indices = np.ascontiguousarray(indices, dtype=np.int32)
    result = Csr(n, indptr, indices, data)
    _sort_rows(result)
    return result


def _sort_rows(m: Csr) -> None:
    """Sorts column indices within each row (duplicates stay: the server
    names the first one)."""
    if m.nnz < 2:
        return
    rows = m.rows()
    same_row_step = rows[1:] == rows[:-1]
    if not np.any(same_row_step & (m.indices[1:] < m.indices[:-1])):
        return
    order = np.lexsort((m.indices, rows))
    m.indices = m.indices[order]
    m.data = m.data[order]


def is_symmetric(m: Csr) -> bool:
    """Whether A equals its transpose, value for value (explicit zeros
    ignored; a NaN makes a matrix unsymmetric)."""
    rows = m.rows()
    keep = m.data != 0
    rows, cols, vals = rows[keep], m.indices[keep].astype(np.int64), m.data[keep]
    # Entries are sorted by (row, col); the transpose's, (col, row), sorted
    # the same way must be the same list.
    order = np.lexsort((rows, cols))
    return (
        np.array_equal(cols[order], rows)
        and np.array_equal(rows[order], cols)
        and np.array_equal(vals[order], vals)
    )


def lower_triangle(m: Csr) -> Csr:
    """The lower triangle with the diagonal (entries with column <= row)."""
    rows = m.rows()
    keep = m.indices <= rows
    if np.all(keep):
        return m
    counts = np.bincount(rows[keep], minlength=m.n)
    indptr = np.zeros(m.n + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    return Csr(m.n, indptr, m.indices[keep], m.data[keep])


def wire_structure(name: str) -> str:
    """The wire structure name for a user's ("symmetric" -> "symmetric_lower")."""
    return STRUCTURE_ALIASES.get(name, name)


def payload_bytes(max_chunk_bytes: int, id_bytes: int = 0) -> int:
    """Bytes of entries that fit in one request message next to an id of
    ``id_bytes`` bytes; at least 64 so that every message makes progress."""
    return max(64, max(max_chunk_bytes, MIN_CHUNK_BYTES) - MESSAGE_OVERHEAD_BYTES - id_bytes)


def csr_chunks(m: Csr, budget: int) -> Iterator[pb.CsrChunk]:
    """CSR chunks of ``m`` with at most ``budget`` bytes of entries each.

    A row's length is sent in the chunk that holds its first entry (or, for
    an empty row, where that entry would be), so the server always knows a
    row before its entries; a row longer than a chunk continues in the
    following chunks. At least one chunk for a matrix with rows.
    """
    n, indptr, nnz = m.n, m.indptr, m.nnz
    # cost[r]: bytes of rows 0..r-1 with all their entries; increasing.
    cost = np.arange(n + 1, dtype=np.int64) * ROW_BYTES + indptr * ENTRY_BYTES
    next_row, next_entry = 0, 0
    while next_row < n or next_entry < nnz:
        left = budget
        # Entries of rows already declared.
        pending_end = int(indptr[next_row]) if next_row < n else nnz
        take = min(pending_end - next_entry, left // ENTRY_BYTES)
        entry_end = next_entry + take
        left -= take * ENTRY_BYTES
        row_end = next_row
        if entry_end == pending_end and next_row < n:
            # Whole rows with all their entries, as many as fit...
            row_end = int(np.searchsorted(cost, cost[next_row] + left, side="right")) - 1
            row_end = min(row_end, n)
            if row_end > next_row:
                entry_end = int(indptr[row_end])
            elif left >= ROW_BYTES + ENTRY_BYTES:
                # ...or the start of one row too long for the rest.
                row_end = next_row + 1
                entry_end += min(
                    int(indptr[row_end]) - entry_end, (left - ROW_BYTES) // ENTRY_BYTES
                )
        chunk = pb.CsrChunk()
        if row_end > next_row:
            chunk.row_nnz.extend(np.diff(indptr[next_row:row_end + 1]).tolist())
        if entry_end > next_entry:
            chunk.col_idx.extend(m.indices[next_entry:entry_end].tolist())
            chunk.values.extend(m.data[next_entry:entry_end].tolist())
        next_row, next_entry = row_end, entry_end
        yield chunk
