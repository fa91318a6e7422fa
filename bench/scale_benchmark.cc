// scale_benchmark: factord's ldlt on model problems of growing size (3D
// Poisson, 2D Stokes on a MAC grid, the KKT system of 2D optimal control;
// bench/models/model_problem.h) against MUMPS and, on the SPD problem,
// CHOLMOD, measured in the same run on the same machine; with OpenBLAS'
// dgemm rate and the rate of factord's dense front kernel as the ceilings
// the sparse factorizations are read against.
//
//   scale_benchmark [--threads=N] [--repeats=N] [--ordering=NAME]
//                   [--scaling=auto|none|ruiz|matching]
//                   [--families=poisson3d,stokes_mac2d,control_kkt2d]
//                   [--max_k=48] [--sizes=16,24,...]            (poisson3d)
//                   [--max_stokes_k=256] [--stokes_sizes=...]
//                   [--max_control_k=256] [--control_sizes=...]
//                   [--stokes_eps=1e-6] [--control_alpha=1e-4]
//                   [--control_delta=0]
//                   [--fronts=256,512,...] [--max_front=4096]
//                   [--dgemm_n=2000] [--no_peers] [--no_cases] [--no_fronts]
//                   [--check]
//
// Output, one JSON object a line: the machine; OpenBLAS' dgemm; one line a
// dense front (ldlt's dense kernels on a full m x m front, random
// indefinite, quasi-definite and SPD, GFlop/s = (m^3/3)/t); one line a case
// (medians of --repeats runs of each solver; factord's GFlop/s from
// FactorReport.factor_flops; its largest front's time the median over the
// runs, and the first run's apart: the runs after a process' first reuse
// the numeric workspace, as every refactorization does); a summary.
// scripts/plot_scale.py draws them (docs/measurements/scale_benchmark.md).
// --check verifies the generators on small sizes and prints nothing else.
//
// Threads: factord runs with ExecContext.threads = --threads and sets
// OpenBLAS to one thread for itself (core/kernels/cpu/blas_threads.h);
// MUMPS (sequential) and CHOLMOD get their parallelism from OpenBLAS only,
// so each peer run has OpenBLAS on --threads threads, put back afterwards.
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/base/timer.h"
#include "core/dense/kernels/dense_ldlt_app.h"
#include "core/dense/kernels/dense_ldlt_blocked.h"
#include "core/dense/kernels/dense_ldlt_unpivoted.h"
#include "core/kernels/cpu/parallel.h"
#include "core/matrix/csr.h"
#include "core/matrix/validate.h"
#include "core/solver/residual.h"
#include "core/solver/solver.h"
#include "models/model_problem.h"
#include "peers/mumps_peer.h"

