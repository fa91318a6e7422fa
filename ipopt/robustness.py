#!/usr/bin/env python3
"""Robustness of Ipopt + factord (libpardiso.so, or libhsl.so with
--solver=ma57|ma27) when the daemon goes away.

Each check starts its own factord on a free loopback port and runs
factord-ipopt-nlp with `--linear_solver=pardiso` (or --solver), holding Ipopt at an
iteration (the program's --hold_at_iteration hook: it creates a file and
waits until the file is removed), so that the daemon is killed at a known
point of the run:

  killed     the daemon is killed (SIGKILL) and not restarted. The run must
             end with a non-success Ipopt status (the library returns a
             fatal PARDISO error to Ipopt) and every library call after
             the kill must return its fatal code within the library's
             deadline: an UNAVAILABLE call is retried for
             FACTORD_CONNECT_TIMEOUT (10 s by default: the C API's
             factord_connect_options), plus 2 s of slack. Ipopt, not the
             library, decides how many calls it makes before it gives up
             (it tries its restoration phase), so the run as a whole takes
             a few deadlines.
  restarted  the daemon is killed and a new one started on the same port
             before Ipopt goes on: the library's next call gets NOT_FOUND,
             re-uploads its copy of the matrix (transparent re-upload),
             and the run must reach the optimum of an undisturbed run
             (objective to 1e-6, iterations within max(2, 10%)).
  down       the same, but the new daemon comes up only 1 s (--down_seconds)
             after Ipopt went on, while the library is retrying UNAVAILABLE.
             gRPC's reconnect backoff (1 s, then x1.6) decides when the
             channel next tries: the outage must end a few seconds before
             the connect timeout does (with FACTORD_CONNECT_TIMEOUT=2 a 1 s
             outage was not survived; with 4 s or the default 10 s it is).

  ipopt/robustness.py [--build=build] [--problem=nonconvex_chain]
                      [--connect_timeout=S] [--hold_at_iteration=K]
                      [--only=killed,restarted,down]
                      [--solver=pardiso|ma57|ma27]
Exit code 0 when every check passed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import ipopt_runs  # noqa: E402

DEFAULT_CONNECT_TIMEOUT = 10.0  # the C API's default (factord.h)
CALL_SLACK_SECONDS = 2.0


def held_run(build, problem, solver, env, work, hold_at, action):
    """Runs problem with `solver`, holds it at iteration hold_at, calls
    action(hold_file), which must remove the file to let Ipopt go on.
    Returns (Run, monotonic time at which action returned)."""
    hold = work / f"hold.{time.monotonic_ns()}"
    nlp = ipopt_runs.NlpProcess(
        build, problem, solver, env,
        [f"--hold_at_iteration={hold_at}", f"--hold_file={hold}"])
    if not ipopt_runs.wait_for_file(hold, nlp, 300):
        run = nlp.wait(60)
        hint = (f" (Ipopt could not load {ipopt_runs.factord_library(solver, build).name})"
                if run.status == "Invalid_Option" else "")
        raise RuntimeError(f"the run never reached iteration {hold_at}: "
                           f"{run.status}{hint} {run.stderr[-1000:]}")
    action(hold)
    released = time.monotonic()
    return nlp.wait(600), released


def check_killed(build, problem, connect_timeout, hold_at, work,
                 solver="pardiso") -> bool:
    """Each library call after the kill must return its fatal code within
    the deadline; Ipopt decides how many calls it makes before it stops."""
    (work / "killed").mkdir()
    daemon = ipopt_runs.Daemon(build, work / "killed")
    daemon.start()
    deadline = connect_timeout or DEFAULT_CONNECT_TIMEOUT
    extra = {"FACTORD_CONNECT_TIMEOUT": f"{connect_timeout:g}"} if connect_timeout else {}
    env = ipopt_runs.solver_env(solver, build, daemon, extra)

    def kill(hold):
        daemon.kill()
        hold.unlink()

    try:
        run, released = held_run(build, problem, solver, env, work, hold_at, kill)
    finally:
        daemon.stop()
    ended = run.ended
    errors = [(t, line.strip()) for t, line in run.stderr_lines
              if line.startswith(("factord pardiso:", "factord hsl:"))]
    # Times between the release, each fatal code the library printed, and
    # the end of the run: each must fit in one deadline (+ slack).
    marks = [released] + [t for t, _ in errors] + [ended]
    gaps = [b - a for a, b in zip(marks, marks[1:])]
    ok = (not run.solved and run.exit_code not in (0, None) and errors
          and max(gaps) <= deadline + CALL_SLACK_SECONDS)
    print(f"robustness killed: {'PASS' if ok else 'FAIL'}: daemon killed at "
          f"iteration {hold_at}; first fatal code after "
          f"{(errors[0][0] - released) if errors else float('nan'):.2f} s; "
          f"{len(errors)} failed call(s), gaps {', '.join(f'{g:.2f}' for g in gaps)} s "
          f"(each <= {deadline:g} s deadline + {CALL_SLACK_SECONDS:g} s); "
          f"Ipopt ended {run.status} (exit {run.exit_code}) "
          f"{ended - released:.2f} s after it went on")
    for _, line in errors[:3]:
        print(f"  {line[:300]}")
    return bool(ok)


def check_restarted(build, problem, connect_timeout, hold_at, work,
                    down_seconds: float, solver="pardiso") -> bool:
    name = "down" if down_seconds > 0 else "restarted"
    (work / name).mkdir()
    daemon = ipopt_runs.Daemon(build, work / name)
    daemon.start()
    extra = {"FACTORD_CONNECT_TIMEOUT": str(connect_timeout)} if connect_timeout else {}
    env = ipopt_runs.solver_env(solver, build, daemon, extra)

    def restart(hold):
        daemon.kill()
        if down_seconds > 0:
            hold.unlink()
            time.sleep(down_seconds)
            daemon.start()
        else:
            daemon.start()
            hold.unlink()

    try:
        reference = ipopt_runs.run_nlp(build, problem, solver, env)
        run, _ = held_run(build, problem, solver, env, work, hold_at, restart)
        log = daemon.log_text()
    finally:
        daemon.stop()
    reuploaded = "rpc=Upload" in log and "code=OK" in log
    ok = run.solved and reference.solved and reuploaded
    detail = ""
    if run.record and reference.record:
        rel = abs(run.record["objective"] - reference.record["objective"]) / max(
            1.0, abs(reference.record["objective"]))
        it_diff = abs(run.record["iterations"] - reference.record["iterations"])
        ok = ok and rel <= 1e-6 and it_diff <= max(2, 0.1 * reference.record["iterations"])
        detail = (f"objective {run.record['objective']:.10g} vs undisturbed "
                  f"{reference.record['objective']:.10g} (rel {rel:.1e}), "
                  f"iterations {run.record['iterations']} vs "
                  f"{reference.record['iterations']}")
    when = (f"restarted {down_seconds:g} s after Ipopt went on" if down_seconds > 0
            else "restarted before Ipopt went on")
    print(f"robustness {name}: {'PASS' if ok else 'FAIL'}: daemon killed at "
          f"iteration {hold_at} and {when}; Ipopt ended {run.status}; {detail}; "
          f"re-upload seen by the new daemon: {'yes' if reuploaded else 'no'}")
    if not ok and run.stderr.strip():
        print(run.stderr[-2000:])
    return ok


def run_all(build: Path, problem, connect_timeout=None, hold_at=5,
            only=("killed", "restarted", "down"), down_seconds=1.0,
            solver="pardiso") -> int:
    work = ipopt_runs.scratch_dir()
    print(f"robustness checks on {problem.label} with {solver} (work {work})",
          flush=True)
    checks = []
    if "killed" in only:
        checks.append(("killed", lambda: check_killed(
            build, problem, connect_timeout, hold_at, work, solver)))
    if "restarted" in only:
        checks.append(("restarted", lambda: check_restarted(
            build, problem, connect_timeout, hold_at, work, 0, solver)))
    if "down" in only:
        checks.append(("down", lambda: check_restarted(
            build, problem, connect_timeout, hold_at, work, down_seconds,
            solver)))
    results = []
    for name, check in checks:
        try:
            results.append(check())
        except RuntimeError as error:
            print(f"robustness {name}: FAIL: {error}")
            results.append(False)
    return 0 if all(results) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=str(HERE.parent / "build"))
    parser.add_argument("--problem", default="nonconvex_chain")
    parser.add_argument("--connect_timeout", type=float, default=None)
    parser.add_argument("--hold_at_iteration", type=int, default=5)
    parser.add_argument("--only", default="killed,restarted,down")
    parser.add_argument("--down_seconds", type=float, default=1.0,
                        help="outage of the down check (keep it well inside "
                        "the connect timeout: gRPC's reconnect backoff)")
    parser.add_argument("--solver", default="pardiso",
                        choices=sorted(ipopt_runs.FACTORD_LIBRARIES))
    args = parser.parse_args()
    build = Path(args.build).resolve()
    library = ipopt_runs.factord_library(args.solver, build)
    if not library.is_file():
        print(f"FAIL: {library} is missing (build factord_pardiso / "
              f"factord_hsl)", file=sys.stderr)
        return 1
    return run_all(build, ipopt_runs.parse_problem(args.problem),
                   args.connect_timeout, args.hold_at_iteration,
                   tuple(args.only.split(",")), args.down_seconds, args.solver)


if __name__ == "__main__":
    sys.exit(main())
