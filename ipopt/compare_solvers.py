#!/usr/bin/env python3
"""Ipopt + MUMPS against Ipopt + factord, problem by problem, in one run.

For every problem, build/ipopt/factord-ipopt-nlp runs with Debian's
unmodified Ipopt: `--linear_solver=mumps` (linked into Ipopt) and, for each
--solver, `--linear_solver=pardiso` with LD_LIBRARY_PATH=BUILD/pardiso (the
default) or `ma57` / `ma27` with LD_LIBRARY_PATH=BUILD/hsl, so that Ipopt
dlopens factord's libpardiso.so or libhsl.so, which send every KKT system
to a factord daemon this script starts on a free loopback port
(FACTORD_SERVER). With a --solver other than pardiso alone, each row's
problem is labelled with its solver ("HS21 (ma57)"). It prints
a table (status, objective, iterations, wall time of IpoptSolve for both,
relative objective difference, time ratio factord/MUMPS) and checks, for
every problem that Ipopt + MUMPS solves:
  - Ipopt + factord solves it too;
  - |f_factord - f_mumps| <= 1e-6 max(1, |f_mumps|);
  - |iterations_factord - iterations_mumps| <= max(2, 10% of MUMPS's);
  - for nonconvex_chain, both runs needed inertia correction.
With --robustness it also runs robustness.py's checks (daemon killed,
daemon restarted) in the same run, through the first --solver. Exit code 0
when every check passed.

--where says where factord runs the KKT systems (repeatable; default
daemon): `daemon` (every system on the loopback daemon), `local` (in the
Ipopt process, FACTORD_SERVER=local: no daemon) or `threshold` (the daemon
with the C API's default size threshold). Each (solver, where) pair is a
configuration; rows are labelled with it when there are several. With
--repeats=N every problem runs N times, interleaved (MUMPS, then each
configuration, N rounds), and the times are the medians. The speed column
says whether a factord time meets its target: in process, at most MUMPS's
(KKT order >= 5000) or at most 1.5x MUMPS's or 5 ms over it (smaller);
with the threshold, for the systems above it (which run on the daemon),
at most 1.2x the in-process time (when `local` is also measured). Speed is reported, not checked (the exit code is about the
correctness criteria).

  ipopt/compare_solvers.py [--build=build] [PROBLEM ...] [--qp_dir=DIR]
      [--solver=pardiso|ma57|ma27 ...] [--where=daemon|local|threshold ...]
      [--repeats=N] [--markdown] [--robustness]
      [--connect_timeout=S] [--option=KEY=VALUE] [--factord_option=KEY=VALUE]
  PROBLEM: nonconvex_chain | poisson_control[:N] | FILE.SIF
  With no PROBLEM and no --qp_dir: nonconvex_chain, every QP of
  ../shared/data/qp and poisson_control:200 (the whole table, by hand).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import ipopt_runs  # noqa: E402
import robustness  # noqa: E402

OBJECTIVE_TOLERANCE = 1e-6


def relative_difference(a: float, b: float) -> float:
    return abs(a - b) / max(1.0, abs(b))


def iteration_slack(mumps_iterations: int) -> float:
    return max(2.0, 0.1 * mumps_iterations)


def verdict(problem, mumps, factord) -> list:
    """The criteria this pair misses (empty: it passes)."""
    if not mumps.solved:
        return []  # nothing is asked of factord where MUMPS fails
    if not factord.solved:
        return [f"factord: {factord.status}"]
    misses = []
    rm, rf = mumps.record, factord.record
    if relative_difference(rf["objective"], rm["objective"]) > OBJECTIVE_TOLERANCE:
        misses.append("objective")
    if abs(rf["iterations"] - rm["iterations"]) > iteration_slack(rm["iterations"]):
        misses.append("iterations")
    if problem.label == "nonconvex_chain" and not (
            rm["inertia_corrections"] > 0 and rf["inertia_corrections"] > 0):
        misses.append("no inertia correction")
    return misses


# The time targets (docs/in_process.md): in process against MUMPS, and the
# daemon above the size threshold against in process.
LARGE_KKT_ORDER = 5000
SMALL_RATIO, SMALL_SLACK_S, THRESHOLD_RATIO = 1.5, 0.005, 1.2
# The C API's default size threshold (FACTORD_LOCAL_BELOW): larger KKT
# systems go to the daemon in the `threshold` configuration.
DEFAULT_LOCAL_BELOW = 20000


def speed(where, mumps, factord, local) -> str:
    """The time target of a factord run: "ok", "SLOW" or "-" (none)."""
    if not (mumps.record and factord.record):
        return "-"
    t, tm = factord.record["wall_s"], mumps.record["wall_s"]
    if where == "local":
        if mumps.record.get("kkt_order", 0) >= LARGE_KKT_ORDER:
            return "ok" if t <= tm else "SLOW"
        return "ok" if (t <= SMALL_RATIO * tm or t <= tm + SMALL_SLACK_S) else "SLOW"
    if (where == "threshold" and local is not None and local.record and
            mumps.record.get("kkt_order", 0) >= DEFAULT_LOCAL_BELOW):
        return "ok" if t <= THRESHOLD_RATIO * local.record["wall_s"] else "SLOW"
    return "-"


def median_run(runs):
    """The first run's record with the median wall time of all of them."""
    first = runs[0]
    walls = sorted(r.record["wall_s"] for r in runs if r.record)
    if first.record and walls:
        first.record = dict(first.record, wall_s=walls[(len(walls) - 1) // 2])
    return first


def cells(label, problem, mumps, factord, misses, fast="-") -> list:
    def side(run):
        r = run.record
        if not r:
            return [run.status, "-", "-", f"{run.elapsed:.2f}"]
        obj = "-" if r["objective"] is None else f"{r['objective']:.10g}"
        return [r["status"], obj, str(r["iterations"]), f"{r['wall_s']:.3f}"]

    rel = ratio = "-"
    if mumps.record and factord.record and None not in (
            mumps.record["objective"], factord.record["objective"]):
        rel = f"{relative_difference(factord.record['objective'], mumps.record['objective']):.1e}"
        if mumps.record["wall_s"] > 0:
            ratio = f"{factord.record['wall_s'] / mumps.record['wall_s']:.2f}"
    reg = "-"
    if mumps.record and factord.record:
        reg = f"{mumps.record['inertia_corrections']}/{factord.record['inertia_corrections']}"
    published = "-"
    if problem.published is not None and mumps.record and mumps.record["objective"] is not None:
        published = f"{relative_difference(mumps.record['objective'], problem.published):.1e}"
    n_m = f"{mumps.record['n']}/{mumps.record['m']}" if mumps.record else "-"
    kkt = str(mumps.record.get("kkt_order", "-")) if mumps.record else "-"
    ok = "ok" if not misses else "MISS: " + ", ".join(misses)
    return [label, n_m, kkt, *side(mumps), *side(factord), rel, ratio, fast,
            reg, published, ok]


HEADER = ["problem", "n/m", "KKT", "MUMPS status", "MUMPS objective", "it",
          "time s", "factord status", "factord objective", "it", "time s",
          "rel diff", "ratio", "speed", "reg M/f", "vs published", "criteria"]


def print_table(rows, markdown: bool) -> None:
    if markdown:
        print("| " + " | ".join(HEADER) + " |")
        print("|" + "---|" * len(HEADER))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(r[i]) for r in [HEADER, *rows]) for i in range(len(HEADER))]
    for row in [HEADER, *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("problems", nargs="*")
    parser.add_argument("--build", default=str(HERE.parent / "build"))
    parser.add_argument("--qp_dir", action="append", default=[])
    parser.add_argument("--solver", action="append", default=[],
                        choices=sorted(ipopt_runs.FACTORD_LIBRARIES),
                        help="Ipopt's linear_solver for the factord runs "
                        "(repeatable; default pardiso)")
    parser.add_argument("--where", action="append", default=[],
                        choices=ipopt_runs.WHERE,
                        help="where factord runs the KKT systems (repeatable; "
                        "default daemon)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="runs of each problem and configuration, "
                        "interleaved; times are medians")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--robustness", action="store_true")
    parser.add_argument("--robustness_problem", default="nonconvex_chain")
    parser.add_argument("--connect_timeout", type=float, default=None,
                        help="FACTORD_CONNECT_TIMEOUT (s) for the robustness checks")
    parser.add_argument("--option", action="append", default=[],
                        help="KEY=VALUE: an Ipopt option for every run (both solvers)")
    parser.add_argument("--factord_option", action="append", default=[],
                        help="KEY=VALUE: an Ipopt option for the factord runs "
                        "only (linear_system_scaling=mc19: libhsl's mc19ad_)")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds per run before it counts as failed")
    args = parser.parse_args()

    build = Path(args.build).resolve()
    solvers = args.solver or ["pardiso"]
    libraries = sorted({ipopt_runs.factord_library(s, build) for s in solvers})
    for library in libraries:
        if not library.is_file():
            # factord's libraries are part of the build: their absence is a
            # failure, not a skip.
            print(f"FAIL: {library} is missing (build factord_pardiso / "
                  f"factord_hsl)", file=sys.stderr)
            return 1
    specs = list(args.problems)
    for qp_dir in args.qp_dir:
        specs += sorted(str(p) for p in Path(qp_dir).glob("*.SIF"))
    if not specs:
        shared = HERE.parent.parent / "shared" / "data" / "qp"
        specs = ["nonconvex_chain", *sorted(str(p) for p in shared.glob("*.SIF")),
                 "poisson_control:200"]
    problems = [ipopt_runs.parse_problem(s) for s in specs]

    work = ipopt_runs.scratch_dir()
    daemon = ipopt_runs.Daemon(build, work)
    daemon.start()
    print(f"factord on {daemon.address} (log {daemon.log_path}); "
          f"{', '.join(str(p) for p in libraries)}", flush=True)
    extra = [f"--option={o}" for o in args.option]
    factord_extra = extra + [f"--option={o}" for o in args.factord_option]
    wheres = args.where or ["daemon"]
    configs = [(solver, where) for solver in solvers for where in wheres]
    single = configs == [("pardiso", "daemon")]
    rows, failures, slow = [], [], []
    try:
        for problem in problems:
            mumps_runs, factord_runs = [], {c: [] for c in configs}
            for _ in range(max(1, args.repeats)):
                mumps_runs.append(ipopt_runs.run_nlp(
                    build, problem, "mumps",
                    ipopt_runs.solver_env("mumps", build, None),
                    args.timeout, extra))
                for solver, where in configs:
                    factord_runs[(solver, where)].append(ipopt_runs.run_nlp(
                        build, problem, solver,
                        ipopt_runs.solver_env(solver, build, daemon,
                                              where=where),
                        args.timeout, factord_extra))
            mumps = median_run(mumps_runs)
            medians = {c: median_run(runs) for c, runs in factord_runs.items()}
            for (solver, where), factord in medians.items():
                label = (problem.label if single
                         else f"{problem.label} ({solver}, {where})")
                misses = verdict(problem, mumps, factord)
                if misses:
                    failures.append(label)
                    if factord.stderr.strip():
                        print(f"{label} (factord) stderr:\n{factord.stderr[-2000:]}",
                              file=sys.stderr)
                fast = speed(where, mumps, factord, medians.get((solver, "local")))
                if fast == "SLOW":
                    slow.append(label)
                rows.append(cells(label, problem, mumps, factord, misses, fast))
                print("  ".join(rows[-1]), flush=True)
    finally:
        daemon.stop()
    print()
    print_table(rows, args.markdown)
    solved = [r for r in rows if r[3] in ("Solve_Succeeded", "Solved_To_Acceptable_Level")]
    print(f"\nMUMPS solved {len(solved)}/{len(rows)}; criteria met on "
          f"{len(rows) - len(failures)}/{len(rows)}"
          + (f"; missed: {', '.join(failures)}" if failures else ""))
    timed = [r for r in rows if r[13] != "-"]
    if timed:
        print(f"speed targets met on {len(timed) - len(slow)}/{len(timed)}"
              + (f"; slow: {', '.join(slow)}" if slow else ""))

    robust_ok = True
    if args.robustness:
        robust_ok = robustness.run_all(
            build, ipopt_runs.parse_problem(args.robustness_problem),
            args.connect_timeout, solver=solvers[0]) == 0
    return 0 if not failures and robust_ok else 1


if __name__ == "__main__":
    sys.exit(main())
