#include "server/health/health.h"

#include "grpcpp/health_check_service_interface.h"

namespace factord::server {

void EnableHealthService() { grpc::EnableDefaultHealthCheckService(true); }

void SetReadiness(grpc::Server* server, bool ready) {
  grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService();
  if (health == nullptr) return;
  health->SetServingStatus("", true);
  health->SetServingStatus(kReadinessService, ready);
}

}  // namespace factord::server