namespace factord::bench {
namespace {

struct Config {
  ExecContext ctx;
  int repeats = 3;
  FactorOptions options;
  std::string scaling = "auto";
  std::vector<std::string> families = {"poisson3d", "stokes_mac2d",
                                       "control_kkt2d"};
  std::vector<int> poisson_sizes = {16, 24, 32, 40, 48, 56, 64};
  int max_k = 48;
  std::vector<int> stokes_sizes = {64, 96, 128, 192, 256, 320, 384};
  int max_stokes_k = 256;
  std::vector<int> control_sizes = {64, 96, 128, 192, 256, 320, 384};
  int max_control_k = 256;
  double stokes_eps = 1e-6;
  double control_alpha = 1e-4;
  double control_delta = 0.0;
  std::vector<int> fronts = {256, 512, 1024, 2048, 4096};
  int max_front = 4096;
  int dgemm_n = 2000;
  bool peers = true;
  bool cases = true;
  bool dense_fronts = true;
  bool check = false;
};

std::string Num(double v) {
  if (!std::isfinite(v)) return "null";
  return absl::StrFormat("%.6g", v);
}

std::string Str(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string InertiaJson(const Inertia& i) {
  return absl::StrCat("[", i.positive, ",", i.negative, ",", i.zero, "]");
}

double Median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<int> ParseSizes(absl::string_view list) {
  std::vector<int> sizes;
  for (absl::string_view s : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    int v = 0;
    if (absl::SimpleAtoi(s, &v) && v > 0) sizes.push_back(v);
  }
  return sizes;
}

// ---------------------------------------------------------------- machine

// The first three fields of /proc/loadavg: on a shared machine the timings
// are read against the load they were taken under.
std::string LoadAverage() {
  std::string out;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    double l1 = 0, l5 = 0, l15 = 0;
    if (std::fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) == 3) {
      out = absl::StrCat("[", Num(l1), ",", Num(l5), ",", Num(l15), "]");
    }
    std::fclose(f);
  }
  return out.empty() ? "null" : out;
}

// lscpu's model name, CPUs, cores per socket and sockets, as a JSON object.
std::string MachineJson() {
  std::map<std::string, std::string> fields;
  if (FILE* p = popen("lscpu 2>/dev/null", "r")) {
    char line[512];
    while (fgets(line, sizeof line, p) != nullptr) {
      std::pair<std::string, std::string> kv =
          absl::StrSplit(line, absl::MaxSplits(':', 1));
      fields[std::string(absl::StripAsciiWhitespace(kv.first))] =
          std::string(absl::StripAsciiWhitespace(kv.second));
    }
    pclose(p);
  }
  return absl::StrCat(
      "{\"model_name\":", Str(fields["Model name"]),
      ",\"cpus\":", Str(fields["CPU(s)"]),
      ",\"cores_per_socket\":", Str(fields["Core(s) per socket"]),
      ",\"sockets\":", Str(fields["Socket(s)"]),
      ",\"openblas\":", Str(openblas_get_config()),
      ",\"openblas_core\":", Str(openblas_get_corename()),
      ",\"openblas_default_threads\":", openblas_get_num_threads(),
      ",\"load_average\":", LoadAverage(), "}");
}

// Best of a few square dgemms (C = A B, 2 n^3 flops) with OpenBLAS on
// `threads` threads; OpenBLAS' thread count is put back afterwards. `when`
// names the measurement (start or end of the run).
std::string DgemmJson(int n, int threads, const char* when) {
  const int previous = openblas_get_num_threads();
  openblas_set_num_threads(threads);
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(size_t{1} * n * n), b(a.size()), c(a.size());
  for (double& x : a) x = u(gen);
  for (double& x : b) x = u(gen);
  double best = HUGE_VAL;
  for (int rep = 0; rep < 4; ++rep) {  // the first one warms up
    Timer timer;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0,
                a.data(), n, b.data(), n, 0.0, c.data(), n);
    if (rep > 0) best = std::min(best, timer.Seconds());
  }
  openblas_set_num_threads(previous);
  const double flops = 2.0 * n * n * n;
  return absl::StrCat(
      "{\"dgemm\":{\"when\":\"", when, "\",\"n\":", n, ",\"threads\":", threads,
      ",\"load_average\":", LoadAverage(), ",\"best_s\":", Num(best),
      ",\"gflops\":", Num(flops / best / 1e9), "}}");
}

// ----------------------------------------------------------- dense fronts

enum class FrontKind { kIndefinite, kQuasiDefinite, kSpd };

const char* FrontKindName(FrontKind kind) {
  return kind == FrontKind::kSpd             ? "spd"
         : kind == FrontKind::kQuasiDefinite ? "quasidefinite"
                                             : "indefinite";
}

// A full m x m front (p = m, forced like a root) through one of ldlt's dense
// kernels, called as ldlt calls them: inside the TBB arena of `threads`
// threads with OpenBLAS on one thread (core/kernels/cpu/blas_threads.h).
//   pivoting:   internal::DenseBlockedPartialLdlt (1x1 and 2x2 pivots,
//               panels of 32), ldlt's kernel for fronts below 64 fully
//               summed columns and the a-posteriori kernel's last resort;
//   unpivoted:  internal::DenseUnpivotedLdlt (blocked, 1x1 pivots in order,
//               threshold test a posteriori), ldlt's first attempt on fronts
//               of 64 or more fully summed columns: its Cholesky path;
//   app:        ldlt's whole path on such a front: the unpivoted kernel,
//               then internal::DenseAppPartialLdlt (blocked, 1x1 and 2x2
//               pivots within 64-column blocks, threshold test a
//               posteriori) from the block where it stopped.
// The matrix: random symmetric indefinite (entries uniform in [-1, 1]: the
// unpivoted kernel fails its test), quasi-definite (the same plus m on the
// first 2m/3 diagonal entries and -m on the others, the kind of front a
// regularized saddle point gives: every pivot in order passes) or SPD (the
// first plus m on the diagonal). Median of `repeats` timings after one
// warm-up; the copy of the input is not timed. GFlop/s = (m^3/3) / t.
enum class FrontKernel { kPivoting, kUnpivoted, kApp };

