#!/usr/bin/env bash
# factord-ipm through a fleet of three daemons behind HAProxy, the daemon
# holding its KKT matrix killed with SIGKILL between iterations 5 and 6
# (ctest fleet.ipm_failover, label fleet; docs/fleet.md):
#   1. a reference run of factord-ipm on the bundled netlib LP forplan
#      (23 iterations) through the proxy, nothing killed;
#   2. the same run with the client's retry policy (--max_attempts=8) and
#      a 300 ms pause after each iteration's line (--iteration_delay_ms, a
#      test aid); once the line of iteration 5 is out, factord-ipm is
#      stopped (SIGSTOP, during its pause), the daemon whose request log
#      names the line's matrix ID is killed with SIGKILL, and factord-ipm
#      continues (SIGCONT);
#   3. checks: exit status 0, status optimal, objective within 1e-6
#      (relative) of the published optimum (tests/data/lp/optimal.tsv) and
#      within 1e-8 of the reference run, the same iteration count, at least
#      one re-upload reported; the killed daemon held the matrix (its
#      upload and every request for it until then, no other daemon named
#      it) and had served exactly the requests of iterations 0-5 (the kill
#      fell between two iterations); one other daemon got the re-upload.
# Bounded: every wait has a limit (factord-ipm is killed by the cleanup when
# it runs over).
# Usage: tests/fleet/ipm_failover.sh BUILD_DIR
source "$(dirname "$0")/fleet_lib.sh"
BUILD="$(cd "${1:?usage: ipm_failover.sh BUILD_DIR}" && pwd)"
for exe in server/factord client/factord-ipm; do
  need_binary "$BUILD/$exe"
done
need_haproxy
ipm="$BUILD/client/factord-ipm"
problem=forplan
lp="$ROOT/tests/data/lp/$problem.mps.gz"
optimum="$(awk -F'\t' -v p="$problem" '$1 == p { print $NF }' \
  "$ROOT/tests/data/lp/optimal.tsv")"
[ -n "$optimum" ] || fail "no published optimum of $problem in tests/data/lp/optimal.tsv"
kill_after=5      # the daemon dies after this iteration's line
delay_ms=300      # the IPM's pause after each line: the script's window
t_start=$SECONDS

for d in d1 d2 d3; do start_daemon "$d"; done
start_proxy d1 d2 d3
for n in 1 2 3; do wait_server "$n" UP 15; done
echo "fleet: factord d1 (pid $d1_PID), d2 (pid $d2_PID), d3 (pid $d3_PID);" \
  "haproxy (pid $PROXY_PID) on $PROXY"

# last_field FILE KEY: a string or number from the JSON line on FILE's last
# line (json_field reads numbers only).
last_field() {
  tail -n 1 "$1" | python3 -c 'import json, sys
print(json.loads(sys.stdin.read()).get(sys.argv[1], ""))' "$2"
}

echo "== 1. reference: factord-ipm $problem through the proxy, nothing killed"
timeout 30 "$ipm" --server="$PROXY" --json "$lp" > "$WORK/reference.out" \
  2> "$WORK/reference.err" ||
  fail "reference run failed: $(tail -n 3 "$WORK/reference.err")"
ref_objective="$(last_field "$WORK/reference.out" objective)"
ref_iterations="$(last_field "$WORK/reference.out" iterations)"
[ "$ref_iterations" -ge 20 ] ||
  fail "$problem took $ref_iterations iterations, the test needs 20 or more"
echo "reference: objective $ref_objective in $ref_iterations iterations"

echo "== 2. factord-ipm through the proxy, SIGKILL after iteration $kill_after"
"$ipm" --server="$PROXY" --json --max_attempts=8 \
  --iteration_delay_ms="$delay_ms" "$lp" > "$WORK/ipm.out" 2> "$WORK/ipm.err" &
ipm_pid=$!
PIDS+=("$ipm_pid")
pattern="^\{\"iteration\":$kill_after,"
start=$SECONDS
until grep -qE "$pattern" "$WORK/ipm.out"; do
  kill -0 "$ipm_pid" 2>/dev/null ||
    fail "factord-ipm ended before iteration $kill_after: $(tail -n 3 "$WORK/ipm.err")"
  [ $((SECONDS - start)) -lt 20 ] || fail "no iteration $kill_after within 20 s"
  sleep 0.01
done
# Frozen at once (a builtin, no fork: on a busy machine the lookups below
# may take longer than the pause), resumed after the kill.
kill -STOP "$ipm_pid"
matrix="$(grep -E "$pattern" "$WORK/ipm.out" |
  sed -n 's/.*"matrix_id":"\([^"]*\)".*/\1/p')"
[ -n "$matrix" ] || fail "iteration $kill_after's line names no matrix_id"
# The holder: the one daemon whose request log names the matrix.
holder=""
for d in d1 d2 d3; do
  grep -q "matrix=$matrix " "$WORK/$d.log" || continue
  [ -z "$holder" ] || fail "matrix $matrix named in the logs of $holder and $d"
  holder="$d"
