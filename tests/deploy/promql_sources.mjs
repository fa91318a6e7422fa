// The PromQL of the Grafana dashboard and of the alert rules, for the
// checks in tests/deploy:
//   node promql_sources.mjs dashboard-rules DASHBOARD.json OUT.yaml
//       Checks the dashboard's structure and required panels, then writes
//       every panel and variable query, Grafana variables replaced, as a
//       recording rule into OUT.yaml, so that `promtool check rules OUT.yaml`
//       parses each one as PromQL.
//   node promql_sources.mjs names DASHBOARD.json RULES.yaml...
//       Prints every metric name the queries read, one a line.
import fs from "node:fs";
import YAML from "yaml";

// Panels the dashboard must have (deploy/README.md, Dashboards), by title.
const REQUIRED_PANELS = [
  "Request rate by RPC", "Error ratio by RPC", "p50 latency by RPC",
  "p99 latency by RPC", "Factorize duration by method and backend",
  "Solve duration by method and backend", "Iterations", "Residuals",
  "Cache bytes", "Cache hit ratio", "Cache evictions", "Device memory",
  "Backend and version",
];

// Grafana's built-in interval variables and the dashboard's own variables,
// replaced by values that keep the query valid PromQL.
function substitute(expr) {
  const out = expr
      .replace(/\$__(rate_interval|interval|range)\b/g, "5m")
      .replace(/\$\{__(rate_interval|interval|range)\}/g, "5m")
      .replace(/\$\{(\w+)(:\w+)?\}|\[\[(\w+)\]\]|\$(\w+)/g, ".+");
  if (out.includes("$")) throw new Error(`unreplaced variable in: ${expr}`);
  return out;
}

// Every query of the dashboard: [{where, expr}].
function dashboardQueries(dash) {
  const queries = [];
  const panels = (dash.panels ?? []).flatMap((p) => [p, ...(p.panels ?? [])]);
  for (const p of panels) {
    for (const t of p.targets ?? []) {
      queries.push({ where: `panel "${p.title}" ${t.refId}`, expr: t.expr });
    }
  }
  for (const v of dash.templating?.list ?? []) {
    if (v.type !== "query") continue;
    const q = typeof v.query === "string" ? v.query : v.query?.query;
    // label_values(EXPR, label) is Grafana's, not PromQL: check EXPR.
    const m = /^label_values\((.*),\s*\w+\)$/.exec(q ?? "");
    queries.push({ where: `variable ${v.name}`, expr: m ? m[1] : q });
  }
  return queries;
}

function checkDashboard(dash) {
  const errors = [];
  const panels = (dash.panels ?? []).flatMap((p) => [p, ...(p.panels ?? [])]);
  const titles = new Set(panels.map((p) => p.title));
  for (const t of REQUIRED_PANELS) {
    if (!titles.has(t)) errors.push(`no panel titled "${t}"`);
  }
  const ids = panels.map((p) => p.id);
  if (new Set(ids).size !== ids.length) errors.push("duplicate panel ids");
  for (const p of panels) {
    if (p.type === "row") continue;
    if (!p.targets?.length) errors.push(`panel "${p.title}" has no query`);
    if (p.datasource?.uid !== "${datasource}") {
      errors.push(`panel "${p.title}" does not use the $datasource variable`);
    }
    for (const t of p.targets ?? []) {
      if (!t.expr?.trim()) errors.push(`panel "${p.title}" ${t.refId}: empty`);
    }
  }
  if (!dash.uid || !dash.title || !dash.schemaVersion) {
    errors.push("dashboard lacks uid, title or schemaVersion");
  }
  return errors;
}

const KEYWORDS = new Set([
  "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or",
  "unless", "offset", "bool", "inf", "nan", "atan2",
]);

// Metric names in a PromQL expression: identifiers that are not functions,
// keywords, label names (inside {...} or the lists after by/on/...),
// strings or durations.
export function metricNames(expr) {
  const stripped = expr
      .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
      .replace(/\{[^}]*\}/g, " ")
      .replace(/\[[^\]]*\]/g, " ")
      .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g,
               " ");
  const names = new Set();
  const re = /[a-zA-Z_:][a-zA-Z0-9_:]*/g;
  let m;
  while ((m = re.exec(stripped)) !== null) {
    const word = m[0];
    const before = stripped[m.index - 1] ?? "";
    if (/[0-9.]/.test(before)) continue;  // 1e-3, 5m
    const after = stripped.slice(re.lastIndex).trimStart();
    if (after.startsWith("(")) continue;  // a function
    if (KEYWORDS.has(word.toLowerCase())) continue;
    names.add(word);
  }
  return [...names];
}

function ruleExprs(file) {
  const doc = YAML.parse(fs.readFileSync(file, "utf8"));
  return (doc.groups ?? []).flatMap((g) => g.rules ?? []).map((r) => r.expr);
}

const [mode, dashboardFile, ...rest] = process.argv.slice(2);
if (!mode || !dashboardFile) {
  console.error("usage: node promql_sources.mjs dashboard-rules DASHBOARD OUT |" +
                " names DASHBOARD RULES...");
  process.exit(2);
}
const dash = JSON.parse(fs.readFileSync(dashboardFile, "utf8"));
if (mode === "dashboard-rules") {
  const errors = checkDashboard(dash);
  for (const e of errors) console.error(`FAIL dashboard: ${e}`);
  const queries = dashboardQueries(dash);
  const rules = [];
  for (const [i, q] of queries.entries()) {
    try {
      rules.push({ record: `dashboard:query_${i}`, expr: substitute(q.expr) });
    } catch (e) {
      console.error(`FAIL dashboard: ${q.where}: ${e.message}`);
      errors.push(e.message);
    }
  }
  fs.writeFileSync(rest[0], YAML.stringify(
      { groups: [{ name: "dashboard-queries", rules }] }));
  console.log(`dashboard: ${queries.length} queries in ` +
              `${(dash.panels ?? []).length} panels written to ${rest[0]}`);
  process.exit(errors.length ? 1 : 0);
} else if (mode === "names") {
  const exprs = dashboardQueries(dash).map((q) => substitute(q.expr));
  for (const f of rest) exprs.push(...ruleExprs(f));
  const names = new Set(exprs.flatMap(metricNames));
  for (const n of [...names].sort()) console.log(n);
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
