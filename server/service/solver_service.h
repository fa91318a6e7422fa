// factord.v1.Solver on the gRPC callback API: each RPC gets a reactor; long
// work (assembly, factorization, solves) goes to the worker pools and the
// workers finish the reactors. Reactors are owned by ServiceState::reactors.
#ifndef FACTORD_SERVER_SERVICE_SOLVER_SERVICE_H_
#define FACTORD_SERVER_SERVICE_SOLVER_SERVICE_H_

#include "factord/v1/solver.grpc.pb.h"
#include "server/service/service_state.h"

namespace factord::server {

class SolverService final : public v1::Solver::CallbackService {
 public:
  // `state` is not owned and must outlive the service.
  explicit SolverService(const ServiceState* state) : state_(state) {}

  grpc::ServerReadReactor<v1::UploadRequest>* UploadMatrix(
      grpc::CallbackServerContext* context, v1::MatrixInfo* reply) override;
  grpc::ServerReadReactor<v1::UpdateValuesRequest>* UpdateValues(
      grpc::CallbackServerContext* context, v1::MatrixInfo* reply) override;
  grpc::ServerUnaryReactor* Factorize(grpc::CallbackServerContext* context,
                                      const v1::FactorizeRequest* request,
                                      v1::FactorizeReply* reply) override;
  grpc::ServerBidiReactor<v1::SolveRequest, v1::SolveReply>* Solve(
      grpc::CallbackServerContext* context) override;
  grpc::ServerUnaryReactor* Release(grpc::CallbackServerContext* context,
                                    const v1::ReleaseRequest* request,
                                    v1::ReleaseReply* reply) override;
  grpc::ServerUnaryReactor* GetMatrix(grpc::CallbackServerContext* context,
                                      const v1::GetMatrixRequest* request,
                                      v1::MatrixInfo* reply) override;
  grpc::ServerUnaryReactor* ListMatrices(grpc::CallbackServerContext* context,
                                         const v1::ListMatricesRequest* request,
                                         v1::ListMatricesReply* reply) override;
  grpc::ServerBidiReactor<v1::StepRequest, v1::StepReply>* Step(
      grpc::CallbackServerContext* context) override;
  grpc::ServerUnaryReactor* StepUnary(grpc::CallbackServerContext* context,
                                      const v1::StepUnaryRequest* request,
                                      v1::StepUnaryReply* reply) override;
  grpc::ServerUnaryReactor* ServerInfo(grpc::CallbackServerContext* context,
                                       const v1::ServerInfoRequest* request,
                                       v1::ServerInfoReply* reply) override;

 private:
  const ServiceState* const state_;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_SOLVER_SERVICE_H_
