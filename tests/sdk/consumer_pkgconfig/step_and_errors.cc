// Built against an installed factord with plain c++ and pkg-config
// (scripts/check_sdk.sh):
//   c++ -std=c++20 step_and_errors.cc $(pkg-config --cflags --libs factord)
//
//   step_and_errors_cc [HOST:PORT]  (default: $FACTORD_SERVER)
//
// Uploads the SPD matrix tridiag(-1, 2.1, -1) of order 30 (lower triangle),
// then sends new values (the matrix doubled), factorizes and solves in one
// round trip (Client::Step), and checks the solution here against the new
// values and the matrix's generation (2) on the daemon. Then asks for a
// matrix that was never uploaded and checks the error the installed
// headers decode: NOT_FOUND with reason NOT_FOUND in domain factord.v1
// (status_details.h). Exits 1 on any failed call or check.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "client/factord_client.h"
#include "client/status_details.h"

namespace fc = factord::client;

namespace {

constexpr int64_t kN = 30;
constexpr double kMaxResidual = 1e-10;

int Fail(const char* what, const absl::Status& status) {
  std::fprintf(stderr, "FAIL %s: %s\n", what, status.ToString().c_str());
  return 1;
}

int Fail(const char* what) {
  std::fprintf(stderr, "FAIL %s\n", what);
  return 1;
}

// ||b - A x|| / ||b||, A symmetric, its lower triangle in 0-based CSR.
double RelativeResidual(const std::vector<int64_t>& row_ptr,
                        const std::vector<int32_t>& col_idx,
                        const std::vector<double>& values,
                        const std::vector<double>& x,
                        const std::vector<double>& b) {
  std::vector<double> r = b;
  for (int64_t i = 0; i < kN; ++i) {
    for (int64_t e = row_ptr[i]; e < row_ptr[i + 1]; ++e) {
      const int64_t j = col_idx[e];
      r[i] -= values[e] * x[j];
      if (j != i) r[j] -= values[e] * x[i];
    }
  }
  double rr = 0, bb = 0;
  for (int64_t i = 0; i < kN; ++i) rr += r[i] * r[i], bb += b[i] * b[i];
  return std::sqrt(rr / bb);
}

}  // namespace

int main(int argc, char** argv) {
  const char* env = std::getenv("FACTORD_SERVER");
  if (argc < 2 && env == nullptr) {
    std::fprintf(stderr, "usage: %s HOST:PORT (or set FACTORD_SERVER)\n",
                 argv[0]);
    return 2;
  }
  const std::string address = argc > 1 ? argv[1] : env;

  std::vector<int64_t> row_ptr = {0};
  std::vector<int32_t> col_idx;
  std::vector<double> values;
  for (int64_t i = 0; i < kN; ++i) {
    if (i > 0) {
      col_idx.push_back(static_cast<int32_t>(i - 1));
      values.push_back(-1.0);
    }
    col_idx.push_back(static_cast<int32_t>(i));
    values.push_back(2.1);
    row_ptr.push_back(static_cast<int64_t>(col_idx.size()));
  }

  fc::ConnectOptions connect;
  connect.connect_timeout = absl::Seconds(10);
  connect.rpc_timeout = absl::Seconds(60);
  absl::StatusOr<std::unique_ptr<fc::Client>> client =
      fc::Client::Connect(address, connect);
  if (!client.ok()) return Fail("connect", client.status());
  std::printf("connected to %s\n", address.c_str());

  absl::StatusOr<fc::MatrixInfo> info =
      (*client)->Upload({kN, "spd_lower", row_ptr, col_idx, values});
  if (!info.ok()) return Fail("upload", info.status());
  const std::string id = info->id;
  std::printf("uploaded %s: n = %lld, generation %llu\n", id.c_str(),
              static_cast<long long>(info->n),
              static_cast<unsigned long long>(info->generation));

  // New values and a right-hand side, in one Step.
  for (double& v : values) v *= 2;
  std::vector<double> b(kN);
  for (int64_t i = 0; i < kN; ++i) b[i] = 1.0 + 0.5 * std::sin(double(i));
  const std::span<const double> rhs[] = {b};
  fc::StepOptions step;
  step.factorize.method = "ldlt";
  step.factorize.expected_generation = info->generation;
  absl::StatusOr<fc::StepResult> result =
      (*client)->Step(id, values, rhs, step);
  if (!result.ok()) return Fail("step", result.status());
  if (result->solutions.size() != 1) return Fail("step: not one solution");
  const fc::SolveResult& s = result->solutions[0];
  const double residual = RelativeResidual(row_ptr, col_idx, values, s.x, b);
  std::printf(
      "step: factorization %s (generation %llu), solve %s, residual %.1e "
      "(here)\n",
      result->factorization.factor_status.c_str(),
      static_cast<unsigned long long>(result->factorization.generation),
      s.status.c_str(), residual);
  if (result->factorization.factor_status != "ok" ||
      result->factorization.generation != 2 || s.status != "converged" ||
      !(residual <= kMaxResidual)) {
    return Fail("step: wrong generation, status or residual");
  }

  absl::StatusOr<fc::MatrixInfo> held = (*client)->GetMatrix(id);
  if (!held.ok()) return Fail("get matrix", held.status());
  std::printf("held: generation %llu, factorized %d, stale %d\n",
              static_cast<unsigned long long>(held->generation),
              held->factorized, held->stale);
  if (held->generation != 2 || !held->factorized || held->stale) {
    return Fail("get matrix: not the stepped matrix");
  }

  // An error from the daemon, read through the installed status_details.h.
  const std::string missing = fc::NewMatrixId();
  absl::StatusOr<fc::MatrixInfo> none = (*client)->GetMatrix(missing);
  const std::string reason = none.ok() ? "" : fc::ErrorReason(none.status());
  const std::string domain = none.ok() ? "" : fc::ErrorDomain(none.status());
  std::printf(
      "unknown matrix: %s, reason %s, domain %s\n",
      none.ok() ? "OK" : absl::StatusCodeToString(none.status().code()).c_str(),
      reason.c_str(), domain.c_str());
  if (none.ok() || !absl::IsNotFound(none.status()) || reason != "NOT_FOUND" ||
      domain != fc::kErrorDomain) {
    return Fail("unknown matrix: not NOT_FOUND with factord's details");
  }

  absl::StatusOr<int64_t> freed = (*client)->Release(id);
  if (!freed.ok()) return Fail("release", freed.status());
  std::printf("released %lld bytes\nok\n", static_cast<long long>(*freed));
  return 0;
}
