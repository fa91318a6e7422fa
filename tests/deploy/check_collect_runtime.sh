#!/usr/bin/env bash
# deploy/docker/collect_runtime.sh, which fills the runtime images, run on
# this build: the collected factord must resolve every library outside glibc
# and CUDA from the collected lib/ alone, and start and serve /metrics from
# there (what the image's ENTRYPOINT does, minus the base image).
# Usage: check_collect_runtime.sh BUILD_DIR
source "$(dirname "$0")/lib.sh"
source "$HERE/factord_run.sh"
need_tool curl "Debian package curl"
need_tool node "Debian package nodejs"
build="${1:?usage: $0 BUILD_DIR}"
"$DEPLOY/docker/collect_runtime.sh" "$build" "$TMP/out"
[ -x "$TMP/out/bin/factord" ] || fail "no bin/factord collected"
LD_LIBRARY_PATH="$TMP/out/lib" ldd "$TMP/out/bin/factord" > "$TMP/ldd"
grep 'not found' "$TMP/ldd" && fail "unresolved libraries"
outside="$(awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' "$TMP/ldd" |
  grep -vE '^(libc|libm|libdl|libpthread|librt|libresolv|libutil|libcuda|libnvidia-)[.-]' |
  grep -v " $TMP/out/lib/" | grep -v ' /usr/local/cuda' || true)"
[ -z "$outside" ] || fail "libraries loaded from outside the collected lib/: $outside"
echo "ok $(ls "$TMP/out/lib" | wc -l) libraries collected, $(du -sh "$TMP/out" | cut -f1)"
export LD_LIBRARY_PATH="$TMP/out/lib"
start_factord "$TMP/out/bin/factord"
stop_factord
echo "collect_runtime: all passed"
