#!/usr/bin/env bash
# Load and soak run of factord: starts factord on free
# loopback ports, runs factord-load (32 clients x 200 operations of the
# standard workload, --json), then a soak that repeats rounds for
# FACTORD_SOAK_SECONDS (300) while sampling the daemon's VmRSS, and prints
# errors, throughput, p50/p99, RSS after warm-up (the first round) and at the
# end, and the growth. Fails on any error, or on RSS growth >= 10% when the
# soak lasts at least 60 s.
# Usage: tests/load/run_load.sh BUILD_DIR
# Env: FACTORD_LOAD_CLIENTS (32), FACTORD_LOAD_OPERATIONS (200),
#      FACTORD_SOAK_SECONDS (300), FACTORD_SOAK_CLIENTS (32),
#      FACTORD_SOAK_OPERATIONS (50, per client per round).
set -euo pipefail
build=${1:?usage: run_load.sh BUILD_DIR}
build=$(cd "$build" && pwd)
factord="$build/server/factord"
load="$build/client/factord-load"
for exe in "$factord" "$load"; do
  [[ -x $exe ]] || { echo "missing $exe" >&2; exit 2; }
done
clients=${FACTORD_LOAD_CLIENTS:-32}
operations=${FACTORD_LOAD_OPERATIONS:-200}
soak=${FACTORD_SOAK_SECONDS:-300}
soak_clients=${FACTORD_SOAK_CLIENTS:-32}
soak_operations=${FACTORD_SOAK_OPERATIONS:-50}

work=$(mktemp -d)
daemon_pid=""
cleanup() {
  if [[ -n $daemon_pid ]] && kill -0 "$daemon_pid" 2>/dev/null; then
    kill -TERM "$daemon_pid" 2>/dev/null || true
    wait "$daemon_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The log exists before the daemon starts: a background command's
# redirection happens in the child, which may not have run when the loop
# below first reads the log (the first read can win that race).
: >"$work/factord.log"
"$factord" --listen=127.0.0.1:0 --metrics_listen=127.0.0.1:0 \
  >"$work/factord.log" 2>&1 &
daemon_pid=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*serving gRPC on port \([0-9]*\).*/\1/p' "$work/factord.log")
  [[ -n $port ]] && break
  kill -0 "$daemon_pid" 2>/dev/null || break
  sleep 0.1
done
if [[ -z $port ]]; then
  echo "factord did not start:" >&2; cat "$work/factord.log" >&2; exit 1
fi
echo "factord pid $daemon_pid on 127.0.0.1:$port"

# Reads key $2 from the JSON object in file $1 (numbers only).
field() {
  tail -n 1 "$1" | grep -o "\"$2\":[-0-9.e+]*" | head -n 1 | cut -d: -f2
}

status=0
t0=$(date +%s)
"$load" --server="127.0.0.1:$port" --clients="$clients" \
  --operations="$operations" --json --daemon_pid="$daemon_pid" \
  | tee "$work/load.out" || status=1
echo "stage load: $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
"$load" --server="127.0.0.1:$port" --clients="$soak_clients" \
  --operations="$soak_operations" --json --soak_seconds="$soak" \
  --daemon_pid="$daemon_pid" --sample_seconds=10 \
  | tee "$work/soak.out" || status=1
echo "stage soak: $(( $(date +%s) - t0 )) s"

L="$work/load.out"; S="$work/soak.out"
echo "==== factord load figures ===="
echo "load ${clients}x${operations}: errors $(field "$L" errors)," \
  "throughput $(field "$L" throughput_ops_s) ops/s," \
  "p50 $(field "$L" p50_s) s, p99 $(field "$L" p99_s) s"
echo "soak ${soak} s (${soak_clients}x${soak_operations} per round," \
  "$(field "$S" rounds) rounds): errors $(field "$S" errors)," \
  "throughput $(field "$S" throughput_ops_s) ops/s," \
  "p50 $(field "$S" p50_s) s, p99 $(field "$S" p99_s) s"
growth=$(field "$S" rss_growth_pct)
echo "RSS after warm-up $(field "$S" rss_warm_kb) kB, at the end" \
  "$(field "$S" rss_end_kb) kB (max $(field "$S" rss_max_kb) kB)," \
  "growth ${growth} %"
if [[ $soak -ge 60 && -n $growth ]] &&
  awk -v g="$growth" 'BEGIN { exit !(g >= 10) }'; then
  echo "FAIL: RSS grew by ${growth} % (limit 10 %)"; status=1
fi
kill -TERM "$daemon_pid"
if ! wait "$daemon_pid"; then echo "FAIL: factord exited non-zero"; status=1; fi
daemon_pid=""
[[ $status -eq 0 ]] && echo "PASS" || echo "FAIL"
exit $status
