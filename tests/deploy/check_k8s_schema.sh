#!/usr/bin/env bash
# Renders each overlay and validates every object offline against the
# Kubernetes and Prometheus Operator schemas, strictly (unknown fields fail),
# then checks what factord needs of it (check_overlay.mjs), and that the
# PrometheusRule carries the same alert rules as deploy/prometheus.
source "$(dirname "$0")/lib.sh"
need_kubectl
need_node_modules
for variant in gpu cpu; do
  "$KUBECTL" kustomize "$DEPLOY/k8s/overlays/$variant" > "$TMP/$variant.yaml"
  node "$HERE/check_overlay.mjs" "$variant" "$TMP/$variant.yaml"
done
node "$HERE/prometheusrule.mjs" check
