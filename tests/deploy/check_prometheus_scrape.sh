#!/usr/bin/env bash
# factord and a real Prometheus server (Debian's prometheus), both on
# loopback: Prometheus scrapes factord every second and loads
# deploy/prometheus/factord-rules.yaml. Checks through the Prometheus HTTP API:
#  - up{job="factord"} == 1;
#  - every metric family of factord's /metrics is stored by Prometheus;
#  - every alert rule evaluates without error, none fires on a healthy daemon;
#  - after factord stops, up == 0 and FactordDown goes pending.
# Usage: check_prometheus_scrape.sh FACTORD
source "$(dirname "$0")/lib.sh"
source "$HERE/factord_run.sh"
need_tool prometheus "Debian package prometheus"
need_tool curl "Debian package curl"
need_tool node "Debian package nodejs"
factord="${1:?usage: $0 FACTORD}"

start_factord "$factord"
curl -fsS --max-time 5 "http://127.0.0.1:$METRICS_PORT/metrics" > "$TMP/metrics.txt"
awk '$1 == "#" && $2 == "TYPE" {print $3, $4}' "$TMP/metrics.txt" > "$TMP/families"

cp "$DEPLOY/prometheus/factord-rules.yaml" "$TMP/"
cat > "$TMP/prometheus.yml" <<CONFIG
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - factord-rules.yaml
scrape_configs:
  - job_name: factord
    static_configs:
      - targets: ["127.0.0.1:$METRICS_PORT"]
CONFIG
PROM_PORT="$(free_port)"
PROM="http://127.0.0.1:$PROM_PORT"
prometheus --config.file="$TMP/prometheus.yml" \
  --storage.tsdb.path="$TMP/data" --web.listen-address="127.0.0.1:$PROM_PORT" \
  --log.level=warn > "$TMP/prometheus.log" 2>&1 &
prom_pid=$!
CLEANUP_PIDS+=("$prom_pid")
LOGS_ON_FAILURE+=("$TMP/prometheus.log")
wait_http "$PROM/-/ready" 30 "$prom_pid"
echo "prometheus pid $prom_pid on $PROM, data in $TMP/data"

# query EXPR: the instant vector as "labels-json value" lines.
query() {
  curl -fsS --max-time 5 --get --data-urlencode "query=$1" "$PROM/api/v1/query" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{
      const r=JSON.parse(s); if(r.status!=="success") process.exit(1);
      for (const x of r.data.result) console.log(JSON.stringify(x.metric), x.value[1]);})'
}
# wait_for EXPR SECONDS: until EXPR returns at least one series.
wait_for() {
  local start=$SECONDS
  until [ -n "$(query "$1")" ]; do
    [ $((SECONDS - start)) -lt "$2" ] ||
      fail "no result for $1 within $2 s"
    sleep 0.5
  done
}

wait_for 'up{job="factord"} == 1' 30
echo "ok up{job=\"factord\"} == 1"

# Every family factord exports is stored (histograms as _count series).
query 'count by (__name__) ({job="factord", __name__=~"factord_.+"})' |
  sed -E 's/.*"__name__":"([^"]+)".*/\1/' | sort -u > "$TMP/stored"
missing=0
while read -r family type; do
  series="$family"
  [[ "$type" == histogram || "$type" == summary ]] && series="${family}_count"
  if grep -qx "$series" "$TMP/stored"; then
    echo "ok scraped $series"
  else
    echo "FAIL: $series is in /metrics but not in Prometheus" >&2
    missing=$((missing + 1))
  fi
done < "$TMP/families"
[ "$missing" -eq 0 ] || fail "$missing families not scraped"
[ -s "$TMP/families" ] || fail "factord exported no metric families"
query 'factord_build_info{job="factord"}' | grep -q '"backend":"cpu"' ||
  fail "factord_build_info{backend=\"cpu\"} not scraped"
echo "ok factord_build_info backend=cpu"

# The rules: all evaluated (health ok), none firing.
sleep 2
curl -fsS --max-time 5 "$PROM/api/v1/rules" | node -e '
  let s=""; process.stdin.on("data",d=>s+=d).on("end",()=>{
    const rules = JSON.parse(s).data.groups.flatMap(g => g.rules);
    let bad = 0;
    for (const r of rules) {
      const ok = r.health === "ok" && (r.state ?? "inactive") === "inactive";
      if (!ok) bad++;
      console.log(`${ok ? "ok" : "FAIL:"} rule ${r.name}: health ${r.health}` +
                  `${r.lastError ? " (" + r.lastError + ")" : ""}, state ${r.state}`);
    }
    if (!rules.length) { console.log("FAIL: no rules loaded"); bad++; }
    process.exit(bad ? 1 : 0);
  })' || fail "alert rules do not evaluate cleanly on a healthy daemon"

# A stopped daemon: up == 0, FactordDown pending (it fires after 2 minutes).
stop_factord
wait_for 'up{job="factord"} == 0' 15
echo "ok up == 0 after factord stopped"
wait_for 'ALERTS{alertname="FactordDown", alertstate="pending"}' 15
echo "ok FactordDown pending"
echo "prometheus scrape: all passed"
