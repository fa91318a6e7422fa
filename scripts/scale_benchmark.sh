#!/usr/bin/env bash
# Builds bench/scale_benchmark, runs it and plots the result: factord's ldlt
# against MUMPS and CHOLMOD on 3D Poisson, 2D Stokes (MAC) and 2D
# optimal-control KKT systems of growing size, OpenBLAS' dgemm and the dense
# front kernel (docs/measurements/scale_benchmark.md).
#
# Usage: scripts/scale_benchmark.sh [scale_benchmark flags...]
#   e.g. scripts/scale_benchmark.sh --max_k=64 --max_stokes_k=384 \
#          --max_control_k=384 --repeats=3
# Writes docs/measurements/scale_benchmark.jsonl (or $SCALE_BENCHMARK_OUT)
# and the PNGs under docs/images/ (scripts/plot_scale.py). The build tree is
# $FACTORD_BUILD_DIR or build/; the build takes /tmp/factord-build.lock, as
# every build on the shared machine does.
#
# The defaults (Poisson k <= 48, Stokes and control k <= 256, fronts up to
# 4096, 3 repeats, 2 threads) take about 3 minutes on 2 cores; the largest
# sizes above about 10.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FACTORD_BUILD_DIR:-$root/build}"
out="${SCALE_BENCHMARK_OUT:-$root/docs/measurements/scale_benchmark.jsonl}"
flock /tmp/factord-build.lock cmake --build "$build" --target scale_benchmark -j2
"$build/bench/scale_benchmark" --check > /dev/null
"$build/bench/scale_benchmark" "$@" | tee "$out.tmp"
mv "$out.tmp" "$out"
/usr/bin/python3 "$root/scripts/plot_scale.py" "$out" "$root/docs/images"
/usr/bin/python3 "$root/scripts/plot_scale.py" --table "$out"