const char* FrontKernelName(FrontKernel kernel) {
  return kernel == FrontKernel::kPivoting    ? "pivoting"
         : kernel == FrontKernel::kUnpivoted ? "unpivoted"
                                             : "app";
}

std::string FrontJson(int m, FrontKind kind, FrontKernel kernel, int repeats,
                      int threads) {
  const bool unpivoted = kernel == FrontKernel::kUnpivoted;
  const int previous = openblas_get_num_threads();
  openblas_set_num_threads(1);
  std::mt19937 gen(1000 + m);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> original(size_t{1} * m * m);
  for (int j = 0; j < m; ++j) {
    for (int i = j; i < m; ++i) {
      double v = u(gen);
      if (i == j && kind == FrontKind::kSpd) v += m;
      if (i == j && kind == FrontKind::kQuasiDefinite) {
        v += j < m - m / 3 ? m : -m;
      }
      original[size_t{1} * j * m + i] = v;
      original[size_t{1} * i * m + j] = v;  // both triangles
    }
  }
  std::vector<double> f(original.size()), d_diag(m), d_off(m), scratch;
  std::vector<int> order(m), size(m), work(m), perm(m);
  kernels::DenseLdltParams params;
  params.force = true;
  std::vector<double> times;
  kernels::DenseLdltCounts counts;
  bool passed = true;
  for (int rep = 0; rep <= repeats; ++rep) {  // rep 0 warms up
    f = original;
    Timer timer;
    kernels::cpu::ArenaFor(threads).execute([&] {
      if (unpivoted) {
        passed = internal::DenseUnpivotedLdlt(f.data(), m, m, params,
                                              d_diag.data(), &scratch) == m;
      } else if (kernel == FrontKernel::kApp) {
        const int taken = internal::DenseUnpivotedLdlt(f.data(), m, m, params,
                                                       d_diag.data(), &scratch);
        counts.eliminated = m;
        counts.two_by_two = counts.perturbed = 0;
        if (taken < m) {
          counts = internal::DenseAppPartialLdlt(
              f.data(), m, m, params, perm.data(), order.data(), size.data(),
              d_diag.data(), d_off.data(), internal::kAppBlock, taken);
        }
      } else {
        counts = internal::DenseBlockedPartialLdlt(
            f.data(), m, m, params, order.data(), size.data(), d_diag.data(),
            d_off.data(), /*panel_width=*/32, work.data());
      }
    });
    if (rep > 0) times.push_back(timer.Seconds());
  }
  openblas_set_num_threads(previous);
  const double t = Median(times);
  const double flops = double{1} * m * m * m / 3;
  std::string line = absl::StrCat(
      "{\"front\":{\"m\":", m, ",\"kind\":", Str(FrontKindName(kind)),
      ",\"kernel\":", Str(FrontKernelName(kernel)), ",\"threads\":", threads,
      ",\"blas_threads\":1", ",\"repeats\":", repeats, ",\"seconds\":", Num(t));
  if (unpivoted) {
    absl::StrAppend(&line, ",\"passed\":", passed ? "true" : "false",
                    ",\"gflops\":", Num(passed ? flops / t / 1e9 : NAN));
  } else {
    absl::StrAppend(&line, ",\"gflops\":", Num(flops / t / 1e9),
                    ",\"eliminated\":", counts.eliminated,
                    ",\"two_by_two\":", counts.two_by_two,
                    ",\"perturbed\":", counts.perturbed);
  }
  return line + "}}";
}

