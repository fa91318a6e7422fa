#!/usr/bin/env bash
# Renders deploy/haproxy/haproxy.cfg.template to stdout.
#   render.sh k8s
#       the configuration of the Kubernetes manifest (deploy/haproxy/k8s):
#       up to 16 daemons from the DNS records of the headless Service
#       factord-headless, gRPC on 50051, /ready on 9464.
#   render.sh servers LISTEN STATS_LISTEN HOST:GRPC_PORT:READY_PORT...
#       fixed servers (the loopback test, tests/fleet/run_fleet.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
template="$here/haproxy.cfg.template"
mode="${1:-}"
servers=""
case "$mode" in
  k8s)
    listen=":50051"
    stats=":8404"
    servers="    server-template factord- 16 factord-headless.factord.svc.cluster.local:50051 resolvers kubernetes init-addr none proto h2 check port 9464 check-proto h1"
    ;;
  servers)
    [ $# -ge 4 ] || { echo "usage: $0 servers LISTEN STATS HOST:PORT:READY_PORT..." >&2; exit 2; }
    listen="$2"
    stats="$3"
    shift 3
    n=0
    for s in "$@"; do
      IFS=: read -r host port ready <<<"$s"
      n=$((n + 1))
      servers+="    server factord-$n $host:$port proto h2 check port $ready check-proto h1"$'\n'
    done
    servers="${servers%$'\n'}"
    ;;
  *)
    echo "usage: $0 k8s | servers LISTEN STATS HOST:PORT:READY_PORT..." >&2
    exit 2
    ;;
esac
# Placeholders are filled outside comments only.
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    @SERVERS@) printf '%s\n' "$servers" ;;
    \#*) printf '%s\n' "$line" ;;
    *) line="${line//@LISTEN@/$listen}"
       printf '%s\n' "${line//@STATS_LISTEN@/$stats}" ;;
  esac
done < "$template"
