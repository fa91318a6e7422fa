#!/usr/bin/env bash
# factord-ipm with its default flags through a fleet of three daemons
# behind a proxy (HAProxy or nginx), the daemon holding its KKT matrix
# killed with SIGKILL while iteration 6's Step waits in it (ctest
# fleet.ipm_failover.haproxy and fleet.ipm_failover.nginx, label fleet;
# docs/fleet.md):
#   1. a reference run of factord-ipm on the bundled netlib LP forplan
#      (23 iterations) through the proxy, nothing killed;
#   2. the same run, which stops itself after iteration 5's line
#      (--stop_after_iteration, a test aid); the daemon whose request log
#      names the line's matrix ID is frozen (SIGSTOP), factord-ipm goes on
#      (SIGCONT) and sends iteration 6's Step, which the proxy forwards to
#      the frozen daemon; once the Step's bytes wait unread on that daemon's
#      port (ss), the daemon is killed with SIGKILL. The Step fails on the
#      way (nginx answers 502; HAProxy's connection fails, it retries it
#      and answers 503 or sends the Step on itself) and the client's
#      default retry policy sends it again;
#   3. checks: exit status 0, status optimal, objective within 1e-6
#      (relative) of the published optimum (tests/data/lp/optimal.tsv) and
#      within 1e-8 of the reference run, the same iteration count, at least
#      one retry (by the client; behind HAProxy, or by HAProxy) and one
#      re-upload; the killed daemon held the
#      matrix (its upload and every request for it until then, no other
#      daemon named it) and had served exactly the requests of iterations
#      0-5; one other daemon got the re-upload.
# Bounded: every wait has a limit (factord-ipm is killed by the cleanup when
# it runs over).
# Usage: tests/fleet/ipm_failover.sh BUILD_DIR haproxy|nginx
source "$(dirname "$0")/fleet_lib.sh"
BUILD="$(cd "${1:?usage: ipm_failover.sh BUILD_DIR haproxy|nginx}" && pwd)"
proxy_kind="${2:?usage: ipm_failover.sh BUILD_DIR haproxy|nginx}"
for exe in server/factord client/factord-ipm; do
  need_binary "$BUILD/$exe"
done
case "$proxy_kind" in
  haproxy) need_haproxy ;;
  nginx) need_nginx ;;
  *) fail "unknown proxy '$proxy_kind': haproxy or nginx" ;;
esac
command -v ss >/dev/null 2>&1 || fail "ss not found: Debian package iproute2"
ipm="$BUILD/client/factord-ipm"
problem=forplan
lp="$ROOT/tests/data/lp/$problem.mps.gz"
optimum="$(awk -F'\t' -v p="$problem" '$1 == p { print $NF }' \
  "$ROOT/tests/data/lp/optimal.tsv")"
[ -n "$optimum" ] || fail "no published optimum of $problem in tests/data/lp/optimal.tsv"
kill_after=5  # the daemon dies with the Step of the iteration after this one
t_start=$SECONDS

for d in d1 d2 d3; do start_daemon "$d"; done
if [ "$proxy_kind" = haproxy ]; then
  start_proxy d1 d2 d3
  for n in 1 2 3; do wait_server "$n" UP 15; done
else
  start_nginx d1 d2 d3
  wait_listening "$PROXY" 15
fi
echo "fleet: factord d1 (pid $d1_PID), d2 (pid $d2_PID), d3 (pid $d3_PID);" \
  "$proxy_kind (pid $PROXY_PID) on $PROXY"

# last_field FILE KEY: a string or number from the JSON line on FILE's last
# line (json_field reads numbers only).
last_field() {
  tail -n 1 "$1" | python3 -c 'import json, sys
print(json.loads(sys.stdin.read()).get(sys.argv[1], ""))' "$2"
}

echo "== 1. reference: factord-ipm $problem through $proxy_kind, nothing killed"
timeout 30 "$ipm" --server="$PROXY" --json "$lp" > "$WORK/reference.out" \
  2> "$WORK/reference-stderr.log" ||
  fail "reference run failed: $(tail -n 3 "$WORK/reference-stderr.log")"
ref_objective="$(last_field "$WORK/reference.out" objective)"
ref_iterations="$(last_field "$WORK/reference.out" iterations)"
[ "$ref_iterations" -gt $((kill_after + 1)) ] ||
  fail "$problem took $ref_iterations iterations, the test needs more than $((kill_after + 1))"
