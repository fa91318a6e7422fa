#!/usr/bin/env bash
# Gathers what the runtime image needs from a build directory:
#   OUT/bin/factord (and OUT/bin/factorctl when it was built) and
#   OUT/lib/*: every shared library they load, except the C library, the
#   CUDA toolkit's libraries (under /usr/local/cuda: the nvidia/cuda runtime
#   image has the same ones) and the CUDA driver (mounted by the NVIDIA
#   container runtime). The build and runtime stages share one distribution
#   release, so glibc matches; everything else travels with the binary and
#   the runtime image needs no -dev packages and no package installs.
# Usage: collect_runtime.sh BUILD_DIR OUT_DIR
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
fi
build="$1"
out="$2"
mkdir -p "$out/bin" "$out/lib"
binaries=()
for name in factord factorctl; do
  found="$(find "$build" -type f -name "$name" -perm -u+x | head -n 1)"
  if [ -n "$found" ]; then
    binaries+=("$found")
  elif [ "$name" = factord ]; then
    echo "collect_runtime: no factord binary under $build" >&2
    exit 1
  fi
done
# From glibc and the driver: never copied.
skip='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libresolv|libutil|libcuda|libnvidia-)[.-]'
for bin in "${binaries[@]}"; do
  install -m 0755 "$bin" "$out/bin/"
  if ldd "$bin" | grep -q 'not found'; then
    echo "collect_runtime: $bin has unresolved libraries:" >&2
    ldd "$bin" | grep 'not found' >&2
    exit 1
  fi
  ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' |
    while read -r soname path; do
      if [[ ! "$soname" =~ $skip && "$path" != /usr/local/cuda* ]]; then
        cp -L "$path" "$out/lib/$soname"
      fi
    done
done
echo "collect_runtime: $(ls "$out/bin" | tr '\n' ' ')+ $(ls "$out/lib" | wc -l) libraries"
