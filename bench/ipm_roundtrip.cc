// ipm_roundtrip: what one interior-point iteration costs through factord,
// three ways, on the same machine in the same run.
//
//   ipm_roundtrip [--data=DIR] [--repeat=R] [--min_samples=S] [--threads=N]
//                 [--chunk_bytes=B] [--shift=D] [--filter=SUBSTRING]
//                 [--diagnose] [--ipm=NAME,NAME,...]
//
// For each problem of DIR/kkt (default ../shared/data, or
// $FACTORD_SHARED_DATA) its 2x2 KKT systems iter_0, iter_k, ... (one
// pattern, new values) are an IPM's iterations. A factord Server runs in
// this process on 127.0.0.1:0 and one client drives it. Per iteration (new
// values, ldlt factorization reusing the analysis with the IPM's diagonal
// shifts, two right-hand sides: rhs_k and ones):
//   three: UpdateValues + Factorize + Solve (three RPCs, as before Step);
//   fused: one Step RPC (values, shifts and both right-hand sides);
//   core:  the core facade in process, Analyze once, then per iteration the
//          values copied into the matrix, Factorize and two Solves.
// All three use the same options and thread count, each with an analysis
// made once beforehand (the upload and a first factorization are not
// timed). The iteration sequence is cycled until every system has at least
// S samples (R passes at least); the three are run in a rotating order.
// Times are client-side wall clock, median over the samples. One JSON line
// per system with the ratios fused/three and fused/core, and the server's
// own factorize + solve time for the Step (what the rest of fused is: the
// RPC, the transfer and the handoffs); then a summary line with the median
// ratios and the targets (fused <= 0.5 x three; fused <= 1.5 x core
// for n >= 5000). With no data directory it prints a note and exits 0.
// --diagnose adds, per system, the times of single RPCs (GetMatrix,
// UpdateValues, Factorize, Solve and Step with 0-2 right-hand sides, with
// and without values): where the time of a Step goes.
// --ipm runs factord-ipm's solver on the LPs DIR/lp/NAME.mps.gz (or the QPs
// DIR/qp/NAME.SIF) end to end through the same server, alternately with
// RemoteKktSolver as it is (a Step and the corrector's Solve per iteration)
// and with the three-call path (UpdateValues, Factorize, Solve, Solve), and
// prints the wall time per IPM iteration of each (median of 5 runs each);
// --filter=NONE then skips the KKT systems.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench/loopback.h"
#include "client/factord_client.h"
#include "client/ipm/ipm.h"
#include "client/ipm/kkt_solver.h"
#include "client/ipm/mps_reader.h"
#include "client/ipm/remote_kkt_solver.h"
#include "client/matrix_arrays.h"
#include "core/base/timer.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/solver.h"
#include "server/config.h"

namespace fs = std::filesystem;

