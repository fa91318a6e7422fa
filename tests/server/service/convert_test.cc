#include "server/service/convert.h"

#include <limits>
#include <utility>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"
#include "server/error_reason.h"
#include "server/service/status_mapping.h"

namespace factord::server {
namespace {

TEST(Convert, UnsetFactorOptionsTakeCoreDefaults) {
  absl::StatusOr<FactorOptions> o =
      FactorOptionsFromProto(pb::METHOD_BLOCK_JACOBI, pb::FactorOptions());
  ASSERT_TRUE(o.ok()) << o.status();
  const FactorOptions defaults;
  EXPECT_EQ(o->method, Method::kBlockJacobi);
  EXPECT_EQ(o->ordering, Ordering::kAuto);
  EXPECT_EQ(o->pivoting, Pivoting::kBunchKaufman);
  EXPECT_EQ(o->max_block_size, defaults.max_block_size);
  EXPECT_EQ(o->fill_level, defaults.fill_level);
  EXPECT_EQ(o->drop_tolerance, defaults.drop_tolerance);
  EXPECT_EQ(o->sweeps, defaults.sweeps);
  EXPECT_EQ(o->epsilon, defaults.epsilon);
  EXPECT_EQ(o->trisolve_sweeps, defaults.trisolve_sweeps);
}

TEST(Convert, FactorOptionsAreCopied) {
  pb::FactorOptions in;
  in.set_ordering(pb::ORDERING_METIS);
  in.set_pivoting(pb::PIVOTING_ROOK);
  in.set_max_block_size(8);
  in.set_fill_level(-1);
  in.set_drop_tolerance(0);  // explicit zero differs from unset
  in.set_shift_first(-1e-8);
  in.set_shift_rest(1e-8);
  in.set_shift_count(3);
  in.set_trisolve(pb::TRIANGULAR_SOLVE_JACOBI);
  absl::StatusOr<FactorOptions> o = FactorOptionsFromProto(pb::METHOD_LDLT, in);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->method, Method::kLdlt);
  EXPECT_EQ(o->ordering, Ordering::kMetis);
  EXPECT_EQ(o->pivoting, Pivoting::kRook);
  EXPECT_EQ(o->max_block_size, 8);
  EXPECT_EQ(o->fill_level, -1);
  EXPECT_EQ(o->drop_tolerance, 0.0);
  EXPECT_EQ(o->shift_first, -1e-8);
  EXPECT_EQ(o->shift_rest, 1e-8);
  EXPECT_EQ(o->shift_count, 3);
  EXPECT_EQ(o->trisolve, TriangularSolve::kJacobi);
}

TEST(Convert, BadFactorOptionsNameTheField) {
  pb::FactorOptions in;
  in.set_max_block_size(33);
  absl::Status s = FactorOptionsFromProto(pb::METHOD_AUTO, in).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("max_block_size"), absl::string_view::npos) << s;

  pb::FactorOptions nan_shift;
  nan_shift.set_shift_first(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(FactorOptionsFromProto(pb::METHOD_AUTO, nan_shift).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      FactorOptionsFromProto(static_cast<pb::Method>(77), pb::FactorOptions())
          .status()
          .code(),
      absl::StatusCode::kInvalidArgument);
}

// The field violation an INVALID_OPTION status carries on the wire.
std::string BadFieldOf(const absl::Status& s) {
  google::rpc::Status details;
  EXPECT_TRUE(details.ParseFromString(ToGrpcStatus(s).error_details()));
  google::rpc::BadRequest bad;
  for (const auto& d : details.details()) {
    if (d.UnpackTo(&bad) && bad.field_violations_size() == 1) {
      return bad.field_violations(0).field();
    }
  }
  return "";
}

TEST(Convert, FillFactorMeansWhatTheCoreMeans) {
  pb::FactorOptions in;
  in.set_fill_factor(0);  // set to 0: no limit on the count, as in core
  absl::StatusOr<FactorOptions> o =
      FactorOptionsFromProto(pb::METHOD_BLOCK_ILDLT, in);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->fill_factor, 0.0);
  EXPECT_EQ(FactorOptionsFromProto(pb::METHOD_BLOCK_ILDLT, pb::FactorOptions())
                ->fill_factor,
            FactorOptions().fill_factor);  // unset: the core's default

