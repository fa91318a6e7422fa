#!/usr/bin/env bash
# Installs what the deploy/ checks (tests/deploy, ctest -R '^deploy\.') need,
# only what is missing; quick when everything is present:
#   - Debian packages: prometheus (promtool and the server, for the scrape
#     test), yamllint, curl, nodejs and npm;
#   - npm packages pinned in tests/deploy/package-lock.json (kubernetes-models
#     and its Prometheus Operator and Istio CRD models, TypeScript, yaml) into
#     tests/deploy/node_modules (git-ignored), for the offline schema checks.
# kubectl (>= 1.27, for `kubectl kustomize`) is not installed: Debian 12 only
# packages kubectl 1.20 (kubernetes-client), too old for kustomize v5
# overlays. The checks that need it fail with that message when it is absent.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
checks="$root/tests/deploy"

packages=(prometheus yamllint curl)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install_ops_tools: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # No recommends: the prometheus package would pull in node-exporter.
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci when node_modules is missing or older than the lock file.
stamp="$checks/node_modules/.package-lock.json"
if [ ! -f "$stamp" ] || [ "$checks/package-lock.json" -nt "$stamp" ]; then
  echo "install_ops_tools: npm ci in tests/deploy"
  (cd "$checks" && npm ci --no-audit --no-fund --loglevel=error \
     --engine-strict=false >/dev/null)
fi

if ! command -v kubectl >/dev/null 2>&1; then
  echo "install_ops_tools: kubectl not found; deploy.kustomize and" \
    "deploy.k8s_schema will fail (Debian 12 has no kubectl >= 1.27)" >&2
fi
