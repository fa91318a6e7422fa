#!/usr/bin/env bash
# Lists every gtest name (Suite.Test; parameterized ones with their
# instance prefix and index) of every gtest binary in the build tree, one a
# line, sorted, so that a change can show that no test was lost:
#
#   scripts/list_gtest_names.sh > /tmp/after.txt &&
#     comm -23 docs/measurements/gtest_names.txt /tmp/after.txt  # empty
#
# A gtest binary is an ELF executable outside CMakeFiles/ that contains
# googletest's "gtest_list_tests" flag (gtest is linked statically); only
# those are run, with --gtest_list_tests. The names are listed without
# their binary, so that tests may move between binaries; a name in two
# binaries is listed once.
# Usage: scripts/list_gtest_names.sh [build_dir] (default $FACTORD_BUILD_DIR
# or build/). It does not build: build the tests first.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-${FACTORD_BUILD_DIR:-$root/build}}"
build="$(cd "$build" && pwd)"
export LC_ALL=C
find "$build" -type f -perm -u+x ! -path '*/CMakeFiles/*' -print |
  sort | while IFS= read -r binary; do
  [[ "$(head -c 4 "$binary" | od -An -tx1 | tr -d ' \n')" == 7f454c46 ]] ||
    continue
  grep -q -a gtest_list_tests "$binary" || continue
  "$binary" --gtest_list_tests | awk '
    /^[^ ]/ { suite = $1; next }
    /^  [^ ]/ { print suite $1 }
  '
done | sort -u
