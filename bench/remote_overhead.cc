// remote_overhead: what going through factord costs compared with calling
// the core in-process, on the same machine, in the same run.
//
//   remote_overhead [--method=block_jacobi] [--krylov=cg] [--threads=N]
//                   [--repeat=R] [--chunk_bytes=B] [--structure=auto|spd]
//                   [FILE.mtx ...]
//
// For each matrix (by default tests/data 494_bus, 1138_bus, bcsstk13 and
// resolve/A_spd01 with b_spd01, declared SPD; then the files given, whose
// right-hand side is the sibling b_X.mtx of an A_X.mtx, else ones):
//   - local:  the core facade, Analyze + Factorize + Solve;
//   - remote: a factord Server in this process on 127.0.0.1:0 driven through
//     the client library: Upload + Factorize + Solve (+ Release), timed on
//     the client side, with the server's own stage timings next to them.
// Both use the same method, options and thread count. When the server
// reports that it reused a cached analysis (same pattern hash), the local
// side reuses its analysis in that repeat too; each stage is the minimum
// over the repeats. One JSON line per matrix; ratio = remote / local.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/loopback.h"
#include "client/factord_client.h"
#include "core/base/timer.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/residual.h"
#include "core/solver/solver.h"
#include "server/config.h"

namespace fs = std::filesystem;

