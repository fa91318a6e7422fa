#!/usr/bin/env bash
# Configures (once) and builds factord into ${FACTORD_BUILD_DIR:-build}.
# Extra arguments are passed to cmake at configure time.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FACTORD_BUILD_DIR:-$root/build}"
"$root/scripts/install_deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc "$@"
fi
cmake --build "$build" -j "$(nproc)"
