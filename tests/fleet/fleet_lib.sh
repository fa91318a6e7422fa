# shellcheck shell=bash
# Shared by tests/fleet/*.sh (sourced): daemons, HAProxy and nginx on free
# loopback ports, each stopped by its PID when the script exits.
# Sets ROOT, WORK (a temp dir, removed at the end unless FLEET_KEEP_WORK is
# set), BUILD; gives
# free_port, start_daemon, start_proxy, start_nginx, wait_listening,
# wait_stopped, pending_bytes, wait_server, server_status, stop_pid,
# json_field.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/factord-fleet.XXXXXX")"
PIDS=()
NGINX_PID=""
fleet_cleanup() {
  local status=$? pid f
  # nginx's master first, with SIGTERM: it stops its worker (a SIGKILL
  # would leave the worker holding the port); the worker by its PID if
  # the master does not end in 5 s.
  if [ -n "$NGINX_PID" ] && kill -0 "$NGINX_PID" 2>/dev/null; then
    kill -TERM "$NGINX_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
    for pid in $(pgrep -P "$NGINX_PID" 2>/dev/null || true); do
      kill -KILL "$pid" 2>/dev/null || true
    done
  fi
  for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    for f in "$WORK"/*.log; do
      [ -f "$f" ] || continue
      echo "--- last lines of $(basename "$f")" >&2
      tail -n 15 "$f" >&2
    done
  fi
  if [ -n "${FLEET_KEEP_WORK:-}" ]; then
    echo "logs kept in $WORK" >&2
  else
    rm -rf "$WORK"
  fi
}
trap fleet_cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# need_binary PATH: fails naming the target when it is not built.
need_binary() {
  [ -x "$1" ] || fail "$1 not found: build it (cmake --build BUILD --target $(basename "$1"))"
}

need_haproxy() {
  command -v haproxy >/dev/null 2>&1 ||
    fail "haproxy not found: Debian package haproxy (tests/fleet/install_tools.sh installs it)"
}

need_nginx() {
  command -v nginx >/dev/null 2>&1 ||
    fail "nginx not found: Debian package nginx-light (tests/fleet/install_tools.sh installs it)"
}

# A TCP port on 127.0.0.1 that was free a moment ago (not one handed out
# before by this script).
USED_PORTS=" "
free_port() {
  local port
  while :; do
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
    case "$USED_PORTS" in *" $port "*) continue ;; esac
    USED_PORTS+="$port "
    echo "$port"
    return
  done
}

# start_daemon NAME [FLAGS...]: factord on free ports; sets
# <NAME>_PID, <NAME>_PORT, <NAME>_METRICS; its log is $WORK/NAME.log.
start_daemon() {
  local name="$1" port metrics log pid
  shift
  port="$(free_port)"
  metrics="$(free_port)"
  log="$WORK/$name.log"
  : > "$log"
  "$BUILD/server/factord" --listen="127.0.0.1:$port" \
    --metrics_listen="127.0.0.1:$metrics" --backend=cpu --threads=1 \
    --workers=1 --cache_bytes=268435456 "$@" >> "$log" 2>&1 &
  pid=$!
  PIDS+=("$pid")
  local start=$SECONDS
  until grep -q "serving gRPC on port" "$log"; do
    kill -0 "$pid" 2>/dev/null || fail "$name exited at start: $(tail -n 3 "$log")"
    [ $((SECONDS - start)) -lt 30 ] || fail "$name did not start in 30 s"
    sleep 0.1
  done
  printf -v "${name}_PID" '%s' "$pid"
  printf -v "${name}_PORT" '%s' "$port"
  printf -v "${name}_METRICS" '%s' "$metrics"
}

# start_proxy DAEMON...: HAProxy from deploy/haproxy/haproxy.cfg.template
# in front of the named daemons; sets PROXY (host:port), PROXY_PID,
# PROXY_STATS (host:port). Its log is $WORK/haproxy.log.
start_proxy() {
  local servers=() name port metrics
  for name in "$@"; do
    port="${name}_PORT"
    metrics="${name}_METRICS"
    servers+=("127.0.0.1:${!port}:${!metrics}")
  done
  PROXY="127.0.0.1:$(free_port)"
  PROXY_STATS="127.0.0.1:$(free_port)"
  "$ROOT/deploy/haproxy/render.sh" servers "$PROXY" "$PROXY_STATS" \
    "${servers[@]}" > "$WORK/haproxy.cfg"
  haproxy -c -q -f "$WORK/haproxy.cfg" || fail "haproxy -c refused the rendered configuration"
  : > "$WORK/haproxy.log"
  haproxy -db -f "$WORK/haproxy.cfg" >> "$WORK/haproxy.log" 2>&1 &
  PROXY_PID=$!
  PIDS+=("$PROXY_PID")
}

# start_nginx DAEMON...: nginx from tests/fleet/nginx.conf.template in
# front of the named daemons, as its own instance (prefix, configuration,
# logs and pid file in $WORK; the master in the foreground, our child);
# sets PROXY (host:port) and PROXY_PID (the master's). Its error log is
# $WORK/nginx.log, its access log $WORK/nginx-access.log.
start_nginx() {
  local servers="" name port user_line=""
  for name in "$@"; do
    port="${name}_PORT"
    servers+="        server 127.0.0.1:${!port} max_fails=1 fail_timeout=10s;"$'\n'
  done
  PROXY="127.0.0.1:$(free_port)"
  # As root the worker would run as nobody, which cannot enter $WORK.
  [ "$(id -u)" -eq 0 ] && user_line="user root;"
  mkdir -p "$WORK/nginx-temp"
  SERVERS="$servers" awk -v work="$WORK" -v listen="$PROXY" -v user_line="$user_line" '
    $0 == "@SERVERS@" { printf "%s", ENVIRON["SERVERS"]; next }
    { gsub(/@WORK@/, work); gsub(/@LISTEN@/, listen); gsub(/@USER_LINE@/, user_line); print }' \
    "$ROOT/tests/fleet/nginx.conf.template" > "$WORK/nginx.conf"
  : > "$WORK/nginx.log"
  nginx -t -q -p "$WORK" -e "$WORK/nginx.log" -c "$WORK/nginx.conf" ||
    fail "nginx -t refused the rendered configuration: $(tail -n 3 "$WORK/nginx.log")"
  nginx -p "$WORK" -e "$WORK/nginx.log" -c "$WORK/nginx.conf" -g "daemon off;" \
    >> "$WORK/nginx.log" 2>&1 &
  PROXY_PID=$!
  NGINX_PID=$PROXY_PID
  PIDS+=("$PROXY_PID")
}

# wait_listening HOST:PORT SECONDS: until something accepts connections
# there (fails after SECONDS, or when the proxy exited).
wait_listening() {
  local start=$SECONDS
  until (exec 3<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; do
    kill -0 "$PROXY_PID" 2>/dev/null || fail "the proxy exited at start"
    [ $((SECONDS - start)) -lt "$2" ] || fail "nothing listens on $1 after $2 s"
    sleep 0.1
  done
}

# wait_stopped PID SECONDS: until every thread of PID is stopped (SIGSTOP).
# A stop signal stops a process's threads one by one, as each is scheduled:
# on a busy machine another thread may run on for a while (and a daemon
# serve a request) after kill -STOP returned.
wait_stopped() {
  local start=$SECONDS
  until awk '{ sub(/.*\) /, ""); if (substr($0, 1, 1) != "T") running = 1 }
             END { exit running }' /proc/"$1"/task/*/stat 2>/dev/null; do
    kill -0 "$1" 2>/dev/null || fail "process $1 ended instead of stopping"
    [ $((SECONDS - start)) -lt "$2" ] || fail "process $1 did not stop within $2 s"
    sleep 0.01
  done
}

