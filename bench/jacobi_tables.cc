// S4 Table 1 and S3 Table 2 style measurements, one JSON object per
// line on stdout.
//
// s4_table1 (S4 §3.3): IC(0)-PCG after RCM on the SPD matrices with values
// (494_bus, 1138_bus, bcsstk13, resolve/A_spd01) and on H+D, the negated
// (1,1) block of every 2x2 KKT system in kkt/ (iter_0 and the last
// iteration of each problem), with exact, scalar-Jacobi and block-Jacobi
// triangular solves (supervariable blocks after RCM, at most 12), sweeps in
// {1, 2, 5, 10, 20}.
// s4_scaling: the same systems, exact / jacobi 5 / block_jacobi 5, with and
// without column-norm scaling (S4 §3).
// s3_table2 (S3): IDR(4) with scalar Jacobi and block-Jacobi (max block
// size 4, 8, 16, 32) on the SPD and unsymmetric matrices.
// Criterion (S4): solved when the true relative residual <= 1e-6 within 3000
// iterations from x0 = 0, b = ones. One thread; each case is cut after 60 s
// (status "deadline exceeded", not solved).
//
// Usage: jacobi_tables [data_dir] [s4|scaling|s3]...
//   (default /work/shared/data, all tables)
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/base/cancellation.h"
#include "core/base/timer.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/solver.h"

namespace fs = std::filesystem;

namespace factord {
namespace {

struct Case {
  std::string name;
  std::string family;  // spd | hd | unsym
  std::shared_ptr<const CsrMatrix> a;
};

void RunOne(const std::string& table, const Case& c, const FactorOptions& fo,
            const SolveOptions& so, const std::string& variant, int sweeps) {
  Cancellation deadline(Cancellation::Clock::now() + std::chrono::seconds(60));
  ExecContext ctx;
  ctx.cancellation = &deadline;
  Timer total;
  std::string status = "ok";
  SolveReport sr;
  FactorReport fr;
  auto analysis = Analyze(*c.a, fo, ctx);
  if (!analysis.ok()) {
    status = std::string(analysis.status().message());
  } else {
    auto f = Factorize(c.a, *analysis, fo, ctx);
    if (!f.ok()) {
      status = std::string(f.status().message());
    } else {
      fr = (*f)->report();
      std::vector<double> b(c.a->rows, 1.0), x(c.a->rows, 0.0);
      absl::Status s = (*f)->Solve(b, x, so, ctx, &sr);
      if (!s.ok()) status = std::string(s.message());
    }
  }
  const bool solved =
      status == "ok" && sr.relative_residual <= 1e-6 && sr.iterations <= 3000;
  std::printf(
      "%s\n",
      absl::StrFormat(
          "{\"table\":\"%s\",\"matrix\":\"%s\",\"family\":\"%s\",\"n\":%d,"
          "\"nnz\":%d,\"variant\":\"%s\",\"sweeps\":%d,\"scaling\":%s,"
          "\"iterations\":%d,\"relative_residual\":%.3e,\"solved\":%s,"
          "\"analyze_s\":%.4f,\"factorize_s\":%.4f,\"solve_s\":%.4f,"
          "\"total_s\":%.4f,\"blocks\":%d,\"singular_blocks\":%d,"
          "\"perturbed_pivots\":%d,\"factor_message\":\"%s\","
          "\"message\":\"%s\",\"status\":\"%s\"}",
          table, c.name, c.family, c.a->rows, c.a->nnz(), variant, sweeps,
          fo.scaling == Scaling::kColumnNorm ? "true" : "false", sr.iterations,
          sr.relative_residual, solved ? "true" : "false", fr.analyze_s,
          fr.factorize_s, sr.solve_s, total.Seconds(), fr.blocks,
          fr.singular_blocks, fr.perturbed_pivots, fr.message, sr.message,
          status)
          .c_str());
  std::fflush(stdout);
}

// H + D = -K11 of a 2x2 KKT matrix [-(H+D) A^T; A D2] stored as its lower
// triangle: the leading rows with a negative diagonal form the (1,1) block.
std::shared_ptr<const CsrMatrix> NegatedLeadingBlock(const CsrMatrix& k) {
  int64_t n1 = 0;
  for (; n1 < k.rows; ++n1) {
    double d = 0;
    for (int64_t p = k.row_ptr[n1]; p < k.row_ptr[n1 + 1]; ++p) {
      if (k.col_idx[p] == n1) d = k.values[p];
    }
    if (!(d < 0)) break;
  }
  if (n1 == 0) return nullptr;
  auto out = std::make_shared<CsrMatrix>();
  out->rows = out->cols = n1;
  out->structure = Structure::kSpdLower;
  out->row_ptr.push_back(0);
  for (int64_t i = 0; i < n1; ++i) {
    for (int64_t p = k.row_ptr[i]; p < k.row_ptr[i + 1]; ++p) {
      if (k.col_idx[p] >= n1) continue;
      out->col_idx.push_back(k.col_idx[p]);
      out->values.push_back(-k.values[p]);
    }
    out->row_ptr.push_back(out->nnz());
  }
  return out;
}

// H + D of iter_0 and the last iteration of every problem's 2x2 form.
std::vector<Case> HdCases(const fs::path& root) {
  std::vector<Case> cases;
  std::set<fs::path> problems;
  for (const auto& p : fs::directory_iterator(root)) {
    if (fs::is_directory(p.path() / "2x2")) problems.insert(p.path());
  }
  for (const fs::path& problem : problems) {
    std::map<int, fs::path> iterations;
    for (const auto& it : fs::directory_iterator(problem / "2x2")) {
      const std::string name = it.path().filename().string();
      int k = 0;
      if (name.rfind("iter_", 0) == 0 && absl::SimpleAtoi(name.substr(5), &k)) {
        iterations[k] = it.path();
      }
    }
    std::set<int> chosen;
    if (!iterations.empty()) {
      chosen = {iterations.begin()->first, iterations.rbegin()->first};
    }
    for (int k : chosen) {
      const fs::path file = iterations[k] / absl::StrCat("K_", k, ".mtx");
      auto kkt = ReadMatrixMarket(file.string());
      if (!kkt.ok()) {
        std::fprintf(stderr, "%s: %s\n", file.c_str(),
                     std::string(kkt.status().message()).c_str());
        continue;
      }
      if (auto hd = NegatedLeadingBlock(*kkt)) {
        cases.push_back(
            {absl::StrCat(problem.filename().string(), "/iter_", k), "hd", hd});
      }
    }
  }
  return cases;
}

FactorOptions Ic0(TriangularSolve t, int sweeps, bool scaled) {
  FactorOptions fo;
  fo.method = Method::kIc;
  fo.fill_level = 0;
  fo.trisolve = t;
  fo.trisolve_sweeps = sweeps;
  fo.trisolve_block_size = 12;  // S4 §3.3
  fo.scaling = scaled ? Scaling::kColumnNorm : Scaling::kNone;
  return fo;
}

const char* TrisolveName(TriangularSolve t) {
  return t == TriangularSolve::kExact    ? "exact"
         : t == TriangularSolve::kJacobi ? "jacobi"
                                         : "block_jacobi";
}

}  // namespace
}  // namespace factord

