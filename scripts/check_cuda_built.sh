#!/usr/bin/env bash
# Fails unless the build tree BUILD_DIR has the CUDA backend built (target
# factord_cuda): what scripts/build.sh checks after building with
# FACTORD_CUDA=ON, so that CI cannot pass on a tree configured without CUDA
# (FACTORD_CUDA=AUTO builds without it when no nvcc is found).
#   scripts/check_cuda_built.sh BUILD_DIR
set -euo pipefail
build="${1:?usage: check_cuda_built.sh BUILD_DIR}"
if ! cmake --build "$build" --target factord_cuda > /dev/null 2>&1; then
  echo "check_cuda_built: $build has no CUDA backend (target factord_cuda" \
    "is not in the build; configure with -DFACTORD_CUDA=ON and nvcc)" >&2
  exit 1
fi
library="$(find "$build" -name 'libfactord_cuda.a' -print -quit)"
if [ -z "$library" ]; then
  echo "check_cuda_built: $build built target factord_cuda but has no" \
    "libfactord_cuda.a" >&2
  exit 1
fi
nvcc="$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")"
echo "check_cuda_built: CUDA backend built: $library (nvcc: ${nvcc:-?})"
