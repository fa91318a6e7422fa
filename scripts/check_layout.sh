#!/usr/bin/env bash
# Checks the include rules of docs/design.md ("Layers", the core layout):
#
#  (a) a kernel file (under core/**/kernels/, and core's device seam
#      core/device/device_kernels.h, which declares kernel entry points in
#      the kernels' types) includes, of core's headers, only
#      core/**/kernels/*, core/kernels/*, core/device/device_kernels.h,
#      core/base/*, core/matrix/csr.h and core/emulation/* (kernels depend
#      on shared kernel code and base types, never on an algorithm header);
#  (b) no file in core/, server/ or client/ includes a header from tests/;
#  (c) no file in core/ includes server/, client/ or proto headers
#      (proto/, *.pb.h, *.grpc.pb.h) or gRPC.
#
# Prints every violation as file:line: rule: the include line, and exits 1
# if there is one, else 0.
#
# The seam counts as kernel code so that the CUDA backend
# (core/kernels/cuda/cuda_backend.cc), which implements and registers it,
# needs no exemption; the rest of core/device/ (the dispatch helpers) is
# algorithm code.
#
# Usage: scripts/check_layout.sh [root]   (root defaults to the repository;
# pass another tree, e.g. a copy with a planted include, to test the check)
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"

fail=0
report() {  # file line rule text
  printf '%s:%s: %s: %s\n' "$1" "$2" "$3" "$4"
  fail=1
}

sources() {  # dirs...: the C/C++/CUDA files under them
  local dir
  for dir in "$@"; do
    [[ -d "$dir" ]] || continue
    find "$dir" -type f \( -name '*.h' -o -name '*.cc' -o -name '*.cu' \
      -o -name '*.cuh' -o -name '*.hpp' -o -name '*.cpp' \) | LC_ALL=C sort
  done
}

# Quoted includes of one file as "line<TAB>path".
includes() {
  awk '
    match($0, /^[ \t]*#[ \t]*include[ \t]*[<"][^>"]*[>"]/) {
      s = substr($0, RSTART, RLENGTH)
      sub(/^[ \t]*#[ \t]*include[ \t]*[<"]/, "", s)
      sub(/[>"]$/, "", s)
      print FNR "\t" s
    }' "$1"
}

kernel_include_allowed() {  # path
  local path="$1"
  case "$path" in
    core/*/kernels/* | core/kernels/* | core/device/device_kernels.h | \
      core/base/* | core/matrix/csr.h | core/emulation/*) return 0 ;;
  esac
  return 1
}

while IFS= read -r file; do
  in_kernels=0
  [[ "$file" == core/kernels/* || "$file" == core/*/kernels/* ||
    "$file" == core/device/device_kernels.h ]] && in_kernels=1
  while IFS=$'\t' read -r line path; do
    [[ -n "$path" ]] || continue
    # (a)
    if ((in_kernels)) && [[ "$path" == core/* ]] &&
      ! kernel_include_allowed "$path"; then
      report "$file" "$line" "kernel includes a non-kernel core header" "$path"
    fi
    # (b)
    if [[ "$path" == tests/* ]]; then
      report "$file" "$line" "includes a test header" "$path"
    fi
    # (c)
    if [[ "$file" == core/* ]]; then
      case "$path" in
        server/* | client/* | proto/* | *.pb.h | grpc/* | grpcpp/* | grpc++/*)
          report "$file" "$line" "core includes server, client, proto or gRPC" \
            "$path"
          ;;
      esac
    fi
  done < <(includes "$file")
done < <(sources core server client)

exit "$fail"
