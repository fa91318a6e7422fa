#!/usr/bin/env bash
# A fleet of three factord daemons behind HAProxy (deploy/haproxy), on free
# loopback ports (ctest fleet.run, label fleet; docs/fleet.md):
#   1. routing: factorctl (one process, one connection per command) and
#      factord-load through the proxy; every request that names a matrix
#      reached exactly one daemon (their request logs); ServerInfo and
#      ListMatrices go round-robin;
#   2. SIGKILL: one daemon killed (while it holds matrices) as factord-load
#      runs through the proxy with retries and re-uploads on: 0 failed
#      operations; retries and re-uploads counted apart; only the killed
#      daemon's matrices moved;
#   3. SIGTERM: another daemon drained while factord-load runs: 0 failed
#      operations and no retry (HAProxy saw /ready turn 503 within
#      --drain_delay and sent nothing more); the daemon exits 0.
# Bounded: every load run has a fixed operation count and a time limit.
# Usage: tests/fleet/run_fleet.sh BUILD_DIR
source "$(dirname "$0")/fleet_lib.sh"
BUILD="$(cd "${1:?usage: run_fleet.sh BUILD_DIR}" && pwd)"
for exe in server/factord client/factorctl client/factord-load; do
  need_binary "$BUILD/$exe"
done
need_haproxy
ctl="$BUILD/client/factorctl"
load="$BUILD/client/factord-load"
data="$ROOT/tests/data"
t_start=$SECONDS

# --drain_delay 4 s > HAProxy's inter 1 s x fall 2 (with a margin for a busy machine).
for d in d1 d2 d3; do
  start_daemon "$d" --drain_delay=4s --shutdown_grace=20s
done
start_proxy d1 d2 d3
for n in 1 2 3; do wait_server "$n" UP 15; done
echo "fleet: factord d1 (pid $d1_PID) :$d1_PORT, d2 (pid $d2_PID) :$d2_PORT," \
  "d3 (pid $d3_PID) :$d3_PORT; haproxy (pid $PROXY_PID) on $PROXY"

# Runs factord-load through the proxy for at most $1 seconds with the
# remaining arguments; output in $WORK/$2.out.
run_load() {
  local limit="$1" name="$2"
  shift 2
  timeout "$limit" "$load" --server="$PROXY" --json --rpc_timeout=30 \
    --max_attempts=8 --reupload "$@" > "$WORK/$name.out" 2>&1
}

echo "== 1. routing by x-factord-matrix-id"
for k in 1 2 3 4 5 6; do
  id="ctl-$k"
  "$ctl" --server="$PROXY" --timeout=30 upload "$data/494_bus.mtx" --id="$id" >/dev/null
  "$ctl" --server="$PROXY" --timeout=30 factorize --id="$id" --method=ldlt >/dev/null
  "$ctl" --server="$PROXY" --timeout=30 solve --id="$id" >/dev/null
  "$ctl" --server="$PROXY" --timeout=30 get --id="$id" >/dev/null
  "$ctl" --server="$PROXY" --timeout=30 release --id="$id" >/dev/null
done
# Requests naming no matrix: round-robin, each answered by one daemon.
"$ctl" --server="$PROXY" --timeout=30 info >/dev/null
"$ctl" --server="$PROXY" --timeout=30 list >/dev/null
run_load 60 routing --clients=6 --operations=40 --seed=11 ||
  { cat "$WORK/routing.out"; fail "factord-load through the proxy failed"; }
grep -E "operations in" "$WORK/routing.out"
[ "$(json_field "$WORK/routing.out" errors)" = 0 ] || fail "routing: errors"
[ "$(json_field "$WORK/routing.out" reuploads)" = 0 ] ||
  fail "routing: re-uploads with every daemon up (a matrix moved)"
python3 "$ROOT/tests/fleet/check_routing.py" \
  d1="$WORK/d1.log" d2="$WORK/d2.log" d3="$WORK/d3.log"
for d in d1 d2 d3; do
  grep -q "matrix=ctl-" "$WORK/$d.log" && continue
  grep -qE "matrix=[0-9a-f]{8}-" "$WORK/$d.log" ||
    fail "$d got no matrix at all: the hash does not spread"
done
echo "ok routing: every request naming a matrix reached one daemon"

