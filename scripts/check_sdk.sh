#!/usr/bin/env bash
# check_sdk.sh [BUILD_DIR]: checks the client SDK (docs/sdk.md) end to end.
#   1. configures and builds the client-only build (FACTORD_BUILD_SERVER=OFF)
#      in a clean directory (FACTORD_SDK_BUILD_DIR, /tmp/factord-sdk-build),
#      and checks that it looked for none of the server's libraries;
#   2. runs ldd on every binary and shared library it built and fails if any
#      links a library of the solver, the server, the tests or CUDA;
#   3. installs it to a clean prefix (FACTORD_SDK_PREFIX,
#      /tmp/factord-sdk-prefix), checks the files an SDK user needs, and
#      compiles each installed header on its own against the prefix;
#   4. builds two consumer projects out of tree against that prefix alone,
#      in FACTORD_SDK_CONSUMERS_DIR (/tmp/factord-sdk-consumers):
#      tests/sdk/consumer_cmake (find_package(factord), factord::client and
#      factord::c) and tests/sdk/consumer_pkgconfig (plain cc / c++ with
#      pkg-config factord and factord-c);
#   5. runs the four consumer programs and the installed client programs
#      against a daemon of the normal build (BUILD_DIR/server/factord,
#      BUILD_DIR defaulting to $FACTORD_BUILD_DIR, else build/) on a free
#      loopback port, stopped on exit.
# Prints how long each part took. Needs nothing beside the repository.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
normal_build="$(cd "${1:-${FACTORD_BUILD_DIR:-$root/build}}" && pwd)"
sdk_build="${FACTORD_SDK_BUILD_DIR:-/tmp/factord-sdk-build}"
prefix="${FACTORD_SDK_PREFIX:-/tmp/factord-sdk-prefix}"
consumers="${FACTORD_SDK_CONSUMERS_DIR:-/tmp/factord-sdk-consumers}"
daemon="$normal_build/server/factord"
if [ ! -x "$daemon" ]; then
  echo "check_sdk: no daemon at $daemon (build the normal tree first:" \
    "scripts/build.sh)" >&2
  exit 1
fi

# Libraries of the solver core, the daemon, the tests and CUDA: none may be
# linked by anything the client-only build makes.
forbidden='lib(openblas|lapack|blas|amd|cholmod|umfpack|suitesparse|metis|tbb|prometheus|httplib|cudart|cuda|mumps|gtest)'
# ...nor looked for by its configure step (CMakeCache.txt entries).
forbidden_cache='^(TBB_DIR|prometheus-cpp_DIR|GTest_DIR|benchmark_DIR|BLAS_|LAPACK_|HTTPLIB_|suitesparse_|umfpack_|cholmod_|metis_|mumps_|CUDAToolkit_|CMAKE_CUDA_COMPILER:)'

now() { date +%s.%N; }
t_all="$(now)"
timings=()
part_start=
begin() {
  echo "check_sdk: == $1"
  part_name="$1"
  part_start="$(now)"
}
end() {
  local took
  took="$(awk -v a="$part_start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')"
  echo "check_sdk: == $part_name took $took s"
  timings+=("$(printf '%-34s %6s s' "$part_name" "$took")")
}

daemon_pid=
daemon_log=
# shellcheck disable=SC2317  # called by the trap
cleanup() {
  if [ -n "$daemon_pid" ]; then
    kill -TERM "$daemon_pid" 2>/dev/null || true
    wait "$daemon_pid" 2>/dev/null || true
  fi
  [ -n "$daemon_log" ] && rm -f "$daemon_log"
  return 0
}
trap cleanup EXIT

# --- 1. The client-only build --------------------------------------------
begin "configure (client-only)"
rm -rf "$sdk_build"
cmake -S "$root" -B "$sdk_build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DFACTORD_BUILD_SERVER=OFF > "$sdk_build.configure.log" 2>&1 || {
  cat "$sdk_build.configure.log" >&2
  exit 1
}
if grep -E "$forbidden_cache" "$sdk_build/CMakeCache.txt"; then
  echo "check_sdk: FAIL: the client-only configure looked for the server's" \
    "dependencies (above)" >&2
  exit 1
fi
echo "no server dependency in $sdk_build/CMakeCache.txt"
end

begin "build (client-only, -j$(nproc))"
cmake --build "$sdk_build" -j "$(nproc)"
for target in core/libfactord_core.a server/factord; do
  if [ -e "$sdk_build/$target" ]; then
    echo "check_sdk: FAIL: the client-only build made $target" >&2
    exit 1
  fi
