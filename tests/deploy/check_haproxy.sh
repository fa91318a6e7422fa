#!/usr/bin/env bash
# The HAProxy alternative to a mesh (deploy/haproxy): the Kubernetes copy of
# the configuration is the template rendered for Kubernetes; `haproxy -c`
# accepts both renderings (Kubernetes and fixed servers); the manifest
# builds with kustomize, passes the Kubernetes schema strictly and wires
# the configuration in (check_haproxy.mjs). The proxy itself, in front of
# real daemons, is tests/fleet/run_fleet.sh (ctest -L fleet).
source "$(dirname "$0")/lib.sh"
need_tool haproxy "Debian package haproxy (tests/fleet/install_tools.sh installs it)"
need_kubectl
need_node_modules
render="$DEPLOY/haproxy/render.sh"
"$render" k8s > "$TMP/k8s.cfg"
diff -u "$DEPLOY/haproxy/k8s/haproxy.cfg" "$TMP/k8s.cfg" ||
  fail "deploy/haproxy/k8s/haproxy.cfg differs from 'deploy/haproxy/render.sh k8s' (run it)"
echo "ok deploy/haproxy/k8s/haproxy.cfg is the template rendered for Kubernetes"
"$render" servers 127.0.0.1:50051 127.0.0.1:8404 \
  127.0.0.1:50061:9474 127.0.0.1:50062:9475 > "$TMP/servers.cfg"
for cfg in k8s servers; do
  haproxy -c -q -f "$TMP/$cfg.cfg" || fail "haproxy -c refused the $cfg rendering"
  echo "ok haproxy -c: the $cfg rendering"
done
"$KUBECTL" kustomize "$DEPLOY/haproxy/k8s" > "$TMP/haproxy.yaml" 2> "$TMP/err" ||
  { cat "$TMP/err" >&2; fail "kubectl kustomize deploy/haproxy/k8s"; }
[ -s "$TMP/err" ] && { cat "$TMP/err" >&2; fail "kubectl kustomize printed warnings"; }
node "$HERE/check_haproxy.mjs" "$TMP/haproxy.yaml" "$DEPLOY/haproxy/k8s/haproxy.cfg"
echo "haproxy: all passed"
