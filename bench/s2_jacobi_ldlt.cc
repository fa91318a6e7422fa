// S2 Fig. 3-style comparison: the reconstruction error of jacobi_ldlt after
// a fixed number of sweeps against block_ildlt (the level-scheduled
// left-looking factorization, S1 Alg. 1) on the same blocking and block
// pattern, for several pivot thresholds epsilon (S2 Fig. 3b).
//
// Both factors use the same structure (ordering, blocking with blocks <=
// --block, block level of fill), Ruiz scaling, Bunch-Kaufman pivoting inside
// blocks and no dropping (drop_tolerance 0, no fill cap), so they differ
// only in how the block equations are solved: Jacobi sweeps with
// eps-perturbation (relaxed by delta per sweep) versus one level-ordered
// pass. jacobi_error / block_ildlt_error: ||L D L^T - A||_inf / ||A||_inf of
// the scaled matrix over the whole product (S2 Fig. 3; fill outside the
// pattern counts), as jacobi_ldlt reports it per sweep; *_pattern_error: the
// same restricted to the block pattern of L (the fixed-point residual, zero
// for an unperturbed level-scheduled factor).
//
// Blocking: --blocking=cosine (block_ildlt's, the default of both methods)
// or --blocking=grid (S2 §III: a regular grid of --block rows over the
// ordered matrix). Each system is also solved (SQMR, 1e-8, at most 1000
// iterations, b from rhs_k.rhs) with each factor as preconditioner.
// --push_back: outer pivoting after the first sweep (S2 §V-A,
// RunJacobiLdlt); without it the plain sweeps on block_ildlt's order.
//
// Usage: s2_jacobi_ldlt [--push_back] [--sweeps=8] [--threads=2]
//   [--block=32] [--fill_level=1] [--blocking=cosine|grid] [kkt_root]
//   (default ../shared/data/kkt)
// Prints one JSON object per (system, epsilon): the 2x2 form's iter_0 and
// its last iteration for every problem.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/base/timer.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/jacobi_ldlt/jacobi_ldlt_pushback.h"
#include "core/jacobi_ldlt/jacobi_ldlt_sweeps.h"
#include "core/krylov/preconditioned_solve.h"
#include "core/matrix/matrix_market.h"
#include "core/order/ordering.h"

namespace fs = std::filesystem;
using namespace factord;  // NOLINT: a benchmark program

namespace {

struct System {
  std::string problem, iteration, path, rhs;
};

// iter_0 and the highest iter_k of every problem's 2x2 form.
std::vector<System> Systems(const fs::path& root) {
  std::vector<System> systems;
  for (const auto& problem : fs::directory_iterator(root)) {
    const fs::path form = problem.path() / "2x2";
    if (!fs::is_directory(form)) continue;
    std::map<int, fs::path> dirs;
    for (const auto& it : fs::directory_iterator(form)) {
      const std::string name = it.path().filename().string();
      int k = 0;
      if (absl::StartsWith(name, "iter_") &&
          absl::SimpleAtoi(name.substr(5), &k)) {
        dirs[k] = it.path();
      }
    }
    if (dirs.empty()) continue;
    const std::string p = problem.path().filename().string();
    auto add = [&](int k, const fs::path& dir) {
      systems.push_back({p, absl::StrCat("iter_", k),
                         (dir / absl::StrCat("K_", k, ".mtx")).string(),
                         (dir / absl::StrCat("rhs_", k, ".rhs")).string()});
    };
    add(dirs.begin()->first, dirs.begin()->second);
    if (dirs.size() > 1) add(dirs.rbegin()->first, dirs.rbegin()->second);
  }
  std::sort(systems.begin(), systems.end(),
            [](const System& x, const System& y) {
              return x.problem != y.problem ? x.problem < y.problem
                                            : x.iteration < y.iteration;
            });
  return systems;
}

std::string Errors(const std::vector<double>& errors) {
  return absl::StrJoin(errors, ",", [](std::string* out, double e) {
    absl::StrAppend(out, absl::StrFormat("%.3e", e));
  });
}

struct SolveResult {
  int iterations = 0;
  double relres = -1;
};

SolveResult SolveWith(const CsrMatrix& a, const CsrMatrix& full,
                      const std::vector<double>& b, const Preconditioner& m,
                      const ExecContext& ctx) {
  SolveOptions options;
  options.max_iterations = 1000;
  std::vector<double> x(a.rows, 0.0);
  SolveReport report;
  SolveResult result;
  if (SolvePreconditioned(full, a, {}, m, Krylov::kSqmr, b, x, options, ctx,
                          &report)
          .ok()) {
    result.iterations = report.iterations;
    result.relres = report.relative_residual;
  }
  return result;
}

// A regular grid of `block` rows over the ordered matrix (S2 §III).
std::vector<int32_t> RegularGrid(int64_t n, int block) {
  std::vector<int32_t> block_ptr;
  for (int64_t k = 0; k < n; k += block) {
    block_ptr.push_back(static_cast<int32_t>(k));
  }
  block_ptr.push_back(static_cast<int32_t>(n));
  return block_ptr;
}

absl::StatusOr<BlockIldltStructure> BuildStructure(
    const CsrMatrix& a, const FactorOptions& options,
    const std::string& blocking) {
  if (blocking != "grid") return BuildBlockIldltStructure(a, options);
  auto perm = ComputeOrdering(a, options.ordering);
  if (!perm.ok()) return perm.status();
  return BuildBlockIldltStructureFromBlocks(
      a, options, *std::move(perm),
      RegularGrid(a.rows, options.max_block_size));
}

}  // namespace

