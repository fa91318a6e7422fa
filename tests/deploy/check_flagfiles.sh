#!/usr/bin/env bash
# The real factord accepts every flag file the Kubernetes ConfigMaps carry
# (deploy/k8s/base and each overlay's factord.flags, read with absl's
# --flagfile): no unknown flag, every value parses. The addresses, backend
# and sizes are overridden after the flag file (the last value wins), so
# that the daemon starts on loopback on this GPU-less machine; so is
# --drain_delay, to keep the check short.
# Usage: check_flagfiles.sh FACTORD
source "$(dirname "$0")/lib.sh"
source "$HERE/factord_run.sh"
need_tool curl "Debian package curl"
need_tool node "Debian package nodejs"
factord="${1:?usage: $0 FACTORD}"
for flags in "$DEPLOY"/k8s/base/factord.flags "$DEPLOY"/k8s/overlays/*/factord.flags; do
  name="${flags#"$ROOT/"}"
  # --drain_delay after the flag file: the drain is checked, not its wait.
  start_factord "$factord" --flagfile="$flags" --drain_delay=1s
  grep -q "port $GRPC_PORT" "$FACTORD_LOG" ||
    fail "$name: the loopback --listen after the flag file did not take effect"
  stop_factord --clean
  echo "ok $name accepted by factord; drained and exited 0 on SIGTERM"
done
echo "flagfiles: all passed"
