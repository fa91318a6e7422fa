// Checks one rendered kustomize overlay (the output of `kubectl kustomize`):
// every object against the Kubernetes / Prometheus Operator schema
// (k8s_schema.mjs), then what factord's deployment needs (docs/design.md,
// deploy/README.md): gRPC health probes, non-root read-only containers,
// resources, the flags ConfigMap, Services, ServiceMonitor, PDB, and
// nvidia.com/gpu in the GPU overlay only.
// Usage: node check_overlay.mjs gpu|cpu RENDERED.yaml
import { loadDocs, validateAll } from "./k8s_schema.mjs";

const [variant, file] = process.argv.slice(2);
if (!["gpu", "cpu"].includes(variant) || !file) {
  console.error("usage: node check_overlay.mjs gpu|cpu RENDERED.yaml");
  process.exit(2);
}
const objs = loadDocs(file);
let failures = await validateAll(objs, `${variant} overlay schema`);
const expect = (cond, what) => {
  if (cond) {
    console.log(`ok ${variant}: ${what}`);
  } else {
    console.error(`FAIL ${variant}: ${what}`);
    failures++;
  }
};
const all = (kind) => objs.filter((o) => o.kind === kind);
const one = (kind, pred = () => true) => all(kind).filter(pred)[0];
const matches = (selector, labels) =>
  !!selector && Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

const deploy = one("Deployment");
expect(deploy, "one Deployment");
if (!deploy) process.exit(1);
const pod = deploy.spec.template;
const podLabels = pod.metadata?.labels ?? {};
const c = pod.spec.containers.find((x) => x.name === "factord");
expect(c, "container named factord");
if (!c) process.exit(1);

// Health: grpc.health.v1 on the gRPC port (docs/design.md, Health and logs).
const grpcPort = c.ports?.find((p) => p.name === "grpc")?.containerPort;
const metricsPort = c.ports?.find((p) => p.name === "metrics")?.containerPort;
expect(grpcPort === 50051 && metricsPort === 9464,
       "container ports grpc=50051 and metrics=9464");
expect(c.livenessProbe?.grpc?.port === 50051 &&
       c.livenessProbe.grpc.service === "",
       'livenessProbe grpc {port: 50051, service: ""}');
expect(c.readinessProbe?.grpc?.port === 50051 &&
       c.readinessProbe.grpc.service === "factord.v1.Solver",
       "readinessProbe grpc {port: 50051, service: factord.v1.Solver}");
expect(c.startupProbe?.grpc?.port === 50051,
       "startupProbe on the gRPC health service");

// Security: non-root, read-only root filesystem, no privileges.
const psc = pod.spec.securityContext ?? {};
const csc = c.securityContext ?? {};
expect(psc.runAsNonRoot === true && psc.runAsUser > 0,
       "pod runs as a non-root uid");
expect(csc.readOnlyRootFilesystem === true, "read-only root filesystem");
expect(csc.allowPrivilegeEscalation === false && csc.privileged !== true,
       "no privilege escalation");
expect(csc.capabilities?.drop?.includes("ALL"), "all capabilities dropped");
expect(pod.spec.automountServiceAccountToken === false,
       "no service-account token mounted");

// Resources.
const req = c.resources?.requests ?? {};
const lim = c.resources?.limits ?? {};
expect(req.cpu && req.memory && lim.cpu && lim.memory,
       "cpu and memory requests and limits");
const gpuLimit = Number(lim["nvidia.com/gpu"] ?? 0);
if (variant === "gpu") {
  expect(gpuLimit >= 1, `nvidia.com/gpu limit (${gpuLimit})`);
  expect(/cuda/.test(c.image), `CUDA image (${c.image})`);
} else {
  expect(!JSON.stringify(objs).includes("nvidia.com/gpu"),
         "no nvidia.com/gpu anywhere in the CPU overlay");
  expect(/cpu/.test(c.image), `CPU image (${c.image})`);
}

// Flags: from the generated ConfigMap, mounted and passed with --flagfile.
const flagfileArg = (c.args ?? []).find((a) => a.startsWith("--flagfile="));
expect(flagfileArg, "--flagfile argument");
const flagPath = flagfileArg?.slice("--flagfile=".length) ?? "";
const mount = (c.volumeMounts ?? []).find(
    (m) => flagPath.startsWith(m.mountPath + "/"));
const volume = pod.spec.volumes?.find((v) => v.name === mount?.name);
const cm = one("ConfigMap", (x) => x.metadata.name === volume?.configMap?.name);
const key = flagPath.slice((mount?.mountPath.length ?? 0) + 1);
expect(cm && typeof cm.data?.[key] === "string",
       `flag file ${flagPath} comes from ConfigMap ` +
       `${volume?.configMap?.name} key ${key}`);
