#!/usr/bin/env bash
# What FACTORD_CUDA (cmake/Cuda.cmake) does, on a project of that file alone
# (tests/build/cuda_probe), and the CI check after a build
# (scripts/check_cuda_built.sh); ctest build.cuda_option.
#  - ON with a CUDA compiler that does not exist stops the configuration;
#  - OFF configures without the CUDA backend, and check_cuda_built.sh fails
#    on such a tree (what CI runs after building with FACTORD_CUDA=ON);
#  - ON with /usr/local/cuda/bin/nvcc, when it exists, turns the backend on.
#   tests/build/cuda_option.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
probe="$root/tests/build/cuda_probe"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*"
  exit 1
}

if cmake -S "$probe" -B "$work/on-bogus" -DFACTORD_CUDA=ON \
  -DCMAKE_CUDA_COMPILER=/nonexistent/bin/nvcc > "$work/on-bogus.log" 2>&1; then
  cat "$work/on-bogus.log"
  fail "FACTORD_CUDA=ON configured with a CUDA compiler that does not exist"
fi
grep -q "FACTORD_CUDA=ON but the CUDA compiler" "$work/on-bogus.log" ||
  { cat "$work/on-bogus.log"; fail "ON with no compiler: not said why"; }
echo "ok: FACTORD_CUDA=ON without a CUDA compiler stops the configuration"

cmake -S "$probe" -B "$work/off" -DFACTORD_CUDA=OFF > "$work/off.log" 2>&1 ||
  { cat "$work/off.log"; fail "FACTORD_CUDA=OFF did not configure"; }
grep -q "factord: CUDA backend OFF" "$work/off.log" ||
  { cat "$work/off.log"; fail "OFF: backend not reported OFF"; }
if "$root/scripts/check_cuda_built.sh" "$work/off" > "$work/check.log" 2>&1; then
  cat "$work/check.log"
  fail "check_cuda_built.sh passed a tree without the CUDA backend"
fi
echo "ok: check_cuda_built.sh fails on a tree without the CUDA backend:" \
  "$(cat "$work/check.log")"

if [ -x /usr/local/cuda/bin/nvcc ]; then
  cmake -S "$probe" -B "$work/on" -DFACTORD_CUDA=ON \
    -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc > "$work/on.log" 2>&1 ||
    { cat "$work/on.log"; fail "FACTORD_CUDA=ON with nvcc did not configure"; }
  grep -q "factord: CUDA backend ON" "$work/on.log" ||
    { cat "$work/on.log"; fail "ON with nvcc: backend not reported ON"; }
  echo "ok: FACTORD_CUDA=ON with /usr/local/cuda/bin/nvcc turns it on"
else
  echo "note: no /usr/local/cuda/bin/nvcc here; ON with nvcc not configured"
fi
