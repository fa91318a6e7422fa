#!/usr/bin/env bash
# A second factord on the address of a running one exits non-zero with a
# message naming "address in use" and the address, for the gRPC port and
# for the /metrics port, and the first keeps serving (ctest
# server.second_daemon).
#   tests/server/second_daemon.sh FACTORD FACTORCTL
set -euo pipefail
factord="$1"
factorctl="$2"
dir="$(mktemp -d)"
first=""
cleanup() {
  if [ -n "$first" ]; then
    kill "$first" 2>/dev/null || true
    wait "$first" 2>/dev/null || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

"$factord" --listen=127.0.0.1:0 --metrics_listen=127.0.0.1:0 --backend=cpu \
  --workers=1 --threads=1 2> "$dir/first.log" &
first=$!
for _ in $(seq 300); do
  grep -q "serving gRPC on port" "$dir/first.log" && break
  kill -0 "$first" 2>/dev/null || { cat "$dir/first.log"; exit 1; }
  sleep 0.1
done
grpc="$(sed -n 's/.*serving gRPC on port \([0-9]*\),.*/\1/p' "$dir/first.log")"
metrics="$(sed -n 's/.*\/metrics on port \([0-9]*\),.*/\1/p' "$dir/first.log")"
if [ -z "$grpc" ] || [ -z "$metrics" ]; then
  echo "FAIL: the first factord did not say its ports:"
  cat "$dir/first.log"
  exit 1
fi

# refused WHAT ADDRESS FLAGS...: a second factord with FLAGS must exit
# non-zero on its own (not by the time box) naming the address in use.
refused() {
  local what="$1" address="$2" rc=0
  shift 2
  timeout 30 "$factord" --backend=cpu --workers=1 --threads=1 "$@" \
    > "$dir/second.log" 2>&1 || rc=$?
  if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
    echo "FAIL: a second factord on the $what address $address started" \
      "(exit $rc)"
    cat "$dir/second.log"
    exit 1
  fi
  if ! grep -q "address in use" "$dir/second.log" ||
     ! grep -qF "$address" "$dir/second.log"; then
    echo "FAIL: the $what refusal does not say \"address in use\" and $address:"
    cat "$dir/second.log"
    exit 1
  fi
  echo "ok: $what $address refused (exit $rc): $(tail -1 "$dir/second.log")"
}
refused gRPC "127.0.0.1:$grpc" --listen="127.0.0.1:$grpc" --metrics_listen=
refused metrics "127.0.0.1:$metrics" --listen=127.0.0.1:0 \
  --metrics_listen="127.0.0.1:$metrics"

# The first still serves both.
kill -0 "$first" || { cat "$dir/first.log"; fail "the first factord exited"; }
"$factorctl" --server="127.0.0.1:$grpc" --json list > "$dir/list.json" ||
  fail "the first factord does not answer on $grpc: $(cat "$dir/list.json")"
grep -q '"schema":"factorctl/1"' "$dir/list.json" ||
  fail "factorctl list printed $(cat "$dir/list.json")"
if command -v curl > /dev/null; then
  curl -sf "http://127.0.0.1:$metrics/metrics" > "$dir/metrics.txt" ||
    fail "the first factord's /metrics does not answer on $metrics"
  grep -q '^factord_' "$dir/metrics.txt" || fail "/metrics has no factord_"
fi
echo "ok: the first factord serves gRPC on $grpc and /metrics on $metrics"
