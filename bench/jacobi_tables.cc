// S4 Table 1 and S3 Table 2 style measurements (issue 5), one JSON object per
// line on stdout.
//
// Table 1 (S4): IC(0)-PCG on SPD matrices with exact, scalar-Jacobi and
// block-Jacobi triangular solves, sweeps in {1, 2, 5, 10, 20}.
// Table 2 (S3): IDR(4) with the scalar Jacobi and block-Jacobi (max block
// size 4, 8, 16, 32) preconditioners on the SPD and unsymmetric matrices.
// Criterion (S4): solved when the true relative residual <= 1e-6 within 3000
// iterations from x0 = 0, b = ones.
//
// Usage: jacobi_tables [data_dir]   (default /work/shared/data)
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "factord/base/timer.h"
#include "factord/matrix/matrix_market.h"
#include "factord/solver/solver.h"

namespace factord {
namespace {

struct Case {
  std::string name;
  std::shared_ptr<const CsrMatrix> a;
};

void RunOne(const std::string& table, const Case& c, const FactorOptions& fo,
            const SolveOptions& so, const std::string& variant, int sweeps) {
  const ExecContext ctx;
  Timer total;
  std::string status = "ok";
  SolveReport sr;
  double factor_s = 0;
  int64_t perturbed = 0;
  std::string factor_message;
  auto analysis = Analyze(*c.a, fo, ctx);
  if (!analysis.ok()) {
    status = std::string(analysis.status().message());
  } else {
    auto f = Factorize(c.a, *analysis, fo, ctx);
    if (!f.ok()) {
      status = std::string(f.status().message());
    } else {
      factor_s = (*f)->report().factorize_s;
      perturbed = (*f)->report().perturbed_pivots;
      factor_message = (*f)->report().message;
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
          "{\"table\":\"%s\",\"matrix\":\"%s\",\"n\":%d,\"variant\":\"%s\","
          "\"sweeps\":%d,\"iterations\":%d,\"relative_residual\":%.3e,"
          "\"solved\":%s,\"factorize_s\":%.4f,\"solve_s\":%.4f,"
          "\"total_s\":%.4f,\"perturbed_pivots\":%d,\"factor_message\":\"%s\","
          "\"message\":\"%s\","
          "\"status\":\"%s\"}",
          table, c.name, c.a->rows, variant, sweeps, sr.iterations,
          sr.relative_residual, solved ? "true" : "false", factor_s, sr.solve_s,
          total.Seconds(), perturbed, factor_message, sr.message, status)
          .c_str());
  std::fflush(stdout);
}

}  // namespace
}  // namespace factord

int main(int argc, char** argv) {
  using namespace factord;
  const std::string dir = argc > 1 ? argv[1] : "/work/shared/data";
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
      spd.push_back({m, a});
    }
  }
  if (auto a = load("matrices/resolve/A_spd01.mtx")) {
    spd.push_back({"A_spd01", a});
  }
  for (const char* m : {"west0479", "west0497", "rajat19", "bp_1200", "watt_2",
                        "nnc1374", "olm1000", "cryg2500"}) {
    if (auto a = load(std::string("matrices/") + m + ".mtx")) {
      unsym.push_back({m, a});
    }
  }
  SolveOptions pcg;
  pcg.krylov = Krylov::kCg;
  pcg.tolerance = 1e-6;
  pcg.max_iterations = 3000;
  for (const Case& c : spd) {
    FactorOptions fo;
    fo.method = Method::kIc;
    fo.fill_level = 0;
    fo.trisolve = TriangularSolve::kExact;
    RunOne("s4_table1", c, fo, pcg, "exact", 0);
    for (TriangularSolve t :
         {TriangularSolve::kJacobi, TriangularSolve::kBlockJacobi}) {
      for (int sweeps : {1, 2, 5, 10, 20}) {
        fo.trisolve = t;
        fo.trisolve_sweeps = sweeps;
        RunOne("s4_table1", c, fo, pcg,
               t == TriangularSolve::kJacobi ? "jacobi" : "block_jacobi",
               sweeps);
      }
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
  return 0;
}
