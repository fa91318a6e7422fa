// deploy/k8s/base/prometheusrule.yaml carries the alert rules of
// deploy/prometheus/factord-rules.yaml as a Prometheus Operator
// PrometheusRule. One source of truth, two forms:
//   node prometheusrule.mjs write   regenerates the PrometheusRule
//   node prometheusrule.mjs check   fails when its groups differ
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import YAML from "yaml";

const deploy = path.join(path.dirname(fileURLToPath(import.meta.url)),
                         "../../deploy");
const rulesFile = path.join(deploy, "prometheus/factord-rules.yaml");
const crFile = path.join(deploy, "k8s/base/prometheusrule.yaml");
const rules = YAML.parse(fs.readFileSync(rulesFile, "utf8"));

const mode = process.argv[2];
if (mode === "write") {
  const cr = {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "PrometheusRule",
    metadata: { name: "factord", labels: { "app.kubernetes.io/name": "factord" } },
    spec: { groups: rules.groups },
  };
  const head =
      "# The alert rules of deploy/prometheus/factord-rules.yaml for the\n" +
      "# Prometheus Operator. Generated: edit factord-rules.yaml, then run\n" +
      "#   node tests/deploy/prometheusrule.mjs write\n" +
      "# (deploy.k8s_schema fails while the two differ).\n";
  fs.writeFileSync(crFile, head + YAML.stringify(cr, { lineWidth: 100 }));
  console.log(`wrote ${crFile}`);
} else if (mode === "check") {
  const cr = YAML.parse(fs.readFileSync(crFile, "utf8"));
  if (!isDeepStrictEqual(cr?.spec?.groups, rules.groups)) {
    console.error("FAIL: deploy/k8s/base/prometheusrule.yaml differs from " +
                  "deploy/prometheus/factord-rules.yaml: run " +
                  "node tests/deploy/prometheusrule.mjs write");
    process.exit(1);
  }
  console.log("ok PrometheusRule groups equal deploy/prometheus/factord-rules.yaml");
} else {
  console.error("usage: node prometheusrule.mjs write|check");
  process.exit(2);
}