echo "reference: objective $ref_objective in $ref_iterations iterations"

echo "== 2. factord-ipm (default flags) through $proxy_kind, SIGKILL during" \
  "iteration $((kill_after + 1))'s Step"
"$ipm" --server="$PROXY" --json --stop_after_iteration="$kill_after" "$lp" \
  > "$WORK/ipm.out" 2> "$WORK/ipm-stderr.log" &
ipm_pid=$!
PIDS+=("$ipm_pid")
wait_stopped "$ipm_pid" 20
pattern="^\{\"iteration\":$kill_after,"
matrix="$(grep -E "$pattern" "$WORK/ipm.out" |
  sed -n 's/.*"matrix_id":"\([^"]*\)".*/\1/p')"
[ -n "$matrix" ] || fail "no line of iteration $kill_after naming a matrix_id before the stop"
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
holder_port_var="${holder}_PORT"
holder_port="${!holder_port_var}"
# Frozen, the holder takes the Step's connection from the proxy (the kernel
# accepts it) but reads nothing: the bytes wait on its port (nginx sends the
# whole Step at once; HAProxy its HTTP/2 preface, then waits for the
# daemon's).
kill -STOP "$holder_pid"
wait_stopped "$holder_pid" 10
kill -CONT "$ipm_pid"
start=$SECONDS
until [ "$(pending_bytes "$holder_port")" -gt 0 ]; do
  kill -0 "$ipm_pid" 2>/dev/null ||
    fail "factord-ipm ended with $holder frozen: $(tail -n 3 "$WORK/ipm-stderr.log")"
  [ $((SECONDS - start)) -lt 10 ] ||
    fail "iteration $((kill_after + 1))'s Step did not reach $holder within 10 s" \
      "($(pending_bytes "$holder_port") bytes wait on port $holder_port)"
  sleep 0.02
done
in_hand="$(pending_bytes "$holder_port")"
t_kill="$(date +%s.%N)"
kill -KILL "$holder_pid"
wait "$holder_pid" 2>/dev/null || true
echo "killed $holder (pid $holder_pid), which served matrix $matrix, with" \
  "$in_hand bytes of the connection of iteration $((kill_after + 1))'s Step unread"

# The holder's log is final now. It must show the upload and exactly the
# requests of iterations 0 to kill_after (the sum of their round_trips):
# the Step of the next one never got out of its socket.
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
    "sent $expected"
echo "ok $holder held $matrix: its upload and all $served requests of iterations 0-$kill_after"

start=$SECONDS
while kill -0 "$ipm_pid" 2>/dev/null; do
  [ $((SECONDS - start)) -lt 40 ] || fail "factord-ipm still running 40 s after the kill"
  sleep 0.1
done
status=0
wait "$ipm_pid" || status=$?
after_kill="$(awk -v a="$t_kill" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
echo "factord-ipm ended $after_kill s after the kill"
tail -n 1 "$WORK/ipm.out"
[ "$status" -eq 0 ] ||
  fail "factord-ipm exited with status $status: $(tail -n 3 "$WORK/ipm-stderr.log")"
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
# The Step in hand was sent again. nginx had sent it whole: it answers 502
# and the client must retry. HAProxy waits for the daemon's HTTP/2 preface
# before it sends a request, so its connection failed first: it retries
# that itself ("retries 2"), and when its checks have marked the daemon
# down meanwhile it sends the Step to the next daemon itself (its log shows
# the retries); otherwise it answers 503 and the client retries.
proxy_retries=0
if [ "$proxy_kind" = haproxy ]; then
  proxy_retries="$(awk '/Solver\/StepUnary/ { split($11, c, "/"); n += c[5] + 0 }
                       END { print n + 0 }' "$WORK/haproxy.log")"
  [ $((retries + proxy_retries)) -ge 1 ] ||
    fail "neither factord-ipm nor HAProxy retried: the Step in hand did not fail"
else
  [ "$retries" -ge 1 ] || fail "factord-ipm reports no retry: the Step in hand did not fail"
fi
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
  "without the kill; $retries retries ($proxy_retries by the proxy), $reuploads" \
  "re-uploads, to $new_holder"

for d in d1 d2 d3; do
  [ "$d" = "$holder" ] && continue
  pid_var="${d}_PID"
  stop_pid "${!pid_var}" 30
done
stop_pid "$PROXY_PID" 10
echo "ipm_failover ($proxy_kind): PASS in $((SECONDS - t_start)) s"