namespace factord::bench {
namespace {

struct Settings {
  std::string data;
  int repeat = 3;        // passes over each system's iterations, at least
  int min_samples = 16;  // per system and way
  int threads = 0;       // 0: hardware concurrency
  int64_t chunk_bytes = int64_t{1} << 20;
  double shift = 1e-12;  // factord-ipm's delta_p = delta_d
  std::string filter;
  bool diagnose = false;  // also time the single RPCs (DiagnoseSystem)
  std::vector<std::string> ipm_lps;  // --ipm: whole IPM runs on these LPs
};

// One problem's 2x2 iterations: same pattern, values and rhs per iteration.
struct System {
  std::string name;
  std::vector<std::string> iterations;  // "iter_0", "iter_10", ...
  std::vector<std::shared_ptr<CsrMatrix>> matrices;
  std::vector<std::vector<double>> rhs;
};

double Median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

std::string Num(double v) {
  if (!std::isfinite(v)) return "null";
  return absl::StrFormat("%.4g", v);
}

std::string DefaultDataDir() {
  if (const char* env = std::getenv("FACTORD_SHARED_DATA")) return env;
  return std::string(FACTORD_SOURCE_DIR) + "/../shared/data";
}

bool ParseFlags(int argc, char** argv, Settings* s) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](absl::string_view name) -> const char* {
      const std::string prefix = absl::StrCat("--", name, "=");
      return absl::StartsWith(arg, prefix) ? argv[i] + prefix.size() : nullptr;
    };
    const char* v = nullptr;
    if ((v = value("data"))) {
      s->data = v;
    } else if ((v = value("filter"))) {
      s->filter = v;
    } else if ((v = value("repeat"))) {
      if (!absl::SimpleAtoi(v, &s->repeat) || s->repeat < 1) return false;
    } else if ((v = value("min_samples"))) {
      if (!absl::SimpleAtoi(v, &s->min_samples)) return false;
    } else if ((v = value("threads"))) {
      if (!absl::SimpleAtoi(v, &s->threads)) return false;
    } else if ((v = value("chunk_bytes"))) {
      if (!absl::SimpleAtoi(v, &s->chunk_bytes)) return false;
    } else if ((v = value("shift"))) {
      if (!absl::SimpleAtod(v, &s->shift)) return false;
    } else if (arg == "--diagnose") {
      s->diagnose = true;
    } else if ((v = value("ipm"))) {
      s->ipm_lps = absl::StrSplit(v, ',', absl::SkipEmpty());
    } else {
      std::fprintf(stderr, "unknown argument %s\n", arg.c_str());
      return false;
    }
  }
  return true;
}

// The 2x2 systems under data/kkt, iterations in numeric order; iterations
// whose pattern differs from the first are left out (with a note).
std::vector<System> DiscoverSystems(const fs::path& kkt,
                                    const std::string& filter) {
  std::vector<fs::path> problems;
  for (const auto& entry : fs::directory_iterator(kkt)) {
    if (entry.is_directory() && fs::is_directory(entry.path() / "2x2")) {
      problems.push_back(entry.path());
    }
  }
  std::sort(problems.begin(), problems.end());
  std::vector<System> systems;
  for (const fs::path& problem : problems) {
    System system;
    system.name = problem.filename().string() + "/2x2";
    if (!filter.empty() && !absl::StrContains(system.name, filter)) continue;
    std::vector<std::pair<int, fs::path>> iters;
    for (const auto& entry : fs::directory_iterator(problem / "2x2")) {
      const std::string name = entry.path().filename().string();
      int k = 0;
      if (absl::StartsWith(name, "iter_") &&
          absl::SimpleAtoi(name.substr(5), &k)) {
        iters.emplace_back(k, entry.path());
      }
    }
    std::sort(iters.begin(), iters.end());
    for (const auto& [k, dir] : iters) {
      absl::StatusOr<CsrMatrix> a =
          ReadMatrixMarket((dir / absl::StrCat("K_", k, ".mtx")).string());
      absl::StatusOr<std::vector<double>> b =
          ReadDenseVector((dir / absl::StrCat("rhs_", k, ".rhs")).string());
      if (!a.ok() || !b.ok() || static_cast<int64_t>(b->size()) != a->rows) {
        std::fprintf(stderr, "note: %s iter_%d unreadable, left out\n",
                     system.name.c_str(), k);
        continue;
      }
      if (!system.matrices.empty() &&
          (a->row_ptr != system.matrices[0]->row_ptr ||
           a->col_idx != system.matrices[0]->col_idx)) {
        std::fprintf(stderr, "note: %s iter_%d has another pattern, left out\n",
                     system.name.c_str(), k);
        continue;
      }
      system.iterations.push_back(absl::StrCat("iter_", k));
      system.matrices.push_back(std::make_shared<CsrMatrix>(*std::move(a)));
      system.rhs.push_back(*std::move(b));
    }
    if (!system.matrices.empty()) systems.push_back(std::move(system));
  }
  return systems;
}

struct Result {
  std::string error;
  int64_t n = 0, nnz = 0;
  int samples = 0;
  std::vector<double> three, fused, core;
  std::vector<double> three_update, three_factorize, three_solve;
  std::vector<double> fused_server;  // the Step's factorize + solve, server
  std::vector<double> fused_server_factorize, fused_server_solve,
      fused_server_queue;
  std::vector<double> core_factorize, core_solve;
  bool analysis_reused = true;
  double max_x_difference = 0;  // fused against core, relative, max norm
  double max_residual = 0;      // fused, relative
};