# wait_holding NAME N SECONDS: until daemon NAME holds N matrices or more
# (factord_cache_entries on its /metrics).
wait_holding() {
  local metrics="${1}_METRICS" start=$SECONDS entries
  while :; do
    entries="$(curl -fsS --max-time 1 "http://127.0.0.1:${!metrics}/metrics" 2>/dev/null |
      awk '$1 == "factord_cache_entries" { print int($2) }')"
    [ "${entries:-0}" -ge "$2" ] && return 0
    [ $((SECONDS - start)) -lt "$3" ] || fail "$1 never held $2 matrices within $3 s"
    sleep 0.02
  done
}

# Line numbers from which a phase's requests are read.
from() { echo $(( $(wc -l < "$WORK/$1.log") + 1 )); }

echo "== 2. SIGKILL of d2 while factord-load runs through the proxy"
f1=$(from d1); f2=$(from d2); f3=$(from d3)
run_load 90 kill --clients=8 --operations=400 --seed=22 &
load_pid=$!
t_load=$SECONDS
# Killed while it holds matrices (after at least 1 s of load), so that some
# move.
sleep 1
wait_holding d2 2 20
kill -KILL "$d2_PID"
echo "killed d2 (pid $d2_PID) holding 2 or more matrices, $((SECONDS - t_load)) s into the load"
load_status=0
wait "$load_pid" || load_status=$?
grep -E "operations in|first error" "$WORK/kill.out" || true
[ "$load_status" -eq 0 ] || { tail -n 3 "$WORK/kill.out"; fail "factord-load failed (status $load_status) after the kill"; }
kill_retries=$(json_field "$WORK/kill.out" retries)
kill_reuploads=$(json_field "$WORK/kill.out" reuploads)
[ "$(json_field "$WORK/kill.out" errors)" = 0 ] || fail "kill: failed operations"
[ "$kill_reuploads" -gt 0 ] || fail "kill: no re-upload (did d2 hold no matrix?)"
wait_server 2 DOWN 10
python3 "$ROOT/tests/fleet/check_routing.py" --moved-from d2 \
  d1="$WORK/d1.log:$f1" d2="$WORK/d2.log:$f2" d3="$WORK/d3.log:$f3"
echo "ok kill: 0 failed operations; $kill_retries retries, $kill_reuploads re-uploads"

echo "== 3. SIGTERM of d3 (drain) while factord-load runs through the proxy"
f1=$(from d1); f3=$(from d3)
run_load 90 drain --clients=6 --operations=800 --seed=33 &
load_pid=$!
sleep 1
wait_holding d3 2 20
kill -TERM "$d3_PID"
t_term=$SECONDS
wait_server 3 DOWN 10
echo "haproxy marked d3 down $((SECONDS - t_term)) s after SIGTERM"
stop_pid "$d3_PID" 30
[ "$STOP_STATUS" -eq 0 ] || fail "d3 exited with status $STOP_STATUS after SIGTERM"
load_status=0
wait "$load_pid" || load_status=$?
grep -E "operations in|first error" "$WORK/drain.out" || true
[ "$load_status" -eq 0 ] || fail "factord-load failed (status $load_status) during the drain"
drain_retries=$(json_field "$WORK/drain.out" retries)
drain_reuploads=$(json_field "$WORK/drain.out" reuploads)
[ "$(json_field "$WORK/drain.out" errors)" = 0 ] || fail "drain: failed operations"
[ "$drain_retries" = 0 ] ||
  fail "drain: $drain_retries retries (a request reached d3 after it stopped serving)"
served=$(sed -n '/draining: readiness NOT_SERVING/,/draining: drain_delay/p' "$WORK/d3.log" |
  grep -c "code=OK" || true)
[ "$served" -gt 0 ] || fail "d3 served nothing while draining (the drain was not exercised)"
python3 "$ROOT/tests/fleet/check_routing.py" --moved-from d3 \
  d1="$WORK/d1.log:$f1" d3="$WORK/d3.log:$f3"
echo "ok drain: 0 failed operations, 0 retries, $drain_reuploads re-uploads; d3 served" \
  "$served requests while draining and exited 0"

stop_pid "$d1_PID" 30
stop_pid "$PROXY_PID" 10
echo "fleet: PASS in $((SECONDS - t_start)) s"
