#!/usr/bin/env bash
# Every metric the Grafana dashboard and the alert rules read is exported by
# factord's /metrics. Starts the real daemon on loopback; with FACTORCTL,
# first runs one upload + factorize + solve through it, because labelled
# families (factorize and solve durations by method and backend) appear only
# after their first observation. The exposition must also pass
# `promtool check metrics`.
# Usage: check_metrics_names.sh FACTORD [FACTORCTL]
source "$(dirname "$0")/lib.sh"
source "$HERE/factord_run.sh"
need_tool promtool "Debian package prometheus"
need_tool curl "Debian package curl"
need_node_modules
factord="${1:?usage: $0 FACTORD [FACTORCTL]}"
factorctl="${2:-}"

start_factord "$factord"
if [ -n "$factorctl" ]; then
  [ -x "$factorctl" ] || fail "factorctl binary $factorctl not found"
  timeout 60 "$factorctl" run "$ROOT/tests/data/494_bus.mtx" \
    --server="127.0.0.1:$GRPC_PORT" --timeout=50 > "$TMP/run.out" 2>&1 ||
    { cat "$TMP/run.out" >&2; fail "factorctl run through factord failed"; }
  echo "factorctl run 494_bus.mtx: ok"
else
  echo "note: no factorctl given; only families present at start-up can be found"
fi
curl -fsS --max-time 5 "http://127.0.0.1:$METRICS_PORT/metrics" > "$TMP/metrics.txt"
promtool check metrics < "$TMP/metrics.txt" ||
  fail "promtool check metrics rejects factord's /metrics"
stop_factord

# Names in the exposition: samples, and families by type.
grep -v '^#' "$TMP/metrics.txt" | sed -E 's/[{ ].*//' | sort -u > "$TMP/samples"
awk '$1 == "#" && $2 == "TYPE" {print $3, $4}' "$TMP/metrics.txt" > "$TMP/families"
node "$HERE/promql_sources.mjs" names "$DEPLOY/grafana/factord-dashboard.json" \
  "$DEPLOY/prometheus/factord-rules.yaml" > "$TMP/used"

missing=0
while read -r name; do
  case "$name" in
    up) continue ;;  # Prometheus' own per-target series
    factord_*) ;;
    *) echo "FAIL: $name is neither factord's nor Prometheus' own" >&2
       missing=$((missing + 1)); continue ;;
  esac
  if grep -qx "$name" "$TMP/samples" || grep -q "^$name " "$TMP/families"; then
    echo "ok $name"
    continue
  fi
  base="$(sed -E 's/_(bucket|sum|count)$//' <<< "$name")"
  if grep -qE "^$base (histogram|summary)$" "$TMP/families"; then
    echo "ok $name (family $base)"
    continue
  fi
  echo "FAIL: $name is not in factord's /metrics" >&2
  missing=$((missing + 1))
done < "$TMP/used"
# Families exported and not shown anywhere: worth knowing, not a failure.
while read -r family _; do
  grep -q "^${family}\(_bucket\|_sum\|_count\)\?$" "$TMP/used" ||
    echo "note: $family is exported but not on the dashboard or in the rules"
done < "$TMP/families"
[ "$missing" -eq 0 ] || fail "$missing metric names used by deploy/ are not exported"
echo "metrics names: all $(wc -l < "$TMP/used") names found"