const flags = (cm?.data?.[key] ?? "").split("\n").map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
const flag = (name) => flags.find((f) => f.startsWith(`--${name}=`))
    ?.slice(name.length + 3);
expect(flag("listen") === "0.0.0.0:50051", "--listen=0.0.0.0:50051");
expect(flag("metrics_listen") === "0.0.0.0:9464",
       "--metrics_listen=0.0.0.0:9464");
expect(flag("backend") === (variant === "gpu" ? "cuda" : "cpu"),
       `--backend=${flag("backend")}`);
const known = ["listen", "metrics_listen", "backend", "threads", "workers",
               "cache_bytes", "device_cache_bytes", "idle_ttl", "max_n",
               "max_nnz", "max_message_bytes", "max_queue", "shutdown_grace",
               "drain_delay"];
const unknown = flags.filter((f) => !known.includes(f.replace(/^--|=.*$/g, "")));
expect(unknown.length === 0, `only known flags (unknown: ${unknown})`);
const cacheBytes = Number(flag("cache_bytes"));
const memLimit = parseQuantity(lim.memory);
expect(cacheBytes > 0 && cacheBytes < memLimit,
       `--cache_bytes ${cacheBytes} below the memory limit ${lim.memory}`);
const grace = /^([0-9]+)s$/.exec(flag("shutdown_grace") ?? "")?.[1];
expect(grace && Number(grace) < (pod.spec.terminationGracePeriodSeconds ?? 30),
       `--shutdown_grace=${flag("shutdown_grace")} ends before the pod's ` +
       `terminationGracePeriodSeconds`);
const drain = /^([0-9]+)s$/.exec(flag("drain_delay") ?? "")?.[1];
expect(drain && Number(drain) >= 10 && Number(drain) < Number(grace),
       `--drain_delay=${flag("drain_delay")} covers the readiness probe ` +
       `(5 s x 2) within --shutdown_grace`);
if (variant === "gpu") {
  expect(Number(flag("device_cache_bytes")) > 0, "--device_cache_bytes set");
}
for (const m of c.volumeMounts ?? []) {
  const v = pod.spec.volumes?.find((x) => x.name === m.name);
  expect(v, `volume ${m.name} exists`);
}

// Services, ServiceMonitor, PDB select the pods.
const svc = one("Service", (s) => s.spec.clusterIP !== "None");
const headless = one("Service", (s) => s.spec.clusterIP === "None");
expect(svc && matches(svc.spec.selector, podLabels),
       "ClusterIP Service selects the pods");
expect(headless && matches(headless.spec.selector, podLabels),
       "headless Service selects the pods");
expect(svc?.spec.ports.some((p) => p.port === 50051 && p.name.startsWith("grpc")),
       "Service port grpc 50051 (name tells the mesh the protocol)");
const sm = one("ServiceMonitor");
expect(sm && matches(sm.spec.selector.matchLabels, svc?.metadata.labels) &&
       !matches(sm.spec.selector.matchLabels, headless?.metadata.labels),
       "ServiceMonitor selects the ClusterIP Service only (one scrape a pod)");
const smPort = sm?.spec.endpoints?.[0]?.port;
const svcMetrics = svc?.spec.ports.find((p) => p.name === smPort);
expect(svcMetrics && (svcMetrics.targetPort === "metrics" ||
                      svcMetrics.targetPort === 9464),
       `ServiceMonitor port ${smPort} reaches the metrics port`);
const rule = one("PrometheusRule");
expect(rule?.spec?.groups?.some((g) => g.rules.some((r) => r.alert === "FactordDown")),
       "PrometheusRule with the factord alerts");
const pdb = one("PodDisruptionBudget");
expect(pdb && matches(pdb.spec.selector.matchLabels, podLabels),
       "PodDisruptionBudget selects the pods");
expect(matches(deploy.spec.selector.matchLabels, podLabels),
       "Deployment selector matches its template");

console.log(failures ? `${variant}: ${failures} failed` : `${variant}: all passed`);
process.exit(failures ? 1 : 0);

// Kubernetes quantity ("16Gi", "8G", "512Mi", "1000") to a number.
function parseQuantity(q) {
  const m = /^([0-9.]+)([KMGTPE]i?)?$/.exec(String(q ?? ""));
  if (!m) return NaN;
  const pow = { K: 1, M: 2, G: 3, T: 4, P: 5, E: 6 };
  const unit = m[2] ?? "";
  const base = unit.endsWith("i") ? 1024 : 1000;
  return Number(m[1]) * (unit ? base ** pow[unit[0]] : 1);
}
