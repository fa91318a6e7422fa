// Mehrotra predictor-corrector IPM; see ipm.h for the method and its limits.
//
// Variables of the scaled StandardForm (N primal, m rows): x, with w = u - x
// kept as its own variable for boxed x (residual r_u = u - x - w), duals y
// (rows), z >= 0 for x >= 0 and s >= 0 for w >= 0. Residuals:
//   r_p = b - A x,  r_u = u - x - w,  r_d = c + Q x - A^T y - z + s.
// Newton step with complementarity targets r_xz = sigma mu - x z (- corr.),
// r_ws = sigma mu - w s (- corr.), D = z/x + s/w (Wright ch. 11):
//   [-(Q + D)  A^T] [dx]   [r_d - r_xz/x + (r_ws - s r_u)/w]
//   [ A         0 ] [dy] = [r_p                           ]
//   dz = (r_xz - z dx)/x,  dw = r_u - dx,  ds = (r_ws - s dw)/w.
#include "client/ipm/ipm.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "client/ipm/kkt_matrix.h"

namespace factord::ipm {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Growth of the iterates, relative to the starting point, taken as
// divergence by the infeasibility heuristics.
constexpr double kDivergence = 1e12;

double NormInf(const std::vector<double>& v) {
  double r = 0;
  for (double x : v) r = std::max(r, std::abs(x));
  return r;
}

// The iterate and the problem's operators, in the scaled form.
class Iterate {
 public:
  explicit Iterate(const StandardForm& f)
      : f_(f), n_(f.num_vars), m_(f.num_rows) {
    lower_.resize(n_);
    upper_.resize(n_);
    for (int j = 0; j < n_; ++j) {
      lower_[j] = f.kind[j] != VarKind::kFree;
      upper_[j] = f.kind[j] == VarKind::kBoxed;
      num_pairs_ += lower_[j] + upper_[j];
    }
    x.assign(n_, 0), w.assign(n_, 0), z.assign(n_, 0), s.assign(n_, 0);
    y.assign(m_, 0);
  }

  std::vector<double> A(const std::vector<double>& v) const {
    std::vector<double> r(m_, 0);
    for (int j = 0; j < n_; ++j) {
      for (int64_t k = f_.a.col_start[j]; k < f_.a.col_start[j + 1]; ++k) {
        r[f_.a.row_index[k]] += f_.a.value[k] * v[j];
      }
    }
    return r;
  }
  std::vector<double> At(const std::vector<double>& v) const {
    std::vector<double> r(n_, 0);
    for (int j = 0; j < n_; ++j) {
      for (int64_t k = f_.a.col_start[j]; k < f_.a.col_start[j + 1]; ++k) {
        r[j] += f_.a.value[k] * v[f_.a.row_index[k]];
      }
    }
    return r;
  }
  std::vector<double> Q(const std::vector<double>& v) const {
    std::vector<double> r(n_, 0);
    for (int j = 0; j < n_; ++j) {
      for (int64_t k = f_.q.col_start[j]; k < f_.q.col_start[j + 1]; ++k) {
        const int i = f_.q.row_index[k];
        r[i] += f_.q.value[k] * v[j];
        if (i != j) r[j] += f_.q.value[k] * v[i];
      }
    }
    return r;
  }

  void Residuals() {
    rp = A(x);
    for (int i = 0; i < m_; ++i) rp[i] = f_.b[i] - rp[i];
    ru.assign(n_, 0);
    for (int j = 0; j < n_; ++j) {
      if (upper_[j]) ru[j] = f_.u[j] - x[j] - w[j];
    }
    qx = Q(x);
    std::vector<double> aty = At(y);
    rd.resize(n_);
    for (int j = 0; j < n_; ++j) {
      rd[j] = f_.c[j] + qx[j] - aty[j] - (lower_[j] ? z[j] : 0) +
              (upper_[j] ? s[j] : 0);
    }
    double xqx = 0, cx = 0, by = 0, us = 0, comp = 0;
    for (int j = 0; j < n_; ++j) {
      xqx += x[j] * qx[j];
      cx += f_.c[j] * x[j];
      if (lower_[j]) comp += x[j] * z[j];
      if (upper_[j]) comp += w[j] * s[j], us += f_.u[j] * s[j];
    }
    for (int i = 0; i < m_; ++i) by += f_.b[i] * y[i];
    primal_objective = 0.5 * xqx + cx + f_.constant;
    dual_objective = by - 0.5 * xqx - us + f_.constant;
    mu = num_pairs_ > 0 ? comp / num_pairs_ : 0;
  }