// ------------------------------------------------------------------ cases

struct FactordRun {
  bool ok = false;
  std::string error;
  FactorReport factor;
  SolveReport solve;
  double analyze_s = 0;
  ResidualNorms norms;
};

FactordRun RunFactord(const ModelProblem& p, const Config& config) {
  FactordRun run;
  auto analysis = Analyze(*p.a, config.options, config.ctx);
  if (!analysis.ok()) {
    run.error = std::string(analysis.status().message());
    return run;
  }
  run.analyze_s = (*analysis)->analyze_s;
  auto factor = Factorize(p.a, *analysis, config.options, config.ctx);
  if (!factor.ok()) {
    run.error = std::string(factor.status().message());
    return run;
  }
  run.factor = (*factor)->report();
  std::vector<double> x(p.a->rows, 0.0);
  SolveOptions solve_options;
  solve_options.krylov = Krylov::kNone;
  auto status = (*factor)->Solve(p.b, x, solve_options, config.ctx, &run.solve);
  if (!status.ok()) {
    run.error = std::string(status.message());
    return run;
  }
  run.norms = ComputeResidualNorms(*p.a, p.b, x);
  run.ok = true;
  return run;
}

bool SameInertia(const Inertia& a, const Inertia& b) {
  return a.positive == b.positive && a.negative == b.negative &&
         a.zero == b.zero;
}

// factord / peer ratios by "family/peer/what", for the summary's medians.
struct Ratios {
  std::map<std::string, std::vector<double>> by_key;
};

// factord's timings, one entry a repeat: the JSON has their medians, and
// the counts and residuals of the last run (they do not change between
// runs).
struct Timings {
  std::vector<double> analyze, preprocess, factorize, solve, substitution,
      refinement, largest_front;
};

// A peer's JSON object: medians of its runs' timings, the last run's counts
// and residuals; its analyze + factorize and solve medians go to af_s and
// solve_s for the ratios.
std::string PeerJson(const std::vector<PeerResult>& runs, const ModelProblem& p,
                     bool cholmod, int blas_threads, double* af_s,
                     double* solve_s) {
  const PeerResult& last = runs.back();
  std::string out = absl::StrCat("{\"ok\":", last.ok ? "true" : "false",
                                 ",\"blas_threads\":", blas_threads);
  if (!last.ok) return absl::StrCat(out, ",\"error\":", Str(last.error), "}");
  std::vector<double> an, fa, so;
  for (const PeerResult& r : runs) {
    an.push_back(r.analyze_s);
    fa.push_back(r.factorize_total_s > 0 ? r.factorize_total_s : r.factorize_s);
    so.push_back(r.solve_s);
  }
  const ResidualNorms norms = ComputeResidualNorms(*p.a, p.b, last.x);
  *af_s = Median(an) + Median(fa);
  *solve_s = Median(so);
  absl::StrAppend(
      &out, ",\"analyze_s\":", Num(Median(an)),
      ",\"factorize_s\":", Num(Median(fa)),
      ",\"analyze_factorize_s\":", Num(*af_s), ",\"solve_s\":", Num(*solve_s),
      ",\"nnz_factor\":", last.nnz_factor,
      ",\"factor_flops\":", Num(last.factor_flops), ",\"gflops\":",
      Num(last.factor_flops > 0 ? last.factor_flops / Median(fa) / 1e9 : NAN),
      ",\"largest_front\":", last.largest_front,
      ",\"relative_residual\":", Num(norms.relative_residual),
      ",\"backward_error\":", Num(norms.backward_error));
  if (!cholmod) {
    const bool match = last.negative_pivots == p.expected.negative &&
                       last.null_pivots == p.expected.zero;
    absl::StrAppend(&out, ",\"negative_pivots\":", last.negative_pivots,
                    ",\"null_pivots\":", last.null_pivots,
                    ",\"inertia_matches\":", match ? "true" : "false",
                    ",\"ordering_used\":", last.ordering_used,
                    ",\"retries\":", last.retries);
  }
  return out + "}";
}

