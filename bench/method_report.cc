// Every method of the core on every matrix and KKT system of the shared data
// set, one line per (matrix, method) with every result that does not depend
// on time, so that two builds of the core can be compared bit for bit with
// diff (scripts/method_report.sh).
//
// Systems: matrices/*.mtx with b = ones, matrices/resolve/A_*.mtx with
// their b_*.mtx, kkt/<problem>/<form>/iter_k/K_k.mtx with rhs_k.rhs.
// Pattern-only matrices (no values) get one line saying they are skipped.
//
// Methods, each through the public facade (ResolveMethod, Analyze,
// Factorize, Factorization::Solve) as the server calls it, with the default
// FactorOptions and SolveOptions (tolerance 1e-8, 1000 iterations) but the
// method: ldlt, block_ildlt, jacobi_ldlt, ic (symmetric matrices), ilu,
// block_jacobi, jacobi and lu, each with the Krylov method it picks itself
// (krylov auto); then every Krylov method (cg, gmres, sqmr, idr, bicgstab)
// with method none, the identity preconditioner. A method that refuses a
// matrix prints the status code and message of the refusal.
//
// Per line: the analysis' and factorization's status codes and messages;
// the factor report (status, inertia and whether it is reliable, perturbed,
// 2x2 and delayed pivots, singular blocks, nnz(L), blocks, bytes, the sweep
// errors of jacobi_ldlt, message); the solve's status, message, relative
// residual and backward error, iterations (refinement steps of the direct
// methods); the 2-norm, three entries and a 64-bit FNV-1a hash of the bits
// of the solution. Every floating-point value is printed with %.17g; no
// timings. One thread on the CPU backend (ExecContext and a TBB
// global_control), so that the output is identical run to run.
//
// Usage: method_report [data_dir] [--only=<substring of a system's name>]
//   (data_dir defaults to ../shared/data)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "core/base/exec_context.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/solver.h"
#include "tbb/global_control.h"

namespace fs = std::filesystem;