  // Relative infeasibilities and gap on the unscaled problem.
  void Measures(double* primal, double* dual, double* gap) const {
    double rp_norm = 0, b_norm = 0, rd_norm = 0, c_norm = 0;
    for (int i = 0; i < m_; ++i) {
      rp_norm = std::max(rp_norm, std::abs(rp[i] / f_.row_scale[i]));
      b_norm = std::max(b_norm, std::abs(f_.b[i] / f_.row_scale[i]));
    }
    for (int j = 0; j < n_; ++j) {
      if (upper_[j]) {
        rp_norm = std::max(rp_norm, std::abs(ru[j] * f_.col_scale[j]));
        b_norm = std::max(b_norm, std::abs(f_.u[j] * f_.col_scale[j]));
      }
      rd_norm = std::max(rd_norm, std::abs(rd[j] / f_.col_scale[j]));
      c_norm = std::max(c_norm, std::abs(f_.c[j] / f_.col_scale[j]));
    }
    *primal = rp_norm / (1 + b_norm);
    *dual = rd_norm / (1 + c_norm);
    *gap = std::abs(primal_objective - dual_objective) /
           (1 + std::abs(primal_objective));
  }

  std::vector<double> Diagonal() const {
    std::vector<double> d(n_, 0);
    for (int j = 0; j < n_; ++j) {
      if (lower_[j]) d[j] += z[j] / x[j];
      if (upper_[j]) d[j] += s[j] / w[j];
    }
    return d;
  }

  const StandardForm& f_;
  const int n_, m_;
  std::vector<bool> lower_, upper_;
  int num_pairs_ = 0;
  std::vector<double> x, w, z, s, y;
  std::vector<double> rp, ru, rd, qx;
  double primal_objective = 0, dual_objective = 0, mu = 0;
};

struct Direction {
  std::vector<double> dx, dw, dz, ds, dy;
};

bool AllFinite(const std::vector<double>& v) {
  for (double x : v) {
    if (!std::isfinite(x)) return false;
  }
  return true;
}

class Ipm {
 public:
  Ipm(const StandardForm& f, KktSolver& kkt, const IpmOptions& options)
      : f_(f), kkt_(kkt), options_(options), it_(f), matrix_(f) {}

  absl::StatusOr<IpmResult> Run(
      const std::function<void(const IterationLog&)>& on_iteration);

 private:
  // Sets the values of K for the diagonal `d`, factorizes and solves
  // `rhs` (replaced by the solutions) in one KktSolver::FactorizeAndSolve,
  // raising the shifts and repeating it until the inertia is right.
  absl::Status FactorizeAndSolve(const std::vector<double>& d,
                                 std::vector<std::vector<double>>& rhs,
                                 IterationLog* log, bool* failed);
  // The Newton system's right-hand side for the complementarity targets
  // r_xz, r_ws at the current iterate.
  std::vector<double> NewtonRhs(const std::vector<double>& r_xz,
                                const std::vector<double>& r_ws) const;
  // The full direction from the KKT solution `solution` (dx, dy).
  Direction Expand(const std::vector<double>& solution,
                   const std::vector<double>& r_xz,
                   const std::vector<double>& r_ws) const;
  absl::Status StartingPoint(IterationLog* log, bool* failed);
  void MaxSteps(const Direction& d, double* alpha_p, double* alpha_d) const;