done
[ -n "$holder" ] || fail "no daemon's log names matrix $matrix"
holder_pid_var="${holder}_PID"
holder_pid="${!holder_pid_var}"
kill -KILL "$holder_pid"
wait "$holder_pid" 2>/dev/null || true
kill -CONT "$ipm_pid"
echo "killed $holder (pid $holder_pid), which served matrix $matrix, after iteration $kill_after"

# The holder's log is final now. It must show the upload and exactly the
# requests of iterations 0 to kill_after (the sum of their round_trips):
# one more and the kill fell after iteration kill_after+1 had started.
served="$(grep -c "matrix=$matrix " "$WORK/$holder.log" || true)"
expected="$(python3 - "$WORK/ipm.out" "$kill_after" <<'EOF'
import json, sys
total = 0
for text in open(sys.argv[1]):
    line = json.loads(text)
    if "iteration" in line and line["iteration"] <= int(sys.argv[2]):
        total += line["round_trips"]
print(total)
EOF
)"
grep -qE "rpc=UploadMatrix matrix=$matrix code=OK" "$WORK/$holder.log" ||
  fail "$holder's log has no successful upload of $matrix"
[ "$(grep -E "matrix=$matrix " "$WORK/$holder.log" | grep -vc "code=OK" || true)" = 0 ] ||
  fail "$holder failed a request for $matrix before the kill"
[ "$served" = "$expected" ] ||
  fail "$holder served $served requests for $matrix, iterations 0-$kill_after" \
    "sent $expected: the kill did not fall between iterations $kill_after and" \
    "$((kill_after + 1)) (a busy machine? raise delay_ms)"
echo "ok $holder held $matrix: its upload and all $served requests of iterations 0-$kill_after"

start=$SECONDS
while kill -0 "$ipm_pid" 2>/dev/null; do
  [ $((SECONDS - start)) -lt 40 ] || fail "factord-ipm still running 40 s after the kill"
  sleep 0.1
done
status=0
wait "$ipm_pid" || status=$?
tail -n 1 "$WORK/ipm.out"
[ "$status" -eq 0 ] ||
  fail "factord-ipm exited with status $status: $(tail -n 3 "$WORK/ipm.err")"
[ "$(last_field "$WORK/ipm.out" status)" = optimal ] || fail "status is not optimal"
objective="$(last_field "$WORK/ipm.out" objective)"
iterations="$(last_field "$WORK/ipm.out" iterations)"
retries="$(last_field "$WORK/ipm.out" retries)"
reuploads="$(last_field "$WORK/ipm.out" reuploads)"
[ "$(last_field "$WORK/ipm.out" matrix_id)" = "$matrix" ] ||
  fail "the final line names another matrix than iteration $kill_after's"
rel_optimum="$(awk -v f="$objective" -v o="$optimum" 'BEGIN {
  d = f - o; if (d < 0) d = -d; a = o < 0 ? -o : o; if (a < 1) a = 1
  printf "%.2e", d / a }')"
rel_reference="$(awk -v f="$objective" -v o="$ref_objective" 'BEGIN {
  d = f - o; if (d < 0) d = -d; a = o < 0 ? -o : o; if (a < 1) a = 1
  printf "%.2e", d / a }')"
awk -v r="$rel_optimum" 'BEGIN { exit !(r <= 1e-6) }' ||
  fail "objective $objective vs the published $optimum: relative $rel_optimum > 1e-6"
awk -v r="$rel_reference" 'BEGIN { exit !(r <= 1e-8) }' ||
  fail "objective $objective vs the reference run's $ref_objective: relative $rel_reference > 1e-8"
[ "$iterations" = "$ref_iterations" ] ||
  fail "$iterations iterations against $ref_iterations without the kill"
[ "$reuploads" -ge 1 ] || fail "factord-ipm reports no re-upload"

# Where the matrix went: one other daemon got its re-upload; only the
# holder's matrices moved.
new_holder=""
for d in d1 d2 d3; do
  [ "$d" = "$holder" ] && continue
  grep -qE "rpc=UploadMatrix matrix=$matrix code=OK" "$WORK/$d.log" || continue
  [ -z "$new_holder" ] || fail "$matrix re-uploaded to both $new_holder and $d"
  new_holder="$d"
done
[ -n "$new_holder" ] || fail "no other daemon's log shows the re-upload of $matrix"
python3 "$ROOT/tests/fleet/check_routing.py" --moved-from "$holder" \
  d1="$WORK/d1.log" d2="$WORK/d2.log" d3="$WORK/d3.log"
echo "ok failover: optimal, objective $objective (published $optimum, relative" \
  "$rel_optimum; reference relative $rel_reference), $iterations iterations as" \
  "without the kill; $retries retries, $reuploads re-uploads, to $new_holder"

for d in d1 d2 d3; do
  [ "$d" = "$holder" ] && continue
  pid_var="${d}_PID"
  stop_pid "${!pid_var}" 30
done
stop_pid "$PROXY_PID" 10
echo "ipm_failover: PASS in $((SECONDS - t_start)) s"
