// Options on the wire do what they say or are refused: an option the method
// cannot apply (a scaling it does not know, shifts for lu, a Krylov method
// or iteration count for ldlt's direct solve) is INVALID_ARGUMENT with
// reason INVALID_OPTION and a field violation naming it, before anything
// changes; `deterministic`, which the daemon always is, changes no bit.
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "server/service_fixture.h"

namespace factord::server::testing {
namespace {

// The single field violation of a refused call, or "" when it is not an
// INVALID_OPTION refusal with exactly one.
std::string RefusedField(const grpc::Status& s) {
  if (s.error_code() != grpc::StatusCode::INVALID_ARGUMENT ||
      Reason(s) != "INVALID_OPTION") {
    return "";
  }
  const WireError e = DecodeError(s);
  if (e.bad_request.field_violations_size() != 1) return "";
  return e.bad_request.field_violations(0).field();
}

TEST_F(ServiceTest, FactorizeRefusesAScalingTheMethodDoesNotApply) {
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("spd", Tridiagonal(8, /*lower=*/true), 8, &info).ok());
  ASSERT_TRUE(UploadCsr("general", Tridiagonal(8), 8, &info).ok());
  struct Case {
    const char* id;
    v1::Method method;
    v1::Scaling scaling;
  };
  const Case refused[] = {
      {"spd", v1::METHOD_LDLT, v1::SCALING_COLUMN_NORM},
      {"spd", v1::METHOD_BLOCK_ILDLT, v1::SCALING_COLUMN_NORM},
      {"spd", v1::METHOD_BLOCK_ILDLT, v1::SCALING_MATCHING},
      {"spd", v1::METHOD_IC, v1::SCALING_RUIZ},
      {"spd", v1::METHOD_JACOBI, v1::SCALING_RUIZ},
      // auto resolves to lu for a general matrix, which scales by itself.
      {"general", v1::METHOD_AUTO, v1::SCALING_MATCHING},
  };
  for (const Case& c : refused) {
    v1::FactorOptions options;
    options.set_scaling(c.scaling);
    v1::FactorizeReply reply;
    const grpc::Status s = Factorize(c.id, c.method, &reply, options);
    EXPECT_EQ(RefusedField(s), "options.scaling")
        << v1::Method_Name(c.method) << " " << v1::Scaling_Name(c.scaling)
        << ": " << s.error_message();
    EXPECT_NE(s.error_message().find("is not applied by method"),
              std::string::npos)
        << s.error_message();
  }
  // What each applies is accepted.
  const Case applied[] = {
      {"spd", v1::METHOD_LDLT, v1::SCALING_MATCHING},
      {"spd", v1::METHOD_BLOCK_ILDLT, v1::SCALING_NONE},
      {"spd", v1::METHOD_IC, v1::SCALING_COLUMN_NORM},
      {"spd", v1::METHOD_AUTO, v1::SCALING_RUIZ},
  };
  for (const Case& c : applied) {
    v1::FactorOptions options;
    options.set_scaling(c.scaling);
    v1::FactorizeReply reply;
    const grpc::Status s = Factorize(c.id, c.method, &reply, options);
    EXPECT_TRUE(s.ok()) << v1::Method_Name(c.method) << " "
                        << v1::Scaling_Name(c.scaling) << ": "
                        << s.error_message();
  }
}

TEST_F(ServiceTest, ShiftsAreRefusedByLuAndNone) {
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("general", Tridiagonal(8), 8, &info).ok());
  for (v1::Method m : {v1::METHOD_LU, v1::METHOD_NONE}) {
    v1::FactorOptions options;
    options.set_shift_rest(1e-6);
    v1::FactorizeReply reply;
    const grpc::Status s = Factorize("general", m, &reply, options);
    EXPECT_EQ(RefusedField(s), "options.shift_rest")
        << v1::Method_Name(m) << ": " << s.error_message();
  }
  // ilu applies them.
  v1::FactorOptions options;
  options.set_shift_rest(1e-6);
  v1::FactorizeReply reply;
  const grpc::Status s = Factorize("general", v1::METHOD_ILU, &reply, options);
  EXPECT_TRUE(s.ok()) << s.error_message();
}

