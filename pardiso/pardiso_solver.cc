// The phases of one PARDISO handle over factord's C API (pardiso_solver.h).
//
// iparm in (1-based, as the manual numbers them): 2 ordering (0 amd, 2 or 3
// metis, else the daemon's choice), 6 solution into b, 34 deterministic.
// iparm out: 7 refinement steps (of the last solve, the most of its
// right-hand sides), 14 perturbed pivots, 15..17 memory in KB (pattern and
// values sent; factor), 18 nnz(L), 22/23 positive/negative pivots (zero
// pivots, which factord perturbs, counted negative so that the pair sums to
// n and an IPM sees a wrong inertia), 20 0. Quality: when a phase 11 on an
// unchanged pattern follows a factorization with perturbed pivots (what
// Ipopt does to ask for a better factorization), the pivot threshold u of
// that matrix goes up tenfold, 0.01 -> 0.1 -> 0.5, and stays.
// An ldlt factorization whose inertia the daemon does not trust although
// it perturbed nothing (pivot growth: its a-posteriori factor check
// failed) is not handed on: the phase refactorizes at once with u raised
// the same way, and when u = 0.5 does not give a trusted factor either it
// returns error -4, on which Ipopt perturbs the matrix
// (IpPardisoSolverInterface: -4 is SYMSOLVER_SINGULAR). Solves (phase 33,
// and those of 13 and 23) that do not converge return 0, as PARDISO's do:
// Ipopt treats any non-zero phase 33 error as fatal but checks the
// residual of every solution itself (docs/pardiso.md, Errors).
#include "pardiso/pardiso_solver.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pardiso/pattern_check.h"