int main(int argc, char** argv) {
  using namespace factord;
  const std::string dir = argc > 1 ? argv[1] : "/work/shared/data";
  std::set<std::string> tables;
  for (int i = 2; i < argc; ++i) tables.insert(argv[i]);
  auto want = [&](const char* t) { return tables.empty() || tables.count(t); };
  auto load = [&](const std::string& rel) -> std::shared_ptr<const CsrMatrix> {
    auto a = ReadMatrixMarket(dir + "/" + rel);
    if (!a.ok()) {
      std::fprintf(stderr, "%s: %s\n", rel.c_str(),
                   std::string(a.status().message()).c_str());
      return nullptr;
    }
    return std::make_shared<const CsrMatrix>(*std::move(a));
  };
  std::vector<Case> spd, unsym;
  for (const char* m : {"494_bus", "1138_bus", "bcsstk13"}) {
    if (auto a = load(std::string("matrices/") + m + ".mtx")) {
      spd.push_back({m, "spd", a});
    }
  }
  if (auto a = load("matrices/resolve/A_spd01.mtx")) {
    spd.push_back({"A_spd01", "spd", a});
  }
  std::vector<Case> s4 = spd;
  if (want("s4") || want("scaling")) {
    for (Case& c : HdCases(fs::path(dir) / "kkt")) s4.push_back(std::move(c));
  }
  SolveOptions pcg;
  pcg.krylov = Krylov::kCg;
  pcg.tolerance = 1e-6;
  pcg.max_iterations = 3000;
  const TriangularSolve kSweeping[] = {TriangularSolve::kJacobi,
                                       TriangularSolve::kBlockJacobi};
  if (want("s4")) {
    for (const Case& c : s4) {
      RunOne("s4_table1", c, Ic0(TriangularSolve::kExact, 0, false), pcg,
             "exact", 0);
      for (TriangularSolve t : kSweeping) {
        for (int sweeps : {1, 2, 5, 10, 20}) {
          RunOne("s4_table1", c, Ic0(t, sweeps, false), pcg, TrisolveName(t),
                 sweeps);
        }
      }
    }
  }
  if (want("scaling")) {
    for (const Case& c : s4) {
      for (bool scaled : {false, true}) {
        RunOne("s4_scaling", c, Ic0(TriangularSolve::kExact, 0, scaled), pcg,
               "exact", 0);
        for (TriangularSolve t : kSweeping) {
          RunOne("s4_scaling", c, Ic0(t, 5, scaled), pcg, TrisolveName(t), 5);
        }
      }
    }
  }
  if (want("s3")) {
    for (const char* m : {"west0479", "west0497", "rajat19", "bp_1200",
                          "watt_2", "nnc1374", "olm1000", "cryg2500"}) {
      if (auto a = load(std::string("matrices/") + m + ".mtx")) {
        unsym.push_back({m, "unsym", a});
      }
    }
    SolveOptions idr;
    idr.krylov = Krylov::kIdr;
    idr.idr_s = 4;
    idr.tolerance = 1e-6;
    idr.max_iterations = 3000;
    std::vector<Case> all = spd;
    all.insert(all.end(), unsym.begin(), unsym.end());
    for (const Case& c : all) {
      FactorOptions fo;
      fo.method = Method::kJacobi;
      RunOne("s3_table2", c, fo, idr, "jacobi", 0);
      fo.method = Method::kBlockJacobi;
      for (int bs : {4, 8, 16, 32}) {
        fo.max_block_size = bs;
        RunOne("s3_table2", c, fo, idr, absl::StrFormat("block_jacobi_%d", bs),
               0);
      }
    }
  }
  return 0;
}
