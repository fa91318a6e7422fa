// Checks the routing-by-matrix-ID configuration in deploy/mesh: every request
// naming a matrix must reach the pod that holds its factors, by a consistent
// hash of the x-factord-matrix-id header the client library sends.
//  - client/factord_client.h: the client sends that header;
//  - istio-destinationrule.yaml: Istio schema (k8s_schema.mjs) and
//    consistentHash.httpHeaderName on the factord Service.
//  - envoy-ring-hash.yaml: no Envoy binary or schema is available offline,
//    so this checks the fields that carry the routing: a route to the factord
//    cluster hashing on the header, RING_HASH over the headless Service,
//    HTTP/2 upstream, no route timeout cutting long RPCs.
// Usage: node check_mesh.mjs DEPLOY_DIR
import fs from "node:fs";
import path from "node:path";
import { loadDocs, validateAll } from "./k8s_schema.mjs";

const HEADER = "x-factord-matrix-id";
const deployDir = process.argv[2];
if (!deployDir) {
  console.error("usage: node check_mesh.mjs DEPLOY_DIR");
  process.exit(2);
}
let failures = 0;
const expect = (cond, what) => {
  if (cond) {
    console.log(`ok mesh: ${what}`);
  } else {
    console.error(`FAIL mesh: ${what}`);
    failures++;
  }
};

// The header the client library sends (client/factord_client.h).
const clientHeader = path.join(deployDir, "../client/factord_client.h");
const sent = /kMatrixIdHeader\[\]\s*=\s*"([^"]+)"/.exec(
    fs.existsSync(clientHeader) ? fs.readFileSync(clientHeader, "utf8") : "");
expect(sent?.[1] === HEADER,
       `the client library sends ${HEADER} (kMatrixIdHeader: ${sent?.[1]})`);

// Istio.
const istio = loadDocs(path.join(deployDir, "mesh/istio-destinationrule.yaml"));
failures += await validateAll(istio, "istio schema");
const dr = istio.find((o) => o.kind === "DestinationRule");
expect(dr, "an Istio DestinationRule");
const lb = dr?.spec?.trafficPolicy?.loadBalancer;
expect(lb?.consistentHash?.httpHeaderName === HEADER,
       `DestinationRule hashes on ${HEADER}`);
expect(/^factord\./.test(dr?.spec?.host ?? ""),
       `DestinationRule host is the factord Service (${dr?.spec?.host})`);
const svcs = loadDocs(path.join(deployDir, "k8s/base/service.yaml"));
expect(svcs.some((s) => s.metadata.name === dr?.spec?.host?.split(".")[0]),
       "the host names the base Service");

// Envoy.
const [envoy] = loadDocs(path.join(deployDir, "mesh/envoy-ring-hash.yaml"));
const clusters = envoy?.static_resources?.clusters ?? [];
const listeners = envoy?.static_resources?.listeners ?? [];
const hcms = listeners.flatMap((l) => l.filter_chains ?? [])
    .flatMap((fc) => fc.filters ?? [])
    .filter((f) => f.name === "envoy.filters.network.http_connection_manager");
expect(hcms.length === 1, "one HTTP connection manager");
const hcm = hcms[0]?.typed_config ?? {};
expect(hcm["@type"]?.endsWith("http_connection_manager.v3.HttpConnectionManager"),
       "HttpConnectionManager v3 typed_config");
expect(hcm.http_filters?.at(-1)?.name === "envoy.filters.http.router",
       "router is the last HTTP filter");
const routes = (hcm.route_config?.virtual_hosts ?? []).flatMap((v) => v.routes ?? []);
const solverRoute = routes.find((r) =>
    "/factord.v1.Solver/Solve".startsWith(r.match?.prefix ?? "\0"));
expect(solverRoute, "a route matches /factord.v1.Solver/*");
const hashed = solverRoute?.route?.hash_policy?.some(
    (h) => h.header?.header_name === HEADER);
expect(hashed, `the Solver route hashes on ${HEADER}`);
expect(solverRoute?.route?.timeout === "0s",
       "the Solver route has no 15 s default timeout");
const cluster = clusters.find((c) => c.name === solverRoute?.route?.cluster);
expect(cluster, `the route's cluster ${solverRoute?.route?.cluster} exists`);
expect(cluster?.lb_policy === "RING_HASH", "cluster lb_policy RING_HASH");
const http2 = cluster?.typed_extension_protocol_options?.[
    "envoy.extensions.upstreams.http.v3.HttpProtocolOptions"];
expect(http2?.explicit_http_config?.http2_protocol_options !== undefined,
       "cluster speaks HTTP/2 to the pods (gRPC)");
expect(cluster?.type === "STRICT_DNS", "cluster resolves every pod (STRICT_DNS)");
const addrs = (cluster?.load_assignment?.endpoints ?? [])
    .flatMap((e) => e.lb_endpoints ?? [])
    .map((e) => e.endpoint?.address?.socket_address);
expect(addrs.length > 0 && addrs.every(
           (a) => /^factord-headless\./.test(a.address) && a.port_value === 50051),
       "endpoints: the headless Service, port 50051");
const headless = loadDocs(path.join(deployDir, "k8s/base/service-headless.yaml"));
expect(headless.some((s) => s.metadata.name === "factord-headless" &&
                     s.spec.clusterIP === "None"),
       "the base defines that headless Service");
expect(cluster?.health_checks?.some(
           (h) => h.grpc_health_check?.service_name === "factord.v1.Solver"),
       "health check on the readiness service factord.v1.Solver");
// Every route sends to a defined cluster; no unknown clusters.
expect(routes.every((r) => clusters.some((c) => c.name === r.route?.cluster)),
       "every route names a defined cluster");

console.log(failures ? `mesh: ${failures} failed` : "mesh: all passed");
process.exit(failures ? 1 : 0);
