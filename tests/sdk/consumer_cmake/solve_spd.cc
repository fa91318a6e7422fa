// Uploads a small SPD matrix to a factord daemon through the installed C++
// client (factord::client), factorizes it, solves A x = b, and checks the
// solution here, on the matrix as sent.
//
//   solve_spd_cc [HOST:PORT]  (default: $FACTORD_SERVER)
//
// A is the 1-D Laplacian tridiag(-1, 2, -1) of order 50 plus 0.1 I (its
// lower triangle, spd_lower) and b = A x_true with x_true_i = 1 + i / n, so
// that both the residual and the error are known. Exits 1 on any failed
// call or check.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "client/factord_client.h"

namespace fc = factord::client;

namespace {

constexpr int64_t kN = 50;
constexpr double kMaxResidual = 1e-10;
constexpr double kMaxError = 1e-8;

int Fail(const char* what, const absl::Status& status) {
  std::fprintf(stderr, "FAIL %s: %s\n", what, status.ToString().c_str());
  return 1;
}

// y = A x with A symmetric, its lower triangle in 0-based CSR.
std::vector<double> Multiply(const std::vector<int64_t>& row_ptr,
                             const std::vector<int32_t>& col_idx,
                             const std::vector<double>& values,
                             const std::vector<double>& x) {
  std::vector<double> y(x.size(), 0.0);
  for (size_t i = 0; i + 1 < row_ptr.size(); ++i) {
    for (int64_t e = row_ptr[i]; e < row_ptr[i + 1]; ++e) {
      const size_t j = static_cast<size_t>(col_idx[e]);
      y[i] += values[e] * x[j];
      if (j != i) y[j] += values[e] * x[i];  // the upper triangle
    }
  }
  return y;
}

double Norm(const std::vector<double>& v) {
  double s = 0;
  for (double e : v) s += e * e;
  return std::sqrt(s);
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
  std::vector<double> x_true(kN);
  for (int64_t i = 0; i < kN; ++i) x_true[i] = 1.0 + double(i) / kN;
  const std::vector<double> b = Multiply(row_ptr, col_idx, values, x_true);

  fc::ConnectOptions connect;
  connect.connect_timeout = absl::Seconds(10);
  connect.rpc_timeout = absl::Seconds(60);
  absl::StatusOr<std::unique_ptr<fc::Client>> client =
      fc::Client::Connect(address, connect);
  if (!client.ok()) return Fail("connect", client.status());
  std::printf("connected to %s\n", address.c_str());

  const fc::CsrArrays matrix{kN, "spd_lower", row_ptr, col_idx, values};
  absl::StatusOr<fc::MatrixInfo> info = (*client)->Upload(matrix);
  if (!info.ok()) return Fail("upload", info.status());
  if (info->n != kN || info->nnz != static_cast<int64_t>(values.size()) ||
      info->generation != 1) {
    std::fprintf(stderr, "FAIL upload: n %lld nnz %lld generation %llu\n",
                 static_cast<long long>(info->n),
                 static_cast<long long>(info->nnz),
                 static_cast<unsigned long long>(info->generation));
    return 1;
  }
  const std::string id = info->id;
  std::printf("uploaded %s: n = %lld, nnz = %lld, generation 1\n", id.c_str(),
              static_cast<long long>(info->n),
              static_cast<long long>(info->nnz));

  fc::FactorizeOptions factorize;
  factorize.method = "ldlt";
  absl::StatusOr<fc::FactorizeResult> f = (*client)->Factorize(id, factorize);
  if (!f.ok()) return Fail("factorize", f.status());
  std::printf(
      "factorized: method %s, status %s, inertia (+%lld, -%lld, 0:%lld)\n",
      f->method.c_str(), f->factor_status.c_str(),
      static_cast<long long>(f->inertia.positive),
      static_cast<long long>(f->inertia.negative),
      static_cast<long long>(f->inertia.zero));
  if (f->factor_status != "ok" || f->inertia.positive != kN) {
    std::fprintf(stderr, "FAIL factorize: not an SPD factorization\n");
    return 1;
  }

  absl::StatusOr<std::vector<fc::SolveResult>> solved =
      (*client)->Solve(id, std::vector<std::vector<double>>{b});
  if (!solved.ok()) return Fail("solve", solved.status());
  if (solved->size() != 1 || (*solved)[0].x.size() != b.size()) {
    std::fprintf(stderr, "FAIL solve: %zu solutions\n", solved->size());
    return 1;
  }
  const std::vector<double>& x = (*solved)[0].x;
  std::vector<double> r = Multiply(row_ptr, col_idx, values, x);
  std::vector<double> e(kN);
  for (int64_t i = 0; i < kN; ++i) {
    r[i] = b[i] - r[i];
    e[i] = x[i] - x_true[i];
  }
  const double residual = Norm(r) / Norm(b);
  const double error = Norm(e) / Norm(x_true);
  std::printf(
      "solved: status %s, residual %.1e (daemon) %.1e (here), error %.1e\n",
      (*solved)[0].status.c_str(), (*solved)[0].relative_residual, residual,
      error);
  int exit_code = 0;
  if ((*solved)[0].status != "converged" || !(residual <= kMaxResidual) ||
      !(error <= kMaxError)) {
    std::fprintf(stderr, "FAIL solve: residual over %.0e or error over %.0e\n",
                 kMaxResidual, kMaxError);
    exit_code = 1;
  }

  absl::StatusOr<int64_t> freed = (*client)->Release(id);
  if (!freed.ok()) return Fail("release", freed.status());
  std::printf("released %lld bytes\n", static_cast<long long>(*freed));
  std::printf(exit_code == 0 ? "ok\n" : "FAILED\n");
  return exit_code;
}
