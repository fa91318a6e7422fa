# shellcheck shell=bash disable=SC2034  # DEPLOY, KUBECTL: read by the checks
# Shared by the tests/deploy/*.sh checks (sourced, not run).
# Sets ROOT (the repository) and DEPLOY (ROOT/deploy); gives need_tool,
# need_node_modules, free_port, wait_http and a temp dir removed on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEPLOY="$ROOT/deploy"
HERE="$ROOT/tests/deploy"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/factord-deploy.XXXXXX")"
CLEANUP_PIDS=()
LOGS_ON_FAILURE=()  # logs printed (last lines) when the check fails
cleanup() {
  local status=$? pid log
  if [ "$status" -ne 0 ]; then
    for log in "${LOGS_ON_FAILURE[@]}"; do
      [ -f "$log" ] || continue
      echo "--- last lines of $log" >&2
      tail -n 30 "$log" >&2
    done
  fi
  for pid in "${CLEANUP_PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${CLEANUP_PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# need_tool NAME HOW: fails (never skips) with how to get NAME.
need_tool() {
  command -v "$1" >/dev/null 2>&1 ||
    fail "$1 not found: $2 (scripts/install_ops_tools.sh installs what it can)"
}

# need_kubectl: sets KUBECTL to a kubectl >= 1.27 (kustomize v5): the one on
# PATH, else the one install_ops_tools.sh unpacked into tests/deploy/tools.
need_kubectl() {
  local candidate minor
  for candidate in "$(command -v kubectl || true)" "$HERE/tools/bin/kubectl"; do
    [ -n "$candidate" ] && [ -x "$candidate" ] || continue
    minor="$("$candidate" version --client -o json 2>/dev/null |
      sed -n 's/.*"minor": *"\([0-9]*\).*/\1/p' | head -n 1)"
    if [ "${minor:-0}" -ge 27 ]; then
      KUBECTL="$candidate"
      return 0
    fi
  done
  fail "no kubectl >= 1.27 (Debian 12's kubernetes-client is 1.20): run scripts/install_ops_tools.sh"
}

need_node_modules() {
  need_tool node "Debian package nodejs"
  [ -d "$HERE/node_modules/kubernetes-models" ] &&
    [ -d "$HERE/node_modules/typescript" ] ||
    fail "tests/deploy/node_modules is missing: run scripts/install_ops_tools.sh"
}

# A TCP port on 127.0.0.1 that was free a moment ago.
free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();});'
}

# wait_http URL SECONDS [PID]: polls until URL answers 200, the time runs out
# (fails), or PID dies (fails).
wait_http() {
  local url="$1" limit="$2" pid="${3:-}" start=$SECONDS
  until curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; do
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      fail "process $pid exited before $url answered"
    fi
    [ $((SECONDS - start)) -lt "$limit" ] ||
      fail "$url did not answer within $limit s"
    sleep 0.2
  done
}
