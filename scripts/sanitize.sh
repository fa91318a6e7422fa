#!/usr/bin/env bash
# Builds factord with sanitizers into its own build directory and runs tests
# under them; any sanitizer report fails the run (halt_on_error, and
# -fno-sanitize-recover=all at compile time).
#   asan: AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer) on
#         the ctest suite except the deploy label (those tests check YAML and
#         shell tooling, not our C++) and the fleet label (HAProxy in front
#         of daemons; the reload code they drive runs under ASan in the
#         in-process service tests). The python, ipopt and wire tests are
#         not registered in sanitizer trees (uninstrumented interpreters and
#         Ipopt, no C++).
#   tsan: ThreadSanitizer on the core tests, the server's cache and
#         worker-pool tests (server_cache_work_tests, gRPC-free, defined in
#         CMakeLists.txt for TSan builds only) and the emulated CUDA kernels
#         on their planted cases (fibers are annotated in
#         core/emulation/cuda_emulation.cc). TBB's fork/join edges are
#         spelled out for TSan at our fork sites
#         (core/kernels/cpu/tsan_handoff.h); tsan.supp covers only TBB's
#         own task objects.
# Usage: scripts/sanitize.sh asan|tsan [extra ctest / gtest arguments]
# Env: SANITIZE_BUILD_DIR (build-asan / build-tsan), SANITIZE_JOBS (nproc).
set -euo pipefail
mode=${1:?usage: scripts/sanitize.sh asan|tsan}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${SANITIZE_JOBS:-$(nproc)}
supp="$root/tests/sanitizers"
case $mode in
  asan) sanitizers=address,undefined ;;
  tsan) sanitizers=thread ;;
  *) echo "unknown mode '$mode' (asan or tsan)" >&2; exit 2 ;;
esac
build=${SANITIZE_BUILD_DIR:-$root/build-$mode}
# The TSan build leaves UMFPACK out (FACTORD_WITH_UMFPACK=OFF), so that CI
# builds and tests that configuration too (LuAvailability.* in core_tests);
# the ASan build keeps it, to run method lu's tests under ASan.
umfpack=ON
[[ $mode == tsan ]] && umfpack=OFF
phase_start=$SECONDS
phase() {
  echo "sanitize $mode: $1 in $((SECONDS - phase_start)) s"
  phase_start=$SECONDS
}

# Reports abort the process (non-zero exit) instead of continuing. Set
# before the build: gtest_discover_tests runs the test binaries then.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp"
# quarantine_size_mb=8: ASan's default 256 MiB quarantine of freed memory
# shows up as resident-memory growth and fails the RSS tests
# (ResidentMemoryStaysFlatOver1000RejectedUploads: 199 -> 430 MB).
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1:quarantine_size_mb=8"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:history_size=7:suppressions=$supp/tsan.supp:print_suppressions=0"

"$root/scripts/install_deps.sh"
if [[ ! -f $build/build.ninja ]]; then
  # -g1 (functions and line tables: enough for the reports' stack traces)
  # instead of -g: a shorter build and link, which CI's 90 minutes feel.
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DFACTORD_SANITIZE="$sanitizers" -DFACTORD_CUDA=OFF \
    -DFACTORD_BUILD_BENCHMARKS=OFF -DFACTORD_WITH_UMFPACK="$umfpack"
fi
if [[ $mode == asan ]]; then
  # Everything ctest runs: the test executables, factord, factorctl and
  # factord-load (benchmarks are off).
  cmake --build "$build" -j "$jobs"
else
  cmake --build "$build" -j "$jobs" --target core_tests \
    server_cache_work_tests emulation_tests
fi
phase build

if [[ $mode == asan ]]; then
  (cd "$build" &&
    ctest --output-on-failure -j "$jobs" --timeout 900 -LE 'deploy|fleet' "$@")
  phase "ctest (all but -L deploy and -L fleet)"
else
  # The two bounded thread pools make the races (if any) reproducible on a
  # 2-core machine; TBB and OpenBLAS are uninstrumented (tsan.supp says how
  # they are handled).
  # Without the sweeps over every shared matrix and KKT system: serial
  # throughput tests that take many minutes under TSan and exercise no
  # threading the kernel-vs-reference tests do not.
  "$build/tests/core_tests" --gtest_brief=1 \
    --gtest_filter='-*Kkt*:*SharedMatrices*:*CollectionMatrices*' "$@"
  phase core_tests
  "$build/server_cache_work_tests" --gtest_brief=1 "$@"
  phase "cache and worker-pool tests"
  # The emulated kernels on their planted cases (the emulator's fibers are
  # annotated, so TSan checks the emulated threads of a block against each
  # other too): the emulator's own tests and every family's planted edge
  # cases (4 min). Not the random and real-matrix runs (the same kernels on
  # more inputs: 11+ min of the stage under TSan); ASan and the test stage
  # run those.
  "$build/tests/emulation_tests" --gtest_brief=1 \
    --gtest_filter='EmulatedRuntime.*:*Planted*:BlockIldltSolveEmulated.Sweeps*' \
    "$@"
  phase "emulation_tests (planted cases)"
fi
echo "sanitize $mode: PASS"