  const StandardForm& f_;
  KktSolver& kkt_;
  IpmOptions options_;
  Iterate it_;
  KktMatrix matrix_;
  double last_shift_ = 0;
};

absl::Status Ipm::FactorizeAndSolve(const std::vector<double>& d,
                                    std::vector<std::vector<double>>& rhs,
                                    IterationLog* log, bool* failed) {
  *failed = false;
  const bool in_shifts = options_.regularization_in_shifts;
  const int64_t n = f_.num_vars, m = f_.num_rows;
  // Ipopt's rule: start from a third of the last shift that worked.
  double shift = last_shift_ / 3 < 1e-10 ? 0 : last_shift_ / 3;
  bool values_sent = false;
  std::vector<std::vector<double>> x;
  while (true) {
    // With shifts the values are sent once and the regularization travels
    // with the factorization; without (lu), raising it re-sends values.
    DiagonalShift factor_shift;
    if (in_shifts) {
      factor_shift = DiagonalShift{-(options_.primal_regularization + shift),
                                   options_.dual_regularization + shift, n};
    }
    const SymmetricLowerCsr* values = nullptr;
    if (!in_shifts || !values_sent) {
      matrix_.Fill(d, in_shifts ? 0.0 : options_.primal_regularization + shift,
                   in_shifts ? 0.0 : options_.dual_regularization + shift);
      values = &matrix_.matrix();
      values_sent = true;
    }
    x = rhs;  // solved with the factorization; kept only if it is accepted
    absl::StatusOr<KktStepReport> report =
        kkt_.FactorizeAndSolve(values, factor_shift, x);
    if (!report.ok()) return report.status();
    const KktFactorReport& factor = report->factor;
    log->factorizations++;
    log->factorize_s += factor.factorize_s;
    log->solve_s += report->solve.solve_s;
    log->analysis_reused = factor.analysis_reused;
    log->inertia_known = factor.inertia_known;
    log->shift = shift;
    const bool inertia_ok =
        !factor.inertia_known ||
        (factor.positive == m && factor.negative == n && factor.zero == 0);
    if (factor.ok && inertia_ok) break;
    shift = shift == 0 ? std::max(1e-8, last_shift_) : shift * 10;
    if (shift > options_.max_shift) {
      *failed = true;
      return absl::OkStatus();
    }
  }
  last_shift_ = shift;
  rhs = std::move(x);
  return absl::OkStatus();
}

std::vector<double> Ipm::NewtonRhs(const std::vector<double>& r_xz,
                                   const std::vector<double>& r_ws) const {
  const int n = f_.num_vars, m = f_.num_rows;
  const Iterate& t = it_;
  std::vector<double> rhs(n + m);
  for (int j = 0; j < n; ++j) {
    double r = t.rd[j];
    if (t.lower_[j]) r -= r_xz[j] / t.x[j];
    if (t.upper_[j]) r += (r_ws[j] - t.s[j] * t.ru[j]) / t.w[j];
    rhs[j] = r;
  }
  for (int i = 0; i < m; ++i) rhs[n + i] = t.rp[i];
  return rhs;
}

Direction Ipm::Expand(const std::vector<double>& solution,
                      const std::vector<double>& r_xz,
                      const std::vector<double>& r_ws) const {
  const int n = f_.num_vars;
  const Iterate& t = it_;
  Direction d;
  d.dx.assign(solution.begin(), solution.begin() + n);
  d.dy.assign(solution.begin() + n, solution.end());
  d.dz.assign(n, 0), d.dw.assign(n, 0), d.ds.assign(n, 0);
  for (int j = 0; j < n; ++j) {
    if (t.lower_[j]) d.dz[j] = (r_xz[j] - t.z[j] * d.dx[j]) / t.x[j];
    if (t.upper_[j]) {
      d.dw[j] = t.ru[j] - d.dx[j];
      d.ds[j] = (r_ws[j] - t.s[j] * d.dw[j]) / t.w[j];
    }
  }
  return d;
}

void Ipm::MaxSteps(const Direction& d, double* alpha_p, double* alpha_d) const {
  const Iterate& t = it_;
  double ap = kInf, ad = kInf;
  for (int j = 0; j < f_.num_vars; ++j) {
    if (t.lower_[j]) {
      if (d.dx[j] < 0) ap = std::min(ap, -t.x[j] / d.dx[j]);
      if (d.dz[j] < 0) ad = std::min(ad, -t.z[j] / d.dz[j]);
    }
    if (t.upper_[j]) {
      if (d.dw[j] < 0) ap = std::min(ap, -t.w[j] / d.dw[j]);
      if (d.ds[j] < 0) ad = std::min(ad, -t.s[j] / d.ds[j]);
    }
  }
  *alpha_p = ap;
  *alpha_d = ad;
}

// Mehrotra's starting point: x minimizing ||x|| (with Q: x^T(Q+I)x) subject
// to A x = b, y from least squares on the dual residual, then both shifted
// into the interior (Mehrotra 1992, sec. 7; Wright ch. 10).
absl::Status Ipm::StartingPoint(IterationLog* log, bool* failed) {
  const int n = f_.num_vars, m = f_.num_rows;
  std::vector<std::vector<double>> rhs(2, std::vector<double>(n + m, 0));
  for (int i = 0; i < m; ++i) rhs[0][n + i] = f_.b[i];
  for (int j = 0; j < n; ++j) rhs[1][j] = f_.c[j];
  absl::Status status =
      FactorizeAndSolve(std::vector<double>(n, 1.0), rhs, log, failed);
  if (!status.ok() || *failed) return status;
  Iterate& t = it_;
  t.x.assign(rhs[0].begin(), rhs[0].begin() + n);
  t.y.assign(rhs[1].begin() + n, rhs[1].end());
  if (!AllFinite(t.x) || !AllFinite(t.y)) {
    *failed = true;
    return absl::OkStatus();
  }
  std::vector<double> qx = t.Q(t.x), aty = t.At(t.y);
  double min_primal = kInf, min_dual = kInf;
  for (int j = 0; j < n; ++j) {
    const double dual = f_.c[j] + qx[j] - aty[j];
    if (t.lower_[j]) t.z[j] = dual, min_primal = std::min(min_primal, t.x[j]);
    if (t.upper_[j]) t.w[j] = f_.u[j] - t.x[j], t.s[j] = 0;
    if (t.lower_[j]) min_dual = std::min(min_dual, t.z[j]);
    if (t.upper_[j]) {
      min_primal = std::min(min_primal, t.w[j]);
      min_dual = std::min(min_dual, t.s[j]);
    }
  }
  if (t.num_pairs_ == 0) return absl::OkStatus();
  const double shift_p = std::max(-1.5 * min_primal, 0.0);
  const double shift_d = std::max(-1.5 * min_dual, 0.0);
  double xz = 0, sum_p = 0, sum_d = 0;
  for (int j = 0; j < n; ++j) {
    if (t.lower_[j]) t.x[j] += shift_p, t.z[j] += shift_d;
    if (t.upper_[j]) t.w[j] += shift_p, t.s[j] += shift_d;
    if (t.lower_[j]) {
      xz += t.x[j] * t.z[j], sum_p += t.x[j], sum_d += t.z[j];
    }
    if (t.upper_[j]) {
      xz += t.w[j] * t.s[j], sum_p += t.w[j], sum_d += t.s[j];
    }
  }
  double second_p = sum_d > 0 ? 0.5 * xz / sum_d : 1.0;
  double second_d = sum_p > 0 ? 0.5 * xz / sum_p : 1.0;
  // Degenerate cases (x or z all zero): move off the boundary anyway.
  if (!(xz > 0)) second_p = second_d = 1.0;
  for (int j = 0; j < n; ++j) {
    if (t.lower_[j]) {
      t.x[j] = std::max(t.x[j] + second_p, 1e-8);
      t.z[j] = std::max(t.z[j] + second_d, 1e-8);
    }
    if (t.upper_[j]) {
      t.w[j] = std::max(t.w[j] + second_p, 1e-8);
      t.s[j] = std::max(t.s[j] + second_d, 1e-8);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<IpmResult> Ipm::Run(
    const std::function<void(const IterationLog&)>& on_iteration) {
  IpmResult result;
  result.kkt_dim = matrix_.matrix().dim;
  result.kkt_nnz = matrix_.matrix().nnz();
  Iterate& t = it_;
  const int n = f_.num_vars;
  const bool is_qp = f_.q.nnz() > 0;
  auto finish = [&](IpmStatus status, std::string message) {
    result.status = status;
    result.message = std::move(message);
    result.x = f_.Recover(t.x);
    result.objective = f_.objective_sign * t.primal_objective;
    return result;
  };
  IterationLog log;
  int64_t bytes_before = kkt_.bytes_sent();
  int64_t round_trips_before = kkt_.round_trips();
  bool failed = false;
  absl::Status status = StartingPoint(&log, &failed);
  if (!status.ok()) return status;
  if (failed) {
    return finish(IpmStatus::kNumericalFailure,
                  "starting point: factorization could not be repaired");
  }
  int stalled = 0;
  double primal_size0 = 1, dual_size0 = 1;
  for (int iteration = 0;; ++iteration) {
    t.Residuals();
    log.iteration = iteration;
    t.Measures(&log.primal_infeasibility, &log.dual_infeasibility, &log.gap);
    log.mu = t.mu;
    log.objective = f_.objective_sign * t.primal_objective;
    log.bytes_sent = kkt_.bytes_sent() - bytes_before;
    bytes_before = kkt_.bytes_sent();
    log.round_trips = kkt_.round_trips() - round_trips_before;
    round_trips_before = kkt_.round_trips();
    if (on_iteration) on_iteration(log);
    result.iterations = iteration;
    if (log.primal_infeasibility <= options_.tolerance &&
        log.dual_infeasibility <= options_.tolerance &&
        log.gap <= options_.tolerance) {
      return finish(IpmStatus::kOptimal, "");
    }
    if (!AllFinite(t.x) || !AllFinite(t.y) || !std::isfinite(t.mu)) {
      return finish(IpmStatus::kNumericalFailure, "non-finite iterate");
    }
    // Best-effort detection: an infeasible problem drives the duals to
    // infinity while the primal residual stays; an unbounded one the primal
    // variables while the dual residual stays (Wright ch. 9 discusses the
    // rigorous alternative, the homogeneous self-dual embedding).
    const double primal_size = std::max(NormInf(t.x), NormInf(t.w));
    const double dual_size =
        std::max({NormInf(t.y), NormInf(t.z), NormInf(t.s)});
    if (iteration == 0) {
      primal_size0 = std::max(1.0, primal_size);
      dual_size0 = std::max(1.0, dual_size);
    }
    if (dual_size > kDivergence * dual_size0 &&
        log.primal_infeasibility > options_.tolerance) {
      return finish(IpmStatus::kInfeasibleOrUnbounded,
                    "primal infeasible? dual iterates diverge");
    }
    if (primal_size > kDivergence * primal_size0 &&
        log.dual_infeasibility > options_.tolerance) {
      return finish(IpmStatus::kInfeasibleOrUnbounded,
                    "dual infeasible (unbounded)? primal iterates diverge");
    }
    if (iteration >= options_.max_iterations) {
      return finish(IpmStatus::kMaxIterations, "");
    }
    log = IterationLog{};
    // Predictor (affine scaling): targets x z = 0. Its right-hand side needs
    // only the iterate, so it travels with the new values and is solved
    // with their factorization (one round trip for a remote solver).
    std::vector<double> r_xz(n, 0), r_ws(n, 0);
    for (int j = 0; j < n; ++j) {
      if (t.lower_[j]) r_xz[j] = -t.x[j] * t.z[j];
      if (t.upper_[j]) r_ws[j] = -t.w[j] * t.s[j];
    }
    std::vector<std::vector<double>> predictor = {NewtonRhs(r_xz, r_ws)};
    status = FactorizeAndSolve(t.Diagonal(), predictor, &log, &failed);
    if (!status.ok()) return status;
    if (failed) {
      return finish(IpmStatus::kNumericalFailure,
                    "factorization could not be repaired by shifts");
    }
    const Direction affine = Expand(predictor[0], r_xz, r_ws);
    double ap, ad;
    MaxSteps(affine, &ap, &ad);
    ap = std::min(1.0, ap), ad = std::min(1.0, ad);
    if (is_qp) ap = ad = std::min(ap, ad);
    double mu_affine = 0;
    for (int j = 0; j < n; ++j) {
      if (t.lower_[j]) {
        mu_affine +=
            (t.x[j] + ap * affine.dx[j]) * (t.z[j] + ad * affine.dz[j]);
      }
      if (t.upper_[j]) {
        mu_affine +=
            (t.w[j] + ap * affine.dw[j]) * (t.s[j] + ad * affine.ds[j]);
      }
    }
    mu_affine = t.num_pairs_ > 0 ? mu_affine / t.num_pairs_ : 0;
    const double sigma =
        t.mu > 0 ? std::pow(std::clamp(mu_affine / t.mu, 0.0, 1.0), 3) : 0;
    // Corrector: centring plus the second-order term dx_aff dz_aff. Its
    // right-hand side needs the predictor's solution: a second request on
    // the same factorization.
    for (int j = 0; j < n; ++j) {
      if (t.lower_[j]) {
        r_xz[j] = sigma * t.mu - t.x[j] * t.z[j] - affine.dx[j] * affine.dz[j];
      }
      if (t.upper_[j]) {
        r_ws[j] = sigma * t.mu - t.w[j] * t.s[j] - affine.dw[j] * affine.ds[j];
      }
    }
    std::vector<std::vector<double>> corrector = {NewtonRhs(r_xz, r_ws)};
    absl::StatusOr<KktSolveReport> solved = kkt_.Solve(corrector);
    if (!solved.ok()) return solved.status();
    log.solve_s += solved->solve_s;
    const Direction d = Expand(corrector[0], r_xz, r_ws);
    if (!AllFinite(d.dx) || !AllFinite(d.dy)) {
      return finish(IpmStatus::kNumericalFailure, "non-finite direction");
    }
    MaxSteps(d, &ap, &ad);
    ap = std::min(1.0, options_.step_fraction * ap);
    ad = std::min(1.0, options_.step_fraction * ad);
    if (is_qp) ap = ad = std::min(ap, ad);
    log.step_primal = ap;
    log.step_dual = ad;
    for (int j = 0; j < n; ++j) {
      t.x[j] += ap * d.dx[j];
      if (t.upper_[j]) t.w[j] += ap * d.dw[j], t.s[j] += ad * d.ds[j];
      if (t.lower_[j]) t.z[j] += ad * d.dz[j];
    }
    for (int i = 0; i < f_.num_rows; ++i) t.y[i] += ad * d.dy[i];
    stalled = (ap < 1e-10 && ad < 1e-10) ? stalled + 1 : 0;
    if (stalled >= 5) {
      t.Residuals();
      return finish(IpmStatus::kNumericalFailure, "step lengths stalled");
    }
  }
}

}  // namespace

const char* IpmStatusName(IpmStatus s) {
  switch (s) {
    case IpmStatus::kOptimal:
      return "optimal";
    case IpmStatus::kMaxIterations:
      return "max_iterations";
    case IpmStatus::kInfeasibleOrUnbounded:
      return "infeasible_or_unbounded";
    case IpmStatus::kNumericalFailure:
      return "numerical_failure";
  }
  return "unknown";
}

absl::StatusOr<IpmResult> SolveQp(
    const QpProblem& problem, KktSolver& kkt, const IpmOptions& options,
    const std::function<void(const IterationLog&)>& on_iteration) {
  absl::StatusOr<StandardForm> form = BuildStandardForm(problem);
  if (!form.ok()) return form.status();
  if (form->num_vars == 0) {
    // Every column fixed (or none): nothing to factorize; the rows either
    // hold at the fixed point or the problem is infeasible.
    IpmResult result;
    result.x = form->Recover({});
    result.objective = problem.Objective(result.x);
    result.objective_constant = problem.objective_constant;
    double worst = 0;
    for (int i = 0; i < form->num_rows; ++i) {
      worst = std::max(worst, std::abs(form->b[i] / form->row_scale[i]));
    }
    result.status = worst <= options.tolerance
                        ? IpmStatus::kOptimal
                        : IpmStatus::kInfeasibleOrUnbounded;
    if (result.status != IpmStatus::kOptimal) {
      result.message = "all columns fixed and a row is violated";
    }
    return result;
  }
  Ipm ipm(*form, kkt, options);
  absl::StatusOr<IpmResult> result = ipm.Run(on_iteration);
  if (result.ok()) result->objective_constant = problem.objective_constant;
  return result;
}

}  // namespace factord::ipm