namespace factord::pardiso {
namespace {

constexpr double kDefaultPivotThreshold = 0.01;  // the daemon's
constexpr double kMaxPivotThreshold = 0.5;

int& Iparm(int* iparm, int k) { return iparm[k - 1]; }

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

int Kilobytes(int64_t bytes) {
  return static_cast<int>(std::min<int64_t>((bytes + 1023) / 1024, INT_MAX));
}

const char* OrderingOf(int iparm2) {
  switch (iparm2) {
    case 0:
      return "amd";
    case 2:
    case 3:
      return "metis";
    default:
      return "";  // the daemon's choice
  }
}

std::string LastError(factord_status status) {
  return absl::StrCat(factord_status_name(status), " [",
                      factord_last_error_reason(),
                      "]: ", factord_last_error_message());
}

}  // namespace

PardisoSolver::PardisoSolver() {
  std::random_device random;
  id_prefix_ = absl::StrFormat("pardiso-%d-%08x%08x",
                               static_cast<int>(getpid()), random(), random());
  if (const char* u = std::getenv("FACTORD_PARDISO_PIVOT_THRESHOLD")) {
    char* end = nullptr;
    const double value = std::strtod(u, &end);
    if (end != u && *end == '\0' && value > 0 && value <= kMaxPivotThreshold) {
      base_pivot_threshold_ = value;
    } else {
      std::fprintf(stderr,
                   "factord pardiso: FACTORD_PARDISO_PIVOT_THRESHOLD='%s' "
                   "ignored: not in (0, 0.5]\n",
                   u);
    }
  }
}

PardisoSolver::~PardisoSolver() {
  if (connection_ == nullptr) return;
  // Best effort; not when the daemon was just found unreachable (each
  // release would wait out the retries; its idle TTL frees them anyway).
  if (!daemon_unreachable_) {
    for (const auto& [mnum, f] : factors_) {
      factord_release(connection_, f.id.c_str(), nullptr);
    }
  }
  factord_disconnect(connection_);
}

std::string PardisoSolver::MatrixId(int mnum) const {
  auto it = factors_.find(mnum);
  return it == factors_.end() ? "" : it->second.id;
}

int PardisoSolver::Fail(const Call& c, int error,
                        const std::string& text) const {
  std::fprintf(stderr, "factord pardiso: phase %d: error %d: %s\n", c.phase,
               error, text.c_str());
  return error;
}

int PardisoSolver::FailFromLastError(const Call& c, factord_status status,
                                     const std::string& what) {
  daemon_unreachable_ = status == FACTORD_ERR_UNAVAILABLE ||
                        status == FACTORD_ERR_DEADLINE_EXCEEDED;
  int error = kUnclassified;
  if (status == FACTORD_ERR_RESOURCE_EXHAUSTED ||
      status == FACTORD_ERR_OUT_OF_MEMORY) {
    error = kNotEnoughMemory;
  } else if (status == FACTORD_ERR_INVALID_ARGUMENT) {
    error = kInputInconsistent;
  }
  return Fail(c, error, absl::StrCat(what, ": ", LastError(status)));
}

std::string PardisoSolver::Location(const std::string& id) const {
  char where[256];
  factord_matrix_location(connection_, id.c_str(), where, sizeof where);
  return std::string(where) == "local" ? "in process"
                                       : std::string("daemon ") + where;
}

void PardisoSolver::Print(const Call& c, const std::string& text,
                          double seconds) const {
  if (c.msglvl <= 0) return;
  std::printf("factord pardiso: phase %d mnum %d: %s (%.3f ms)\n", c.phase,
              c.mnum, text.c_str(), 1e3 * seconds);
  std::fflush(stdout);
}

int PardisoSolver::Run(const Call& c) {
  switch (c.phase) {
    case 11:
      return Analyze(c);
    case 12:
      if (int e = Analyze(c); e != 0) return e;
      return Factorize(c, /*solve=*/false);
    case 13:
      if (int e = Analyze(c); e != 0) return e;
      return Factorize(c, /*solve=*/true);
    case 22:
      return Factorize(c, /*solve=*/false);
    case 23:
      return Factorize(c, /*solve=*/true);
    case 33:
      return Solve(c);
    case 0:
      return Release(c.mnum);
    default:
      return Fail(c, kInputInconsistent,
                  absl::StrCat("phase ", c.phase,
                               " is not one of 11, 12, 13, 22, 23, 33, 0, -1"));
  }
}

int PardisoSolver::Connect(const Call& c) {
  if (connection_ != nullptr) return kNoError;
  // Address $FACTORD_SERVER, token and TLS from the environment, connect
  // timeout $FACTORD_CONNECT_TIMEOUT (10 s), UNAVAILABLE retried as long,
  // and transparent re-upload so that a restarted daemon is survived.
  factord_connect_options options;
  factord_connect_options_init(&options);
  options.reupload = 1;
  if (factord_status s = factord_connect(nullptr, &options, &connection_);
      s != FACTORD_OK) {
    return FailFromLastError(c, s, "cannot reach factord");
  }
  return kNoError;
}

PardisoSolver::Factor& PardisoSolver::FactorOf(int mnum) {
  Factor& f = factors_[mnum];
  if (f.id.empty()) f.id = absl::StrCat(id_prefix_, "-m", mnum);
  return f;
}

bool PardisoSolver::SamePattern(const int* ia, const int* ja) const {
  if (!analyzed_ || ia == nullptr || ja == nullptr) return false;
  if (!std::equal(ia_.begin(), ia_.end(), ia)) return false;
  return std::equal(ja_.begin(), ja_.end(), ja);
}

int PardisoSolver::Upload(const Call& c, Factor& f) {
  factord_matrix m;
  factord_matrix_init(&m);
  m.n = n_;
  m.format = FACTORD_CSR;
  m.structure = mtype_ == -2  ? FACTORD_SYMMETRIC
                : mtype_ == 2 ? FACTORD_SPD
                              : FACTORD_GENERAL;
  m.triangle = SymmetricType(mtype_) ? FACTORD_UPPER : FACTORD_FULL;
  m.base = 1;
  m.row_ptr32 = ia_.data();
  m.col_idx = ja_.data();
  m.values = c.a;  // NULL: zeros
  f.values_known = false;
  f.factorized = false;
  if (factord_status s =
          factord_upload(connection_, &m, f.id.c_str(), FACTORD_UPLOAD_REPLACE,
                         nullptr, 0, nullptr);
      s != FACTORD_OK) {
    return FailFromLastError(c, s,
                             absl::StrCat("sending the matrix '", f.id, "'"));
  }
  ++uploads_;
  daemon_unreachable_ = false;
  f.pattern_version = pattern_version_;
  if (c.a != nullptr) {
    f.sent_values.assign(c.a, c.a + nnz());
  } else {
    f.sent_values.assign(nnz(), 0.0);
  }
  f.values_known = true;
  f.perturbed = false;
  return kNoError;
}

int PardisoSolver::Analyze(const Call& c) {
  const auto start = std::chrono::steady_clock::now();
  if (std::string bad = CheckPattern(c.mtype, c.n, c.ia, c.ja); !bad.empty()) {
    return Fail(c, kInputInconsistent, bad);
  }
  if (int e = Connect(c); e != kNoError) return e;
  const bool same =
      analyzed_ && c.n == n_ && c.mtype == mtype_ && SamePattern(c.ia, c.ja);
  if (!same) {
    analyzed_ = true;
    mtype_ = c.mtype;
    n_ = c.n;
    ia_.assign(c.ia, c.ia + c.n + 1);
    ja_.assign(c.ja, c.ja + (c.ia[c.n] - 1));
    ++pattern_version_;
  }
  Factor& f = FactorOf(c.mnum);
  std::string what;
  if (f.pattern_version != pattern_version_) {
    if (int e = Upload(c, f); e != kNoError) return e;
    what = absl::StrCat("n ", n_, ", nnz ", nnz(), ", mtype ", mtype_,
                        ": pattern and values sent as '", f.id, "'");
  } else {
    what = "pattern unchanged, nothing sent";
    if (f.perturbed && SymmetricType(mtype_)) {
      // A new analysis asked for after perturbed pivots: be more careful.
      const double u = f.pivot_threshold > 0       ? f.pivot_threshold
                       : base_pivot_threshold_ > 0 ? base_pivot_threshold_
                                                   : kDefaultPivotThreshold;
      f.pivot_threshold = std::min(kMaxPivotThreshold, 10 * u);
      f.perturbed = false;
      absl::StrAppend(&what, "; pivot threshold raised to ", f.pivot_threshold);
    }
  }
  const int64_t sent = (int64_t{n_} + 1) * 4 + nnz() * 12;
  Iparm(c.iparm, 15) = Kilobytes(sent);
  Iparm(c.iparm, 16) = Kilobytes(sent);
  Print(c, what, Seconds(start));
  return kNoError;
}

int PardisoSolver::Factorize(const Call& c, bool solve) {
  const auto start = std::chrono::steady_clock::now();
  if (!analyzed_) {
    return Fail(
        c, kInputInconsistent,
        absl::StrCat("phase ", c.phase, " before phase 11 (no analysis)"));
  }
  if (c.n != n_ || c.mtype != mtype_) {
    return Fail(
        c, kInputInconsistent,
        absl::StrCat("n = ", c.n, ", mtype = ", c.mtype,
                     " differ from phase 11's n = ", n_, ", mtype = ", mtype_));
  }
  if (c.a == nullptr) return Fail(c, kInputInconsistent, "a is NULL");
  if (c.ia != nullptr && c.ja != nullptr && !SamePattern(c.ia, c.ja)) {
    return Fail(c, kInputInconsistent,
                "ia/ja differ from the pattern of phase 11: call phase 11 "
                "with the new pattern first");
  }
  const bool in_b = Iparm(c.iparm, 6) != 0;
  if (solve) {
    if (c.nrhs < 1) {
      return Fail(c, kInputInconsistent,
                  absl::StrCat("nrhs = ", c.nrhs, ": at least 1"));
    }
    if (c.b == nullptr || (!in_b && c.x == nullptr)) {
      return Fail(c, kInputInconsistent, "b or x is NULL");
    }
  }
  if (int e = Connect(c); e != kNoError) return e;
  Factor& f = FactorOf(c.mnum);
  bool sent = false;
  if (f.pattern_version != pattern_version_) {  // a new mnum, or a new pattern
    if (int e = Upload(c, f); e != kNoError) return e;
    sent = true;
  }
  const double* values = nullptr;  // NULL: the daemon holds them already
  if (!f.values_known ||
      !std::equal(f.sent_values.begin(), f.sent_values.end(), c.a)) {
    values = c.a;
    f.values_known = false;  // until the step succeeds
    sent = true;
  }
  factord_factorize_options options;
  factord_factorize_options_init(&options);
  const bool ldlt = SymmetricType(mtype_);
  options.method = ldlt ? "ldlt" : "lu";
  options.ordering = OrderingOf(Iparm(c.iparm, 2));
  options.deterministic = Iparm(c.iparm, 34) != 0;
  const int nrhs = solve ? c.nrhs : 0;
  double* out = in_b ? c.b : c.x;
  // The right-hand sides again for a repeated step (the solutions may have
  // overwritten b).
  std::vector<double> rhs;
  if (solve) rhs.assign(c.b, c.b + int64_t{n_} * c.nrhs);
  f.factorized = false;
  factord_factor_report r;
  std::string raised;
  while (true) {
    if (ldlt) options.pivot_threshold = PivotThreshold(f);
    if (factord_status s = factord_step(
            connection_, f.id.c_str(), values, &options, nullptr, nullptr, nrhs,
            solve ? rhs.data() : nullptr, solve ? out : nullptr);
        s != FACTORD_OK) {
      return FailFromLastError(c, s, absl::StrCat("factorizing '", f.id, "'"));
    }
    daemon_unreachable_ = false;
    if (values != nullptr) {
      f.sent_values.assign(c.a, c.a + nnz());
      f.values_known = true;
      values = nullptr;  // the daemon holds them now
    }
    factord_last_factor_report(connection_, f.id.c_str(), &r);
    // An inertia not trusted although nothing was perturbed: pivot growth.
    if (!ldlt || r.status != FACTORD_FACTOR_OK || r.inertia_reliable) break;
    const double u = options.pivot_threshold > 0 ? options.pivot_threshold
                                                 : kDefaultPivotThreshold;
    if (u >= kMaxPivotThreshold) {
      Print(c, absl::StrCat(r.method, ", inertia unreliable", raised),
            Seconds(start));
      return Fail(c, kZeroPivot,
                  absl::StrCat("the factorization's inertia is unreliable "
                               "(pivot growth) even at pivot threshold ",
                               u, ": perturb or regularize the matrix"));
    }
    f.pivot_threshold = std::min(kMaxPivotThreshold, 10 * u);
    absl::StrAppend(&raised, raised.empty() ? "; " : ", ",
                    "inertia unreliable: pivot threshold raised to ",
                    f.pivot_threshold);
  }
  f.perturbed = r.perturbed_pivots > 0;
  Iparm(c.iparm, 14) =
      static_cast<int>(std::min<int64_t>(r.perturbed_pivots, INT_MAX));
  Iparm(c.iparm, 17) = Kilobytes(r.factor_bytes);
  Iparm(c.iparm, 18) =
      static_cast<int>(std::min<int64_t>(r.nnz_factor, INT_MAX));
  Iparm(c.iparm, 20) = 0;
  Iparm(c.iparm, 22) = static_cast<int>(r.positive);
  Iparm(c.iparm, 23) = static_cast<int>(r.negative + r.zero);
  if (solve) Iparm(c.iparm, 7) = RefinementSteps(f.id, c.nrhs, nullptr);
  std::string what = absl::StrCat(
      r.method, ", inertia (+", r.positive, " -", r.negative, " 0:", r.zero,
      "), perturbed ", r.perturbed_pivots, ", 2x2 ", r.two_by_two_pivots,
      ", delayed ", r.delayed_pivots, ", nnz(L) ", r.nnz_factor,
      r.analysis_reused ? ", analysis reused" : ", analysis made",
      sent ? ", values sent" : ", values unchanged",
      solve ? absl::StrCat(", ", c.nrhs, " rhs solved",
                           UnconvergedNote(f.id, c.nrhs))
            : "",
      raised,
      absl::StrFormat("; %s: factorize %.3f ms, queue %.3f ms", Location(f.id),
                      1e3 * r.factorize_s, 1e3 * r.queue_s));
  // Numerical failures PARDISO reports as a zero pivot: a singular LU, or
  // a matrix declared positive definite that is not.
  if (r.status == FACTORD_FACTOR_SINGULAR ||
      (mtype_ == 2 && (r.negative > 0 || r.zero > 0))) {
    Print(c, what, Seconds(start));
    return Fail(c, kZeroPivot,
                mtype_ == 2 ? "the matrix is not positive definite"
                            : "the matrix is singular (zero pivot)");
  }
  f.factorized = true;
  Print(c, what, Seconds(start));
  return kNoError;
}

int PardisoSolver::Solve(const Call& c) {
  const auto start = std::chrono::steady_clock::now();
  auto it = factors_.find(c.mnum);
  if (!analyzed_ || it == factors_.end() || !it->second.factorized) {
    return Fail(c, kInputInconsistent,
                absl::StrCat("phase 33 before a successful phase 22 of matrix ",
                             c.mnum));
  }
  if (c.n != n_) {
    return Fail(c, kInputInconsistent,
                absl::StrCat("n = ", c.n, " differs from phase 11's n = ", n_));
  }
  const bool in_b = Iparm(c.iparm, 6) != 0;
  if (c.nrhs < 1) {
    return Fail(c, kInputInconsistent,
                absl::StrCat("nrhs = ", c.nrhs, ": at least 1"));
  }
  if (c.b == nullptr || (!in_b && c.x == nullptr)) {
    return Fail(c, kInputInconsistent, "b or x is NULL");
  }
  Factor& f = it->second;
  if (factord_status s = factord_solve(connection_, f.id.c_str(), nullptr,
                                       c.nrhs, c.b, in_b ? c.b : c.x);
      s != FACTORD_OK) {
    return FailFromLastError(c, s, absl::StrCat("solving with '", f.id, "'"));
  }
  daemon_unreachable_ = false;
  double worst = 0;
  const int steps = RefinementSteps(f.id, c.nrhs, &worst);
  Iparm(c.iparm, 7) = steps;
  Print(c,
        absl::StrFormat("%d rhs, refinement steps %d, backward error %.2e%s%s",
                        c.nrhs, steps, worst, in_b ? ", solution in b" : "",
                        UnconvergedNote(f.id, c.nrhs)),
        Seconds(start));
  return kNoError;
}

int PardisoSolver::RefinementSteps(const std::string& id, int nrhs,
                                   double* worst_backward_error) const {
  std::vector<factord_solve_report> reports(nrhs);
  int64_t count = 0;
  if (factord_last_solve_reports(connection_, id.c_str(), reports.data(), nrhs,
                                 &count) != FACTORD_OK) {
    return 0;
  }
  int steps = 0;
  double worst = 0;
  for (int64_t k = 0; k < std::min<int64_t>(count, nrhs); ++k) {
    steps = std::max(steps, reports[k].iterations);
    worst = std::max(worst, reports[k].backward_error);
  }
  if (worst_backward_error != nullptr) *worst_backward_error = worst;
  return steps;
}

std::string PardisoSolver::UnconvergedNote(const std::string& id,
                                           int nrhs) const {
  std::vector<factord_solve_report> reports(nrhs);
  int64_t count = 0;
  if (factord_last_solve_reports(connection_, id.c_str(), reports.data(), nrhs,
                                 &count) != FACTORD_OK) {
    return "";
  }
  int unconverged = 0;
  double worst = 0;
  const char* status = "";
  for (int64_t k = 0; k < std::min<int64_t>(count, nrhs); ++k) {
    if (reports[k].status == FACTORD_SOLVE_CONVERGED) continue;
    ++unconverged;
    if (reports[k].relative_residual >= worst) {
      worst = reports[k].relative_residual;
      status = reports[k].status == FACTORD_SOLVE_SINGULAR ? "singular"
                                                           : "not converged";
    }
  }
  if (unconverged == 0) return "";
  return absl::StrFormat(
      ", %d not converged (worst: %s, relative residual %.2e)", unconverged,
      status, worst);
}

double PardisoSolver::PivotThreshold(const Factor& f) const {
  return f.pivot_threshold > 0 ? f.pivot_threshold : base_pivot_threshold_;
}

int PardisoSolver::Release(int mnum) {
  auto it = factors_.find(mnum);
  if (it == factors_.end()) return kNoError;
  if (connection_ != nullptr) {
    factord_release(connection_, it->second.id.c_str(), nullptr);
  }
  factors_.erase(it);
  return kNoError;
}

}  // namespace factord::pardiso
