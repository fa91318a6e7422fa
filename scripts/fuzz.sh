#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang-14 (ASan + UBSan)
# and runs each for SECONDS (default 60) on a copy of its committed seed
# corpus. Exits non-zero when a target fails to build or finds a crash
# (crash inputs are kept in the build dir and named in the output).
# Usage: scripts/fuzz.sh [SECONDS]
# Env: FUZZ_BUILD_DIR (build-fuzz), FUZZ_TARGETS (all), FUZZ_INSTALL=1 to
#      apt-get the missing packages (clang-14, libclang-rt-14-dev,
#      libabsl-dev, zlib1g-dev, pkg-config).
set -uo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
targets=${FUZZ_TARGETS:-"matrix_market mps_reader assemble"}
cxx=clang++-14
stage_start=$(date +%s)
stage() {
  local now; now=$(date +%s)
  echo "stage $1: $((now - stage_start)) s"; stage_start=$now
}

# --- toolchain ---------------------------------------------------------
missing=()
command -v "$cxx" >/dev/null || missing+=(clang-14)
dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || missing+=(libclang-rt-14-dev)
pkg-config --exists absl_strings 2>/dev/null || missing+=(libabsl-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if ((${#missing[@]})); then
  if [[ ${FUZZ_INSTALL:-0} == 1 ]]; then
    sudo_cmd=""; [[ $(id -u) -ne 0 ]] && sudo_cmd=sudo
    $sudo_cmd apt-get install -y --no-install-recommends "${missing[@]}" || exit 1
  else
    echo "missing packages: ${missing[*]} (rerun with FUZZ_INSTALL=1)" >&2
    exit 1
  fi
fi
stage toolchain

# --- build -------------------------------------------------------------
mkdir -p "$build/obj"
flags=(-std=c++20 -O1 -g -fno-omit-frame-pointer
  -fsanitize=address,undefined -fno-sanitize-recover=undefined
  -I"$root")
libs=$(pkg-config --libs absl_status absl_statusor absl_strings zlib)
sources=(core/matrix/{assemble,csr,csr_expand,matrix_market,matrix_market_io,text_lines,validate}.cc
  client/ipm/{mps_reader,qp_problem}.cc)
objects=()
fail=0
for src in "${sources[@]}"; do
  obj="$build/obj/$(echo "$src" | tr / _).o"
  objects+=("$obj")
  if [[ ! -f $obj || $root/$src -nt $obj ]]; then
    "$cxx" "${flags[@]}" -fsanitize=fuzzer-no-link -c "$root/$src" -o "$obj" &
    (($(jobs -r | wc -l) >= 2)) && wait -n
  fi
done
wait || true
for obj in "${objects[@]}"; do [[ -f $obj ]] || fail=1; done
for t in $targets; do
  "$cxx" "${flags[@]}" -fsanitize=fuzzer "$root/tests/fuzz/${t}_fuzzer.cc" \
    "${objects[@]}" $libs -o "$build/${t}_fuzzer" || fail=1
done
stage build
((fail)) && { echo "FAIL: build"; exit 1; }

# --- run ---------------------------------------------------------------
for t in $targets; do
  corpus="$build/corpus/$t"
  mkdir -p "$corpus" "$build/crashes/$t"
  cp -n "$root/tests/fuzz/corpus/$t/"* "$corpus/" 2>/dev/null
  (cd "$build/crashes/$t" &&
    "$build/${t}_fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 \
      -timeout=10 -print_final_stats=1 "$corpus" \
      "$root/tests/fuzz/corpus/$t" >"$build/$t.log" 2>&1)
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/$t.log")
  echo "$t: exit $rc, ${execs:-?} executions, corpus $(ls "$corpus" | wc -l) files"
  if ((rc != 0)); then
    fail=1
    grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$build/$t.log" | head -8
  fi
  stage "fuzz $t"
done
((fail)) && { echo "FAIL: crashes found (logs in $build)"; exit 1; }
echo "PASS"
