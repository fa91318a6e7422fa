// An interior-point loop on factord, in C++ (docs/tutorial.md explains it).
//
//   build/tests/tutorial/tutorial_ipm_loop_cc [HOST:PORT]  (default:
//       $FACTORD_SERVER, else 127.0.0.1:50051)
//
// Uploads one KKT matrix, then, for six iterations, sends its new values,
// factorizes them with a diagonal shift and solves, all in one round trip
// (Client::Step); when the inertia is wrong it raises the shift and
// refactorizes without sending the values again. Exits 1 on any failure: an
// RPC error, a wrong inertia no shift up to kMaxShift repairs, or a solution
// whose residual ||b - (K + S) x|| / ||b|| is above 1e-10 (checked here, on
// the matrix as sent plus the shift S it was factorized with).
//
// The matrix: HS21 (Hock-Schittkowski problem 21) as NLPy's IPM wrote its
// KKT systems (tests/data/kkt/hs21/2x2: iter_0/K_0.mtx and iter_5/K_5.mtx,
// same pattern), with the primal block negated:
//   K = [ -(H + Sigma)  J^T ]   n = 7 primal rows (2 variables, 5 slacks)
//       [  J            0   ]   m = 6 constraint rows
// Its right inertia is m positive, n negative, none zero. One constraint
// is stated twice (the last row of J repeats the first), as models
// sometimes do: K is then singular and the factorization says so until
// the dual shift regularizes it, as Ipopt's delta_c does.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/factord_client.h"

namespace fc = factord::client;

