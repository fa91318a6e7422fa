// A KktSolver that does every factorization and solve through a factord
// daemon with the client library. The first values are uploaded with the
// pattern (symmetric_lower, generation 1); every later iteration is one
// Step RPC (FactorizeAndSolve): the new values, the regularization as the
// request's diagonal shifts and the predictor's right-hand sides go out
// together, and the factorization's report comes back with their
// solutions. The corrector's right-hand side needs the predictor's
// solution, so it follows in a Solve RPC on the same factorization: two
// round trips an iteration (the three-call path SetValues + Factorize +
// Solve made four). A refactorization with raised shifts is a Step without
// values (nothing but the right-hand sides is re-sent). The matrix is
// released on destruction.
//
// Generations: every request states the generation of the matrix it
// expects (the one the last reply reported), so a Step retried after a
// lost reply is refused (ABORTED, GENERATION_MISMATCH) instead of applying
// the values twice, and nothing factorizes or solves values this solver did
// not send. When the client re-uploads after a daemon restart
// (ConnectOptions::reupload_on_not_found), the generation is read again.
//
// bytes_sent counts what this solver puts on the wire: for Upload and
// UpdateValues the request-stream bytes the server reports receiving
// (MatrixInfo::bytes_received); for Step and Solve the serialized size of
// the request messages as computed here (the client library does not report
// it): 8 bytes a value plus per-message field and framing overhead.
// A solve whose status is not "converged" (refinement did not reach the
// tolerance, perturbed factor) still returns its x: the IPM judges steps by
// its own residuals, as it would with MUMPS.
#ifndef FACTORD_CLIENT_IPM_REMOTE_KKT_SOLVER_H_
#define FACTORD_CLIENT_IPM_REMOTE_KKT_SOLVER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "client/factord_client.h"
#include "client/ipm/kkt_solver.h"

namespace factord::ipm {

class RemoteKktSolver : public KktSolver {
 public:
  // `client` is not owned and must outlive this object. `factorize` carries
  // the method and its options (the shift fields and expected_generation
  // are overwritten per call); `solve` the solve options (krylov "none":
  // direct solve + refinement; expected_generation is overwritten).
  RemoteKktSolver(client::Client* client, client::FactorizeOptions factorize,
                  client::SolveOptions solve);
  ~RemoteKktSolver() override;

  // The three-call path: Upload the first time, then UpdateValues.
  absl::Status SetValues(const SymmetricLowerCsr& kkt) override;
  absl::StatusOr<KktFactorReport> Factorize(
      const DiagonalShift& shift) override;
  absl::StatusOr<KktSolveReport> Solve(
      std::vector<std::vector<double>>& rhs) override;
  // One Step RPC (after the upload, when this is the first call).
  absl::StatusOr<KktStepReport> FactorizeAndSolve(
      const SymmetricLowerCsr* kkt, const DiagonalShift& shift,
      std::vector<std::vector<double>>& rhs) override;
  int64_t bytes_sent() const override { return bytes_sent_; }
  int64_t round_trips() const override { return round_trips_; }

  const std::string& matrix_id() const { return id_; }
  // The method the server reports having used (auto resolved).
  const std::string& method_used() const { return method_used_; }
  // The generation of the matrix as this solver last saw it (0: none yet).
  uint64_t generation() const { return generation_; }

 private:
  // Uploads `kkt` (pattern and values) under a new ID.
  absl::Status Upload(const SymmetricLowerCsr& kkt);
  client::FactorizeOptions FactorizeOptionsFor(
      const DiagonalShift& shift) const;
  KktFactorReport ToReport(const client::FactorizeResult& result);
  // Moves the solutions into `rhs` and sums their report.
  absl::StatusOr<KktSolveReport> TakeSolutions(
      std::vector<client::SolveResult>& results,
      std::vector<std::vector<double>>& rhs);
  // After a call in which the client re-uploaded the matrix (the daemon had
  // lost it), reads the generation the server now holds it at.
  absl::Status RefreshGenerationAfterReupload();

  client::Client* client_;
  client::FactorizeOptions factorize_;
  client::SolveOptions solve_;
  std::string id_;
  std::string method_used_;
  int64_t dim_ = 0;
  int64_t nnz_ = 0;
  uint64_t generation_ = 0;
  int64_t reuploads_seen_ = 0;
  int64_t bytes_sent_ = 0;
  int64_t round_trips_ = 0;
};

}  // namespace factord::ipm

#endif  // FACTORD_CLIENT_IPM_REMOTE_KKT_SOLVER_H_