done
end

# --- 2. ldd ---------------------------------------------------------------
# Every ELF executable and shared library under DIRS (CMake's own probes in
# CMakeFiles/ aside).
elf_files() {
  find "$@" -path '*/CMakeFiles' -prune -o -type f \
    \( -name '*.so' -o -name '*.so.*' -o -perm -u+x \) -print |
    while read -r f; do
      [ "$(head -c 4 "$f" | tr -d '\0')" = $'\x7fELF' ] && echo "$f"
    done | sort
}
# ldd of each file in $@, printed; fails on a forbidden or missing library.
check_ldd() {
  local f bad=0 lines
  for f in "$@"; do
    lines="$(ldd "$f")"
    echo "$f:"
    awk '{ print "    " $0 }' <<< "$lines"
    if grep -Eq "^[[:space:]]*$forbidden" <<< "$lines"; then
      echo "check_sdk: FAIL: $f links a server library:" >&2
      grep -E "^[[:space:]]*$forbidden" <<< "$lines" >&2
      bad=1
    fi
    if grep -q 'not found' <<< "$lines"; then
      echo "check_sdk: FAIL: $f has an unresolved library:" >&2
      grep 'not found' <<< "$lines" >&2
      bad=1
    fi
  done
  return "$bad"
}

begin "ldd of the built files"
mapfile -t built < <(elf_files "$sdk_build")
if [ "${#built[@]}" -lt 7 ]; then
  echo "check_sdk: FAIL: expected the 3 programs and 4 shared libraries," \
    "found: ${built[*]}" >&2
  exit 1
fi
check_ldd "${built[@]}"
echo "checked ${#built[@]} files: no $forbidden"
end

# --- 3. Install -----------------------------------------------------------
begin "install"
rm -rf "$prefix"
cmake --install "$sdk_build" --prefix "$prefix" > /dev/null
libdir="$(find "$prefix" -name 'libfactord_c.so' -printf '%h\n' | head -n 1)"
expected=(
  include/factord/client/factord_client.h
  include/factord/factord.h
  bin/factorctl bin/factord-ipm bin/factord-load
)
for f in "${expected[@]}"; do
  [ -e "$prefix/$f" ] || {
    echo "check_sdk: FAIL: $prefix/$f not installed" >&2
    exit 1
  }
done
for f in libfactord_client.a libfactord_client_core.a libfactord_proto.a \
  libfactord_c.so libfactord_remote.so.1 \
  factord/libpardiso.so factord/libhsl.so cmake/factord/factordConfig.cmake \
  cmake/factord/factordConfigVersion.cmake pkgconfig/factord.pc \
  pkgconfig/factord-c.pc; do
  [ -e "$libdir/$f" ] || {
    echo "check_sdk: FAIL: $libdir/$f not installed" >&2
    exit 1
  }
done
(cd "$prefix" && find . -type f -o -type l | sort | sed 's/^\.\//    /')
# Each installed header compiles on its own against the prefix (Abseil from
# the system): every project header it includes is installed too.
for h in "$prefix"/include/factord/client/*.h; do
  echo "#include \"client/${h##*/}\"" |
    c++ -std=c++20 -fsyntax-only -I"$prefix/include/factord" -x c++ - || {
    echo "check_sdk: FAIL: installed client/${h##*/} does not compile alone" >&2
    exit 1
  }
done
echo '#include "factord/factord.h"' |
  cc -std=c99 -Wpedantic -Werror -fsyntax-only -I"$prefix/include" -x c - || {
  echo "check_sdk: FAIL: installed factord/factord.h does not compile alone" >&2
  exit 1
}
echo "each installed header compiles alone"
# The installed libpardiso.so finds the installed libfactord_c.so.1
# (its RUNPATH is $ORIGIN/..).
resolved="$(ldd "$libdir/factord/libpardiso.so" |
  sed -n 's/^[[:space:]]*libfactord_c\.so\.1 => \([^ ]*\) .*/\1/p')"
echo "libpardiso.so: libfactord_c.so.1 => $resolved"
if [ -z "$resolved" ] || [ "$(readlink -f "$resolved")" != \
  "$(readlink -f "$libdir/libfactord_c.so.1")" ]; then
  echo "check_sdk: FAIL: libpardiso.so does not resolve libfactord_c.so.1" \
    "in $libdir:" >&2
  ldd "$libdir/factord/libpardiso.so" >&2
  exit 1
fi
end

# --- 4. Consumers, out of tree, against the prefix alone ------------------
rm -rf "$consumers"
mkdir -p "$consumers"