  in.set_fill_factor(-1);
  const absl::Status s =
      FactorOptionsFromProto(pb::METHOD_BLOCK_ILDLT, in).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ReasonOf(s), pb::INVALID_OPTION);
  EXPECT_EQ(BadFieldOf(s), "options.fill_factor");
  EXPECT_EQ(s.message().rfind("options.fill_factor = -1 ", 0), 0u) << s;
}

TEST(Convert, AFamilyRangeNamesItsOption) {
  pb::FactorOptions in;
  in.set_epsilon(1.5);  // >= 0 for every method, < 1 for jacobi_ldlt
  EXPECT_TRUE(FactorOptionsFromProto(pb::METHOD_LDLT, in).ok());
  const absl::Status s =
      FactorOptionsFromProto(pb::METHOD_JACOBI_LDLT, in).status();
  EXPECT_EQ(ReasonOf(s), pb::INVALID_OPTION);
  EXPECT_EQ(BadFieldOf(s), "options.epsilon");

  // A core refusal that names no option is left as it is.
  const absl::Status plain = absl::InvalidArgumentError("not square");
  EXPECT_EQ(InvalidOptionFromCore(plain), plain);
}

TEST(Convert, ScalingAndBlockingAreMapped) {
  // Unset: the core's defaults (the method picks the scaling; RB blocking).
  absl::StatusOr<FactorOptions> d =
      FactorOptionsFromProto(pb::METHOD_LDLT, pb::FactorOptions());
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->scaling, Scaling::kAuto);
  EXPECT_EQ(d->blocking, Blocking::kRb);
  const std::pair<pb::Scaling, Scaling> scalings[] = {
      {pb::SCALING_AUTO, Scaling::kAuto},
      {pb::SCALING_NONE, Scaling::kNone},
      {pb::SCALING_RUIZ, Scaling::kRuiz},
      {pb::SCALING_MATCHING, Scaling::kMatching},
      {pb::SCALING_COLUMN_NORM, Scaling::kColumnNorm}};
  // With method auto: each method takes only some (checked again once auto
  // resolves; ConvertTest.ScalingIsCheckedForTheMethod).
  for (const auto& [wire, core] : scalings) {
    pb::FactorOptions in;
    in.set_scaling(wire);
    absl::StatusOr<FactorOptions> o =
        FactorOptionsFromProto(pb::METHOD_AUTO, in);
    ASSERT_TRUE(o.ok()) << o.status();
    EXPECT_EQ(o->scaling, core) << pb::Scaling_Name(wire);
  }
  pb::FactorOptions br;
  br.set_blocking(pb::BLOCKING_BR);
  absl::StatusOr<FactorOptions> o =
      FactorOptionsFromProto(pb::METHOD_BLOCK_ILDLT, br);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->blocking, Blocking::kBr);
  // The analysis cache tells the two strategies apart.
  absl::StatusOr<FactorOptions> rb =
      FactorOptionsFromProto(pb::METHOD_BLOCK_ILDLT, pb::FactorOptions());
  ASSERT_TRUE(rb.ok()) << rb.status();
  EXPECT_NE(o->AnalysisKey(), rb->AnalysisKey());

  pb::FactorOptions bad_scaling;
  bad_scaling.set_scaling(static_cast<pb::Scaling>(9));
  absl::Status s =
      FactorOptionsFromProto(pb::METHOD_LDLT, bad_scaling).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("options.scaling"), absl::string_view::npos) << s;
  pb::FactorOptions bad_blocking;
  bad_blocking.set_blocking(static_cast<pb::Blocking>(5));
  s = FactorOptionsFromProto(pb::METHOD_BLOCK_ILDLT, bad_blocking).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("options.blocking"), absl::string_view::npos) << s;
}

TEST(Convert, ScalingIsCheckedForTheMethod) {
  pb::FactorOptions column_norm;
  column_norm.set_scaling(pb::SCALING_COLUMN_NORM);
  EXPECT_TRUE(FactorOptionsFromProto(pb::METHOD_IC, column_norm).ok());
  for (pb::Method m : {pb::METHOD_LDLT, pb::METHOD_BLOCK_ILDLT,
                       pb::METHOD_JACOBI_LDLT, pb::METHOD_LU}) {
    absl::Status s = FactorOptionsFromProto(m, column_norm).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument)
        << pb::Method_Name(m);
    EXPECT_EQ(ReasonOf(s), v1::INVALID_OPTION) << s;
    EXPECT_NE(s.message().find("options.scaling"), absl::string_view::npos)
        << s;
  }
}

