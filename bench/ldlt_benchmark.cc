// ldlt_benchmark: factord's complete block LDL^T against MUMPS (and CHOLMOD
// on SPD matrices), measured in the same run on the same machine.
//
//   ldlt_benchmark [--threads=N] [--data=DIR] [--limit_n=N] [--filter=S]
//                  [--no_peers] [--reuse_repeats=N]
//                  [--scaling=ruiz|matching|none]
//                  [FILE.mtx ...]
//
// Without files it runs every symmetric system under DIR (default
// ../shared/data): kkt/*/{2x2,3x3}/iter_*/K_*.mtx with their rhs, the
// saddle-point variant of each 2x2 system (D2 diagonal set to 0, entries
// kept), and the symmetric matrices with values in matrices/. One JSON line a
// case; then, for KKT problems with two iterations, the analysis-reuse case
// (factorize iter_0, then the last iteration with the same analysis; medians
// of --reuse_repeats timings, default 5); last, a summary line with median
// ratios.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/base/timer.h"
#include "core/matrix/csr.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/residual.h"
#include "core/solver/solver.h"
#include "peers/mumps_peer.h"

namespace fs = std::filesystem;

namespace factord::bench {
namespace {

struct Case {
  std::string name;
  std::string matrix_path;
  std::string rhs_path;  // empty: b = ones
  bool saddle = false;   // zero the (2,2) diagonal of a 2x2 KKT system
  bool spd = false;
  int64_t kkt_m = -1;  // constraints, when known: inertia (m, n, 0)
};

std::string JsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  return absl::StrFormat("%.6g", v);
}

std::string Quoted(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    absl::StrAppend(&out, out.empty() ? "" : ",", "\"", name, "\"");
  }
  return out;
}

double Median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The 2x2 KKT form [-(H+D) A^T; A D2] has a negative diagonal in its
// leading n rows and the positive diagonal D2 in its trailing m rows: m is
// the number of trailing rows with a positive diagonal entry.
int64_t CountTrailingPositiveDiagonal(const CsrMatrix& a) {
  int64_t m = 0;
  for (int64_t i = a.rows - 1; i >= 0; --i) {
    const int64_t last = a.row_ptr[i + 1] - 1;
    if (last < a.row_ptr[i] || a.col_idx[last] != i || a.values[last] <= 0) {
      break;
    }
    ++m;
  }
  return m;
}

void ZeroTrailingDiagonal(CsrMatrix& a, int64_t m) {
  for (int64_t i = a.rows - m; i < a.rows; ++i) {
    const int64_t last = a.row_ptr[i + 1] - 1;
    if (last >= a.row_ptr[i] && a.col_idx[last] == i) a.values[last] = 0.0;
  }
}

// The scaling factord uses (--scaling), Ruiz by default.
Scaling g_scaling = Scaling::kRuiz;

struct FactordRun {
  bool ok = false;
  std::string error;
  FactorReport factor;
  SolveReport solve;
  double analyze_s = 0;
};

FactordRun RunFactord(std::shared_ptr<const CsrMatrix> a,
                      std::span<const double> b, const ExecContext& ctx,
                      std::shared_ptr<const Analysis> analysis = nullptr) {
  FactordRun run;
  FactorOptions options;
  options.method = Method::kLdlt;
  options.scaling = g_scaling;
  if (analysis == nullptr) {
    auto analyzed = Analyze(*a, options, ctx);
    if (!analyzed.ok()) {
      run.error = std::string(analyzed.status().message());
      return run;
    }
    analysis = *analyzed;
  }
  run.analyze_s = analysis->analyze_s;
  auto factor = Factorize(a, analysis, options, ctx);
  if (!factor.ok()) {
    run.error = std::string(factor.status().message());
    return run;
  }
  run.factor = (*factor)->report();
  std::vector<double> x(a->rows, 0.0);
  SolveOptions solve_options;
  solve_options.krylov = Krylov::kNone;
  auto status = (*factor)->Solve(b, x, solve_options, ctx, &run.solve);
  if (!status.ok()) {
    run.error = std::string(status.message());
    return run;
  }
  run.ok = true;
  return run;
}

