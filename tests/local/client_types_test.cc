// The in-process solver's conversions (local/client_types.h) against the
// wire's: every enumeration name the client accepts, every scalar option
// (typed, as text, 0, out of range), and every report field go both ways,
// through the request and reply messages the daemon reads and writes, and
// through the direct conversion; the results and the refusals (code,
// reason, field) must be the same.
#include "local/client_types.h"

#include <cmath>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "client/enum_names.h"
#include "client/messages.h"
#include "client/option_names.h"
#include "client/status_details.h"
#include "core/solver/option_table.h"
#include "gtest/gtest.h"
#include "server/service/convert.h"

namespace factord::local {
namespace {

namespace pb = ::factord::v1;

// What the daemon makes of `o`: the client's request, read by the server.
absl::StatusOr<FactorOptions> ThroughTheWire(
    const client::FactorizeOptions& o) {
  absl::StatusOr<pb::FactorizeRequest> request =
      client::internal::ToFactorizeRequest("m", o);
  if (!request.ok()) return request.status();
  return server::FactorOptionsFromProto(request->method(), request->options());
}

absl::StatusOr<SolveOptions> SolveThroughTheWire(const client::SolveOptions& o,
                                                 Method method) {
  absl::StatusOr<pb::SolveOptions> wire = client::internal::ToProto(o);
  if (!wire.ok()) return wire.status();
  return server::SolveOptionsFromProto(*wire, method);
}

std::vector<std::string> Fields(const absl::Status& s) {
  std::vector<std::string> fields;
  for (const auto& [field, why] : client::FieldViolations(s)) {
    fields.push_back(field);
  }
  return fields;
}

// Every member FactorOptions can carry, as text, for comparisons.
std::string Describe(const FactorOptions& o) {
  std::string text = absl::StrCat(
      "method=", MethodName(o.method), " ordering=", OrderingName(o.ordering),
      " pivoting=", PivotingName(o.pivoting),
      " scaling=", static_cast<int>(o.scaling),
      " blocking=", static_cast<int>(o.blocking),
      " trisolve=", static_cast<int>(o.trisolve),
      " trisolve_block_size=", o.trisolve_block_size);
  for (const FactorOptionField& field : FactorOptionFields()) {
    std::visit(
        [&](auto member) {
          std::ostringstream value;
          value << o.*member;
          absl::StrAppend(&text, " ", std::string(field.name), "=",
                          value.str());
        },
        field.member);
  }
  return text;
}

// `o` both ways: the same refusal, or the same options.
void ExpectSameAsTheWire(const client::FactorizeOptions& o,
                         const std::string& what) {
  SCOPED_TRACE(what);
  absl::StatusOr<FactorOptions> wire = ThroughTheWire(o);
  absl::StatusOr<FactorOptions> here = FactorOptionsFrom(o);
  ASSERT_EQ(here.ok(), wire.ok())
      << "here: " << here.status() << " wire: " << wire.status();
  if (!wire.ok()) {
    EXPECT_EQ(here.status().code(), wire.status().code());
    EXPECT_EQ(client::ErrorReason(here.status()),
              client::ErrorReason(wire.status()));
    EXPECT_EQ(Fields(here.status()), Fields(wire.status()));
    return;
  }
  EXPECT_EQ(Describe(*here), Describe(*wire));
}

// The names client::OptionNames lists (the .proto's), with "" and one that
// is no name at all.
std::vector<std::string> NamesOf(client::OptionEnum which) {
  std::vector<std::string> names = client::OptionNames(which);
  names.push_back("");
  names.push_back("no_such_name");
  if (which == client::OptionEnum::kPivoting) names.push_back("bk");
  return names;
}

TEST(ClientTypes, EveryEnumerationNameMeansWhatTheWireSays) {
  int compared = 0;
  for (const std::string& name : NamesOf(client::OptionEnum::kMethod)) {
    client::FactorizeOptions o;
    o.method = name;
    ExpectSameAsTheWire(o, "method " + name);
    ++compared;
  }
  struct Member {
    client::OptionEnum which;
    std::string client::FactorizeOptions::*member;
    const char* field;
  };
  const Member members[] = {
      {client::OptionEnum::kOrdering, &client::FactorizeOptions::ordering,
       "ordering"},
      {client::OptionEnum::kPivoting, &client::FactorizeOptions::pivoting,
       "pivoting"},
      {client::OptionEnum::kScaling, &client::FactorizeOptions::scaling,
       "scaling"},
      {client::OptionEnum::kBlocking, &client::FactorizeOptions::blocking,
       "blocking"},
      {client::OptionEnum::kTriangularSolve,
       &client::FactorizeOptions::trisolve, "trisolve"},
  };
  for (const Member& m : members) {
    for (const std::string& name : NamesOf(m.which)) {
      for (const char* method : {"auto", "ldlt", "block_ildlt", "ic"}) {
        client::FactorizeOptions typed;
        typed.method = method;
        typed.*m.member = name;
        ExpectSameAsTheWire(typed,
                            absl::StrCat(m.field, " ", name, " for ", method));
        client::FactorizeOptions named;
        named.method = method;
        named.Set(m.field, name);
        ExpectSameAsTheWire(
            named, absl::StrCat("named ", m.field, " ", name, " for ", method));
        compared += 2;
      }
    }
    client::FactorizeOptions not_a_name;
    not_a_name.Set(m.field, int64_t{2});
    ExpectSameAsTheWire(not_a_name, absl::StrCat(m.field, " as a number"));
  }
  for (const std::string& name : NamesOf(client::OptionEnum::kKrylov)) {
    for (Method method : {Method::kAuto, Method::kLdlt, Method::kBlockIldlt}) {
      SCOPED_TRACE(absl::StrCat("krylov ", name, " for ", MethodName(method)));
      client::SolveOptions o;
      o.krylov = name;
      absl::StatusOr<SolveOptions> wire = SolveThroughTheWire(o, method);
      absl::StatusOr<SolveOptions> here = SolveOptionsFrom(o, method);
      ASSERT_EQ(here.ok(), wire.ok())
          << here.status() << " / " << wire.status();
      if (wire.ok()) {
        EXPECT_EQ(here->krylov, wire->krylov);
      } else {
        EXPECT_EQ(client::ErrorReason(here.status()),
                  client::ErrorReason(wire.status()));
        EXPECT_EQ(Fields(here.status()), Fields(wire.status()));
      }
      ++compared;
    }
  }
  for (const std::string& name : NamesOf(client::OptionEnum::kStructure)) {
    SCOPED_TRACE("structure " + name);
    absl::StatusOr<pb::Structure> number =
        client::internal::ParseEnum<pb::Structure>(name, "header.structure");
    absl::StatusOr<Structure> here = StructureFromName(name);
    ASSERT_EQ(here.ok(), number.ok());
    if (number.ok()) {
      absl::StatusOr<Structure> wire = server::StructureFromProto(*number);
      ASSERT_TRUE(wire.ok());
      EXPECT_EQ(*here, *wire);
    } else {
      EXPECT_EQ(Fields(here.status()), Fields(number.status()));
    }
    ++compared;
  }
  EXPECT_GT(compared, 100);
}

TEST(ClientTypes, EveryScalarOptionMeansWhatTheWireSays) {
  int compared = 0;
  for (const FactorOptionField& field : FactorOptionFields()) {
    const std::string name(field.name);
    const std::vector<client::OptionValue> values = {
        int64_t{0},
        int64_t{1},
        int64_t{-1},
        int64_t{3},
        0.25,
        1e300,
        std::string("2"),
        std::string("0.5"),
        std::string("true"),
        std::string("word"),
        true,
        int64_t{1} << 40,
    };
    for (const char* method :
         {"auto", "ldlt", "block_ildlt", "jacobi_ldlt", "ic"}) {
      for (const client::OptionValue& value : values) {
        client::FactorizeOptions o;
        o.method = method;
        o.Set(name, value);
        std::ostringstream shown;
        std::visit([&](const auto& v) { shown << v; }, value);
        ExpectSameAsTheWire(
            o, absl::StrCat(name, " = ", shown.str(), " for ", method));
        ++compared;
      }
    }
  }
  // A member and a named option of the same field: the named one wins, and
  // 0 in a field without presence on the wire leaves the default.
  client::FactorizeOptions both;
  both.method = "block_jacobi";
  both.max_block_size = 16;
  both.Set("max_block_size", int64_t{0});
  ExpectSameAsTheWire(both, "max_block_size 16, named 0");
  both.Set("max_block_size", int64_t{8});
  ExpectSameAsTheWire(both, "max_block_size 16, named 8");
  client::FactorizeOptions members;
  members.method = "jacobi_ldlt";
  members.sweeps = 7;
  members.fill_level = 0;
  members.epsilon = 0.1;
  members.pivot_threshold = 0.2;
  members.shift_first = 1e-3;
  members.shift_count = 2;
  members.trisolve_sweeps = 3;
  ExpectSameAsTheWire(members, "members");
  client::FactorizeOptions unknown;
  unknown.Set("no_such_option", int64_t{1});
  ExpectSameAsTheWire(unknown, "an unknown option");
  EXPECT_GT(compared, 500);
}

TEST(ClientTypes, ReportsAreTheWiresRoundTrip) {
  FactorReport r;
  r.status = FactorStatus::kPerturbed;
  r.inertia = {5, 3, 1};
  r.inertia_reliable = true;
  r.perturbed_pivots = 2;
  r.two_by_two_pivots = 4;
  r.delayed_pivots = 6;
  r.nnz_factor = 77;
  r.factor_bytes = 1234;
  r.analysis_reused = true;
  r.blocks = 9;
  r.sweep_errors = {0.5, 0.25};
  r.preprocess_s = 0.1;
  r.analyze_s = 0.2;
  r.factorize_s = 0.3;
  r.message = "a message";
  for (Method method : {Method::kLdlt, Method::kBlockJacobi, Method::kLu}) {
    pb::FactorizeReply reply;
    reply.set_id("m");
    server::FactorReportToProto(r, method, &reply);
    reply.set_generation(42);
    const client::FactorizeResult wire = client::internal::FromProto(reply);
    const client::FactorizeResult here = FactorizeResultOf(r, method, "m", 42);
    EXPECT_EQ(here.id, wire.id);
    EXPECT_EQ(here.method, wire.method);
    EXPECT_EQ(here.factor_status, wire.factor_status);
    EXPECT_EQ(here.inertia.positive, wire.inertia.positive);
    EXPECT_EQ(here.inertia.negative, wire.inertia.negative);
    EXPECT_EQ(here.inertia.zero, wire.inertia.zero);
    EXPECT_EQ(here.inertia_reliable, wire.inertia_reliable);
    EXPECT_EQ(here.perturbed_pivots, wire.perturbed_pivots);
    EXPECT_EQ(here.two_by_two_pivots, wire.two_by_two_pivots);
    EXPECT_EQ(here.delayed_pivots, wire.delayed_pivots);
    EXPECT_EQ(here.nnz_factor, wire.nnz_factor);
    EXPECT_EQ(here.factor_bytes, wire.factor_bytes);
    EXPECT_EQ(here.analysis_reused, wire.analysis_reused);
    EXPECT_EQ(here.blocks, wire.blocks);
    EXPECT_EQ(here.sweep_errors, wire.sweep_errors);
    EXPECT_EQ(here.timings.preprocess_s, wire.timings.preprocess_s);
    EXPECT_EQ(here.timings.analyze_s, wire.timings.analyze_s);
    EXPECT_EQ(here.timings.factorize_s, wire.timings.factorize_s);
    EXPECT_EQ(here.message, wire.message);
    EXPECT_EQ(here.generation, wire.generation);
  }
  for (SolveStatus status :
       {SolveStatus::kConverged, SolveStatus::kNotConverged,
        SolveStatus::kBreakdown, SolveStatus::kSingular}) {
    SolveReport s;
    s.status = status;
    s.relative_residual = 1e-9;
    s.backward_error = 1e-16;
    s.iterations = 3;
    s.solve_s = 0.01;
    s.message = "solved";
    pb::SolveReply reply;
    server::SolveReportToProto(s, &reply);
    client::SolveResult wire, here;
    client::internal::SetSolveReport(reply, &wire);
    SetSolveReport(s, &here);
    EXPECT_EQ(here.status, wire.status);
    EXPECT_EQ(here.relative_residual, wire.relative_residual);
    EXPECT_EQ(here.backward_error, wire.backward_error);
    EXPECT_EQ(here.iterations, wire.iterations);
    EXPECT_EQ(here.timings.solve_s, wire.timings.solve_s);
    EXPECT_EQ(here.message, wire.message);
  }
  for (Structure structure : {Structure::kGeneral, Structure::kSymmetricLower,
                              Structure::kSpdLower}) {
    for (bool factorized : {false, true}) {
      server::CacheEntry e;
      e.id = "m";
      auto a = std::make_shared<CsrMatrix>();
      a->rows = a->cols = 2;
      a->structure = structure;
      a->row_ptr = {0, 1, 2};
      a->col_idx = {0, 1};
      a->values = {1, 2};
      e.matrix = a;
      e.pattern_hash = 99;
      e.bytes_received = 5;
      e.generation = 3;
      e.stale = factorized;
      e.method = Method::kLdlt;
      e.factorized_generation = factorized ? 2 : 0;
      pb::MatrixInfo info;
      server::CacheEntryToProto(e, &info);
      const client::MatrixInfo wire = client::internal::FromProto(info);
      const client::MatrixInfo here = MatrixInfoOf(e);
      EXPECT_EQ(here.id, wire.id);
      EXPECT_EQ(here.n, wire.n);
      EXPECT_EQ(here.nnz, wire.nnz);
      EXPECT_EQ(here.structure, wire.structure);
      EXPECT_EQ(here.pattern_hash, wire.pattern_hash);
      EXPECT_EQ(here.bytes, wire.bytes);
      EXPECT_EQ(here.bytes_received, wire.bytes_received);
      EXPECT_EQ(here.stale, wire.stale);
      EXPECT_EQ(here.generation, wire.generation);
    }
  }
}

}  // namespace
}  // namespace factord::local
