#!/usr/bin/env bash
# For a machine with an NVIDIA GPU: builds factord with the CUDA backend
# required (FACTORD_CUDA=ON), runs the whole test suite, fails if any
# real-device test skipped (they skip only when no device is usable), then
# runs the CUDA kernel benchmark on real matrices and prints a table.
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
./tests/emulation/cuda_device_tests | tee "$device_log"
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