# pending_bytes PORT: bytes that arrived on connections to 127.0.0.1:PORT
# and were not read yet (a stopped daemon's requests in hand), from ss.
pending_bytes() {
  ss -Htn state established "( sport = :$1 )" | awk '{ n += $1 } END { print n + 0 }'
}

# server_status N: HAProxy's view of factord-N (UP, DOWN, ...).
server_status() {
  curl -fsS --max-time 2 "http://$PROXY_STATS/stats;csv" 2>/dev/null |
    awk -F, -v s="factord-$1" '$1 == "factord" && $2 == s { print $18 }'
}

# wait_server N STATUS SECONDS: until HAProxy sees factord-N in STATUS.
wait_server() {
  local start=$SECONDS
  until [ "$(server_status "$1")" = "$2" ]; do
    kill -0 "$PROXY_PID" 2>/dev/null || fail "haproxy exited: $(tail -n 5 "$WORK/haproxy.log")"
    [ $((SECONDS - start)) -lt "$3" ] ||
      fail "haproxy did not see factord-$1 $2 within $3 s (it is '$(server_status "$1")')"
    sleep 0.1
  done
}

# stop_pid PID SECONDS: SIGTERM, then waits (fails after SECONDS); returns
# the exit status in STOP_STATUS.
stop_pid() {
  local start=$SECONDS
  kill -TERM "$1"
  while kill -0 "$1" 2>/dev/null; do
    [ $((SECONDS - start)) -lt "$2" ] || fail "process $1 did not exit $2 s after SIGTERM"
    sleep 0.1
  done
  STOP_STATUS=0
  wait "$1" || STOP_STATUS=$?
}

# json_field FILE KEY: a number from the JSON object on the last line.
json_field() {
  tail -n 1 "$1" | grep -o "\"$2\":[-0-9.e+]*" | sed -n 1p | cut -d: -f2
}
