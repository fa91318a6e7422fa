"""Option names derived from solver.proto, and factord.Error decoded from
the grpc-status-details-bin trailer (fake calls, no daemon), including the
fallback reasons of errors that carry no details."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import grpc
import pytest
import scipy.sparse as sp

import factord
from factord import _errors, _options
from factord._wire.v1 import errors_pb2
from factord._wire.v1 import solver_pb2 as pb
from fake_calls import FakeCall, status_with_details

REPO = Path(__file__).resolve().parents[2]


def test_enum_names_are_derived_from_the_descriptors() -> None:
    assert _options.value_names(pb.Method.DESCRIPTOR) == [
        "auto", "none", "jacobi", "block_jacobi", "ldlt", "block_ildlt",
        "jacobi_ldlt", "ic", "ilu", "lu",
    ]
    assert "exact" in _options.value_names(pb.TriangularSolve.DESCRIPTOR)
    assert "symmetric_lower" in _options.value_names(pb.Structure.DESCRIPTOR)
    assert _options.value_name(pb.Pivoting.DESCRIPTOR, pb.PIVOTING_ROOK) == "rook"
    assert _options.value_name(pb.Method.DESCRIPTOR, 999) == "unknown(999)"
    # ErrorReason values have no prefix: the whole name.
    assert "queue_full" in _options.value_names(errors_pb2.ErrorReason.DESCRIPTOR)


def test_parse_names_aliases_and_defaults() -> None:
    d = pb.Pivoting.DESCRIPTOR
    assert _options.parse_value(d, "bk", "f") == pb.PIVOTING_BUNCH_KAUFMAN
    assert _options.parse_value(d, "Bunch_Kaufman", "f") == pb.PIVOTING_BUNCH_KAUFMAN
    assert _options.parse_value(d, "", "f") == 0
    assert _options.parse_value(d, None, "f") == 0
    with pytest.raises(factord.Error) as e:
        _options.parse_value(d, "partial", "options.pivoting")
    assert e.value.reason == "INVALID_OPTION"
    assert e.value.field_violations[0][0] == "options.pivoting"
    assert "rook" in e.value.message  # lists the names


def test_set_fields_checks_names_and_kinds() -> None:
    o = pb.FactorOptions()
    _options.set_fields(
        o,
        {"ordering": "amd", "fill_level": 0, "drop_tolerance": 1e-3,
         "deterministic": True, "max_block_size": None},
        "options.",
    )
    assert o.ordering == pb.ORDERING_AMD and o.HasField("fill_level")
    assert o.fill_level == 0 and o.drop_tolerance == 1e-3 and o.deterministic
    for bad in ({"orderin": "amd"}, {"fill_level": 1.5}, {"sweeps": "3"},
                {"epsilon": "x"}, {"deterministic": 2}, {"max_block_size": 2**40}):
        with pytest.raises(factord.Error) as e:
            _options.set_fields(pb.FactorOptions(), bad, "options.")
        assert e.value.reason == "INVALID_OPTION", bad
        assert e.value.field_violations[0][0] == "options." + next(iter(bad))


def test_client_side_refusals_send_nothing() -> None:
    # Port 1 on loopback: nothing listens, so any call that were sent would
    # be UNAVAILABLE; the refusals below come first.
    with factord.Client("127.0.0.1:1", timeout=5) as c:
        for call, reason in [
            (lambda: c.factorize("m", method="cholesky"), "INVALID_OPTION"),
            (lambda: c.factorize("m", no_such_option=1), "INVALID_OPTION"),
            (lambda: c.factorize("m", shift=(1.0, 2.0)), "INVALID_OPTION"),
            (lambda: c.factorize("m", shift=1.0, shift_rest=2.0), "INVALID_OPTION"),
            (lambda: c.solve("m", [1.0, 2.0], krylov="minres"), "INVALID_OPTION"),
            (lambda: c.solve("m", [1.0, 2.0], tol=1e-3), "INVALID_OPTION"),
            (lambda: c.solve("m", [1j, 2.0]), "INVALID_REQUEST"),
            (lambda: c.solve("m", [["a"]]), "INVALID_REQUEST"),
            (lambda: c.solve("m", [[[1.0]]]), "INVALID_REQUEST"),
            (lambda: c.factorize(""), "INVALID_REQUEST"),
            (lambda: c.upload(factord_eye(3), structure="hermitian"), "INVALID_OPTION"),
            (lambda: factord.factorized(factord_eye(3), client=c, bogus=1), "INVALID_OPTION"),
        ]:
            with pytest.raises(factord.Error) as e:
                call()
            assert e.value.reason == reason, e.value
            assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT


def factord_eye(n: int) -> sp.csr_matrix:
    return sp.identity(n, format="csr")


def test_unreachable_server_is_unavailable_not_a_hang() -> None:
    with factord.Client("127.0.0.1:1", timeout=10) as c:
        with pytest.raises(factord.Error) as e:
            c.info()
    assert e.value.code == grpc.StatusCode.UNAVAILABLE
    assert e.value.reason == "UNAVAILABLE"


def test_tls_settings_are_checked(tmp_path: Path) -> None:
    for tls, field in [
        ({"cert": str(tmp_path / "c.pem")}, "tls.key"),
        ({"ca": str(tmp_path / "missing.pem")}, "tls.ca"),
        ({"ca_file": "x"}, "tls"),
    ]:
        with pytest.raises(factord.Error) as e:
            factord.Client("127.0.0.1:1", tls=tls)
        assert e.value.reason == "INVALID_OPTION"
        assert e.value.field_violations[0][0] == field


def test_structured_details_are_decoded() -> None:
    e = _errors.from_rpc_error(
        FakeCall(grpc.StatusCode.RESOURCE_EXHAUSTED, "queue full", status_with_details())
    )
    assert e.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert e.reason == "QUEUE_FULL" and e.domain == "factord.v1"
    assert e.retry_delay == pytest.approx(1.5)
    assert e.field_violations == [("options.x", "why")]
    assert e.metadata == {"queue": "256"}
    assert str(e) == "RESOURCE_EXHAUSTED: queue full [QUEUE_FULL]"


@pytest.mark.parametrize(
    "code, details, reason",
    [
        (grpc.StatusCode.UNAVAILABLE, "failed to connect", "UNAVAILABLE"),
        (grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded", "DEADLINE_EXCEEDED"),
        (grpc.StatusCode.CANCELLED, "Cancelled", "CANCELLED"),
        (grpc.StatusCode.RESOURCE_EXHAUSTED,
         "Received message larger than max (5000 vs. 4096)", "MESSAGE_TOO_LARGE"),
        (grpc.StatusCode.RESOURCE_EXHAUSTED, "something else", ""),
        (grpc.StatusCode.INTERNAL, "boom", ""),
    ],
)
def test_fallback_reasons_without_details(code, details, reason) -> None:
    e = _errors.from_rpc_error(FakeCall(code, details))
    assert (e.code, e.reason, e.message) == (code, reason, details)
    assert e.retry_delay is None and e.field_violations == []


def test_a_malformed_trailer_keeps_code_and_message() -> None:
    e = _errors.from_rpc_error(FakeCall(grpc.StatusCode.UNAVAILABLE, "x", b"\xff\xff"))
    assert e.reason == "UNAVAILABLE" and e.message == "x"


def test_googleapis_common_protos_take_over_google_rpc(tmp_path: Path) -> None:
    """With googleapis-common-protos' google.rpc modules importable (which
    own google.rpc.Status in protobuf's default pool), factord uses them
    instead of loading a second definition, and still decodes errors. A
    stand-in is generated here from proto/google/rpc under its canonical
    file names."""
    subprocess.run(
        ["protoc", "-I", str(REPO / "proto"), f"--python_out={tmp_path}",
         "google/rpc/status.proto", "google/rpc/error_details.proto"],
        check=True,
    )
    program = textwrap.dedent(
        """
        import google.rpc.status_pb2 as theirs
        import factord, factord._errors as errors
        assert errors.status_pb2 is theirs, errors.status_pb2
        import grpc, fake_calls
        e = errors.from_rpc_error(fake_calls.FakeCall(
            grpc.StatusCode.RESOURCE_EXHAUSTED, "q", fake_calls.status_with_details()))
        assert e.reason == "QUEUE_FULL" and e.retry_delay == 1.5, e
        print("ok")
        """
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(tmp_path), str(Path(__file__).parent), env.get("PYTHONPATH", "")]
    )
    out = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