double RelativeDifference(std::span<const double> x,
                          std::span<const double> reference) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < reference.size(); ++i) {
    diff = std::max(diff, std::abs(x[i] - reference[i]));
    norm = std::max(norm, std::abs(reference[i]));
  }
  return norm > 0 ? diff / norm : diff;
}

Result RunSystem(const System& system, const Settings& settings, int threads,
                 client::Client& client) {
  Result out;
  const CsrMatrix& first = *system.matrices[0];
  out.n = first.rows;
  out.nnz = first.nnz();
  const std::vector<double> ones(first.rows, 1.0);

  client::FactorizeOptions ldlt;
  ldlt.method = "ldlt";
  client::SolveOptions solve;  // krylov auto: refinement for ldlt

  // Uploads and first factorizations, not timed: the analysis is made
  // once (shared by both IDs through the server's analysis cache).
  const std::string three_id = client::NewMatrixId();
  const std::string fused_id = client::NewMatrixId();
  for (const std::string& id : {three_id, fused_id}) {
    absl::StatusOr<client::MatrixInfo> up =
        client.Upload(client::ArraysOf(first), id);
    if (!up.ok()) {
      out.error = up.status().ToString();
      return out;
    }
  }
  absl::StatusOr<client::FactorizeResult> warm =
      client.Factorize(three_id, ldlt);
  if (!warm.ok()) {
    out.error = warm.status().ToString();
    return out;
  }
  // The IPM's shifts: -delta on the (1,1) block (its size is the negative
  // inertia of the quasi-definite system), +delta on the (2,2) block.
  ldlt.shift_first = -settings.shift;
  ldlt.shift_rest = settings.shift;
  ldlt.shift_count = warm->inertia.negative;
  uint64_t three_generation = 1, fused_generation = 1;

  ExecContext ctx;
  ctx.backend = Backend::kCpu;
  ctx.threads = threads;
  ctx.deterministic = false;  // as the server does for this client's calls
  FactorOptions options;
  options.method = Method::kLdlt;
  options.shift_first = ldlt.shift_first;
  options.shift_rest = ldlt.shift_rest;
  options.shift_count = ldlt.shift_count;
  SolveOptions core_solve;  // Krylov auto, tolerance 1e-8, as the server's
  auto core_matrix = std::make_shared<CsrMatrix>(first);
  absl::StatusOr<std::shared_ptr<const Analysis>> analysis =
      Analyze(*core_matrix, options, ctx);
  if (!analysis.ok()) {
    out.error = analysis.status().ToString();
    return out;
  }
  std::shared_ptr<const Factorization> core_factor;

  const int iterations = static_cast<int>(system.matrices.size());
  const int passes = std::max(
      settings.repeat, (settings.min_samples + iterations - 1) / iterations);
  std::vector<double> x_fused, x_core;
  // Pass 0 warms every way up (first shifted factorization, first Step of
  // its ID, stream set-up) and is not recorded.
  for (int pass = 0; pass <= passes; ++pass) {
    const bool record = pass > 0;
    for (int it = 0; it < iterations; ++it) {
      const std::vector<double>& values = system.matrices[it]->values;
      const std::vector<std::span<const double>> rhs = {system.rhs[it], ones};
      const int sample = pass * iterations + it;
      for (int turn = 0; turn < 3; ++turn) {
        const int way = (sample + turn) % 3;
        Timer timer;
        if (way == 0) {  // three RPCs
          absl::StatusOr<client::MatrixInfo> info =
              client.UpdateValues(three_id, values, three_generation);
          if (!info.ok()) {
            out.error = info.status().ToString();
            return out;
          }
          three_generation = info->generation;
          const double update_s = timer.Seconds();
          client::FactorizeOptions o = ldlt;
          o.expected_generation = three_generation;
          absl::StatusOr<client::FactorizeResult> f =
              client.Factorize(three_id, o);
          if (!f.ok()) {
            out.error = f.status().ToString();
            return out;
          }
          const double factorize_s = timer.Seconds() - update_s;
          client::SolveOptions so = solve;
          so.expected_generation = three_generation;
          absl::StatusOr<std::vector<client::SolveResult>> x =
              client.Solve(three_id, rhs, so);
          if (!x.ok()) {
            out.error = x.status().ToString();
            return out;
          }
          if (record) {
            const double total_s = timer.Seconds();
            out.three.push_back(total_s);
            out.three_update.push_back(update_s);
            out.three_factorize.push_back(factorize_s);
            out.three_solve.push_back(total_s - update_s - factorize_s);
          }
        } else if (way == 1) {  // one Step
          client::StepOptions step;
          step.factorize = ldlt;
          step.factorize.expected_generation = fused_generation;
          step.solve = solve;
          absl::StatusOr<client::StepResult> r =
              client.Step(fused_id, values, rhs, step);
          if (!r.ok()) {
            out.error = r.status().ToString();
            return out;
          }
          const double fused_s = timer.Seconds();
          fused_generation = r->factorization.generation;
          const client::Timings& t = r->factorization.timings;
          const double server_factorize_s =
              t.preprocess_s + t.analyze_s + t.factorize_s;
          double server_solve_s = 0;
          for (const client::SolveResult& s : r->solutions) {
            server_solve_s += s.timings.solve_s;
            out.max_residual = std::max(out.max_residual, s.relative_residual);
          }
          const double server_s = server_factorize_s + server_solve_s;
          if (record) {
            out.fused.push_back(fused_s);
            out.fused_server.push_back(server_s);
            out.fused_server_factorize.push_back(server_factorize_s);
            out.fused_server_solve.push_back(server_solve_s);
            out.fused_server_queue.push_back(t.queue_s);
            out.analysis_reused =
                out.analysis_reused && r->factorization.analysis_reused;
          }
          x_fused = std::move(r->solutions[0].x);
        } else {  // the core in process
          // Dropping the last factorization makes the matrix ours again to
          // overwrite.
          core_factor.reset();
          std::copy(values.begin(), values.end(), core_matrix->values.begin());
          Timer stage;
          absl::StatusOr<std::shared_ptr<const Factorization>> f =
              Factorize(core_matrix, *analysis, options, ctx);
          if (!f.ok()) {
            out.error = f.status().ToString();
            return out;
          }
          core_factor = *std::move(f);
          const double factorize_s = stage.Seconds();
          stage.Reset();
          std::vector<std::vector<double>> x(
              rhs.size(), std::vector<double>(first.rows, 0.0));
          for (size_t k = 0; k < rhs.size(); ++k) {
            SolveReport report;
            if (absl::Status s =
                    core_factor->Solve(rhs[k], x[k], core_solve, ctx, &report);
                !s.ok()) {
              out.error = s.ToString();
              return out;
            }
          }
          const double solve_s = stage.Seconds();
          if (record) {
            out.core_factorize.push_back(factorize_s);
            out.core_solve.push_back(solve_s);
            out.core.push_back(timer.Seconds());
          }
          x_core = std::move(x[0]);
        }
      }
      out.max_x_difference =
          std::max(out.max_x_difference, RelativeDifference(x_fused, x_core));
      if (record) ++out.samples;
    }
  }
  client.Release(three_id).IgnoreError();
  client.Release(fused_id).IgnoreError();
  return out;
}

