#!/usr/bin/env bash
# `kubectl kustomize` builds the base and both overlays offline.
# kubectl >= 1.27 is needed (kustomize v5: `labels`, `patches`); Debian 12's
# kubernetes-client is 1.20 and cannot build them.
source "$(dirname "$0")/lib.sh"
need_kubectl
for dir in base overlays/gpu overlays/cpu; do
  out="$TMP/$(echo "$dir" | tr / _).yaml"
  "$KUBECTL" kustomize "$DEPLOY/k8s/$dir" > "$out" 2> "$TMP/err" ||
    { cat "$TMP/err" >&2; fail "kubectl kustomize deploy/k8s/$dir"; }
  if [ -s "$TMP/err" ]; then
    cat "$TMP/err" >&2
    fail "kubectl kustomize deploy/k8s/$dir printed warnings"
  fi
  kinds="$(grep -E '^kind: ' "$out" | sed 's/kind: //' | sort | tr '\n' ' ')"
  echo "ok deploy/k8s/$dir: $kinds"
  for kind in ConfigMap Deployment PodDisruptionBudget PrometheusRule Service \
      ServiceAccount ServiceMonitor; do
    grep -qx "kind: $kind" "$out" || fail "deploy/k8s/$dir renders no $kind"
  done
done
echo "kustomize: all passed"
