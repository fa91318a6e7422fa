#!/usr/bin/env bash
# Renders each overlay and validates every object offline against the
# Kubernetes and Prometheus Operator schemas, strictly (unknown fields fail),
# then checks what factord needs of it (check_overlay.mjs).
source "$(dirname "$0")/lib.sh"
need_tool kubectl "kubectl >= 1.27 (not in Debian 12, whose kubernetes-client is 1.20)"
need_node_modules
for variant in gpu cpu; do
  kubectl kustomize "$DEPLOY/k8s/overlays/$variant" > "$TMP/$variant.yaml"
  node "$HERE/check_overlay.mjs" "$variant" "$TMP/$variant.yaml"
done
