// Checks the rendered deploy/haproxy/k8s manifest: every object against the
// Kubernetes schema (strictly, k8s_schema.mjs), and what factord needs of
// it: the configuration from the ConfigMap mounted where HAProxy reads it,
// hashing on x-factord-matrix-id, checks of the daemons' /ready, gRPC over
// HTTP/2 to the pods of factord-headless, the Service on the grpc port, and
// a non-root read-only container.
// Usage: node check_haproxy.mjs RENDERED.yaml HAPROXY.cfg
import fs from "node:fs";
import { loadDocs, validateAll } from "./k8s_schema.mjs";

const [file, cfgFile] = process.argv.slice(2);
const objs = loadDocs(file);
let failures = await validateAll(objs, "haproxy manifest schema");
const expect = (cond, what) => {
  if (cond) {
    console.log(`ok haproxy: ${what}`);
  } else {
    console.error(`FAIL haproxy: ${what}`);
    failures++;
  }
};
const one = (kind) => objs.find((o) => o.kind === kind);
const deploy = one("Deployment");
const cm = one("ConfigMap");
const svc = one("Service");
expect(deploy && cm && svc, "a Deployment, a ConfigMap and a Service");
if (!deploy || !cm || !svc) process.exit(1);
const cfg = fs.readFileSync(cfgFile, "utf8");
expect(cm.data?.["haproxy.cfg"] === cfg,
       "the ConfigMap carries deploy/haproxy/k8s/haproxy.cfg");
const pod = deploy.spec.template;
const c = pod.spec.containers[0];
const mount = c.volumeMounts?.find((m) => m.mountPath === "/usr/local/etc/haproxy");
const vol = pod.spec.volumes?.find((v) => v.name === mount?.name);
expect(vol?.configMap?.name === cm.metadata.name,
       "the ConfigMap is mounted on /usr/local/etc/haproxy");
expect((c.args ?? []).join(" ").includes("/usr/local/etc/haproxy/haproxy.cfg"),
       "HAProxy reads that file");
const port = (name) => c.ports?.find((p) => p.name === name)?.containerPort;
expect(port("grpc") === 50051 && port("stats") === 8404,
       "container ports grpc=50051 and stats=8404");
expect(/^\s*bind :50051 proto h2$/m.test(cfg) && /^\s*bind :8404$/m.test(cfg),
       "haproxy.cfg binds the container ports");
expect(/^\s*balance hdr\(x-factord-matrix-id\)$/m.test(cfg) &&
       /^\s*hash-type consistent$/m.test(cfg),
       "consistent hash of x-factord-matrix-id");
expect(/http-check send meth GET uri \/ready/.test(cfg) &&
       /http-check expect status 200/.test(cfg),
       "active checks of the daemons' /ready");
expect(/server-template \S+ \d+ factord-headless\.\S+:50051 .*proto h2 check port 9464 check-proto h1/.test(cfg),
       "servers from factord-headless: gRPC h2 on 50051, /ready on 9464");
expect(!/option redispatch 1/.test(cfg), "no redispatch (matrices move once)");
const probe = c.readinessProbe?.httpGet;
expect(probe?.path === "/healthz" && probe?.port === "stats",
       "readiness probe on HAProxy's /healthz");
expect(svc.spec.ports.some((p) => p.port === 50051 && p.name === "grpc") &&
       Object.entries(svc.spec.selector ?? {}).every(
         ([k, v]) => pod.metadata.labels?.[k] === v),
       "the Service selects the proxy and serves grpc on 50051");
const psc = pod.spec.securityContext ?? {};
const csc = c.securityContext ?? {};
expect(psc.runAsNonRoot === true && csc.readOnlyRootFilesystem === true &&
       csc.allowPrivilegeEscalation === false &&
       csc.capabilities?.drop?.includes("ALL") &&
       pod.spec.automountServiceAccountToken === false,
       "non-root, read-only, no privileges, no service-account token");
expect(c.resources?.requests?.cpu && c.resources?.limits?.memory,
       "resources requested and limited");
process.exit(failures ? 1 : 0);
