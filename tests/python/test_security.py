"""TLS, mutual TLS and bearer tokens against a daemon started with
--tls_cert/--tls_key/--tls_client_ca and --auth_tokens_file. The test CA
and certificates are made by openssl (scripts/install_deps.sh installs it)
in the session's temporary directory."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Dict, Iterator

import grpc
import numpy as np
import pytest

import factord
from conftest import start_daemon
from daemon import Daemon
from matrices import poisson2d

KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]


def openssl(directory: Path, *args: str) -> None:
    subprocess.run(["openssl", *args], cwd=directory, check=True, capture_output=True, timeout=60)


def make_certificates(d: Path) -> Dict[str, str]:
    """ca, server (SAN IP 127.0.0.1) and client certificates."""
    openssl(d, "req", "-x509", *KEY, "-days", "2", "-keyout", "ca.key", "-out", "ca.pem",
            "-subj", "/CN=factord-test-ca",
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    for name, extensions in [
        ("server", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth"),
        ("client", "extendedKeyUsage=clientAuth"),
    ]:
        (d / f"{name}.ext").write_text(extensions + "\n")
        openssl(d, "req", *KEY, "-keyout", f"{name}.key", "-out", f"{name}.csr",
                "-subj", f"/CN={name}")
        openssl(d, "x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-days", "2", "-out", f"{name}.pem",
                "-extfile", f"{name}.ext")
    return {n: str(d / n) for n in ("ca.pem", "server.pem", "server.key",
                                    "client.pem", "client.key")}


@pytest.fixture(scope="module")
def secured(workdir: Path) -> Iterator[SimpleNamespace]:
    d = workdir / "tls"
    d.mkdir()
    files = make_certificates(d)
    tokens = d / "tokens"
    tokens.write_text("alice-token-0123456789 alice\nbob-token-0123456789 bob\n")
    daemon: Daemon = start_daemon(workdir, "factord-secured", [
        f"--tls_cert={files['server.pem']}", f"--tls_key={files['server.key']}",
        f"--tls_client_ca={files['ca.pem']}", f"--auth_tokens_file={tokens}",
    ])
    tls = {"ca": files["ca.pem"], "cert": files["client.pem"], "key": files["client.key"]}
    yield SimpleNamespace(daemon=daemon, files=files, tls=tls)
    daemon.stop()


def test_mutual_tls_and_token(secured: SimpleNamespace) -> None:
    with factord.Client(secured.daemon.address, token="alice-token-0123456789",
                        tls=secured.tls, timeout=30) as c:
        with c.__class__(secured.daemon.address, token="alice-token-0123456789", timeout=30,
                         tls=SimpleNamespace(ca=secured.tls["ca"], cert=secured.tls["cert"],
                                             key=secured.tls["key"])) as same:
            assert same.info().backend == "cpu"  # TLS settings as an object
        with factord.factorized(poisson2d(6), client=c) as solve:
            x = solve(np.ones(36))
            assert np.linalg.norm(poisson2d(6) @ x - 1.0) < 1e-10
            # Tenants are isolated: bob does not see alice's matrix.
            with factord.Client(secured.daemon.address, token="bob-token-0123456789",
                                tls=secured.tls, timeout=30) as bob:
                with pytest.raises(factord.Error) as e:
                    bob.get(solve.id)
                assert e.value.reason == "NOT_FOUND"


def test_no_or_unknown_token_is_unauthenticated(secured: SimpleNamespace) -> None:
    for token in ("", "mallory-token-0123456789"):
        with factord.Client(secured.daemon.address, token=token, tls=secured.tls,
                            timeout=30) as c:
            with pytest.raises(factord.Error) as e:
                c.upload(poisson2d(3))
            assert e.value.code == grpc.StatusCode.UNAUTHENTICATED
            assert e.value.reason == "UNAUTHENTICATED"


@pytest.mark.parametrize("tls", [None, "ca_only"])
def test_plaintext_or_no_client_certificate_cannot_connect(secured: SimpleNamespace, tls) -> None:
    settings = {"ca": secured.tls["ca"]} if tls == "ca_only" else None
    with factord.Client(secured.daemon.address, token="alice-token-0123456789", tls=settings,
                        timeout=10) as c:
        with pytest.raises(factord.Error) as e:
            c.info()
    assert e.value.code == grpc.StatusCode.UNAVAILABLE
    assert e.value.reason == "UNAVAILABLE"