// Where the time of a Step goes: the median client-side time of single
// RPCs on the system's first iteration, from the unary floor up to the full
// Step, so that the cost of each extra message and of the work hand-off can
// be read off by difference. One JSON line.
std::string DiagnoseSystem(const System& system, const Settings& settings,
                           client::Client& client) {
  const CsrMatrix& a = *system.matrices[0];
  const std::vector<double> ones(a.rows, 1.0);
  const std::string id = client::NewMatrixId();
  if (!client.Upload(client::ArraysOf(a), id).ok()) return "";
  client::FactorizeOptions ldlt;
  ldlt.method = "ldlt";
  if (!client.Factorize(id, ldlt).ok()) return "";
  const std::vector<std::span<const double>> none, one = {system.rhs[0]},
                                                   two = {system.rhs[0], ones};
  const std::vector<std::vector<double>> one_rhs = {system.rhs[0]},
                                         two_rhs = {system.rhs[0], ones};
  auto step = [&](std::span<const double> values,
                  const std::vector<std::span<const double>>& rhs) {
    return [&, values] {
      client::StepOptions o;
      o.factorize = ldlt;
      return client.Step(id, values, rhs, o).ok();
    };
  };
  struct Probe {
    const char* name;
    std::function<bool()> call;
    std::vector<double> seconds;
  };
  std::vector<Probe> probes = {
      {"get_matrix_s", [&] { return client.GetMatrix(id).ok(); }, {}},
      {"update_values_s",
       [&] { return client.UpdateValues(id, a.values).ok(); },
       {}},
      {"factorize_s", [&] { return client.Factorize(id, ldlt).ok(); }, {}},
      {"solve_1_s", [&] { return client.Solve(id, one_rhs).ok(); }, {}},
      {"solve_2_s", [&] { return client.Solve(id, two_rhs).ok(); }, {}},
      {"step_0_s", step({}, none), {}},
      {"step_1_s", step({}, one), {}},
      {"step_2_s", step({}, two), {}},
      {"step_values_0_s", step(a.values, none), {}},
      {"step_values_2_s", step(a.values, two), {}},
  };
  // Interleaved, so that the load of a shared machine hits every probe
  // alike; the first round warms up.
  const int reps = std::max(20, 4 * settings.min_samples);
  for (int k = 0; k <= reps; ++k) {
    for (Probe& p : probes) {
      Timer timer;
      if (!p.call()) return "";
      if (k > 0) p.seconds.push_back(timer.Seconds());
    }
  }
  std::string line = absl::StrCat("{\"diagnose\":\"", system.name,
                                  "\",\"n\":", a.rows, ",\"nnz\":", a.nnz());
  for (const Probe& p : probes) {
    absl::StrAppend(&line, ",\"", p.name, "\":", Num(Median(p.seconds)));
  }
  client.Release(id).IgnoreError();
  return line + "}";
}