namespace factord {
namespace {

// One system of the data set: its name (path relative to the data dir) and
// where its matrix and right-hand side are ("" for b = ones).
struct System {
  std::string name;
  std::string matrix_path;
  std::string rhs_path;
};

// One run: a method with the Krylov method it is solved with.
struct MethodRun {
  Method method;
  Krylov krylov;
};

std::string Relative(const fs::path& path, const fs::path& root) {
  return fs::relative(path, root).generic_string();
}

// Every system of the data set, in a fixed order: matrices/ by name, then
// matrices/resolve/, then kkt/ by path.
std::vector<System> FindSystems(const fs::path& root) {
  std::vector<System> systems;
  auto sorted_files = [](const fs::path& dir, bool recursive) {
    std::vector<fs::path> files;
    if (!fs::is_directory(dir)) return files;
    if (recursive) {
      for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
    } else {
      for (const auto& e : fs::directory_iterator(dir)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
    }
    std::sort(files.begin(), files.end());
    return files;
  };
  for (const fs::path& p : sorted_files(root / "matrices", false)) {
    if (p.extension() != ".mtx") continue;
    systems.push_back({Relative(p, root), p.string(), ""});
  }
  for (const fs::path& p : sorted_files(root / "matrices" / "resolve", false)) {
    const std::string file = p.filename().string();
    if (p.extension() != ".mtx" || !absl::StartsWith(file, "A_")) continue;
    const fs::path rhs = p.parent_path() / ("b_" + file.substr(2));
    systems.push_back(
        {Relative(p, root), p.string(), fs::exists(rhs) ? rhs.string() : ""});
  }
  for (const fs::path& p : sorted_files(root / "kkt", true)) {
    const std::string file = p.filename().string();
    if (p.extension() != ".mtx" || !absl::StartsWith(file, "K_")) continue;
    const std::string k = p.stem().string().substr(2);
    const fs::path rhs = p.parent_path() / ("rhs_" + k + ".rhs");
    systems.push_back(
        {Relative(p, root), p.string(), fs::exists(rhs) ? rhs.string() : ""});
  }
  return systems;
}

// The methods run on `a`: ic only where it applies (symmetric storage).
std::vector<MethodRun> MethodsFor(const CsrMatrix& a) {
  std::vector<MethodRun> runs = {{Method::kLdlt, Krylov::kAuto},
                                 {Method::kBlockIldlt, Krylov::kAuto},
                                 {Method::kJacobiLdlt, Krylov::kAuto}};
  if (IsSymmetric(a.structure)) runs.push_back({Method::kIc, Krylov::kAuto});
  runs.push_back({Method::kIlu, Krylov::kAuto});
  runs.push_back({Method::kBlockJacobi, Krylov::kAuto});
  runs.push_back({Method::kJacobi, Krylov::kAuto});
  runs.push_back({Method::kLu, Krylov::kAuto});
  for (Krylov k : {Krylov::kCg, Krylov::kGmres, Krylov::kSqmr, Krylov::kIdr,
                   Krylov::kBicgstab}) {
    runs.push_back({Method::kNone, k});
  }
  return runs;
}

// A status as `code "message"`, the message on one line.
std::string StatusText(const absl::Status& s) {
  if (s.ok()) return "OK";
  return absl::StrCat(absl::StatusCodeToString(s.code()), " \"",
                      absl::StrReplaceAll(s.message(), {{"\n", "\\n"}}), "\"");
}

std::string Quoted(const std::string& text) {
  return absl::StrCat("\"", absl::StrReplaceAll(text, {{"\n", "\\n"}}), "\"");
}

std::string G17(double v) { return absl::StrFormat("%.17g", v); }

// 64-bit FNV-1a of the bytes of x: equal iff the solutions are bit for bit
// equal (up to hash collisions).
uint64_t BitsHash(const std::vector<double>& x) {
  uint64_t h = 1469598103934665603ull;
  for (double v : x) {
    unsigned char bytes[sizeof(double)];
    std::memcpy(bytes, &v, sizeof(double));
    for (unsigned char c : bytes) {
      h ^= c;
      h *= 1099511628211ull;
    }
  }
  return h;
}

std::string FactorText(const FactorReport& f) {
  std::vector<std::string> sweeps;
  for (double e : f.sweep_errors) sweeps.push_back(G17(e));
  return absl::StrCat(
      "fstatus=", FactorStatusName(f.status), " inertia=(", f.inertia.positive,
      ",", f.inertia.negative, ",", f.inertia.zero,
      ") reliable=", f.inertia_reliable ? 1 : 0,
      " perturbed=", f.perturbed_pivots, " 2x2=", f.two_by_two_pivots,
      " delayed=", f.delayed_pivots, " singular_blocks=", f.singular_blocks,
      " nnzL=", f.nnz_factor, " blocks=", f.blocks,
      " factor_bytes=", f.factor_bytes, " sweep_errors=[",
      absl::StrJoin(sweeps, ","), "] fmessage=", Quoted(f.message));
}

std::string SolutionText(const std::vector<double>& x) {
  double sum_sq = 0;
  for (double v : x) sum_sq += v * v;
  const size_t n = x.size();
  return absl::StrCat("x_norm2=", G17(std::sqrt(sum_sq)),
                      " x[0]=", G17(n > 0 ? x[0] : 0),
                      " x[n/2]=", G17(n > 0 ? x[n / 2] : 0),
                      " x[n-1]=", G17(n > 0 ? x[n - 1] : 0),
                      absl::StrFormat(" x_bits=%016x", BitsHash(x)));
}

// Analyze, factorize and solve `a` with one method; prints one line.
void RunMethod(const std::string& name, std::shared_ptr<const CsrMatrix> a,
               const std::vector<double>& b, const MethodRun& run,
               const ExecContext& ctx) {
  FactorOptions options;
  options.method = run.method;
  SolveOptions solve_options;
  solve_options.krylov = run.krylov;
  std::string line = absl::StrCat(name, " method=", MethodName(run.method),
                                  " krylov=", KrylovName(run.krylov));
  absl::StatusOr<std::shared_ptr<const Analysis>> analysis =
      Analyze(*a, options, ctx);
  absl::StrAppend(&line, " analyze=", StatusText(analysis.status()));
  if (!analysis.ok()) {
    std::printf("%s\n", line.c_str());
    return;
  }
  absl::StrAppend(
      &line, " analysis_bytes=", (*analysis)->bytes(),
      " factor_bytes_estimate=", (*analysis)->factor_bytes_estimate());
  absl::StatusOr<std::shared_ptr<const Factorization>> factorization =
      Factorize(a, *analysis, options, ctx);
  absl::StrAppend(&line, " factorize=", StatusText(factorization.status()));
  if (!factorization.ok()) {
    std::printf("%s\n", line.c_str());
    return;
  }
  absl::StrAppend(&line, " ", FactorText((*factorization)->report()),
                  " bytes=", (*factorization)->bytes());
  std::vector<double> x(a->rows, 0.0);
  SolveReport solve;
  const absl::Status solved =
      (*factorization)->Solve(b, x, solve_options, ctx, &solve);
  absl::StrAppend(&line, " solve=", StatusText(solved));
  if (solved.ok()) {
    absl::StrAppend(&line, " sstatus=", SolveStatusName(solve.status),
                    " relres=", G17(solve.relative_residual),
                    " berr=", G17(solve.backward_error),
                    " iterations=", solve.iterations,
                    " smessage=", Quoted(solve.message), " ", SolutionText(x));
  }
  std::printf("%s\n", line.c_str());
}

void RunSystem(const System& system, const ExecContext& ctx) {
  MatrixMarketInfo info;
  absl::StatusOr<CsrMatrix> read =
      ReadMatrixMarket(system.matrix_path, &info, MatrixMarketLimits());
  if (!read.ok()) {
    std::printf("%s read=%s\n", system.name.c_str(),
                StatusText(read.status()).c_str());
    return;
  }
  if (info.pattern_only()) {
    std::printf("%s skipped: pattern-only matrix (no values)\n",
                system.name.c_str());
    return;
  }
  auto a = std::make_shared<const CsrMatrix>(*std::move(read));
  std::vector<double> b(a->rows, 1.0);
  std::string rhs = "ones";
  if (!system.rhs_path.empty()) {
    absl::StatusOr<std::vector<double>> given =
        ReadDenseVector(system.rhs_path);
    if (!given.ok() || static_cast<int64_t>(given->size()) != a->rows) {
      std::printf(
          "%s rhs=%s\n", system.name.c_str(),
          given.ok() ? "wrong size" : StatusText(given.status()).c_str());
      return;
    }
    b = *std::move(given);
    rhs = fs::path(system.rhs_path).filename().string();
  }
  std::printf(
      "%s n=%lld nnz=%lld structure=%s rhs=%s auto=%s\n", system.name.c_str(),
      static_cast<long long>(a->rows), static_cast<long long>(a->nnz()),
      std::string(StructureName(a->structure)).c_str(), rhs.c_str(),
      std::string(MethodName(ResolveMethod(*a, Method::kAuto))).c_str());
  for (const MethodRun& run : MethodsFor(*a)) {
    RunMethod(system.name, a, b, run, ctx);
    std::fflush(stdout);
  }
}

int Main(int argc, char** argv) {
  std::string data_dir = "../shared/data";
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (absl::StartsWith(arg, "--only=")) {
      only = arg.substr(7);
    } else if (absl::StartsWith(arg, "--")) {
      std::fprintf(stderr,
                   "usage: method_report [data_dir] [--only=<substring>]\n");
      return 2;
    } else {
      data_dir = arg;
    }
  }
  if (!fs::exists(fs::path(data_dir) / "README.md")) {
    std::fprintf(stderr, "method_report: %s is not the shared data set\n",
                 data_dir.c_str());
    return 2;
  }
  // One thread everywhere: the core's CPU kernels run on an arena of
  // ctx.threads; global_control caps anything else TBB would start.
  tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism,
                                 1);
  ExecContext ctx;
  ctx.backend = Backend::kCpu;
  ctx.threads = 1;
  ctx.deterministic = true;
  std::printf(
      "# factord method report (bench/method_report.cc): every method on "
      "every system of the shared data set, no timings.\n"
      "# Compare a build with this baseline: scripts/method_report.sh > "
      "/tmp/after.txt && diff docs/measurements/method_report.txt "
      "/tmp/after.txt\n");
  std::printf("# backend=%s threads=%d lu=%s\n",
              std::string(BackendName(ctx.backend)).c_str(), ctx.threads,
              LuAvailable() ? "umfpack" : "absent");
  for (const System& system : FindSystems(data_dir)) {
    if (!only.empty() && !absl::StrContains(system.name, only)) continue;
    RunSystem(system, ctx);
  }
  return 0;
}

}  // namespace
}  // namespace factord

int main(int argc, char** argv) { return factord::Main(argc, argv); }
