#!/usr/bin/env bash
# Builds bench/method_report and runs it: every method of the core (ldlt,
# block_ildlt, jacobi_ldlt, ic on symmetric matrices, ilu, block_jacobi,
# jacobi, lu, each with the Krylov method it picks; cg, gmres, sqmr, idr and
# bicgstab with method none) on every matrix and KKT system of the shared
# data set, one line per (system, method) with every result that does not
# depend on time, floating-point values as %.17g. The output is the
# bit-for-bit baseline docs/measurements/method_report.txt:
#
#   scripts/method_report.sh > /tmp/after.txt &&
#     diff docs/measurements/method_report.txt /tmp/after.txt
#
# Usage: scripts/method_report.sh [data_dir] [--only=<substring>]
#   data_dir defaults to ../shared/data beside the repository. The build
#   tree is $FACTORD_BUILD_DIR or build/.
#
# Deterministic: one thread (the core's ExecContext and a TBB
# global_control in the program, OpenBLAS and OpenMP here), the CPU
# backend. Bounded by the methods' own defaults (SolveOptions: tolerance
# 1e-8, at most 1000 iterations; jacobi_ldlt's 8 sweeps), with no cap of
# its own: the whole sweep (about 1500 lines, 0.8 MB) is about 50 s of CPU
# time on one thread, 1 to 4 minutes of wall-clock time on a busy 2-core
# machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FACTORD_BUILD_DIR:-$root/build}"
data="$root/../shared/data"
args=()
for arg in "$@"; do
  case "$arg" in
    --*) args+=("$arg") ;;
    *) data="$arg" ;;
  esac
done
if [[ ! -f "$data/README.md" ]]; then
  echo "method_report.sh: no shared data set at $data" >&2
  exit 2
fi
flock /tmp/factord-build.lock cmake --build "$build" --target method_report >&2
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
exec "$build/bench/method_report" "$data" ${args[@]+"${args[@]}"}