namespace factord::bench {
namespace {

struct Settings {
  std::string method = "block_jacobi";
  std::string krylov = "cg";
  std::string structure = "auto";  // for the files given: auto | spd
  int threads = 0;                 // 0: hardware concurrency
  int repeat = 3;
  int64_t chunk_bytes = int64_t{1} << 20;
};

struct Case {
  std::string name;
  std::string matrix_path;
  std::string rhs_path;  // empty: ones
  bool spd = false;
};

// Minimum of each stage over the repeats.
struct Stages {
  double upload_s = kInf, analyze_s = kInf, factorize_s = kInf, solve_s = kInf,
         total_s = kInf;
  // Server-side stage timings of the remote run (minimum over repeats).
  double server_preprocess_s = kInf, server_analyze_s = kInf,
         server_factorize_s = kInf, server_solve_s = kInf;
  static constexpr double kInf = std::numeric_limits<double>::infinity();
};

void Min(double& slot, double v) { slot = std::min(slot, v); }

std::string Num(double v) {
  if (!std::isfinite(v)) return "null";
  return absl::StrFormat("%.6g", v);
}

double Ratio(double remote, double local) {
  return local > 0 ? remote / local : std::numeric_limits<double>::quiet_NaN();
}

struct Outcome {
  std::string error;  // empty when both sides ran
  Stages local, remote;
  std::string method;
  std::string status_local, status_remote;
  int iterations_local = 0, iterations_remote = 0;
  double residual_local = 0, residual_remote = 0;
  double solution_difference = 0;  // max |x_l - x_r| / max |x_l|
  bool analysis_reused = false;    // remote, in the last repeat
  int64_t bytes_sent = 0;
};

absl::Status RunLocal(const std::shared_ptr<const CsrMatrix>& a,
                      const std::vector<double>& b, const Settings& settings,
                      int threads, bool reuse_analysis,
                      std::shared_ptr<const Analysis>* analysis, Outcome* out,
                      std::vector<double>* x) {
  absl::StatusOr<Method> requested = ParseMethod(settings.method);
  absl::StatusOr<Krylov> krylov = ParseKrylov(settings.krylov);
  if (!requested.ok()) return requested.status();
  if (!krylov.ok()) return krylov.status();
  ExecContext ctx;
  ctx.backend = Backend::kCpu;
  ctx.threads = threads;
  FactorOptions options;
  options.method = ResolveMethod(*a, *requested);
  out->method = std::string(MethodName(options.method));
  Timer total;
  Timer timer;
  if (*analysis == nullptr || !reuse_analysis) {
    absl::StatusOr<std::shared_ptr<const Analysis>> an =
        Analyze(*a, options, ctx);
    if (!an.ok()) return an.status();
    *analysis = *an;
    Min(out->local.analyze_s, timer.Seconds());
  } else {
    Min(out->local.analyze_s, 0.0);  // reused, as the server does
  }
  timer.Reset();
  absl::StatusOr<std::shared_ptr<const Factorization>> f =
      Factorize(a, *analysis, options, ctx);
  if (!f.ok()) return f.status();
  Min(out->local.factorize_s, timer.Seconds());
  SolveOptions solve;
  solve.krylov = *krylov;
  SolveReport report;
  x->assign(a->rows, 0.0);
  timer.Reset();
  if (absl::Status s = (*f)->Solve(b, *x, solve, ctx, &report); !s.ok()) {
    return s;
  }
  Min(out->local.solve_s, timer.Seconds());
  Min(out->local.total_s, total.Seconds());
  out->status_local = std::string(SolveStatusName(report.status));
  out->iterations_local = report.iterations;
  out->residual_local = report.relative_residual;
  return absl::OkStatus();
}

absl::Status RunRemote(client::Client& client, const CsrMatrix& a,
                       const std::vector<double>& b, const Settings& settings,
                       Outcome* out, std::vector<double>* x) {
  client::CsrArrays arrays{.n = a.rows,
                           .structure = std::string(StructureName(a.structure)),
                           .row_ptr = a.row_ptr,
                           .col_idx = a.col_idx,
                           .values = a.values};
  Timer total;
  Timer timer;
  absl::StatusOr<client::MatrixInfo> info = client.Upload(arrays);
  if (!info.ok()) return info.status();
  Min(out->remote.upload_s, timer.Seconds());
  out->bytes_sent = info->bytes_received;
  client::FactorizeOptions fo;
  fo.method = settings.method;
  timer.Reset();
  absl::StatusOr<client::FactorizeResult> f = client.Factorize(info->id, fo);
  if (!f.ok()) return f.status();
  Min(out->remote.factorize_s, timer.Seconds());
  Min(out->remote.server_preprocess_s, f->timings.preprocess_s);
  Min(out->remote.server_analyze_s, f->timings.analyze_s);
  Min(out->remote.server_factorize_s, f->timings.factorize_s);
  out->analysis_reused = f->analysis_reused;
  client::SolveOptions so;
  so.krylov = settings.krylov;
  const std::vector<std::vector<double>> rhs = {b};
  timer.Reset();
  absl::StatusOr<std::vector<client::SolveResult>> s =
      client.Solve(info->id, rhs, so);
  if (!s.ok()) return s.status();
  Min(out->remote.solve_s, timer.Seconds());
  Min(out->remote.total_s, total.Seconds());
  Min(out->remote.server_solve_s, (*s)[0].timings.solve_s);
  out->status_remote = (*s)[0].status;
  out->iterations_remote = (*s)[0].iterations;
  out->residual_remote = (*s)[0].relative_residual;
  *x = std::move((*s)[0].x);
  return client.Release(info->id).status();
}

Outcome RunCase(const Case& c, const Settings& settings, int threads,
                client::Client& client, int64_t* n, int64_t* nnz) {
  Outcome out;
  absl::StatusOr<CsrMatrix> read = ReadMatrixMarket(c.matrix_path);
  if (!read.ok()) {
    out.error = read.status().ToString();
    return out;
  }
  if (c.spd && IsSymmetric(read->structure)) {
    read->structure = Structure::kSpdLower;
  }
  auto a = std::make_shared<const CsrMatrix>(*std::move(read));
  *n = a->rows;
  *nnz = a->nnz();
  std::vector<double> b(a->rows, 1.0);
  if (!c.rhs_path.empty()) {
    absl::StatusOr<std::vector<double>> rb = ReadDenseVector(c.rhs_path);
    if (!rb.ok() || static_cast<int64_t>(rb->size()) != a->rows) {
      out.error = "bad right-hand side " + c.rhs_path;
      return out;
    }
    b = *std::move(rb);
  }
  std::shared_ptr<const Analysis> analysis;
  std::vector<double> x_local, x_remote;
  for (int r = 0; r < settings.repeat; ++r) {
    // Remote first: the local side reuses its analysis only when the
    // server's cache did.
    absl::Status s = RunRemote(client, *a, b, settings, &out, &x_remote);
    if (s.ok()) {
      s = RunLocal(a, b, settings, threads, out.analysis_reused, &analysis,
                   &out, &x_local);
    }
    if (!s.ok()) {
      out.error = s.ToString();
      return out;
    }
  }
  double diff = 0, scale = 0;
  for (size_t i = 0; i < x_local.size(); ++i) {
    diff = std::max(diff, std::abs(x_local[i] - x_remote[i]));
    scale = std::max(scale, std::abs(x_local[i]));
  }
  out.solution_difference = scale > 0 ? diff / scale : diff;
  return out;
}

void PrintLine(const Case& c, const Settings& settings, int threads, int64_t n,
               int64_t nnz, const Outcome& o) {
  std::string line = absl::StrFormat(
      "{\"benchmark\":\"remote_overhead\",\"matrix\":\"%s\",\"n\":%d,"
      "\"nnz\":%d,\"method\":\"%s\",\"krylov\":\"%s\",\"backend\":\"cpu\","
      "\"threads\":%d,\"repeat\":%d,\"chunk_bytes\":%d",
      c.name, n, nnz, o.method.empty() ? settings.method : o.method,
      settings.krylov, threads, settings.repeat, settings.chunk_bytes);
  if (!o.error.empty()) {
    std::string error = o.error;
    std::replace(error.begin(), error.end(), '"', '\'');
    absl::StrAppend(&line, ",\"error\":\"", error, "\"}");
    std::puts(line.c_str());
    return;
  }
  const Stages& l = o.local;
  const Stages& r = o.remote;
  absl::StrAppend(&line, ",\"local\":{\"analyze_s\":", Num(l.analyze_s),
                  ",\"factorize_s\":", Num(l.factorize_s),
                  ",\"solve_s\":", Num(l.solve_s),
                  ",\"total_s\":", Num(l.total_s), ",\"status\":\"",
                  o.status_local, "\",\"iterations\":", o.iterations_local,
                  ",\"relative_residual\":", Num(o.residual_local), "}");
  absl::StrAppend(
      &line, ",\"remote\":{\"upload_s\":", Num(r.upload_s),
      ",\"factorize_s\":", Num(r.factorize_s), ",\"solve_s\":", Num(r.solve_s),
      ",\"total_s\":", Num(r.total_s),
      ",\"server_preprocess_s\":", Num(r.server_preprocess_s),
      ",\"server_analyze_s\":", Num(r.server_analyze_s),
      ",\"server_factorize_s\":", Num(r.server_factorize_s),
      ",\"server_solve_s\":", Num(r.server_solve_s), ",\"status\":\"",
      o.status_remote, "\",\"iterations\":", o.iterations_remote,
      ",\"relative_residual\":", Num(o.residual_remote),
      ",\"analysis_reused\":", o.analysis_reused ? "true" : "false",
      ",\"bytes_sent\":", o.bytes_sent, "}");
  // The factorize ratio compares like with like: the RPC against the local
  // analyze + factorize (the RPC analyzes or reuses, as the local side does).
  absl::StrAppend(&line, ",\"ratio\":{\"factorize\":",
                  Num(Ratio(r.factorize_s, l.analyze_s + l.factorize_s)),
                  ",\"solve\":", Num(Ratio(r.solve_s, l.solve_s)),
                  ",\"total\":", Num(Ratio(r.total_s, l.total_s)),
                  "},\"solution_difference\":", Num(o.solution_difference),
                  "}");
  std::puts(line.c_str());
  std::fflush(stdout);
}

bool ParseFlag(absl::string_view arg, absl::string_view name,
               std::string* value) {
  const std::string prefix = absl::StrCat("--", name, "=");
  if (!absl::StartsWith(arg, prefix)) return false;
  *value = std::string(arg.substr(prefix.size()));
  return true;
}

}  // namespace
}  // namespace factord::bench