begin "consumer: CMake (find_package)"
cmake -S "$root/tests/sdk/consumer_cmake" -B "$consumers/cmake" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON > "$consumers/cmake.log" 2>&1 || {
  cat "$consumers/cmake.log" >&2
  exit 1
}
found_dir="$(sed -n 's/^factord_DIR:PATH=//p' "$consumers/cmake/CMakeCache.txt")"
echo "factord_DIR=$found_dir"
if [ "$found_dir" != "$libdir/cmake/factord" ]; then
  echo "check_sdk: FAIL: find_package(factord) did not find the prefix's" >&2
  exit 1
fi
cmake --build "$consumers/cmake" -j "$(nproc)"
end

begin "consumer: pkg-config (cc / c++)"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
echo "pkg-config --cflags factord-c: $(pkg-config --cflags factord-c)"
echo "pkg-config --libs factord-c: $(pkg-config --libs factord-c)"
echo "pkg-config --cflags factord: $(pkg-config --cflags factord)"
echo "pkg-config --libs factord: $(pkg-config --libs factord)"
src="$root/tests/sdk/consumer_pkgconfig"
c_libdir="$(pkg-config --variable=libdir factord-c)"
# shellcheck disable=SC2046  # pkg-config's flags are words
(
  set -x
  cc -std=c99 -Wall -Wextra -Wpedantic -Werror -O2 -o "$consumers/step_c" \
    "$src/step.c" $(pkg-config --cflags --libs factord-c) -lm \
    -Wl,-rpath,"$c_libdir"
  c++ -std=c++20 -Wall -Wextra -Werror -O2 -o "$consumers/step_and_errors_cc" \
    "$src/step_and_errors.cc" $(pkg-config --cflags --libs factord)
)
end

begin "ldd of the consumers"
check_ldd "$consumers/cmake/solve_spd_cc" "$consumers/cmake/solve_spd_c" \
  "$consumers/step_c" "$consumers/step_and_errors_cc"
end

# --- 5. Against a daemon of the normal build -------------------------------
begin "run against $daemon"
daemon_log="$(mktemp "${TMPDIR:-/tmp}/factord-sdk.XXXXXX")"
"$daemon" --listen=127.0.0.1:0 --metrics_listen= --backend=cpu --threads=1 \
  --workers=2 --shutdown_grace=2s > "$daemon_log" 2>&1 < /dev/null &
daemon_pid=$!
port=
for _ in $(seq 600); do # up to 30 s
  port="$(sed -n 's/.*serving gRPC on port \([0-9][0-9]*\).*/\1/p' "$daemon_log" | head -n 1)"
  [ -n "$port" ] && break
  if ! kill -0 "$daemon_pid" 2>/dev/null; then
    echo "check_sdk: FAIL: factord exited at start:" >&2
    cat "$daemon_log" >&2
    daemon_pid=
    exit 1
  fi
  sleep 0.05
done
if [ -z "$port" ]; then
  echo "check_sdk: FAIL: factord did not serve within 30 s:" >&2
  cat "$daemon_log" >&2
  exit 1
fi
address="127.0.0.1:$port"
echo "factord serving on $address"
run() {
  echo "--- $*"
  if ! "$@"; then
    echo "check_sdk: FAIL: $*" >&2
    echo "--- factord log" >&2
    cat "$daemon_log" >&2
    exit 1
  fi
}
# The address by argument, then by FACTORD_SERVER.
run "$consumers/cmake/solve_spd_cc" "$address"
run "$consumers/cmake/solve_spd_c" "$address"
run env FACTORD_SERVER="$address" "$consumers/step_c"
run env FACTORD_SERVER="$address" "$consumers/step_and_errors_cc"
# The installed programs start and print their usage (their flags are
# documented in their --help and man pages; this checks that they run from
# the prefix).
for program in factorctl factord-ipm factord-load; do
  rc=0
  out="$("$prefix/bin/$program" --help 2>&1)" || rc=$?
  if [ "$rc" -ge 126 ] || ! grep -q "$program" <<< "$out"; then
    echo "check_sdk: FAIL: $prefix/bin/$program --help (exit $rc):" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "$prefix/bin/$program --help: exit $rc, $(wc -l <<< "$out") lines"
done
end

echo "check_sdk: timings"
printf '  %s\n' "${timings[@]}"
echo "check_sdk: all parts passed in $(awk -v a="$t_all" -v b="$(now)" \
  'BEGIN { printf "%.1f", b - a }') s"
