#!/bin/bash
# with_daemon.sh FACTORD PROGRAM [ARGS...]: starts the daemon FACTORD on a
# free loopback port (--listen=127.0.0.1:0, the port read from its log line
# "serving gRPC on port N"), runs PROGRAM with FACTORD_SERVER set to it,
# stops the daemon by its PID (SIGTERM: drain and exit) and exits with
# PROGRAM's status. The daemon's log is printed when PROGRAM fails.
# FACTORD_LOCAL_BELOW=0: the C API sends even small systems to the daemon.
set -euo pipefail
daemon="$1"
shift
log="$(mktemp "${TMPDIR:-/tmp}/factord-tutorial.XXXXXX")"
pid=
# shellcheck disable=SC2317  # called by the trap
cleanup() {
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -f "$log"
}
trap cleanup EXIT
"$daemon" --listen=127.0.0.1:0 --metrics_listen= --backend=cpu --threads=1 \
  --workers=2 --shutdown_grace=2s > "$log" 2>&1 < /dev/null &
pid=$!
port=
for _ in $(seq 600); do  # up to 30 s (a sanitizer build starts slowly)
  port="$(sed -n 's/.*serving gRPC on port \([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)"
  [ -n "$port" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "factord exited at start:" >&2
    cat "$log" >&2
    pid=
    exit 1
  fi
  sleep 0.05
done
if [ -z "$port" ]; then
  echo "factord did not serve within 30 s:" >&2
  cat "$log" >&2
  exit 1
fi
status=0
FACTORD_SERVER="127.0.0.1:$port" FACTORD_LOCAL_BELOW=0 "$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- factord log" >&2
  cat "$log" >&2
fi
exit "$status"