int main(int argc, char** argv) {
  using namespace factord;
  using namespace factord::bench;
  Settings settings;
  std::vector<Case> cases;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    std::string v;
    bool ok = true;
    if (ParseFlag(arg, "method", &v)) {
      settings.method = v;
    } else if (ParseFlag(arg, "krylov", &v)) {
      settings.krylov = v;
    } else if (ParseFlag(arg, "structure", &v)) {
      settings.structure = v;
    } else if (ParseFlag(arg, "threads", &v)) {
      ok = absl::SimpleAtoi(v, &settings.threads);
    } else if (ParseFlag(arg, "repeat", &v)) {
      ok = absl::SimpleAtoi(v, &settings.repeat) && settings.repeat > 0;
    } else if (ParseFlag(arg, "chunk_bytes", &v)) {
      ok = absl::SimpleAtoi(v, &settings.chunk_bytes);
    } else if (absl::StartsWith(arg, "--")) {
      ok = false;
    } else {
      const fs::path p(argv[i]);
      Case c{.name = p.stem().string(), .matrix_path = p.string()};
      const std::string stem = p.filename().string();
      if (absl::StartsWith(stem, "A_")) {
        const fs::path b = p.parent_path() / ("b_" + stem.substr(2));
        if (fs::exists(b)) c.rhs_path = b.string();
      }
      cases.push_back(c);
      continue;
    }
    if (!ok) {
      std::fprintf(stderr, "INVALID_ARGUMENT: bad argument %s\n", argv[i]);
      return 2;
    }
  }
  for (Case& c : cases) c.spd = settings.structure == "spd";
  if (cases.empty()) {
    const std::string data = std::string(FACTORD_SOURCE_DIR) + "/tests/data/";
    for (const char* name : {"494_bus", "1138_bus", "bcsstk13"}) {
      cases.push_back(
          Case{.name = name, .matrix_path = data + name + ".mtx", .spd = true});
    }
    cases.push_back(Case{.name = "A_spd01",
                         .matrix_path = data + "resolve/A_spd01.mtx",
                         .rhs_path = data + "resolve/b_spd01.mtx",
                         .spd = true});
  }
  const int threads = ThreadsOrAllCores(settings.threads);

  server::ServerConfig config;
  config.threads = threads;
  config.workers = 1;
  client::ConnectOptions options;
  options.max_chunk_bytes = settings.chunk_bytes;
  absl::StatusOr<std::unique_ptr<Loopback>> loopback =
      StartLoopback(config, options);
  if (!loopback.ok()) {
    std::fprintf(stderr, "%s\n", loopback.status().ToString().c_str());
    return 1;
  }
  for (const Case& c : cases) {
    int64_t n = 0, nnz = 0;
    const Outcome o =
        RunCase(c, settings, threads, *(*loopback)->client, &n, &nnz);
    PrintLine(c, settings, threads, n, nnz, o);
  }
  return 0;
}
