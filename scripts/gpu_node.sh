#!/usr/bin/env bash
# For a machine with an NVIDIA GPU: builds factord with the CUDA backend
# required (FACTORD_CUDA=ON), runs the whole test suite, fails if any
# real-device test skipped (they skip only when no device is usable), then
# runs the CUDA kernel benchmarks and prints a table for each: block-Jacobi
# on real matrices, and the S2 §IV batched dense LU/LL^T/LDL^T on random
# batches of 10,000 blocks of 4, 8, 16 and 32 rows.
#
#   ./scripts/gpu_node.sh [DATA_DIR]     (default ../shared/data)
#
# Build dir: ${FACTORD_BUILD_DIR:-build-gpu}. Exit 2 when there is no GPU.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${1:-$root/../shared/data}"
export FACTORD_BUILD_DIR="${FACTORD_BUILD_DIR:-$root/build-gpu}"

if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "gpu_node.sh: no NVIDIA GPU visible (nvidia-smi -L lists none); this script is for a GPU node" >&2
  exit 2
fi
nvidia-smi -L

"$root/scripts/build.sh" -DFACTORD_CUDA=ON
cd "$FACTORD_BUILD_DIR"
ctest --output-on-failure -j "$(nproc)" --timeout 900

# The real-device tests must have run, not skipped.
device_log="$(mktemp)"
trap 'rm -f "$device_log"' EXIT
./tests/cuda_device_tests | tee "$device_log"
if grep -q '\[  SKIPPED \]' "$device_log"; then
  echo "gpu_node.sh: real-device tests skipped although a GPU is visible" >&2
  exit 1
fi

matrices=()
for m in 494_bus 1138_bus bcsstk13 hangGlider_2 reorientation_1; do
  [ -f "$data/matrices/$m.mtx" ] && matrices+=("$data/matrices/$m.mtx")
done
while IFS= read -r k; do matrices+=("$k"); done < <(
  find "$data/kkt" -path '*2x2/iter_0/*.mtx' 2>/dev/null | sort | head -8)
./bench/cuda_kernel_benchmark --threads="$(nproc)" "${matrices[@]}" |
  tee cuda_kernel_benchmark.jsonl
python3 - cuda_kernel_benchmark.jsonl <<'PY'
import json, os, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(f"{'matrix':<28}{'bs':>4}{'blocks':>8}{'invert x':>10}{'apply x':>9}{'max diff':>11}  ok")
for r in rows:
    if r.get("skipped") or "error" in r:
        print(r); continue
    name = r["matrix"].split("/kkt/")[1].split("/")[0] \
        if "/kkt/" in r["matrix"] else os.path.basename(r["matrix"])
    f = lambda x: "-" if x is None else f"{x:.2f}"
    print(f"{name[:27]:<28}{r['max_block']:>4}{r['blocks']:>8}"
          f"{f(r['invert_speedup']):>10}{f(r['apply_speedup']):>9}"
          f"{r['max_rel_diff_inverse']:>11.1e}  {r['device_ok']}")
PY

# S2 §IV batched dense factorizations: device kernel against the CPU backend.
./bench/cuda_dense_benchmark --threads="$(nproc)" | tee cuda_dense_benchmark.jsonl
python3 - cuda_dense_benchmark.jsonl <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(f"{'m':>3} {'kind':<5}{'pivoting':<9}{'cpu ms':>9}{'kernel ms':>10}"
      f"{'w/ copies ms':>13}{'speedup':>9}{'status !=':>10}{'max diff':>10}")
for r in rows:
    if r.get("skipped") or "error" in r:
        print(r); continue
    ms = lambda x: "-" if x is None else f"{1e3 * x:.3f}"
    f = lambda x: "-" if x is None else f"{x:.1f}"
    print(f"{r['m']:>3} {r['kind']:<5}{r['pivoting']:<9}{ms(r['cpu_s']):>9}"
          f"{ms(r['gpu_kernel_s']):>10}{ms(r['gpu_with_copies_s']):>13}"
          f"{f(r['kernel_speedup']):>9}{r['status_mismatches']:>10}"
          + (f"{r['max_rel_diff']:>10.1e}" if r['max_rel_diff'] is not None
             else f"{'-':>10}"))
PY
