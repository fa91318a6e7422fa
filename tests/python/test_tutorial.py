"""docs/tutorial_python.py runs to its end against the session's daemon."""

from __future__ import annotations

import os
import subprocess
import sys

from daemon import REPO


def test_tutorial_runs(daemon) -> None:
    out = subprocess.run(
        [sys.executable, str(REPO / "docs/tutorial_python.py"), "--server", daemon.address],
        capture_output=True, text=True, timeout=120, env=dict(os.environ),
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "iteration 6: generation 6" in out.stdout and "analysis reused True" in out.stdout