TEST(Convert, SolveOptionsAreCheckedForTheFactorizationsMethod) {
  pb::SolveOptions cg;
  cg.set_krylov(pb::KRYLOV_CG);
  EXPECT_TRUE(SolveOptionsFromProto(cg).ok());  // method not known yet
  EXPECT_TRUE(SolveOptionsFromProto(cg, Method::kIc).ok());
  absl::Status s = SolveOptionsFromProto(cg, Method::kLdlt).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ReasonOf(s), v1::INVALID_OPTION) << s;
  EXPECT_NE(s.message().find("options.krylov"), absl::string_view::npos) << s;
  pb::SolveOptions iterations;
  iterations.set_max_iterations(3);
  EXPECT_TRUE(SolveOptionsFromProto(iterations, Method::kLu).ok());
  s = SolveOptionsFromProto(iterations, Method::kLdlt).status();
  EXPECT_NE(s.message().find("options.max_iterations"), absl::string_view::npos)
      << s;
}

TEST(Convert, SolveOptionsDefaultsAndChecks) {
  absl::StatusOr<SolveOptions> d = SolveOptionsFromProto(pb::SolveOptions());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->tolerance, 1e-8);
  EXPECT_EQ(d->max_iterations, 1000);
  EXPECT_EQ(d->restart, 50);
  EXPECT_EQ(d->krylov, Krylov::kAuto);
  pb::SolveOptions in;
  in.set_krylov(pb::KRYLOV_GMRES);
  in.set_tolerance(1e-10);
  in.set_max_iterations(20);
  in.set_restart(5);
  absl::StatusOr<SolveOptions> o = SolveOptionsFromProto(in);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->krylov, Krylov::kGmres);
  EXPECT_EQ(o->tolerance, 1e-10);
  EXPECT_EQ(o->max_iterations, 20);
  EXPECT_EQ(o->restart, 5);
  in.set_tolerance(-1);
  absl::Status s = SolveOptionsFromProto(in).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("tolerance"), absl::string_view::npos);
}

TEST(Convert, ReportsGoOnTheWire) {
  FactorReport r;
  r.status = FactorStatus::kPerturbed;
  r.inertia = {5, 3, 1};
  r.inertia_reliable = true;
  r.perturbed_pivots = 2;
  r.two_by_two_pivots = 4;
  r.nnz_factor = 77;
  r.analysis_reused = true;
  r.factorize_s = 0.5;
  pb::FactorizeReply reply;
  FactorReportToProto(r, Method::kLdlt, &reply);
  EXPECT_EQ(reply.method(), v1::METHOD_LDLT);
  EXPECT_EQ(reply.factor_status(), pb::FACTOR_STATUS_PERTURBED);
  EXPECT_EQ(reply.inertia().positive(), 5);
  EXPECT_EQ(reply.inertia().negative(), 3);
  EXPECT_EQ(reply.inertia().zero(), 1);
  EXPECT_TRUE(reply.inertia_reliable());
  EXPECT_EQ(reply.perturbed_pivots(), 2);
  EXPECT_EQ(reply.two_by_two_pivots(), 4);
  EXPECT_EQ(reply.nnz_factor(), 77);
  EXPECT_TRUE(reply.analysis_reused());
  EXPECT_EQ(reply.timings().factorize_s(), 0.5);

  SolveReport s;
  s.status = SolveStatus::kNotConverged;
  s.relative_residual = 1e-3;
  s.backward_error = 1e-5;
  s.iterations = 1000;
  s.solve_s = 2;
  pb::SolveReply sr;
  SolveReportToProto(s, &sr);
  EXPECT_EQ(sr.status(), pb::SOLVE_STATUS_NOT_CONVERGED);
  EXPECT_EQ(sr.relative_residual(), 1e-3);
  EXPECT_EQ(sr.backward_error(), 1e-5);
  EXPECT_EQ(sr.iterations(), 1000);
  EXPECT_EQ(sr.timings().solve_s(), 2);
}

TEST(Convert, StructureRoundTrip) {
  for (Structure s : {Structure::kGeneral, Structure::kSymmetricLower,
                      Structure::kSpdLower}) {
    EXPECT_EQ(*StructureFromProto(StructureToProto(s)), s);
  }
  EXPECT_EQ(*StructureFromProto(pb::STRUCTURE_UNSPECIFIED),
            Structure::kGeneral);
}

}  // namespace
}  // namespace factord::server