// One case: factord, MUMPS and (SPD) CHOLMOD, `repeats` runs each.
std::string CaseJson(const ModelProblem& p, double generate_s,
                     const Config& config, Ratios* ratios, bool* all_ok) {
  const CsrMatrix& a = *p.a;
  std::string line = absl::StrCat(
      "{\"family\":", Str(p.family), ",\"k\":", p.k, ",\"n\":", a.rows,
      ",\"nnz\":", a.nnz(), ",\"structure\":", Str(StructureName(a.structure)),
      ",\"expected_inertia\":", InertiaJson(p.expected),
      ",\"generate_s\":", Num(generate_s), ",\"repeats\":", config.repeats);
  Timings t;
  FactordRun ours;
  for (int rep = 0; rep < config.repeats; ++rep) {
    ours = RunFactord(p, config);
    if (!ours.ok) break;
    t.analyze.push_back(ours.analyze_s);
    t.preprocess.push_back(ours.factor.preprocess_s);
    t.factorize.push_back(ours.factor.factorize_s);
    t.solve.push_back(ours.solve.solve_s);
    t.substitution.push_back(ours.solve.substitution_s);
    t.refinement.push_back(ours.solve.refinement_s);
    t.largest_front.push_back(ours.factor.largest_front_s);
  }
  double ours_af = NAN, ours_solve = NAN;
  absl::StrAppend(&line, ",\"factord\":{\"ok\":", ours.ok ? "true" : "false");
  if (ours.ok) {
    const FactorReport& f = ours.factor;
    const double factorize_s = Median(t.factorize);
    const double largest_s = Median(t.largest_front);
    ours_af = Median(t.analyze) + Median(t.preprocess) + factorize_s;
    ours_solve = Median(t.solve);
    const bool match = SameInertia(f.inertia, p.expected);
    *all_ok = *all_ok && match;
    absl::StrAppend(
        &line, ",\"analyze_s\":", Num(Median(t.analyze)),
        ",\"preprocess_s\":", Num(Median(t.preprocess)),
        ",\"factorize_s\":", Num(factorize_s),
        ",\"analyze_factorize_s\":", Num(ours_af),
        ",\"solve_s\":", Num(ours_solve),
        ",\"substitution_s\":", Num(Median(t.substitution)),
        ",\"refinement_s\":", Num(Median(t.refinement)),
        ",\"refinement_steps\":", ours.solve.iterations,
        ",\"nnz_factor\":", f.nnz_factor,
        ",\"factor_flops\":", Num(f.factor_flops), ",\"gflops\":",
        Num(f.factor_flops > 0 ? f.factor_flops / factorize_s / 1e9 : NAN),
        ",\"largest_front\":", f.largest_front,
        ",\"largest_front_flops\":", Num(f.largest_front_flops),
        ",\"largest_front_s\":", Num(largest_s), ",\"largest_front_gflops\":",
        Num(largest_s > 0 ? f.largest_front_flops / largest_s / 1e9 : NAN),
        ",\"largest_front_first_s\":", Num(t.largest_front.front()),
        ",\"largest_front_first_gflops\":",
        Num(t.largest_front.front() > 0
                ? f.largest_front_flops / t.largest_front.front() / 1e9
                : NAN),
        ",\"ordering\":", Str(f.ordering),
        ",\"ordering_note\":", Str(f.ordering_note),
        ",\"relative_residual\":", Num(ours.norms.relative_residual),
        ",\"backward_error\":", Num(ours.norms.backward_error),
        ",\"inertia\":", InertiaJson(f.inertia),
        ",\"inertia_reliable\":", f.inertia_reliable ? "true" : "false",
        ",\"inertia_matches\":", match ? "true" : "false",
        ",\"factor_status\":", Str(FactorStatusName(f.status)),
        ",\"delayed_pivots\":", f.delayed_pivots,
        ",\"two_by_two_pivots\":", f.two_by_two_pivots,
        ",\"perturbed_pivots\":", f.perturbed_pivots,
        ",\"message\":", Str(f.message), "}");
  } else {
    *all_ok = false;
    absl::StrAppend(&line, ",\"error\":", Str(ours.error), "}");
  }
  struct Peer {
    const char* name;
    bool applies;
    std::function<PeerResult()> run;
  };
  const Peer peers[] = {
      {"mumps", true, [&] { return RunMumps(a, p.b); }},
      {"cholmod", p.spd, [&] { return RunCholmod(a, p.b); }},
  };
  for (const Peer& peer : peers) {
    if (!config.peers || !peer.applies) continue;
    std::vector<PeerResult> runs;
    const int previous_blas_threads = openblas_get_num_threads();
    openblas_set_num_threads(config.ctx.threads);
    for (int rep = 0; rep < config.repeats; ++rep) {
      runs.push_back(peer.run());
      if (!runs.back().ok) break;
      if (rep + 1 < config.repeats) runs.back().x.clear();
    }
    openblas_set_num_threads(previous_blas_threads);
    double af = NAN, solve = NAN;
    absl::StrAppend(&line, ",\"", peer.name, "\":",
                    PeerJson(runs, p, std::string(peer.name) == "cholmod",
                             config.ctx.threads, &af, &solve));
    if (ours.ok && runs.back().ok) {
      const double raf = ours_af / af, rs = ours_solve / solve;
      absl::StrAppend(&line, ",\"ratio_", peer.name,
                      "_analyze_factorize\":", Num(raf), ",\"ratio_", peer.name,
                      "_solve\":", Num(rs));
      ratios
          ->by_key[absl::StrCat(p.family, "/", peer.name, "/analyze_factorize")]
          .push_back(raf);
      ratios->by_key[absl::StrCat(p.family, "/", peer.name, "/solve")]
          .push_back(rs);
    }
  }
  return line + "}";
}