// RemoteKktSolver with the one-round-trip FactorizeAndSolve hidden: the
// seam's default, SetValues (UpdateValues) + Factorize + Solve.
class ThreeCallKktSolver : public ipm::KktSolver {
 public:
  explicit ThreeCallKktSolver(ipm::RemoteKktSolver& remote) : remote_(remote) {}
  absl::Status SetValues(const ipm::SymmetricLowerCsr& kkt) override {
    return remote_.SetValues(kkt);
  }
  absl::StatusOr<ipm::KktFactorReport> Factorize(
      const ipm::DiagonalShift& shift) override {
    return remote_.Factorize(shift);
  }
  absl::StatusOr<ipm::KktSolveReport> Solve(
      std::vector<std::vector<double>>& rhs) override {
    return remote_.Solve(rhs);
  }
  int64_t bytes_sent() const override { return remote_.bytes_sent(); }
  int64_t round_trips() const override { return remote_.round_trips(); }

 private:
  ipm::RemoteKktSolver& remote_;
};

// factord-ipm's solver on `name` both ways; one JSON line.
std::string RunIpm(const std::string& name, const fs::path& data,
                   client::Client& client) {
  // An LP (lp/NAME.mps.gz) or a QP (qp/NAME.SIF).
  const fs::path lp = data / "lp" / (name + ".mps.gz");
  absl::StatusOr<ipm::QpProblem> problem = ipm::ReadMpsFile(
      (fs::exists(lp) ? lp : data / "qp" / (name + ".SIF")).string());
  if (!problem.ok()) {
    return absl::StrCat("{\"ipm\":\"", name, "\",\"error\":\"unreadable\"}");
  }
  client::FactorizeOptions factorize;
  factorize.method = "ldlt";
  client::SolveOptions solve;
  solve.krylov = "none";
  std::vector<double> fused_s, three_s;
  int iterations[2] = {0, 0};
  int64_t trips[2] = {0, 0};
  double objective[2] = {0, 0};
  for (int run = 0; run < 10; ++run) {
    const bool fused = run % 2 == 0;
    ipm::RemoteKktSolver remote(&client, factorize, solve);
    ThreeCallKktSolver three(remote);
    Timer timer;
    absl::StatusOr<ipm::IpmResult> r = ipm::SolveQp(
        *problem, fused ? static_cast<ipm::KktSolver&>(remote) : three,
        ipm::IpmOptions{});
    const double seconds = timer.Seconds();
    if (!r.ok() || r->status != ipm::IpmStatus::kOptimal) {
      return absl::StrCat("{\"ipm\":\"", name, "\",\"error\":\"not solved\"}");
    }
    (fused ? fused_s : three_s).push_back(seconds);
    iterations[fused] = r->iterations;
    trips[fused] = remote.round_trips();
    objective[fused] = r->objective;
  }
  const double fused = Median(fused_s) / std::max(1, iterations[1]);
  const double three = Median(three_s) / std::max(1, iterations[0]);
  return absl::StrFormat(
      "{\"ipm\":\"%s\",\"iterations\":%d,\"same_iterations\":%s,"
      "\"same_objective\":%s,\"round_trips_fused\":%d,"
      "\"round_trips_three\":%d,\"fused_s_per_iteration\":%s,"
      "\"three_s_per_iteration\":%s,\"fused_over_three\":%s}",
      name, iterations[1], iterations[0] == iterations[1] ? "true" : "false",
      objective[0] == objective[1] ? "true" : "false", trips[1], trips[0],
      Num(fused), Num(three), Num(fused / three));
}

