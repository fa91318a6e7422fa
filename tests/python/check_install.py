#!/usr/bin/env python3
"""Installs the factord package the ways docs/python.md says, into a
temporary directory, and uses it from there against a loopback daemon
(ctest python.pip_venv and python.cmake_install).

    check_install.py pip BUILD_DIR    python3 -m venv --system-site-packages,
                                      then pip install --no-build-isolation
                                      --no-index of a copy of BUILD_DIR/python
    check_install.py cmake BUILD_DIR  cmake --install BUILD_DIR --component
                                      python --prefix TMP

Either way a fresh interpreter without PYTHONPATH to the build tree must
import factord from the installed copy (generated wire modules included)
and upload, factorize and solve once. Nothing is downloaded: the venv sees
Debian's grpcio, protobuf, numpy and scipy through its system site
packages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Run by the installed interpreter; argv[1]: where factord must come from,
# argv[2]: the daemon's address.
PROGRAM = textwrap.dedent(
    """
    import sys
    import numpy as np, scipy.sparse as sp
    import factord
    from factord._wire.v1 import solver_pb2_grpc
    assert factord.__file__.startswith(sys.argv[1]), factord.__file__
    assert solver_pb2_grpc.__file__.startswith(sys.argv[1])
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(30, 30))
    a = (sp.kron(sp.identity(30), t) + sp.kron(t, sp.identity(30))).tocsr()
    with factord.Client(sys.argv[2], timeout=60) as c:
        info = c.upload(a)
        report = c.factorize(info.id, method="ldlt")
        b = np.ones(900)
        x = c.solve(info.id, b)
        c.release(info.id)
    residual = np.linalg.norm(b - a @ x) / np.linalg.norm(b)
    assert report.status == "ok" and residual < 1e-12, (report, residual)
    print(f"factord {factord.__version__} from {factord.__file__}: "
          f"{report.method}, residual {residual:.1e}")
    """
)


def run(command: list, **kwargs) -> None:
    shown = ["<program>" if "\n" in str(c) else str(c) for c in command]
    print("+", " ".join(shown), flush=True)
    subprocess.run(command, check=True, timeout=300, **kwargs)


def install_with_pip(build: Path, tmp: Path) -> tuple:
    # A copy, so that pip's in-place build leaves nothing in the build tree.
    source = tmp / "src"
    source.mkdir()
    shutil.copy2(build / "python/pyproject.toml", source)
    shutil.copytree(build / "python/factord", source / "factord",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)])
    python = venv / "bin/python"
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1",
               PIP_NO_CACHE_DIR="1")
    run([str(python), "-m", "pip", "install", "--quiet", "--no-build-isolation",
         "--no-index", str(source)], env=env, cwd=tmp)
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip()
    return python, site


def install_with_cmake(build: Path, tmp: Path) -> tuple:
    prefix = tmp / "prefix"
    run(["cmake", "--install", str(build), "--component", "python", "--prefix", str(prefix)])
    site = prefix / "lib/python3/dist-packages"
    if not (site / "factord/__init__.py").exists():
        raise SystemExit(f"cmake --install put no factord package in {site}")
    return Path(sys.executable), str(site)


def main() -> int:
    if len(sys.argv) != 3 or sys.argv[1] not in ("pip", "cmake"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, build = sys.argv[1], Path(sys.argv[2]).resolve()
    sys.path.insert(0, str(HERE))
    from daemon import Daemon

    with tempfile.TemporaryDirectory(prefix=f"factord-{mode}-install-") as d:
        tmp = Path(d)
        python, site = (install_with_pip if mode == "pip" else install_with_cmake)(build, tmp)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        if mode == "cmake":
            env["PYTHONPATH"] = site
        with Daemon(tmp, "factord") as daemon:
            # cwd: the temporary directory, so that no factord/ directory of
            # the source or build tree is importable by accident.
            run([str(python), "-c", PROGRAM, site, daemon.address], env=env, cwd=tmp)
    print(f"python.{'pip_venv' if mode == 'pip' else 'cmake_install'}: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