TEST_F(ServiceTest, LdltSolveRefusesKrylovOptions) {
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", Tridiagonal(8, /*lower=*/true), 8, &info).ok());
  v1::FactorizeReply reply;
  ASSERT_TRUE(Factorize("m", v1::METHOD_LDLT, &reply).ok());
  const std::vector<std::vector<double>> b = {std::vector<double>(8, 1.0)};
  struct Case {
    void (*set)(v1::SolveOptions&);
    const char* field;
  };
  const Case refused[] = {
      {[](v1::SolveOptions& o) { o.set_krylov(v1::KRYLOV_CG); },
       "options.krylov"},
      {[](v1::SolveOptions& o) { o.set_krylov(v1::KRYLOV_GMRES); },
       "options.krylov"},
      {[](v1::SolveOptions& o) { o.set_max_iterations(20); },
       "options.max_iterations"},
      {[](v1::SolveOptions& o) { o.set_restart(30); }, "options.restart"},
  };
  for (const Case& c : refused) {
    v1::SolveOptions options;
    c.set(options);
    std::map<uint32_t, Solution> out;
    const grpc::Status s = Solve("m", b, 8, &out, options);
    EXPECT_EQ(RefusedField(s), c.field) << s.error_message();
    EXPECT_TRUE(out.empty());
  }
  v1::SolveOptions direct;
  direct.set_krylov(v1::KRYLOV_NONE);
  direct.set_tolerance(1e-12);
  std::map<uint32_t, Solution> out;
  const grpc::Status s = Solve("m", b, 8, &out, direct);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(out[0].report.status(), v1::SOLVE_STATUS_CONVERGED);
}

TEST_F(ServiceTest, StepRefusesLdltKrylovOptionsBeforeApplyingValues) {
  const CsrMatrix a = Tridiagonal(6, /*lower=*/true);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", a, 6, &info).ok());
  v1::StepUnaryRequest request;
  v1::StepHeader& header = *request.mutable_header();
  header.set_id("m");
  header.set_new_values(true);
  header.set_method(v1::METHOD_LDLT);
  header.mutable_solve_options()->set_krylov(v1::KRYLOV_SQMR);
  header.set_rhs_count(1);
  for (double v : a.values) request.add_values(2 * v);
  for (int i = 0; i < 6; ++i) request.add_rhs(1.0);
  grpc::ClientContext ctx;
  v1::StepUnaryReply reply;
  const grpc::Status s = stub_->StepUnary(&ctx, request, &reply);
  EXPECT_EQ(RefusedField(s), "options.krylov") << s.error_message();
  // Nothing changed: the matrix is still at generation 1, unfactorized.
  grpc::ClientContext get_ctx;
  v1::GetMatrixRequest get;
  get.set_id("m");
  v1::MatrixInfo got;
  ASSERT_TRUE(stub_->GetMatrix(&get_ctx, get, &got).ok());
  EXPECT_EQ(got.generation(), 1u);
  EXPECT_FALSE(got.factorized());
}

// A symmetric matrix large enough that two kernel threads split the work.
CsrMatrix Laplacian2d(int k) {
  CsrMatrix a;
  a.rows = a.cols = int64_t{k} * k;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) {
      const int row = i * k + j;
      if (i > 0) {
        a.col_idx.push_back(row - k);
        a.values.push_back(-1.0);
      }
      if (j > 0) {
        a.col_idx.push_back(row - 1);
        a.values.push_back(-1.0);
      }
      a.col_idx.push_back(row);
      a.values.push_back(4.0 + 1e-3 * (row % 7));
      a.row_ptr.push_back(a.nnz());
    }
  }
  return a;
}

bool SameBits(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() == y.size() &&
         std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

// `deterministic` has no effect (solver.proto): with two kernel threads,
// false and true give the same bits, run after run, for a direct and an
// iterative method.
TEST_F(ServiceTest, DeterministicFalseGivesTheSameBits) {
  ServerConfig config = TestConfig();
  config.threads = 2;
  StartServer(config);
  const CsrMatrix a = Laplacian2d(40);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", a, 200, &info).ok());
  std::vector<double> b(a.rows);
  for (int64_t i = 0; i < a.rows; ++i) b[i] = 1.0 + (i % 5);
  for (v1::Method method : {v1::METHOD_LDLT, v1::METHOD_BLOCK_JACOBI}) {
    std::vector<std::vector<double>> solutions;
    for (bool deterministic : {true, false, false, true}) {
      v1::FactorOptions options;
      options.set_deterministic(deterministic);
      v1::FactorizeReply reply;
      ASSERT_TRUE(Factorize("m", method, &reply, options).ok());
      v1::SolveOptions solve;
      if (method == v1::METHOD_BLOCK_JACOBI) solve.set_krylov(v1::KRYLOV_CG);
      std::map<uint32_t, Solution> out;
      const grpc::Status s = Solve("m", {b}, 500, &out, solve);
      ASSERT_TRUE(s.ok()) << s.error_message();
      ASSERT_EQ(out[0].report.status(), v1::SOLVE_STATUS_CONVERGED);
      solutions.push_back(out[0].x);
    }
    for (size_t k = 1; k < solutions.size(); ++k) {
      EXPECT_TRUE(SameBits(solutions[0], solutions[k]))
          << v1::Method_Name(method) << " run " << k;
    }
  }
}

}  // namespace
}  // namespace factord::server::testing