std::vector<Case> DiscoverCases(const fs::path& data) {
  std::vector<Case> cases;
  std::vector<fs::path> problems;
  for (const auto& entry : fs::directory_iterator(data / "kkt")) {
    if (entry.is_directory()) problems.push_back(entry.path());
  }
  std::sort(problems.begin(), problems.end());
  for (const auto& problem : problems) {
    for (const char* form : {"2x2", "3x3"}) {
      if (!fs::exists(problem / form)) continue;
      std::vector<fs::path> iters;
      for (const auto& it : fs::directory_iterator(problem / form)) {
        iters.push_back(it.path());
      }
      std::sort(iters.begin(), iters.end());
      for (const auto& iter : iters) {
        const std::string k = iter.filename().string().substr(5);
        Case c;
        c.name = absl::StrCat(problem.filename().string(), "/", form, "/",
                              iter.filename().string());
        c.matrix_path = (iter / absl::StrCat("K_", k, ".mtx")).string();
        c.rhs_path = (iter / absl::StrCat("rhs_", k, ".rhs")).string();
        cases.push_back(c);
        if (std::string(form) == "2x2") {
          c.name += "/saddle";
          c.saddle = true;
          cases.push_back(c);
        }
      }
    }
  }
  for (const char* m :
       {"494_bus", "1138_bus", "bcsstk13", "hangGlider_2",
        "tumorAntiAngiogenesis_2", "reorientation_1", "zenios"}) {
    Case c;
    c.name = m;
    c.matrix_path = (data / "matrices" / absl::StrCat(m, ".mtx")).string();
    c.spd = absl::StrContains(m, "bus") || absl::StrContains(m, "bcsstk");
    cases.push_back(c);
  }
  return cases;
}

}  // namespace
}  // namespace factord::bench