int main(int argc, char** argv) {
  int sweeps = 8, threads = 2, block = 32, fill_level = 1;
  std::string root = "../shared/data/kkt", blocking = "cosine";
  bool push_back = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](absl::string_view flag, int* out) {
      return absl::StartsWith(arg, flag) &&
             absl::SimpleAtoi(arg.substr(flag.size()), out);
    };
    if (value("--sweeps=", &sweeps) || value("--threads=", &threads) ||
        value("--block=", &block) || value("--fill_level=", &fill_level)) {
      continue;
    }
    if (arg == "--push_back") {
      push_back = true;
      continue;
    }
    if (absl::StartsWith(arg, "--blocking=")) {
      blocking = arg.substr(11);
      continue;
    }
    root = arg;
  }
  ExecContext ctx;
  ctx.backend = Backend::kCpu;
  ctx.threads = threads;
  for (const System& system : Systems(root)) {
    auto read = ReadMatrixMarket(system.path);
    if (!read.ok()) {
      std::printf("{\"problem\":\"%s\",\"error\":\"%s\"}\n",
                  system.problem.c_str(),
                  std::string(read.status().message()).c_str());
      continue;
    }
    const CsrMatrix& a = *read;
    const CsrMatrix full = ExpandSymmetric(a);
    std::vector<double> b(a.rows, 1.0);
    if (auto rhs = ReadDenseVector(system.rhs);
        rhs.ok() && static_cast<int64_t>(rhs->size()) == a.rows) {
      b = *std::move(rhs);
    }
    FactorOptions options;
    options.max_block_size = block;
    options.fill_level = fill_level;
    options.drop_tolerance = 0;
    options.fill_factor = 0;
    Timer timer;
    auto built = BuildStructure(a, options, blocking);
    if (!built.ok()) continue;
    auto structure =
        std::make_shared<const BlockIldltStructure>(*std::move(built));
    auto plan = std::make_shared<const internal::JacobiLdltPlan>(
        internal::BuildJacobiLdltPlan(*structure));
    const double analyze_s = timer.Seconds();
    std::vector<double> scaling, a_blocks;
    if (!ScatterScaledBlocks(a, *structure, options, &scaling, &a_blocks)
             .ok()) {
      continue;
    }
    timer.Reset();
    auto ildlt = BlockIldltFactor::Create(a, structure, options, ctx);
    const double ildlt_s = timer.Seconds();
    if (!ildlt.ok()) continue;
    const BlockIldltFactor& f = **ildlt;
    const double ildlt_error = internal::BlockProductError(
        *structure, *plan, a_blocks, f.block_values(), f.kept(),
        f.pivot_order(), f.pivot_size(), f.d_diag(), f.d_off(), ctx);
    const double ildlt_pattern_error = internal::BlockReconstructionError(
        *structure, *plan, a_blocks, f.block_values(), f.kept(),
        f.pivot_order(), f.pivot_size(), f.d_diag(), f.d_off(), ctx);
    const SolveResult ildlt_solve = SolveWith(a, full, b, f, ctx);
    for (double epsilon : {0.1, 0.01, 1e-4}) {
      internal::JacobiSweepOptions sweep;
      sweep.sweeps = sweeps;
      sweep.epsilon = epsilon;
      sweep.delta = 0.95;
      // The sweeps are timed without their per-sweep error evaluation: one
      // run for the time, one with the errors for the curve.
      sweep.record_errors = false;
      timer.Reset();
      auto timed = internal::RunJacobiLdlt(a, options, structure, plan, sweep,
                                           push_back, ctx);
      const double jacobi_s = timer.Seconds();
      sweep.record_errors = true;
      auto run = internal::RunJacobiLdlt(a, options, structure, plan, sweep,
                                         push_back, ctx);
      if (!timed.ok() || !run.ok()) continue;
      const std::vector<double>& errors = run->sweep_errors;
      const internal::BlockLdltIterate& it = run->iterate;
      const double pattern_error = internal::BlockReconstructionError(
          *run->structure, *run->plan, run->a_blocks, it.values, {},
          it.pivot_order, it.pivot_size, it.d_diag, it.d_off, ctx);
      auto jacobi = BlockIldltFactor::FromParts(
          run->structure, run->scaling, it.values, it.pivot_order,
          it.pivot_size, it.d_diag, it.d_off, BlockIldltStats());
      const SolveResult jacobi_solve = SolveWith(a, full, b, *jacobi, ctx);
      std::printf(
          "{\"problem\":\"%s\",\"iteration\":\"%s\",\"blocking\":\"%s\","
          "\"push_back\":%s,\"n\":%lld,\"nnz\":%lld,\"blocks\":%lld,"
          "\"slots\":%lld,\"levels\":%d,\"epsilon\":%g,\"delta\":0.95,"
          "\"sweeps\":%d,\"jacobi_error\":%.3e,\"block_ildlt_error\":%.3e,"
          "\"ratio\":%.3g,\"jacobi_errors\":[%s],\"jacobi_pattern_error\":"
          "%.3e,\"block_ildlt_pattern_error\":%.3e,\"jacobi_perturbed\":%lld,"
          "\"block_ildlt_perturbed\":%lld,\"pushed_blocks\":%lld,"
          "\"jacobi_its\":%d,\"jacobi_relres\":%.2e,\"block_ildlt_its\":%d,"
          "\"block_ildlt_relres\":%.2e,\"jacobi_s\":%.4f,"
          "\"block_ildlt_s\":%.4f,\"analyze_s\":%.4f,\"threads\":%d}\n",
          system.problem.c_str(), system.iteration.c_str(), blocking.c_str(),
          push_back ? "true" : "false", static_cast<long long>(a.rows),
          static_cast<long long>(a.nnz()),
          static_cast<long long>(structure->num_blocks()),
          static_cast<long long>(structure->num_slots()), structure->num_levels,
          epsilon, sweeps, errors.back(), ildlt_error,
          ildlt_error > 0 ? errors.back() / ildlt_error : 0.0,
          Errors(errors).c_str(), pattern_error, ildlt_pattern_error,
          static_cast<long long>(it.perturbed_pivots),
          static_cast<long long>(f.stats().perturbed_pivots),
          static_cast<long long>(run->push_back.pushed_blocks),
          jacobi_solve.iterations, jacobi_solve.relres, ildlt_solve.iterations,
          ildlt_solve.relres, jacobi_s, ildlt_s, analyze_s, threads);
      std::fflush(stdout);
    }
  }
  return 0;
}
