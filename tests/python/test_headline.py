"""The headline claim, at CI size: factord.factorized(A)(b) agrees with
spsolve on a 2D Poisson matrix to 1e-10 with a relative residual of at most
1e-12. poisson_check.py runs the same check at n = 102400 (--grid 320)."""

from __future__ import annotations

import factord
import poisson_check


def test_poisson_matches_spsolve(client: factord.Client) -> None:
    result = poisson_check.check(client, grid=100)  # n = 10000
    assert result["n"] == 10000 and result["method"] == "ldlt"
    assert result["relative_difference"] <= poisson_check.DIFF_BOUND, result
    assert result["relative_residual"] <= poisson_check.RESIDUAL_BOUND, result
    assert result["ok"]
