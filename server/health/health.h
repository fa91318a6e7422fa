// The standard grpc.health.v1 service (gRPC's default implementation):
// service "" is liveness, SERVING while the process runs; service
// "factord.v1.Solver" is readiness, NOT_SERVING while starting and draining.
#ifndef FACTORD_SERVER_HEALTH_HEALTH_H_
#define FACTORD_SERVER_HEALTH_HEALTH_H_

#include "grpcpp/server.h"

namespace factord::server {

inline constexpr char kReadinessService[] = "factord.v1.Solver";

// Call before building the grpc::Server: installs the default health service.
void EnableHealthService();

// Sets liveness (always serving) and readiness on a started server.
void SetReadiness(grpc::Server* server, bool ready);

}  // namespace factord::server

#endif  // FACTORD_SERVER_HEALTH_HEALTH_H_
