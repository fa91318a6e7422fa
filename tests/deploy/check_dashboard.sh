#!/usr/bin/env bash
# The Grafana dashboard has the required panels, and every query in it is
# valid PromQL: the queries become recording rules in a temporary rules file
# that `promtool check rules` parses.
source "$(dirname "$0")/lib.sh"
need_tool promtool "Debian package prometheus"
need_node_modules
node "$HERE/promql_sources.mjs" dashboard-rules \
  "$DEPLOY/grafana/factord-dashboard.json" "$TMP/dashboard-rules.yaml"
promtool check rules "$TMP/dashboard-rules.yaml"
