"""Bad input raises factord.Error with the right code and reason, whether
the client refuses it or the daemon does, and never hangs (every call has a
deadline, every test a timeout)."""

from __future__ import annotations

import uuid

import grpc
import numpy as np
import pytest
import scipy.sparse as sp

import factord
from matrices import poisson2d, release_quietly


def raises(reason: str, code: grpc.StatusCode, call) -> factord.Error:
    with pytest.raises(factord.Error) as e:
        call()
    assert (e.value.reason, e.value.code) == (reason, code), e.value
    assert e.value.domain == "factord.v1"
    return e.value


INVALID = grpc.StatusCode.INVALID_ARGUMENT


def test_non_square(client: factord.Client) -> None:
    raises("INVALID_MATRIX", INVALID, lambda: client.upload(sp.random(4, 5, density=0.5)))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_values_are_refused_by_the_daemon(client: factord.Client, bad: float) -> None:
    a = poisson2d(4).tolil()
    a[2, 2] = bad
    e = raises("INVALID_MATRIX", INVALID, lambda: client.upload(a.tocsr()))
    assert "finite" in e.message or "nan" in e.message.lower() or "inf" in e.message.lower()


def test_wrong_dtypes(client: factord.Client) -> None:
    raises("INVALID_MATRIX", INVALID,
           lambda: client.upload(sp.identity(3, dtype=np.complex128, format="csr")))
    raises("INVALID_MATRIX", INVALID,
           lambda: client.upload(([0, 1, 2], [0, 1], np.array(["1", "2"]), 2)))
    raises("INVALID_MATRIX", INVALID, lambda: client.upload(np.eye(3)))


def test_entries_in_the_wrong_triangle(client: factord.Client) -> None:
    # An upper-triangular CSR declared symmetric_lower: the client sends its
    # lower triangle (the diagonal), so this is a diagonal matrix...
    upper = sp.csr_matrix(np.array([[2.0, 1.0], [0.0, 3.0]]))
    info = client.upload(upper, structure="symmetric_lower")
    release_quietly(client, info.id)
    assert info.nnz == 2
    # ...and auto sees an unsymmetric matrix: general.
    info = client.upload(upper)
    release_quietly(client, info.id)
    assert info.structure == "general"


def test_options(client: factord.Client) -> None:
    info = client.upload(poisson2d(6))
    try:
        raises("INVALID_OPTION", INVALID, lambda: client.factorize(info.id, not_an_option=1))
        raises("INVALID_OPTION", INVALID, lambda: client.factorize(info.id, ordering="colamd"))
        # A value the daemon refuses: a BadRequest names the field.
        e = raises("INVALID_OPTION", INVALID,
                   lambda: client.factorize(info.id, method="block_ildlt", fill_factor=-1.0))
        assert e.field_violations and "fill_factor" in e.field_violations[0][0]
        client.factorize(info.id)
        raises("INVALID_OPTION", INVALID, lambda: client.solve(info.id, np.ones(36), krylov="lsqr"))
    finally:
        release_quietly(client, info.id)


def test_unknown_id(client: factord.Client) -> None:
    missing = f"python-missing-{uuid.uuid4()}"
    nf = grpc.StatusCode.NOT_FOUND
    raises("NOT_FOUND", nf, lambda: client.get(missing))
    raises("NOT_FOUND", nf, lambda: client.factorize(missing))
    raises("NOT_FOUND", nf, lambda: client.solve(missing, np.ones(3)))
    raises("NOT_FOUND", nf, lambda: client.update(missing, np.ones(3)))
    raises("NOT_FOUND", nf, lambda: client.update(missing, poisson2d(3)))
    raises("NOT_FOUND", nf, lambda: client.release(missing))


def test_invalid_ids_and_right_hand_sides(client: factord.Client) -> None:
    raises("INVALID_REQUEST", INVALID, lambda: client.upload(poisson2d(3), id=""))
    info = client.upload(poisson2d(5))
    try:
        client.factorize(info.id)
        raises("INVALID_REQUEST", INVALID, lambda: client.solve(info.id, np.ones(24)))
        raises("INVALID_REQUEST", INVALID, lambda: client.solve(info.id, np.ones((26, 2))))
        raises("INVALID_REQUEST", INVALID, lambda: client.solve(info.id, np.ones(25) * 1j))
    finally:
        release_quietly(client, info.id)


def test_a_message_over_the_servers_limit(daemon) -> None:
    """A client that sends messages over the daemon's --max_message_bytes
    (256 KiB here) gets MESSAGE_TOO_LARGE. The package asks ServerInfo and
    stays under it; this one is told a larger limit."""
    with factord.Client(daemon.address, timeout=60, max_chunk_bytes=4 << 20) as c:
        c._server_max_message_bytes = 4 << 20
        raises("MESSAGE_TOO_LARGE", grpc.StatusCode.RESOURCE_EXHAUSTED,
               lambda: c.upload(poisson2d(200)))
    # The same upload with the limit asked from the daemon passes.
    with factord.Client(daemon.address, timeout=60, max_chunk_bytes=4 << 20) as c:
        info = c.upload(poisson2d(200))
        c.release(info.id)


def test_a_reply_over_the_clients_limit(daemon) -> None:
    with factord.Client(daemon.address, timeout=60, max_receive_message_bytes=4096) as c:
        info = c.upload(poisson2d(40))
        try:
            c.factorize(info.id)
            raises("MESSAGE_TOO_LARGE", grpc.StatusCode.RESOURCE_EXHAUSTED,
                   lambda: c.solve(info.id, np.ones(1600)))
        finally:
            release_quietly(c, info.id)


def test_deadline_exceeded(daemon) -> None:
    a = poisson2d(150)
    with factord.Client(daemon.address, timeout=1e-4) as c:
        raises("DEADLINE_EXCEEDED", grpc.StatusCode.DEADLINE_EXCEEDED, lambda: c.upload(a))


def test_options_the_method_does_not_apply_are_refused(client: factord.Client) -> None:
    a = poisson2d(6)
    info = client.upload(a, structure="spd")
    try:
        for options, field in [
            ({"method": "ldlt", "scaling": "column_norm"}, "options.scaling"),
            ({"method": "ic", "scaling": "ruiz"}, "options.scaling"),
            ({"method": "lu", "shift_rest": 1e-8}, "options.shift_rest"),
        ]:
            e = raises("INVALID_OPTION", INVALID,
                       lambda: client.factorize(info.id, **options))
            assert e.field_violations[0][0] == field, (options, e)
        client.factorize(info.id, method="ldlt")
        b = np.ones(a.shape[0])
        for options, field in [
            ({"krylov": "cg"}, "options.krylov"),
            ({"max_iterations": 20}, "options.max_iterations"),
        ]:
            e = raises("INVALID_OPTION", INVALID,
                       lambda: client.solve(info.id, b, **options))
            assert e.field_violations[0][0] == field, (options, e)
        x = client.solve(info.id, b, krylov="none")
        assert np.linalg.norm(b - a @ x) <= 1e-10 * np.linalg.norm(b)
    finally:
        release_quietly(client, info.id)
