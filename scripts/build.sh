#!/usr/bin/env bash
# Configures (once) and builds factord into ${FACTORD_BUILD_DIR:-build}.
# Extra arguments are passed to cmake at configure time. FACTORD_CUDA=ON
# (or OFF, AUTO) in the environment sets the CUDA backend option, on a tree
# configured before too; with ON the script fails unless the CUDA backend
# was built (scripts/check_cuda_built.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FACTORD_BUILD_DIR:-$root/build}"
cuda="${FACTORD_CUDA:-}"
cuda_args=()
if [ -n "$cuda" ]; then
  cuda_args=(-DFACTORD_CUDA="$cuda")
fi
"$root/scripts/install_deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc "${cuda_args[@]}" "$@"
elif [ -n "$cuda" ]; then
  cmake -S "$root" -B "$build" "${cuda_args[@]}"
fi
cmake --build "$build" -j "$(nproc)"
if [ "$cuda" = ON ]; then
  "$root/scripts/check_cuda_built.sh" "$build"
fi