namespace {

constexpr int64_t kPrimal = 7;  // n: rows of the (1,1) block
constexpr int64_t kDual = 6;    // m: constraint rows
constexpr int64_t kN = kPrimal + kDual;
constexpr int kIterations = 6;
constexpr double kFirstShift = 1e-8;  // Ipopt's rule, as factord-ipm does
constexpr double kMaxShift = 1e2;
constexpr double kMaxResidual = 1e-10;

// The lower triangle of K in 0-based CSR, columns sorted in each row.
// clang-format off
const std::vector<int64_t> kRowPtr = {0,  1,  2,  3,  4,  5,  6, 7,
                                      11, 14, 17, 20, 23, 27};
const std::vector<int32_t> kColIdx = {
    0, 1, 2, 3, 4, 5, 6,  // -(H + Sigma): diagonal
    0, 1, 2,  7,          // row 7: x1 - 0.1 x2 - s3, and its 0 diagonal
    0, 3, 8,              // row 8: x1 - s4
    1, 4, 9,              // row 9: x2 - s5
    0, 5, 10,             // row 10: -x1 - s6
    1, 6, 11,             // row 11: -x2 - s7
    0, 1, 2,  12};        // row 12: row 7 again (a redundant constraint)
const std::vector<double> kJacobianRows = {  // the values of rows 7..12
    1, -0.1, -1, 0,
    1, -1, 0,
    1, -1, 0,
    -1, -1, 0,
    -1, -1, 0,
    1, -0.1, -1, 0};
// -(H + Sigma) at the first and the last iteration (K_0.mtx, K_5.mtx).
const double kDiagonalFirst[kPrimal] = {
    -1.02, -3.0, -1.063883614701997, -1.065671006227894,
    -1.032557516875519, -1.044001599037411, -1.032951324222853};
const double kDiagonalLast[kPrimal] = {
    -2.001e-02, -2.00001, -1.314996235409742e-03, -2.402009442522701e+01,
    -1.000503051902875e-05, -1.004911687634906e-05, -1.000503031143173e-05};
// Right-hand sides of the same iterations (rhs_0.rhs, rhs_5.rhs); the
// redundant row 12 gets row 7's entry, so that K x = b is consistent.
const double kRhsFirst[kN - 1] = {
    3.512550261791069772e-01, 8.260105861234724456e-01,
    3.595860515695483706e-01, 3.673829247267463849e-01,
    2.596992201338506057e-01, 3.720884650866249643e-01,
    2.528453932200291909e-01, 1.869884804808214440e+01,
    1.869894390844317655e+01, 1.869545923151247280e+01,
    1.869725662743306316e+01, 1.869554182431178901e+01};
const double kRhsLast[kN - 1] = {
    1.205700578626552055e-02,  -6.463974467696444442e-04,
    1.413878377173161333e-03,  5.748239156952227730e-03,
    1.954898755518794815e-07,  -1.028175051377282380e-04,
    3.091930112739409321e-07,  -3.054876355612634597e-05,
    -2.938344109226775913e-05, 4.824300333439168753e-06,
    3.930223521564357725e-05,  4.502950119444903976e-06};
// clang-format on

// The values of K at iteration k: Sigma moves geometrically from the first
// iteration's to the last one's, as barrier terms do; J stays.
std::vector<double> KktValues(int k) {
  const double t = static_cast<double>(k) / (kIterations - 1);
  std::vector<double> values(kPrimal);
  for (int64_t i = 0; i < kPrimal; ++i) {
    values[i] =
        -std::pow(-kDiagonalFirst[i], 1 - t) * std::pow(-kDiagonalLast[i], t);
  }
  values.insert(values.end(), kJacobianRows.begin(), kJacobianRows.end());
  return values;
}

std::vector<double> Rhs(int k) {
  const double t = static_cast<double>(k) / (kIterations - 1);
  std::vector<double> b(kN);
  for (int64_t i = 0; i < kN - 1; ++i) {
    b[i] = (1 - t) * kRhsFirst[i] + t * kRhsLast[i];
  }
  b[kN - 1] = b[7];
  return b;
}

// ||b - (K + S) x||_2 / ||b||_2 with K symmetric, its lower triangle in
// CSR, and S the shift: -shift on the primal rows, +shift on the others.
double RelativeResidual(const std::vector<double>& values, double shift,
                        const std::vector<double>& x,
                        const std::vector<double>& b) {
  std::vector<double> r = b;
  for (int64_t i = 0; i < kN; ++i) {
    r[i] -= (i < kPrimal ? -shift : shift) * x[i];
    for (int64_t e = kRowPtr[i]; e < kRowPtr[i + 1]; ++e) {
      const int64_t j = kColIdx[e];
      r[i] -= values[e] * x[j];
      if (j != i) r[j] -= values[e] * x[i];  // the upper triangle
    }
  }
  double rr = 0, bb = 0;
  for (int64_t i = 0; i < kN; ++i) rr += r[i] * r[i], bb += b[i] * b[i];
  return std::sqrt(rr / bb);
}

int Fail(const char* what, const absl::Status& status) {
  std::fprintf(stderr, "%s: %s\n", what, status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const char* env = std::getenv("FACTORD_SERVER");
  const std::string address =
      argc > 1 ? argv[1] : (env != nullptr ? env : "127.0.0.1:50051");
  fc::ConnectOptions connect;
  connect.connect_timeout = absl::Seconds(10);
  connect.rpc_timeout = absl::Seconds(60);
  absl::StatusOr<std::unique_ptr<fc::Client>> client =
      fc::Client::Connect(address, connect);
  if (!client.ok()) return Fail("connect", client.status());

  // 1. Upload the pattern once (with the first values); the client names
  //    the matrix with a new UUID. Generation 1.
  std::vector<double> values = KktValues(0);
  fc::CsrArrays kkt{kN, "symmetric_lower", kRowPtr, kColIdx, values};
  absl::StatusOr<fc::MatrixInfo> info = (*client)->Upload(kkt);
  if (!info.ok()) return Fail("upload", info.status());
  const std::string id = info->id;
  uint64_t generation = info->generation;
  std::printf("uploaded %s: n = %lld, nnz = %lld\n", id.c_str(),
              static_cast<long long>(info->n),
              static_cast<long long>(info->nnz));

  fc::StepOptions step;
  step.factorize.method = "ldlt";
  step.factorize.shift_count = kPrimal;  // shift_first: the primal rows
  double last_shift = 0;
  int exit_code = 0;
  for (int k = 0; k < kIterations && exit_code == 0; ++k) {
    values = KktValues(k);
    const std::vector<double> b = Rhs(k);
    const std::span<const double> rhs[] = {b};
    // Ipopt's rule: start from a third of the last shift that worked.
    double shift = last_shift / 3 < 1e-10 ? 0 : last_shift / 3;
    std::span<const double> new_values = values;  // sent once per iteration
    absl::StatusOr<fc::StepResult> result;
    while (true) {
      // 2. New values, factorization with the shift, solve: one round trip.
      //    -shift on the primal block, +shift on the dual one.
      step.factorize.shift_first = -shift;
      step.factorize.shift_rest = shift;
      // Applied only at this generation: a retried Step changes nothing.
      step.factorize.expected_generation = generation;
      result = (*client)->Step(id, new_values, rhs, step);
      if (!result.ok()) return Fail("step", result.status());
      const fc::FactorizeResult& f = result->factorization;
      generation = f.generation;
      std::printf(
          "iteration %d: shift %.1e, inertia (+%lld, -%lld, 0:%lld) %s, "
          "analysis reused %d, generation %llu\n",
          k, shift, static_cast<long long>(f.inertia.positive),
          static_cast<long long>(f.inertia.negative),
          static_cast<long long>(f.inertia.zero), f.factor_status.c_str(),
          f.analysis_reused, static_cast<unsigned long long>(generation));
      // 3. Read the inertia: m positive, n negative, none zero.
      const bool inertia_ok = f.factor_status == "ok" && f.inertia_reliable &&
                              f.inertia.positive == kDual &&
                              f.inertia.negative == kPrimal &&
                              f.inertia.zero == 0;
      if (inertia_ok) break;
      // 4. Wrong: raise the shift and refactorize the values the daemon
      //    holds (empty values: nothing is sent again).
      shift = shift == 0 ? std::max(kFirstShift, last_shift) : 10 * shift;
      if (shift > kMaxShift) {
        std::fprintf(stderr, "iteration %d: no shift up to %g works\n", k,
                     kMaxShift);
        return 1;
      }
      new_values = {};
    }
    last_shift = shift;
    // 5. The solution of the system factorized, K + S: check its report
    //    and the residual ourselves.
    const fc::SolveResult& s = result->solutions[0];
    const double residual = RelativeResidual(values, shift, s.x, b);
    std::printf("  solve %s, residual %.1e (daemon) %.1e (here)\n",
                s.status.c_str(), s.relative_residual, residual);
    if (s.status != "converged" || !(residual <= kMaxResidual)) {
      std::fprintf(stderr, "iteration %d: residual %.1e over %.0e\n", k,
                   residual, kMaxResidual);
      exit_code = 1;
    }
    if (k > 0 && !result->factorization.analysis_reused) {
      std::fprintf(stderr, "iteration %d: the analysis was redone\n", k);
      exit_code = 1;
    }
  }
  // 6. Free the matrix and its factors on the daemon.
  if (absl::StatusOr<int64_t> freed = (*client)->Release(id); !freed.ok()) {
    return Fail("release", freed.status());
  }
  std::printf(exit_code == 0 ? "ok\n" : "FAILED\n");
  return exit_code;
}
