#!/usr/bin/env bash
# The Kubernetes probes of deploy/k8s/base/deployment.yaml, asked of the real
# factord the way the kubelet asks them (grpc.health.v1 Health/Check on the
# probe's port and service): each must answer SERVING once the daemon is up,
# and an unknown service NOT_FOUND (so SERVING is not the client's default).
# Usage: check_health_probes.sh FACTORD
source "$(dirname "$0")/lib.sh"
source "$HERE/factord_run.sh"
need_tool curl "Debian package curl"
need_node_modules
factord="${1:?usage: $0 FACTORD}"
cd "$HERE"  # node resolves its packages from here

# "probe service" lines: the services the probes ask for, from the manifest.
node --input-type=module -e '
  import fs from "node:fs";
  import YAML from "yaml";
  const d = YAML.parse(fs.readFileSync(process.argv[1], "utf8"));
  for (const c of d.spec.template.spec.containers) {
    for (const p of ["startupProbe", "livenessProbe", "readinessProbe"]) {
      if (!c[p]?.grpc) { console.error(`FAIL: ${c.name} ${p} is not a gRPC probe`); process.exit(1); }
      console.log(p, JSON.stringify(c[p].grpc.service ?? ""), c[p].grpc.port);
    }
  }' "$DEPLOY/k8s/base/deployment.yaml" > "$TMP/probes" 2>&1 ||
  { cat "$TMP/probes" >&2; fail "reading the probes"; }
start_factord "$factord"
while read -r probe service port; do
  [ "$port" = 50051 ] || fail "$probe asks port $port, factord's gRPC port is 50051"
  answer="$(node grpc_health.mjs "127.0.0.1:$GRPC_PORT" "$(node -p "$service")")"
  [ "${answer##* }" = SERVING ] || fail "$probe on service $service: $answer"
  echo "ok $probe: service $service SERVING"
done < "$TMP/probes"
answer="$(node grpc_health.mjs "127.0.0.1:$GRPC_PORT" no.such.Service)"
[ "${answer##* }" = NOT_FOUND ] || fail "an unknown service answered $answer, not NOT_FOUND"
echo "ok unknown service: NOT_FOUND"
stop_factord
echo "health probes: all passed"
