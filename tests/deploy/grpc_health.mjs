// A grpc.health.v1 client doing what a Kubernetes gRPC probe does: one
// Health/Check call per service name, printing "SERVICE STATUS" lines
// (SERVING, NOT_SERVING, UNKNOWN, or the gRPC error code name, e.g.
// NOT_FOUND for a service the server does not know).
// Usage: node grpc_health.mjs HOST:PORT SERVICE...   ("" is the server)
// The two messages are encoded by hand (one field each), so no .proto
// loader is needed:
//   HealthCheckRequest  { string service = 1; }
//   HealthCheckResponse { ServingStatus status = 1; }
import grpc from "@grpc/grpc-js";

const STATUS = ["UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"];

function encodeRequest({ service }) {
  const bytes = Buffer.from(service, "utf8");
  if (bytes.length === 0) return Buffer.alloc(0);
  if (bytes.length > 127) throw new Error("service name too long");
  return Buffer.concat([Buffer.from([0x0a, bytes.length]), bytes]);
}

function decodeResponse(buf) {
  // Field 1, varint (tag 0x08); absent means 0 (UNKNOWN).
  let status = 0;
  for (let i = 0; i < buf.length;) {
    const tag = buf[i++];
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const b = buf[i++];
      value |= (b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    if (tag === 0x08) status = value;
  }
  return { status };
}

const Health = grpc.makeGenericClientConstructor({
  Check: {
    path: "/grpc.health.v1.Health/Check",
    requestStream: false,
    responseStream: false,
    requestSerialize: encodeRequest,
    requestDeserialize: () => ({}),
    responseSerialize: () => Buffer.alloc(0),
    responseDeserialize: decodeResponse,
  },
});

const [target, ...services] = process.argv.slice(2);
if (!target || services.length === 0) {
  console.error("usage: node grpc_health.mjs HOST:PORT SERVICE...");
  process.exit(2);
}
const client = new Health(target, grpc.credentials.createInsecure());
const codeName = Object.fromEntries(
    Object.entries(grpc.status).map(([name, code]) => [code, name]));
for (const service of services) {
  const result = await new Promise((resolve) => {
    client.Check({ service }, { deadline: Date.now() + 5000 }, (err, reply) =>
      resolve(err ? codeName[err.code] ?? String(err.code)
                  : STATUS[reply.status] ?? String(reply.status)));
  });
  console.log(`${JSON.stringify(service)} ${result}`);
}
client.close();
