#!/usr/bin/env bash
# Routing by matrix ID: the Istio DestinationRule (schema and consistent
# hash on x-factord-matrix-id) and the Envoy ring-hash route.
source "$(dirname "$0")/lib.sh"
need_node_modules
node "$HERE/check_mesh.mjs" "$DEPLOY"