// ------------------------------------------------------------------ check

// Natural-order LDL^T without pivoting of the dense expansion of `a`: the
// pivots' signs. Exists for the block orderings of model_problem.h (SPD
// leading block, negative definite Schur complement). n small.
std::vector<double> NaturalPivots(const CsrMatrix& a) {
  const int64_t n = a.rows;
  std::vector<double> d(size_t(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t t = a.row_ptr[i]; t < a.row_ptr[i + 1]; ++t) {
      d[i * n + a.col_idx[t]] = d[a.col_idx[t] * n + i] = a.values[t];
    }
  }
  std::vector<double> pivots(n);
  for (int64_t j = 0; j < n; ++j) {
    const double pivot = d[j * n + j];
    pivots[j] = pivot;
    for (int64_t i = j + 1; i < n; ++i) {
      const double l = d[i * n + j] / pivot;
      for (int64_t c = j + 1; c < n; ++c) d[i * n + c] -= l * d[j * n + c];
    }
  }
  return pivots;
}

// Each generator at small sizes: a valid lower-triangle CSR of the expected
// order, pivot signs that match the stated inertia, and for Stokes the
// constant pressure in the null space of the gradient. Returns 0 when all
// pass.
int Check(const Config& config) {
  int failures = 0;
  std::vector<ModelProblem> problems;
  for (int k : {2, 3, 5}) problems.push_back(Poisson3d(k));
  for (int k : {2, 3, 6}) {
    problems.push_back(StokesMac2d(k, config.stokes_eps));
  }
  for (int k : {1, 3, 5}) {
    problems.push_back(
        ControlKkt2d(k, config.control_alpha, config.control_delta));
  }
  for (const ModelProblem& p : problems) {
    const CsrMatrix& a = *p.a;
    std::string why;
    if (absl::Status s = ValidateCsr(a); !s.ok()) why = s.ToString();
    for (int64_t i = 0; i < a.rows && why.empty(); ++i) {
      if (a.row_ptr[i + 1] == a.row_ptr[i] ||
          a.col_idx[a.row_ptr[i + 1] - 1] != i) {
        why = absl::StrCat("row ", i, " does not end on its diagonal");
      }
    }
    const Inertia& e = p.expected;
    if (why.empty() && (e.positive + e.negative + e.zero != a.rows ||
                        static_cast<int64_t>(p.b.size()) != a.rows)) {
      why = "inertia or b does not add up to n";
    }
    if (why.empty() && p.family == "stokes_mac2d") {
      // The gradient of a constant pressure is 0: B^T 1 = 0, column by
      // column of B (the pressure rows, below the velocities).
      std::vector<double> column_sum(e.positive, 0.0);
      for (int64_t i = e.positive; i < a.rows; ++i) {
        for (int64_t t = a.row_ptr[i]; t < a.row_ptr[i + 1]; ++t) {
          if (a.col_idx[t] < e.positive)
            column_sum[a.col_idx[t]] += a.values[t];
        }
      }
      for (int64_t j = 0; j < e.positive && why.empty(); ++j) {
        if (column_sum[j] != 0) why = absl::StrCat("B^T 1 != 0 at ", j);
      }
    }
    if (why.empty()) {
      const std::vector<double> pivots = NaturalPivots(a);
      for (int64_t j = 0; j < a.rows && why.empty(); ++j) {
        const bool positive = j < e.positive;
        if (positive ? !(pivots[j] > 0) : !(pivots[j] < 0)) {
          why = absl::StrCat("natural pivot ", j, " = ", pivots[j]);
        }
      }
    }
    std::printf(
        "{\"check\":%s,\"k\":%d,\"n\":%lld,\"nnz\":%lld,"
        "\"expected_inertia\":%s,\"ok\":%s%s}\n",
        Str(p.family).c_str(), p.k, static_cast<long long>(a.rows),
        static_cast<long long>(a.nnz()), InertiaJson(p.expected).c_str(),
        why.empty() ? "true" : "false",
        why.empty() ? "" : absl::StrCat(",\"why\":", Str(why)).c_str());
    failures += !why.empty();
  }
  return failures == 0 ? 0 : 1;
}

