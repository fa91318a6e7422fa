// A KktSolver that does every factorization and solve through a factord
// daemon with the client library: the first SetValues uploads the pattern
// and values (symmetric_lower), later ones send only values (UpdateValues);
// Factorize passes the regularization as the request's diagonal shifts, so
// raising it re-sends nothing; Solve streams the right-hand sides of one
// call through one Solve RPC. The matrix is released on destruction.
//
// bytes_sent counts what this solver puts on the wire: for Upload and
// UpdateValues the request-stream bytes the server reports receiving
// (MatrixInfo::bytes_received); for Solve the serialized size of the
// right-hand-side messages as computed here (the client library does not
// report it): 8 bytes a value plus per-chunk field overhead.
// A solve whose status is not "converged" (refinement did not reach the
// tolerance, perturbed factor) still returns its x: the IPM judges steps by
// its own residuals, as it would with MUMPS.
#ifndef FACTORD_CLIENT_IPM_REMOTE_KKT_SOLVER_H_
#define FACTORD_CLIENT_IPM_REMOTE_KKT_SOLVER_H_

#include <string>
#include <vector>

#include "client/factord_client.h"
#include "client/ipm/kkt_solver.h"

namespace factord::ipm {

class RemoteKktSolver : public KktSolver {
 public:
  // `client` is not owned and must outlive this object. `factorize` carries
  // the method and its options (the shift fields are overwritten per call);
  // `solve` the solve options (krylov "none": direct solve + refinement).
  RemoteKktSolver(client::Client* client, client::FactorizeOptions factorize,
                  client::SolveOptions solve);
  ~RemoteKktSolver() override;

  absl::Status SetValues(const SymmetricLowerCsr& kkt) override;
  absl::StatusOr<KktFactorReport> Factorize(
      const DiagonalShift& shift) override;
  absl::StatusOr<KktSolveReport> Solve(
      std::vector<std::vector<double>>& rhs) override;
  int64_t bytes_sent() const override { return bytes_sent_; }

  const std::string& matrix_id() const { return id_; }
  // The method the server reports having used (auto resolved).
  const std::string& method_used() const { return method_used_; }

 private:
  client::Client* client_;
  client::FactorizeOptions factorize_;
  client::SolveOptions solve_;
  std::string id_;
  std::string method_used_;
  int64_t dim_ = 0;
  int64_t nnz_ = 0;
  int64_t bytes_sent_ = 0;
};

}  // namespace factord::ipm

#endif  // FACTORD_CLIENT_IPM_REMOTE_KKT_SOLVER_H_
