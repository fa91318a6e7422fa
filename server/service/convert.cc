#include "server/service/convert.h"

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "core/solver/validate_options.h"
#include "server/error_reason.h"
#include "server/service/option_fields.h"

namespace factord::server {
namespace {

// An option the request set out of range: INVALID_OPTION naming the field.
absl::Status Invalid(absl::string_view field, absl::string_view why) {
  return InvalidOption(field, why);
}

template <typename T>
std::span<const T> View(const google::protobuf::RepeatedField<T>& field) {
  return std::span<const T>(field.data(), static_cast<size_t>(field.size()));
}

}  // namespace

absl::StatusOr<Structure> StructureFromProto(pb::Structure structure) {
  switch (structure) {
    case pb::STRUCTURE_UNSPECIFIED:  // unset: all entries stored
    case pb::STRUCTURE_GENERAL:
      return Structure::kGeneral;
    case pb::STRUCTURE_SYMMETRIC_LOWER:
      return Structure::kSymmetricLower;
    case pb::STRUCTURE_SPD_LOWER:
      return Structure::kSpdLower;
    default:
      return InvalidRequest(
          "header.structure",
          absl::StrCat("structure ", static_cast<int>(structure),
                       " is not a known structure"));
  }
}

pb::Structure StructureToProto(Structure structure) {
  switch (structure) {
    case Structure::kGeneral:
      return pb::STRUCTURE_GENERAL;
    case Structure::kSymmetricLower:
      return pb::STRUCTURE_SYMMETRIC_LOWER;
    case Structure::kSpdLower:
      return pb::STRUCTURE_SPD_LOWER;
  }
  return pb::STRUCTURE_UNSPECIFIED;
}

absl::StatusOr<Method> MethodFromProto(pb::Method method) {
  switch (method) {
    case pb::METHOD_AUTO:
      return Method::kAuto;
    case pb::METHOD_NONE:
      return Method::kNone;
    case pb::METHOD_JACOBI:
      return Method::kJacobi;
    case pb::METHOD_BLOCK_JACOBI:
      return Method::kBlockJacobi;
    case pb::METHOD_LDLT:
      return Method::kLdlt;
    case pb::METHOD_BLOCK_ILDLT:
      return Method::kBlockIldlt;
    case pb::METHOD_JACOBI_LDLT:
      return Method::kJacobiLdlt;
    case pb::METHOD_IC:
      return Method::kIc;
    case pb::METHOD_ILU:
      return Method::kIlu;
    case pb::METHOD_LU:
      return Method::kLu;
    default:
      return Invalid("method", absl::StrCat(static_cast<int>(method),
                                            " is not a known method"));
  }
}

pb::Method MethodToProto(Method method) {
  switch (method) {
    case Method::kAuto:
      return pb::METHOD_AUTO;
    case Method::kNone:
      return pb::METHOD_NONE;
    case Method::kJacobi:
      return pb::METHOD_JACOBI;
    case Method::kBlockJacobi:
      return pb::METHOD_BLOCK_JACOBI;
    case Method::kLdlt:
      return pb::METHOD_LDLT;
    case Method::kBlockIldlt:
      return pb::METHOD_BLOCK_ILDLT;
    case Method::kJacobiLdlt:
      return pb::METHOD_JACOBI_LDLT;
    case Method::kIc:
      return pb::METHOD_IC;
    case Method::kIlu:
      return pb::METHOD_ILU;
    case Method::kLu:
      return pb::METHOD_LU;
  }
  return pb::METHOD_AUTO;
}

absl::StatusOr<FactorOptions> FactorOptionsFromProto(
    pb::Method method, const pb::FactorOptions& in) {
  FactorOptions out;
  absl::StatusOr<Method> m = MethodFromProto(method);
  if (!m.ok()) return m.status();
  out.method = *m;

  switch (in.ordering()) {
    case pb::ORDERING_AUTO:
      out.ordering = Ordering::kAuto;
      break;
    case pb::ORDERING_NATURAL:
      out.ordering = Ordering::kNatural;
      break;
    case pb::ORDERING_AMD:
      out.ordering = Ordering::kAmd;
      break;
    case pb::ORDERING_METIS:
      out.ordering = Ordering::kMetis;
      break;
    case pb::ORDERING_RCM:
      out.ordering = Ordering::kRcm;
      break;
    case pb::ORDERING_GMC:
      out.ordering = Ordering::kGmc;
      break;
    default:
      return Invalid("options.ordering",
                     absl::StrCat(in.ordering(), " is not a known ordering"));
  }
  switch (in.pivoting()) {
    case pb::PIVOTING_UNSPECIFIED:  // core's default
      break;
    case pb::PIVOTING_BUNCH_KAUFMAN:
      out.pivoting = Pivoting::kBunchKaufman;
      break;
    case pb::PIVOTING_STATIC:
      out.pivoting = Pivoting::kStatic;
      break;
    case pb::PIVOTING_ROOK:
      out.pivoting = Pivoting::kRook;
      break;
    default:
      return Invalid("options.pivoting",
                     absl::StrCat(in.pivoting(), " is not a known pivoting"));
  }
  switch (in.trisolve()) {
    case pb::TRIANGULAR_SOLVE_UNSPECIFIED:  // core's default
      break;
    case pb::TRIANGULAR_SOLVE_EXACT:
      out.trisolve = TriangularSolve::kExact;
      break;
    case pb::TRIANGULAR_SOLVE_JACOBI:
      out.trisolve = TriangularSolve::kJacobi;
      break;
    case pb::TRIANGULAR_SOLVE_BLOCK_JACOBI:
      out.trisolve = TriangularSolve::kBlockJacobi;
      break;
    default:
      return Invalid(
          "options.trisolve",
          absl::StrCat(in.trisolve(), " is not a known triangular solve"));
  }
  switch (in.scaling()) {
    case pb::SCALING_AUTO:
      out.scaling = Scaling::kAuto;
      break;
    case pb::SCALING_NONE:
      out.scaling = Scaling::kNone;
      break;
    case pb::SCALING_RUIZ:
      out.scaling = Scaling::kRuiz;
      break;
    case pb::SCALING_MATCHING:
      out.scaling = Scaling::kMatching;
      break;
    case pb::SCALING_COLUMN_NORM:
      out.scaling = Scaling::kColumnNorm;
      break;
    default:
      return Invalid("options.scaling",
                     absl::StrCat(in.scaling(), " is not a known scaling"));
  }
  switch (in.blocking()) {
    case pb::BLOCKING_UNSPECIFIED:  // core's default
      break;
    case pb::BLOCKING_RB:
      out.blocking = Blocking::kRb;
      break;
    case pb::BLOCKING_BR:
      out.blocking = Blocking::kBr;
      break;
    default:
      return Invalid("options.blocking",
                     absl::StrCat(in.blocking(), " is not a known blocking"));
  }
  // The scalar fields by their names (option_fields.h): unset ones (0, or
  // not present when optional) keep the core's defaults; the ranges are the
  // core's (ValidateFactorOptions).
  if (absl::Status s = CopyTableFactorOptions(in, &out); !s.ok()) return s;
  // ic/ilu's block-Jacobi triangular solves take the block size asked for.
  if (in.max_block_size() != 0) out.trisolve_block_size = in.max_block_size();
  if (absl::Status s = ValidateFactorOptions(out); !s.ok()) {
    return InvalidOptionFromCore(std::move(s));
  }
  return out;
}

absl::StatusOr<SolveOptions> SolveOptionsFromProto(const pb::SolveOptions& in,
                                                   Method method) {
  SolveOptions out;
  switch (in.krylov()) {
    case pb::KRYLOV_AUTO:
      out.krylov = Krylov::kAuto;
      break;
    case pb::KRYLOV_NONE:
      out.krylov = Krylov::kNone;
      break;
    case pb::KRYLOV_CG:
      out.krylov = Krylov::kCg;
      break;
    case pb::KRYLOV_GMRES:
      out.krylov = Krylov::kGmres;
      break;
    case pb::KRYLOV_SQMR:
      out.krylov = Krylov::kSqmr;
      break;
    case pb::KRYLOV_IDR:
      out.krylov = Krylov::kIdr;
      break;
    case pb::KRYLOV_BICGSTAB:
      out.krylov = Krylov::kBicgstab;
      break;
    default:
      return Invalid(
          "options.krylov",
          absl::StrCat(in.krylov(), " is not a known Krylov method"));
  }
  if (in.tolerance() != 0) out.tolerance = in.tolerance();
  if (in.max_iterations() != 0) out.max_iterations = in.max_iterations();
  if (in.restart() != 0) out.restart = in.restart();
  if (in.idr_s() != 0) out.idr_s = in.idr_s();
  if (absl::Status s = ValidateSolveOptions(out, method); !s.ok()) {
    return InvalidOptionFromCore(std::move(s));
  }
  return out;
}

void FactorReportToProto(const FactorReport& r, Method method,
                         pb::FactorizeReply* reply) {
  reply->set_method(MethodToProto(method));
  switch (r.status) {
    case FactorStatus::kOk:
      reply->set_factor_status(pb::FACTOR_STATUS_OK);
      break;
    case FactorStatus::kSingular:
      reply->set_factor_status(pb::FACTOR_STATUS_SINGULAR);
      break;
    case FactorStatus::kPerturbed:
      reply->set_factor_status(pb::FACTOR_STATUS_PERTURBED);
      break;
  }
  pb::Inertia* inertia = reply->mutable_inertia();
  inertia->set_positive(r.inertia.positive);
  inertia->set_negative(r.inertia.negative);
  inertia->set_zero(r.inertia.zero);
  reply->set_inertia_reliable(r.inertia_reliable);
  reply->set_perturbed_pivots(r.perturbed_pivots);
  reply->set_two_by_two_pivots(r.two_by_two_pivots);
  reply->set_delayed_pivots(r.delayed_pivots);
  for (double e : r.sweep_errors) reply->add_sweep_errors(e);
  reply->set_nnz_factor(r.nnz_factor);
  reply->set_factor_bytes(r.factor_bytes);
  reply->set_analysis_reused(r.analysis_reused);
  reply->set_blocks(r.blocks);
  pb::Timings* t = reply->mutable_timings();
  t->set_preprocess_s(r.preprocess_s);
  t->set_analyze_s(r.analyze_s);
  t->set_factorize_s(r.factorize_s);
  reply->set_message(r.message);
}

void SolveReportToProto(const SolveReport& r, pb::SolveReply* reply) {
  switch (r.status) {
    case SolveStatus::kConverged:
      reply->set_status(pb::SOLVE_STATUS_CONVERGED);
      break;
    case SolveStatus::kNotConverged:
      reply->set_status(pb::SOLVE_STATUS_NOT_CONVERGED);
      break;
    case SolveStatus::kBreakdown:
      reply->set_status(pb::SOLVE_STATUS_BREAKDOWN);
      break;
    case SolveStatus::kSingular:
      reply->set_status(pb::SOLVE_STATUS_SINGULAR);
      break;
  }
  reply->set_relative_residual(r.relative_residual);
  reply->set_backward_error(r.backward_error);
  reply->set_iterations(r.iterations);
  reply->mutable_timings()->set_solve_s(r.solve_s);
  reply->set_message(r.message);
}

void CacheEntryToProto(const CacheEntry& e, pb::MatrixInfo* info) {
  info->set_id(e.id);
  if (e.matrix != nullptr) {
    info->set_n(e.matrix->rows);
    info->set_nnz(e.matrix->nnz());
    info->set_structure(StructureToProto(e.matrix->structure));
  }
  info->set_pattern_hash(e.pattern_hash);
  info->set_bytes(e.bytes());
  info->set_bytes_received(e.bytes_received);
  info->set_factorized(e.factorization != nullptr);
  info->set_stale(e.stale);
  if (e.factorization != nullptr) info->set_method(MethodToProto(e.method));
  info->set_generation(e.generation);
  if (e.factorization != nullptr)
    info->set_factorized_generation(e.factorized_generation);
}

CsrChunkView ViewCsrChunk(const pb::CsrChunk& chunk) {
  return {View(chunk.row_nnz()), View(chunk.col_idx()), View(chunk.values())};
}

CooChunkView ViewCooChunk(const pb::CooChunk& chunk) {
  return {View(chunk.row_idx()), View(chunk.col_idx()), View(chunk.values())};
}

}  // namespace factord::server