// ------------------------------------------------------------------- flags

bool ParseFlags(int argc, char** argv, Config* c) {
  c->ctx.backend = Backend::kCpu;
  c->ctx.threads = 2;
  c->options.method = Method::kLdlt;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    auto as_int = [&](int* v) { return absl::SimpleAtoi(value, v); };
    auto as_double = [&](double* v) { return absl::SimpleAtod(value, v); };
    bool ok = true;
    if (name == "--threads") {
      ok = as_int(&c->ctx.threads);
    } else if (name == "--repeats") {
      ok = as_int(&c->repeats) && c->repeats >= 1;
    } else if (name == "--ordering") {
      auto o = ParseOrdering(value);
      ok = o.ok();
      if (ok) c->options.ordering = *o;
    } else if (name == "--scaling") {
      ok = value == "auto" || value == "none" || value == "ruiz" ||
           value == "matching";
      c->scaling = value;
      c->options.scaling = value == "none"       ? Scaling::kNone
                           : value == "ruiz"     ? Scaling::kRuiz
                           : value == "matching" ? Scaling::kMatching
                                                 : Scaling::kAuto;
    } else if (name == "--families") {
      c->families = absl::StrSplit(value, ',', absl::SkipEmpty());
    } else if (name == "--max_k") {
      ok = as_int(&c->max_k);
    } else if (name == "--sizes") {
      c->poisson_sizes = ParseSizes(value);
      c->max_k = 1 << 30;
    } else if (name == "--max_stokes_k") {
      ok = as_int(&c->max_stokes_k);
    } else if (name == "--stokes_sizes") {
      c->stokes_sizes = ParseSizes(value);
      c->max_stokes_k = 1 << 30;
    } else if (name == "--max_control_k") {
      ok = as_int(&c->max_control_k);
    } else if (name == "--control_sizes") {
      c->control_sizes = ParseSizes(value);
      c->max_control_k = 1 << 30;
    } else if (name == "--stokes_eps") {
      ok = as_double(&c->stokes_eps) && c->stokes_eps > 0;
    } else if (name == "--control_alpha") {
      ok = as_double(&c->control_alpha) && c->control_alpha > 0;
    } else if (name == "--control_delta") {
      ok = as_double(&c->control_delta) && c->control_delta >= 0;
    } else if (name == "--fronts") {
      c->fronts = ParseSizes(value);
    } else if (name == "--max_front") {
      ok = as_int(&c->max_front);
    } else if (name == "--dgemm_n") {
      ok = as_int(&c->dgemm_n);
    } else if (arg == "--no_peers") {
      c->peers = false;
    } else if (arg == "--no_cases") {
      c->cases = false;
    } else if (arg == "--no_fronts") {
      c->dense_fronts = false;
    } else if (arg == "--check") {
      c->check = true;
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "scale_benchmark: bad flag %s\n", arg.c_str());
      return false;
    }
  }
  return true;
}

