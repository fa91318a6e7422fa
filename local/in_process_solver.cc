#include "local/in_process_solver.h"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "client/csr_arrays.h"
#include "core/base/cancellation.h"
#include "core/base/timer.h"
#include "core/kernels/cpu/blas_threads.h"
#include "core/matrix/csr.h"
#include "core/solver/solver.h"
#include "local/client_types.h"
#include "server/error_reason.h"
#include "server/service/cached_work.h"
#include "server/service/matrix_upload.h"
#include "server/service/streamed_values.h"

namespace factord::local {
namespace {

namespace v1 = ::factord::v1;

// Every error carries a reason, as the daemon's replies do.
absl::Status Tagged(absl::Status status) {
  return server::WithEffectiveReason(std::move(status));
}

// What the daemon's upload refuses is the matrix itself (upload_reactor.cc).
absl::Status TaggedUpload(absl::Status status) {
  if (status.code() == absl::StatusCode::kInvalidArgument) {
    status = server::WithDefaultReason(std::move(status), v1::INVALID_MATRIX);
  } else if (status.code() == absl::StatusCode::kResourceExhausted) {
    status = server::WithDefaultReason(std::move(status), v1::MATRIX_TOO_LARGE);
  }
  return Tagged(std::move(status));
}

server::MatrixKey KeyOf(absl::string_view id) { return {"", std::string(id)}; }

// `values` checked (finite, exactly `size` of them) into a vector, with the
// daemon's messages (streamed_values.h); `what`/`whats` name one and many.
absl::StatusOr<std::vector<double>> FiniteValues(std::span<const double> values,
                                                 int64_t size,
                                                 absl::string_view what,
                                                 absl::string_view whats,
                                                 absl::string_view size_name) {
  std::vector<double> into(static_cast<size_t>(size));
  int64_t received = 0;
  if (absl::Status s = server::AppendFiniteValues(values, what, whats,
                                                  size_name, into, received);
      !s.ok()) {
    return s;
  }
  if (received != size) {
    return server::WithReason(absl::InvalidArgumentError(absl::StrCat(
                                  "got ", received, " ", whats,
                                  "; the matrix has ", size_name, " = ", size)),
                              v1::INVALID_MATRIX);
  }
  return into;
}

// A non-negative integer from $name into *out (unset or empty: untouched),
// within [low, high]; INVALID_OPTION naming the variable otherwise.
absl::Status ReadInteger(const char* name, int64_t low, int64_t high,
                         int64_t* out) {
  const char* text = std::getenv(name);
  if (text == nullptr || text[0] == '\0') return absl::OkStatus();
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < low ||
      value > high) {
    return server::InvalidOption(
        name, absl::StrCat("is '", text, "': an integer from ", low, " to ",
                           high, " is expected"));
  }
  *out = value;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<InProcessOptions> InProcessOptionsFromEnvironment() {
  InProcessOptions options;
  int64_t threads = options.threads;
  if (absl::Status s = ReadInteger("FACTORD_THREADS", 1, 1024, &threads);
      !s.ok()) {
    return s;
  }
  options.threads = static_cast<int>(threads);
  if (absl::Status s = ReadInteger("FACTORD_CACHE_BYTES", int64_t{1} << 20,
                                   std::numeric_limits<int64_t>::max(),
                                   &options.cache_bytes);
      !s.ok()) {
    return s;
  }
  return options;
}

InProcessSolver::InProcessSolver(const InProcessOptions& options)
    : options_(options), cache_([&] {
        server::FactorCache::Options o;
        o.budget_bytes = options.cache_bytes;
        // Matrices live until released, evicted by the budget, or the end
        // of the process.
        o.idle_ttl = absl::InfiniteDuration();
        return o;
      }()) {
  kernels::cpu::KeepHostBlasThreads();
  limits_.cache_bytes = options.cache_bytes;
}

ExecContext InProcessSolver::Context() const {
  ExecContext ctx;
  ctx.backend = Backend::kCpu;
  ctx.threads = options_.threads;
  ctx.cancellation = &Cancellation::None();
  return ctx;
}

absl::StatusOr<server::CacheEntry> InProcessSolver::Find(absl::string_view id) {
  if (absl::Status s = server::CheckMatrixId(id, "id"); !s.ok()) return s;
  return cache_.Lookup(KeyOf(id));
}

absl::StatusOr<client::MatrixInfo> InProcessSolver::Upload(
    const client::CsrArrays& matrix, absl::string_view id,
    const client::UploadOptions& options) {
  const std::string name = id.empty() ? client::NewMatrixId() : std::string(id);
  if (absl::Status s = client::internal::CheckCsrArrays(matrix); !s.ok()) {
    return Tagged(s);
  }
  absl::StatusOr<Structure> structure = StructureFromName(matrix.structure);
  if (!structure.ok()) return Tagged(structure.status());
  // The daemon's own upload checks and assembly: one header, one chunk.
  server::MatrixUpload upload(&limits_);
  const int64_t nnz = matrix.row_ptr[matrix.n];
  if (absl::Status s = upload.ConsumeHeader(server::UploadHeader{
          name, matrix.n, nnz, *structure, options.replace});
      !s.ok()) {
    return TaggedUpload(s);
  }
  std::vector<int64_t> row_nnz(matrix.n);
  for (int64_t i = 0; i < matrix.n; ++i) {
    row_nnz[i] = matrix.row_ptr[i + 1] - matrix.row_ptr[i];
  }
  if (absl::Status s = upload.ConsumeCsr(
          server::CsrChunkView{row_nnz, matrix.col_idx, matrix.values});
      !s.ok()) {
    return TaggedUpload(s);
  }
  absl::StatusOr<CsrMatrix> assembled = upload.Finish();
  if (!assembled.ok()) return TaggedUpload(assembled.status());
  auto stored = std::make_shared<const CsrMatrix>(*std::move(assembled));
  const uint64_t hash = PatternHash(*stored);
  absl::StatusOr<server::CacheEntry> entry =
      cache_.InsertMatrix(KeyOf(name), std::move(stored), hash,
                          /*bytes_received=*/0, options.replace);
  if (!entry.ok()) return TaggedUpload(entry.status());
  return MatrixInfoOf(*entry);
}

absl::StatusOr<client::MatrixInfo> InProcessSolver::UpdateValues(
    absl::string_view id, std::span<const double> values,
    uint64_t expected_generation) {
  absl::StatusOr<server::CacheEntry> entry = Find(id);
  if (!entry.ok()) return Tagged(entry.status());
  if (absl::Status s =
          server::CheckGeneration(id, expected_generation, entry->generation);
      !s.ok()) {
    return Tagged(s);
  }
  absl::StatusOr<std::vector<double>> checked =
      FiniteValues(values, entry->matrix->nnz(), "value", "values", "nnz");
  if (!checked.ok()) return Tagged(checked.status());
  absl::StatusOr<server::CacheEntry> updated = cache_.ReplaceValues(
      KeyOf(id), server::WithNewValues(*entry->matrix, *std::move(checked)),
      entry->pattern_hash, /*bytes_received=*/0, expected_generation);
  if (!updated.ok()) return Tagged(updated.status());
  return MatrixInfoOf(*updated);
}

absl::StatusOr<client::FactorizeResult> InProcessSolver::Factorize(
    absl::string_view id, const client::FactorizeOptions& options) {
  absl::StatusOr<Factorized> factorized =
      FactorizeNow(id, options, {}, options.expected_generation);
  if (!factorized.ok()) return factorized.status();
  return std::move(factorized->result);
}

absl::StatusOr<InProcessSolver::Factorized> InProcessSolver::FactorizeNow(
    absl::string_view id, const client::FactorizeOptions& options,
    std::span<const double> diagonal, uint64_t expected_generation) {
  absl::StatusOr<FactorOptions> factor_options = FactorOptionsFrom(options);
  if (!factor_options.ok()) return Tagged(factor_options.status());
  absl::StatusOr<server::CacheEntry> entry = Find(id);
  if (!entry.ok()) return Tagged(entry.status());
  if (absl::Status s =
          server::CheckGeneration(id, expected_generation, entry->generation);
      !s.ok()) {
    return Tagged(s);
  }
  if (!diagonal.empty()) {
    absl::StatusOr<std::vector<double>> checked =
        FiniteValues(diagonal, entry->matrix->rows, "diagonal entry",
                     "diagonal entries", "n");
    if (!checked.ok()) return Tagged(checked.status());
    factor_options->diagonal_shift = *std::move(checked);
  }
  absl::StatusOr<server::FactorizeOutcome> outcome = server::FactorizeEntry(
      server::FactorStore{&cache_, &analyses_}, KeyOf(id), *entry,
      *factor_options, options.deterministic, Context());
  if (!outcome.ok()) return Tagged(outcome.status());
  client::FactorizeResult result =
      FactorizeResultOf(outcome->report, outcome->method, id,
                        outcome->entry.factorized_generation);
  return Factorized{std::move(outcome->entry), std::move(result)};
}

absl::StatusOr<std::vector<client::SolveResult>> InProcessSolver::SolveWith(
    const server::CacheEntry& entry,
    std::span<const std::span<const double>> rhs,
    const client::SolveOptions& options) {
  absl::StatusOr<SolveOptions> solve_options =
      SolveOptionsFrom(options, entry.method);
  if (!solve_options.ok()) return Tagged(solve_options.status());
  const int64_t n = entry.matrix->rows;
  const ExecContext ctx = Context();
  std::vector<client::SolveResult> results(rhs.size());
  for (size_t k = 0; k < rhs.size(); ++k) {
    absl::StatusOr<std::vector<double>> b =
        FiniteValues(rhs[k], n, absl::StrCat("right-hand side ", k, " entry"),
                     absl::StrCat("right-hand side ", k, " entries"), "n");
    if (!b.ok()) return Tagged(b.status());
    client::SolveResult& result = results[k];
    result.x.assign(n, 0.0);
    SolveReport report;
    Timer timer;
    absl::Status s =
        entry.factorization->Solve(*b, result.x, *solve_options, ctx, &report);
    if (s.code() == absl::StatusCode::kInvalidArgument) {
      // The Krylov method or solve options do not fit this factorization.
      s = server::WithBadField(
          server::WithDefaultReason(std::move(s), v1::INVALID_OPTION),
          "options.krylov");
    }
    if (!s.ok()) return Tagged(s);
    if (report.solve_s == 0) report.solve_s = timer.Seconds();
    SetSolveReport(report, &result);
  }
  return results;
}

absl::StatusOr<std::vector<client::SolveResult>> InProcessSolver::Solve(
    absl::string_view id, std::span<const std::span<const double>> rhs,
    const client::SolveOptions& options) {
  absl::StatusOr<server::CacheEntry> entry = Find(id);
  if (!entry.ok()) return Tagged(entry.status());
  if (absl::Status s =
          server::CheckSolvable(*entry, id, options.expected_generation);
      !s.ok()) {
    return Tagged(s);
  }
  return SolveWith(*entry, rhs, options);
}

absl::StatusOr<client::StepResult> InProcessSolver::Step(
    absl::string_view id, std::span<const double> values,
    std::span<const std::span<const double>> rhs,
    const client::StepOptions& options) {
  // The options are checked before the values are applied, as the daemon
  // does: the solve options against the method the factorization will use.
  absl::StatusOr<FactorOptions> factor_options =
      FactorOptionsFrom(options.factorize);
  if (!factor_options.ok()) return Tagged(factor_options.status());
  absl::StatusOr<server::CacheEntry> before = Find(id);
  if (!before.ok()) return Tagged(before.status());
  absl::StatusOr<SolveOptions> solve_options = SolveOptionsFrom(
      options.solve, ResolveMethod(*before->matrix, factor_options->method));
  if (!solve_options.ok()) return Tagged(solve_options.status());
  uint64_t expected = options.factorize.expected_generation;
  if (!values.empty()) {
    // Factorize exactly these values: a concurrent update in between is a
    // mismatch, not a silent factorization of someone else's values.
    absl::StatusOr<client::MatrixInfo> updated =
        UpdateValues(id, values, expected);
    if (!updated.ok()) return updated.status();
    expected = updated->generation;
  }
  absl::StatusOr<Factorized> factorized =
      FactorizeNow(id, options.factorize, options.diagonal_shift, expected);
  if (!factorized.ok()) return factorized.status();
  client::StepResult result;
  result.factorization = std::move(factorized->result);
  // Solved with the factorization just made, as the daemon's step does
  // (not a later lookup that another thread may have changed).
  absl::StatusOr<std::vector<client::SolveResult>> solved =
      SolveWith(factorized->entry, rhs, options.solve);
  if (!solved.ok()) return solved.status();
  result.solutions = *std::move(solved);
  return result;
}

absl::StatusOr<int64_t> InProcessSolver::Release(absl::string_view id) {
  if (absl::Status s = server::CheckMatrixId(id, "id"); !s.ok()) {
    return Tagged(s);
  }
  absl::StatusOr<int64_t> freed = cache_.Release(KeyOf(id));
  if (!freed.ok()) return Tagged(freed.status());
  return freed;
}

absl::StatusOr<client::MatrixInfo> InProcessSolver::GetMatrix(
    absl::string_view id) {
  absl::StatusOr<server::CacheEntry> entry = Find(id);
  if (!entry.ok()) return Tagged(entry.status());
  return MatrixInfoOf(*entry);
}

}  // namespace factord::local
