# shellcheck shell=bash
# Starts factord on free loopback ports (sourced after lib.sh, not run).
# start_factord BINARY [EXTRA_FLAGS...]: sets FACTORD_PID, GRPC_PORT,
# METRICS_PORT, FACTORD_LOG; waits (at most 30 s) until /metrics answers.
# The CPU backend, one worker and small budgets keep it light; the process
# is stopped when the check exits.
start_factord() {
  local binary="$1"
  shift
  [ -x "$binary" ] || fail "factord binary $binary not found (build the factord target)"
  local attempt
  for attempt in 1 2 3; do
    GRPC_PORT="$(free_port)"
    METRICS_PORT="$(free_port)"
    [ "$GRPC_PORT" != "$METRICS_PORT" ] || continue
    FACTORD_LOG="$TMP/factord.$attempt.log"
    "$binary" "$@" --listen="127.0.0.1:$GRPC_PORT" \
      --metrics_listen="127.0.0.1:$METRICS_PORT" --backend=cpu --threads=1 \
      --workers=1 --cache_bytes=268435456 --shutdown_grace=2s \
      > "$FACTORD_LOG" 2>&1 &
    FACTORD_PID=$!
    CLEANUP_PIDS+=("$FACTORD_PID")
    LOGS_ON_FAILURE+=("$FACTORD_LOG")
    sleep 0.3
    if kill -0 "$FACTORD_PID" 2>/dev/null; then
      wait_http "http://127.0.0.1:$METRICS_PORT/metrics" 30 "$FACTORD_PID"
      echo "factord pid $FACTORD_PID: gRPC 127.0.0.1:$GRPC_PORT, /metrics 127.0.0.1:$METRICS_PORT"
      return 0
    fi
    # A port taken between free_port and bind: try new ports; any other
    # early exit (a bad flag, say) is the answer.
    if ! grep -qiE 'address already in use|failed to (add|bind)|bind' "$FACTORD_LOG"; then
      fail "factord exited at start: $(tail -n 5 "$FACTORD_LOG")"
    fi
    cat "$FACTORD_LOG" >&2
  done
  fail "factord did not start (ports taken three times)"
}

# stop_factord [--clean]: SIGTERM; factord must exit within 15 s. With
# --clean it must also exit 0: SIGTERM starts a drain (readiness NOT_SERVING,
# in-flight RPCs finish), which the Kubernetes manifests rely on.
stop_factord() {
  kill -TERM "$FACTORD_PID"
  local start=$SECONDS status=0
  while kill -0 "$FACTORD_PID" 2>/dev/null; do
    [ $((SECONDS - start)) -lt 15 ] || fail "factord did not exit 15 s after SIGTERM"
    sleep 0.1
  done
  wait "$FACTORD_PID" || status=$?
  if [ "${1:-}" = --clean ] && [ "$status" -ne 0 ]; then
    fail "factord exited with status $status on SIGTERM instead of draining and" \
      "exiting 0 (status 143: killed by the signal, which a thread that does not" \
      "block SIGTERM received)"
  fi
}