int Main(int argc, char** argv) {
  Config config;
  if (!ParseFlags(argc, argv, &config)) return 2;
  if (config.check) return Check(config);
  const int threads = config.ctx.threads;
  std::printf(
      "{\"machine\":%s,\"threads\":%d,\"repeats\":%d,"
      "\"ordering\":%s,\"scaling\":%s}\n",
      MachineJson().c_str(), threads, config.repeats,
      Str(OrderingName(config.options.ordering)).c_str(),
      Str(config.scaling).c_str());
  std::printf("%s\n", DgemmJson(config.dgemm_n, threads, "start").c_str());
  std::fflush(stdout);
  if (config.dense_fronts) {
    for (int m : config.fronts) {
      if (m > config.max_front) continue;
      for (FrontKind kind : {FrontKind::kIndefinite, FrontKind::kQuasiDefinite,
                             FrontKind::kSpd}) {
        for (FrontKernel kernel :
             {FrontKernel::kPivoting, FrontKernel::kUnpivoted,
              FrontKernel::kApp}) {
          std::printf(
              "%s\n",
              FrontJson(m, kind, kernel, config.repeats, threads).c_str());
          std::fflush(stdout);
        }
      }
    }
  }
  Ratios ratios;
  bool inertia_ok = true;
  int cases = 0;
  if (config.cases) {
    for (const std::string& family : config.families) {
      std::vector<int> sizes;
      std::function<ModelProblem(int)> generate;
      if (family == "poisson3d") {
        for (int k : config.poisson_sizes) {
          if (k <= config.max_k) sizes.push_back(k);
        }
        generate = [](int k) { return Poisson3d(k); };
      } else if (family == "stokes_mac2d") {
        for (int k : config.stokes_sizes) {
          if (k <= config.max_stokes_k) sizes.push_back(k);
        }
        generate = [&](int k) { return StokesMac2d(k, config.stokes_eps); };
      } else if (family == "control_kkt2d") {
        for (int k : config.control_sizes) {
          if (k <= config.max_control_k) sizes.push_back(k);
        }
        generate = [&](int k) {
          return ControlKkt2d(k, config.control_alpha, config.control_delta);
        };
      } else {
        std::fprintf(stderr, "scale_benchmark: unknown family %s\n",
                     family.c_str());
        return 2;
      }
      for (int k : sizes) {
        Timer timer;
        const ModelProblem p = generate(k);
        const double generate_s = timer.Seconds();
        std::printf(
            "%s\n",
            CaseJson(p, generate_s, config, &ratios, &inertia_ok).c_str());
        std::fflush(stdout);
        ++cases;
      }
    }
  }
  // Once more at the end: on a shared machine one measurement can fall in
  // a busy moment; the plot takes the better of the two.
  std::printf("%s\n", DgemmJson(config.dgemm_n, threads, "end").c_str());
  std::string medians;
  for (const auto& [key, values] : ratios.by_key) {
    absl::StrAppend(&medians, medians.empty() ? "" : ",", Str(key), ":",
                    Num(Median(values)));
  }
  std::printf(
      "{\"summary\":true,\"threads\":%d,\"cases\":%d,"
      "\"factord_inertia_all_match\":%s,\"load_average\":%s,"
      "\"median_ratios\":{%s}}\n",
      threads, cases, inertia_ok ? "true" : "false", LoadAverage().c_str(),
      medians.c_str());
  return 0;
}

}  // namespace
}  // namespace factord::bench

int main(int argc, char** argv) { return factord::bench::Main(argc, argv); }
