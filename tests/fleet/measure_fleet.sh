#!/usr/bin/env bash
# Figures for docs/fleet.md (not a ctest test): factord-load (8 clients x
# 300 operations, retries and re-uploads on) against
#   direct     one daemon, no proxy
#   direct-3w  one daemon with 3 workers, no proxy (as many workers as
#              proxy-3 has in all)
#   proxy-1    HAProxy (deploy/haproxy) in front of one daemon
#   proxy-3    HAProxy in front of three daemons
#   kill-3     the same, one daemon SIGKILLed 2 s into the run
#   reuse-3    proxy-3 with HAProxy's connection reuse on (no max-reuse 0)
# each REPEAT times (3) on fresh daemons; prints one line per run and the
# median of each. Daemons: --backend=cpu --threads=1 --workers=1 (but
# direct-3w).
# Usage: tests/fleet/measure_fleet.sh BUILD_DIR [SCENARIO...]
source "$(dirname "$0")/fleet_lib.sh"
BUILD="$(cd "${1:?usage: measure_fleet.sh BUILD_DIR [SCENARIO...]}" && pwd)"
shift
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(direct direct-3w proxy-1 proxy-3 kill-3 reuse-3)
repeat=${REPEAT:-3}
clients=${CLIENTS:-8}
operations=${OPERATIONS:-300}
need_haproxy
load="$BUILD/client/factord-load"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(haproxy -v | sed -n 1p | cut -d' ' -f1-3)"

stop_all() {
  local pid
  for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  PIDS=()
}

run_one() {
  local scenario="$1" rep="$2" n target out="$WORK/$1.$2.out"
  case "$scenario" in direct*|proxy-1) n=1 ;; *) n=3 ;; esac
  local names=() workers=1
  [ "$scenario" = direct-3w ] && workers=3
  for i in $(seq 1 "$n"); do
    start_daemon "m$i" --drain_delay=2s --workers="$workers"
    names+=("m$i")
  done
  if [ "${scenario#direct}" != "$scenario" ]; then
    target="127.0.0.1:$m1_PORT"
  else
    start_proxy "${names[@]}"
    if [ "$scenario" = reuse-3 ]; then
      kill -KILL "$PROXY_PID"; wait "$PROXY_PID" 2>/dev/null || true
      sed -i 's/ max-reuse 0$//' "$WORK/haproxy.cfg"
      haproxy -db -f "$WORK/haproxy.cfg" >> "$WORK/haproxy.log" 2>&1 &
      PROXY_PID=$!; PIDS+=("$PROXY_PID")
    fi
    for i in $(seq 1 "$n"); do wait_server "$i" UP 15; done
    target="$PROXY"
  fi
  timeout 300 "$load" --server="$target" --clients="$clients" \
    --operations="$operations" --seed="$rep" --json --rpc_timeout=60 \
    --max_attempts=8 --reupload > "$out" 2>&1 &
  local load_pid=$!
  if [ "$scenario" = kill-3 ]; then
    sleep 2
    kill -KILL "$m2_PID"
  fi
  wait "$load_pid" || true
  stop_all
  ms() { awk -v s="$(json_field "$out" "$1")" 'BEGIN { print 1000 * s }'; }
  printf '%-9s run %d: %7.1f ops/s  p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  errors %s  retries %s  re-uploads %s\n' \
    "$scenario" "$rep" "$(json_field "$out" throughput_ops_s)" \
    "$(ms p50_s)" "$(ms p99_s)" "$(ms max_s)" \
    "$(json_field "$out" errors)" "$(json_field "$out" retries)" \
    "$(json_field "$out" reuploads)" | tee -a "$WORK/all.txt"
}

for scenario in "${scenarios[@]}"; do
  for rep in $(seq 1 "$repeat"); do run_one "$scenario" "$rep"; done
done
echo "medians over $repeat runs ($clients clients x $operations operations):"
for scenario in "${scenarios[@]}"; do
  grep "^$scenario " "$WORK/all.txt" | awk -v s="$scenario" '
    # run N: T ops/s p50 X ms p99 Y ms max Z ms errors E retries R re-uploads U
    { t[NR] = $4; p50[NR] = $7; p99[NR] = $10; mx[NR] = $13; e[NR] = $16
      r[NR] = $18; u[NR] = $20 }
    function med(a, n,   i, j, x) {
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
      return a[int((n + 1) / 2)]
    }
    END { printf "%-9s %7.1f ops/s  p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  errors %d  retries %d  re-uploads %d\n",
            s, med(t, NR), med(p50, NR), med(p99, NR), med(mx, NR), med(e, NR),
            med(r, NR), med(u, NR) }'
done