int main(int argc, char** argv) {
  using namespace factord;
  using namespace factord::bench;
  ExecContext ctx;
  ctx.backend = Backend::kCpu;
  ctx.threads = 2;
  fs::path data = fs::path(FACTORD_SOURCE_DIR) / ".." / "shared" / "data";
  int64_t limit_n = -1;
  std::string filter;     // run only the cases whose name contains this
  bool peers = true;      // --no_peers: factord only (for profiling)
  int reuse_repeats = 5;  // timings of each analysis-reuse pair
  std::vector<Case> cases;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (absl::StartsWith(arg, "--threads=")) {
      (void)absl::SimpleAtoi(arg.substr(10), &ctx.threads);
    } else if (absl::StartsWith(arg, "--data=")) {
      data = arg.substr(7);
    } else if (absl::StartsWith(arg, "--limit_n=")) {
      (void)absl::SimpleAtoi(arg.substr(10), &limit_n);
    } else if (absl::StartsWith(arg, "--reuse_repeats=")) {
      (void)absl::SimpleAtoi(arg.substr(16), &reuse_repeats);
      reuse_repeats = std::max(1, reuse_repeats);
    } else if (absl::StartsWith(arg, "--scaling=")) {
      const std::string name = arg.substr(10);
      g_scaling = name == "matching" ? Scaling::kMatching
                  : name == "none"   ? Scaling::kNone
                                     : Scaling::kRuiz;
    } else if (arg == "--no_peers") {
      peers = false;
    } else if (absl::StartsWith(arg, "--filter=")) {
      filter = arg.substr(9);
    } else {
      Case c;
      c.name = arg;
      c.matrix_path = arg;
      cases.push_back(c);
    }
  }
  if (cases.empty()) cases = DiscoverCases(data);
  if (!filter.empty()) {
    std::erase_if(cases, [&](const Case& c) {
      return !absl::StrContains(c.name, filter);
    });
  }

  std::vector<double> factor_ratios, factorize_only_ratios, solve_ratios;
  int agree = 0, compared = 0, residual_ok = 0;
  std::vector<std::string> disagreements, residual_failures;
  for (const Case& c : cases) {
    auto read = ReadMatrixMarket(c.matrix_path);
    if (!read.ok()) {
      std::printf("{\"case\":\"%s\",\"error\":\"%s\"}\n", c.name.c_str(),
                  std::string(read.status().message()).c_str());
      continue;
    }
    auto a = std::make_shared<CsrMatrix>(std::move(*read));
    if (limit_n > 0 && a->rows > limit_n) continue;
    const int64_t m =
        c.rhs_path.empty() ? -1 : CountTrailingPositiveDiagonal(*a);
    if (c.saddle) ZeroTrailingDiagonal(*a, m);
    std::vector<double> b(a->rows, 1.0);
    if (!c.rhs_path.empty()) {
      auto rhs = ReadDenseVector(c.rhs_path);
      if (rhs.ok() && static_cast<int64_t>(rhs->size()) == a->rows) b = *rhs;
    }
    FactordRun ours = RunFactord(a, b, ctx);
    PeerResult mumps, cholmod;
    if (peers) mumps = RunMumps(*a, b);
    if (peers && c.spd) cholmod = RunCholmod(*a, b);
    ResidualNorms mumps_norms;
    mumps_norms.relative_residual = NAN;
    mumps_norms.backward_error = NAN;
    if (mumps.ok) mumps_norms = ComputeResidualNorms(*a, b, mumps.x);
    const double mumps_res = mumps_norms.relative_residual;
    std::string line = absl::StrCat(
        "{\"case\":\"", c.name, "\",\"n\":", a->rows, ",\"nnz\":", a->nnz(),
        ",\"factord\":{\"ok\":", ours.ok ? "true" : "false");
    if (ours.ok) {
      const auto& f = ours.factor;
      absl::StrAppend(
          &line, ",\"analyze_s\":", JsonNumber(ours.analyze_s),
          ",\"preprocess_s\":", JsonNumber(f.preprocess_s),
          ",\"factorize_s\":", JsonNumber(f.factorize_s),
          ",\"solve_s\":", JsonNumber(ours.solve.solve_s),
          ",\"nnz_factor\":", f.nnz_factor,
          ",\"relative_residual\":", JsonNumber(ours.solve.relative_residual),
          ",\"backward_error\":", JsonNumber(ours.solve.backward_error),
          ",\"inertia\":[", f.inertia.positive, ",", f.inertia.negative, ",",
          f.inertia.zero,
          "],\"inertia_reliable\":", f.inertia_reliable ? "true" : "false",
          ",\"factor_status\":\"", FactorStatusName(f.status), "\"",
          ",\"delayed_pivots\":", f.delayed_pivots,
          ",\"two_by_two_pivots\":", f.two_by_two_pivots,
          ",\"perturbed_pivots\":", f.perturbed_pivots);
    } else {
      absl::StrAppend(&line, ",\"error\":\"", ours.error, "\"");
    }
    absl::StrAppend(&line, "},\"mumps\":{\"ok\":", mumps.ok ? "true" : "false");
    if (mumps.ok) {
      absl::StrAppend(
          &line, ",\"analyze_s\":", JsonNumber(mumps.analyze_s),
          ",\"factorize_s\":", JsonNumber(mumps.factorize_s),
          ",\"solve_s\":", JsonNumber(mumps.solve_s),
          ",\"nnz_factor\":", mumps.nnz_factor,
          ",\"negative_pivots\":", mumps.negative_pivots,
          ",\"null_pivots\":", mumps.null_pivots,
          ",\"ordering_used\":", mumps.ordering_used,
          ",\"retries\":", mumps.retries,
          ",\"factorize_total_s\":", JsonNumber(mumps.factorize_total_s),
          ",\"relative_residual\":", JsonNumber(mumps_res),
          ",\"backward_error\":", JsonNumber(mumps_norms.backward_error));
    } else {
      absl::StrAppend(&line, ",\"error\":\"", mumps.error, "\"");
    }
    absl::StrAppend(&line, "}");
    if (c.spd) {
      absl::StrAppend(&line,
                      ",\"cholmod\":{\"ok\":", cholmod.ok ? "true" : "false",
                      ",\"analyze_s\":", JsonNumber(cholmod.analyze_s),
                      ",\"factorize_s\":", JsonNumber(cholmod.factorize_s),
                      ",\"solve_s\":", JsonNumber(cholmod.solve_s),
                      ",\"nnz_factor\":", cholmod.nnz_factor, "}");
    }
    if (ours.ok && mumps.ok) {
      const double fr =
          (ours.analyze_s + ours.factor.preprocess_s +
           ours.factor.factorize_s) /
          std::max(1e-9, mumps.analyze_s + mumps.factorize_total_s);
      const double sr = ours.solve.solve_s / std::max(1e-9, mumps.solve_s);
      const double fo =
          ours.factor.factorize_s / std::max(1e-9, mumps.factorize_total_s);
      factor_ratios.push_back(fr);
      factorize_only_ratios.push_back(fo);
      solve_ratios.push_back(sr);
      ++compared;
      const bool same_negative =
          ours.factor.inertia.negative == mumps.negative_pivots;
      if (same_negative) {
        ++agree;
      } else {
        disagreements.push_back(c.name);
      }
      // The accuracy criterion: ours <= max(1e-10, 10x MUMPS's).
      const bool res_ok =
          ours.solve.relative_residual <= std::max(1e-10, 10 * mumps_res);
      if (res_ok) {
        ++residual_ok;
      } else {
        residual_failures.push_back(c.name);
      }
      absl::StrAppend(
          &line, ",\"ratio_analyze_factorize\":", JsonNumber(fr),
          ",\"ratio_factorize\":", JsonNumber(fo),
          ",\"ratio_solve\":", JsonNumber(sr),
          ",\"negative_count_agrees\":", same_negative ? "true" : "false",
          ",\"residual_criterion\":", res_ok ? "true" : "false");
    }
    if (m >= 0) absl::StrAppend(&line, ",\"kkt_m\":", m);
    absl::StrAppend(&line, "}");
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  }
  // IPM reuse: analysis of iter_0, then the last iteration's values with the
  // same analysis (what UpdateValues + Factorize does in the service). Each
  // pair is timed `reuse_repeats` times, alternating first and second, and
  // the medians are compared: one run of a few milliseconds is at the
  // mercy of the other jobs on a shared machine.
  std::vector<double> refactor_fraction, analyze_fractions, same_ratios;
  for (size_t i = 0; i + 1 < cases.size(); ++i) {
    const Case& first = cases[i];
    if (first.saddle || first.rhs_path.empty() ||
        !absl::StrContains(first.name, "/2x2/iter_0")) {
      continue;
    }
    const std::string problem = first.name.substr(0, first.name.find('/'));
    const Case* last = nullptr;
    for (const Case& c : cases) {
      if (!c.saddle && c.name != first.name &&
          absl::StartsWith(c.name, problem + "/2x2/iter_")) {
        last = &c;
      }
    }
    if (last == nullptr) continue;
    auto a0 = ReadMatrixMarket(first.matrix_path);
    auto a1 = ReadMatrixMarket(last->matrix_path);
    if (!a0.ok() || !a1.ok()) continue;
    auto m0 = std::make_shared<CsrMatrix>(std::move(*a0));
    auto m1 = std::make_shared<CsrMatrix>(std::move(*a1));
    if (limit_n > 0 && m0->rows > limit_n) continue;
    FactorOptions options;
    options.method = Method::kLdlt;
    options.scaling = g_scaling;
    std::vector<double> first_analyze, first_pre, first_fact, first_total;
    std::vector<double> second_analyze, second_pre, second_fact, second_total;
    std::vector<double> first_numeric, same_total;
    std::shared_ptr<const Factorization> second_factor;
    bool ok = true;
    for (int rep = 0; rep < reuse_repeats && ok; ++rep) {
      auto analysis = Analyze(*m0, options, ctx);
      if (!analysis.ok()) {
        ok = false;
        break;
      }
      auto f0 = Factorize(m0, *analysis, options, ctx);
      // The second analysis is the cache lookup the service does after
      // UpdateValues: the pattern hash of the new values' matrix and the
      // options' key, timed; the cached analysis is then reused unchanged.
      const uint64_t first_hash = PatternHash(*m0);  // known since upload
      Timer lookup;
      const bool same_pattern =
          PatternHash(*m1) == first_hash && !options.AnalysisKey().empty();
      const double lookup_s = lookup.Seconds();
      if (!f0.ok() || !same_pattern) {
        ok = false;
        break;
      }
      auto f1 = Factorize(m1, *analysis, options, ctx);
      // The same values once more with the same analysis: the arithmetic
      // of the first call exactly, so what the refactorization pays beyond
      // it shows alone.
      auto f_same = Factorize(m0, *analysis, options, ctx);
      if (!f1.ok() || !f_same.ok()) {
        ok = false;
        break;
      }
      same_total.push_back((*f_same)->report().preprocess_s +
                           (*f_same)->report().factorize_s);
      const FactorReport& r0 = (*f0)->report();
      const FactorReport& r1 = (*f1)->report();
      first_analyze.push_back((*analysis)->analyze_s);
      first_pre.push_back(r0.preprocess_s);
      first_fact.push_back(r0.factorize_s);
      first_numeric.push_back(r0.preprocess_s + r0.factorize_s);
      first_total.push_back((*analysis)->analyze_s + r0.preprocess_s +
                            r0.factorize_s);
      second_analyze.push_back(lookup_s);
      second_pre.push_back(r1.preprocess_s);
      second_fact.push_back(r1.factorize_s);
      second_total.push_back(lookup_s + r1.preprocess_s + r1.factorize_s);
      second_factor = *f1;
    }
    if (!ok || second_factor == nullptr) continue;
    // The reused factorization must still solve (b = ones).
    std::vector<double> ones(m1->rows, 1.0), x(m1->rows, 0.0);
    SolveOptions solve_options;
    solve_options.krylov = Krylov::kNone;
    SolveReport solve;
    if (!second_factor->Solve(ones, x, solve_options, ctx, &solve).ok()) {
      continue;
    }
    const double first_total_s = Median(first_total);
    const double second_total_s = Median(second_total);
    const double analyze_fraction =
        Median(second_analyze) / std::max(1e-12, Median(first_analyze));
    const double total_fraction =
        second_total_s / std::max(1e-12, first_total_s);
    // The refactorization with the same values against the first call's
    // numeric phase (preprocess and factorize, after the analysis).
    const double same_ratio =
        Median(same_total) / std::max(1e-12, Median(first_numeric));
    std::printf(
        "{\"reuse\":\"%s\",\"n\":%lld,\"repeats\":%zu,"
        "\"first_analyze_s\":%s,\"first_preprocess_s\":%s,"
        "\"first_factorize_s\":%s,\"first_analyze_factorize_s\":%s,"
        "\"second_analyze_s\":%s,\"second_preprocess_s\":%s,"
        "\"second_factorize_s\":%s,\"second_analyze_factorize_s\":%s,"
        "\"second_delayed_pivots\":%lld,\"second_relative_residual\":%s,"
        "\"analyze_fraction\":%s,\"ratio\":%s,"
        "\"same_values_refactor_ratio\":%s}\n",
        problem.c_str(), static_cast<long long>(m0->rows), first_total.size(),
        JsonNumber(Median(first_analyze)).c_str(),
        JsonNumber(Median(first_pre)).c_str(),
        JsonNumber(Median(first_fact)).c_str(),
        JsonNumber(first_total_s).c_str(),
        JsonNumber(Median(second_analyze)).c_str(),
        JsonNumber(Median(second_pre)).c_str(),
        JsonNumber(Median(second_fact)).c_str(),
        JsonNumber(second_total_s).c_str(),
        static_cast<long long>(second_factor->report().delayed_pivots),
        JsonNumber(solve.relative_residual).c_str(),
        JsonNumber(analyze_fraction).c_str(),
        JsonNumber(total_fraction).c_str(), JsonNumber(same_ratio).c_str());
    std::fflush(stdout);
    if (m0->rows >= 1000) {
      same_ratios.push_back(same_ratio);
      refactor_fraction.push_back(total_fraction);
      analyze_fractions.push_back(analyze_fraction);
    }
  }
  std::printf(
      "{\"reuse_summary\":true,\"problems_n_ge_1000\":%zu,"
      "\"median_analyze_fraction\":%s,\"median_refactor_fraction\":%s,"
      "\"median_same_values_refactor_ratio\":%s}\n",
      refactor_fraction.size(), JsonNumber(Median(analyze_fractions)).c_str(),
      JsonNumber(Median(refactor_fraction)).c_str(),
      JsonNumber(Median(same_ratios)).c_str());
  std::printf(
      "{\"summary\":true,\"threads\":%d,\"scaling\":\"%s\","
      "\"compared\":%d,"
      "\"negative_count_agrees_with_mumps\":%d,\"residual_criterion_met\":%d,"
      "\"median_ratio_analyze_factorize\":%s,\"median_ratio_factorize\":%s,"
      "\"median_ratio_solve\":%s,\"disagreements\":[%s],"
      "\"residual_failures\":[%s]}\n",
      ctx.threads,
      g_scaling == Scaling::kMatching ? "matching"
      : g_scaling == Scaling::kNone   ? "none"
                                      : "ruiz",
      compared, agree, residual_ok, JsonNumber(Median(factor_ratios)).c_str(),
      JsonNumber(Median(factorize_only_ratios)).c_str(),
      JsonNumber(Median(solve_ratios)).c_str(), Quoted(disagreements).c_str(),
      Quoted(residual_failures).c_str());
  return 0;
}