// The floor of one RPC on this channel: a unary GetMatrix of a small
// matrix, median of 50.
double RpcFloor(client::Client& client) {
  CsrMatrix one;
  one.rows = one.cols = 1;
  one.structure = Structure::kSymmetricLower;
  one.row_ptr = {0, 1};
  one.col_idx = {0};
  one.values = {1.0};
  const std::string id = client::NewMatrixId();
  if (!client.Upload(client::ArraysOf(one), id).ok()) return -1;
  std::vector<double> t;
  for (int k = 0; k < 50; ++k) {
    Timer timer;
    if (!client.GetMatrix(id).ok()) return -1;
    t.push_back(timer.Seconds());
  }
  client.Release(id).IgnoreError();
  return Median(t);
}

int Main(int argc, char** argv) {
  Settings settings;
  settings.data = DefaultDataDir();
  if (!ParseFlags(argc, argv, &settings)) return 2;
  const fs::path kkt = fs::path(settings.data) / "kkt";
  if (!fs::is_directory(kkt)) {
    std::printf(
        "{\"skipped\":true,\"reason\":\"no KKT systems at %s (set --data or "
        "FACTORD_SHARED_DATA)\"}\n",
        kkt.string().c_str());
    return 0;
  }
  const int threads = ThreadsOrAllCores(settings.threads);

  server::ServerConfig config;
  config.threads = threads;
  client::ConnectOptions connect;
  connect.max_chunk_bytes = settings.chunk_bytes;
  absl::StatusOr<std::unique_ptr<Loopback>> loopback =
      StartLoopback(config, connect);
  if (!loopback.ok()) {
    std::fprintf(stderr, "%s\n", loopback.status().ToString().c_str());
    return 1;
  }
  client::Client& client = *(*loopback)->client;
  const double rpc_floor_s = RpcFloor(client);

  std::vector<System> systems = DiscoverSystems(kkt, settings.filter);
  std::vector<double> fused_over_three, fused_over_core_large;
  std::vector<double> fused_over_three_small, fused_over_three_large;
  for (const System& system : systems) {
    if (settings.diagnose) {
      std::printf("%s\n", DiagnoseSystem(system, settings, client).c_str());
    }
    Result r = RunSystem(system, settings, threads, client);
    if (!r.error.empty()) {
      std::replace(r.error.begin(), r.error.end(), '"', '\'');
      std::printf("{\"system\":\"%s\",\"error\":\"%s\"}\n", system.name.c_str(),
                  r.error.c_str());
      continue;
    }
    const double three = Median(r.three), fused = Median(r.fused),
                 core = Median(r.core);
    const double fused_server = Median(r.fused_server);
    fused_over_three.push_back(fused / three);
    (r.n >= 5000 ? fused_over_three_large : fused_over_three_small)
        .push_back(fused / three);
    if (r.n >= 5000) fused_over_core_large.push_back(fused / core);
    std::printf(
        "{\"system\":\"%s\",\"n\":%lld,\"nnz\":%lld,\"iterations\":%zu,"
        "\"samples\":%d,\"three_s\":%s,\"fused_s\":%s,\"core_s\":%s,"
        "\"fused_over_three\":%s,\"fused_over_core\":%s,"
        "\"fused_server_s\":%s,\"fused_outside_compute_s\":%s,"
        "\"fused_server_factorize_s\":%s,\"fused_server_solve_s\":%s,"
        "\"fused_server_queue_s\":%s,\"three_update_s\":%s,"
        "\"three_factorize_s\":%s,\"three_solve_s\":%s,"
        "\"core_factorize_s\":%s,\"core_solve_s\":%s,"
        "\"analysis_reused\":%s,\"max_x_difference\":%s,"
        "\"max_residual\":%s}\n",
        system.name.c_str(), static_cast<long long>(r.n),
        static_cast<long long>(r.nnz), system.matrices.size(), r.samples,
        Num(three).c_str(), Num(fused).c_str(), Num(core).c_str(),
        Num(fused / three).c_str(), Num(fused / core).c_str(),
        Num(fused_server).c_str(), Num(fused - fused_server).c_str(),
        Num(Median(r.fused_server_factorize)).c_str(),
        Num(Median(r.fused_server_solve)).c_str(),
        Num(Median(r.fused_server_queue)).c_str(),
        Num(Median(r.three_update)).c_str(),
        Num(Median(r.three_factorize)).c_str(),
        Num(Median(r.three_solve)).c_str(),
        Num(Median(r.core_factorize)).c_str(),
        Num(Median(r.core_solve)).c_str(), r.analysis_reused ? "true" : "false",
        Num(r.max_x_difference).c_str(), Num(r.max_residual).c_str());
    std::fflush(stdout);
  }
  for (const std::string& name : settings.ipm_lps) {
    std::printf("%s\n", RunIpm(name, settings.data, client).c_str());
    std::fflush(stdout);
  }
  const double three_ratio = Median(fused_over_three);
  const double core_ratio = Median(fused_over_core_large);
  std::printf(
      "{\"summary\":true,\"systems\":%zu,\"threads\":%d,\"chunk_bytes\":%lld,"
      "\"shift\":%g,\"rpc_floor_s\":%s,"
      "\"median_fused_over_three\":%s,\"target_fused_over_three\":0.5,"
      "\"fused_over_three_met\":%s,"
      "\"median_fused_over_three_n_lt_5000\":%s,"
      "\"median_fused_over_three_n_ge_5000\":%s,\"systems_n_ge_5000\":%zu,"
      "\"median_fused_over_core_n_ge_5000\":%s,"
      "\"target_fused_over_core\":1.5,\"fused_over_core_met\":%s}\n",
      fused_over_three.size(), threads,
      static_cast<long long>(settings.chunk_bytes), settings.shift,
      Num(rpc_floor_s).c_str(), Num(three_ratio).c_str(),
      three_ratio <= 0.5 ? "true" : "false",
      Num(Median(fused_over_three_small)).c_str(),
      Num(Median(fused_over_three_large)).c_str(), fused_over_core_large.size(),
      Num(core_ratio).c_str(), core_ratio <= 1.5 ? "true" : "false");
  return 0;
}

}  // namespace
}  // namespace factord::bench

int main(int argc, char** argv) { return factord::bench::Main(argc, argv); }
