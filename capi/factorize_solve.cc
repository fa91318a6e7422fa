// Factorize, solve and the fused interior-point step through the C API,
// and the reports kept per matrix (factord.h, "Reports of the last
// factorization and solves"). Right-hand sides and solutions are n x nrhs
// column-major caller arrays; the solutions are written only after the
// whole reply arrived, so x may be the same array as b.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "capi/entries.h"
#include "capi/handle.h"
#include "capi/last_error.h"
#include "client/factord_client.h"
#include "factord/factord.h"

namespace factord::capi {
namespace {

// Right-hand sides the Step RPC takes (server/service/step_reactor.h);
// more are solved by a Solve that follows.
constexpr int64_t kMaxStepRhs = 256;

std::string NameOr(const char* name, const char* fallback) {
  return name != nullptr && name[0] != '\0' ? name : fallback;
}

client::FactorizeOptions ToClient(const factord_factorize_options* o) {
  client::FactorizeOptions c;
  if (o == nullptr) return c;
  c.method = NameOr(o->method, "auto");
  c.ordering = NameOr(o->ordering, "auto");
  c.pivoting = NameOr(o->pivoting, "");
  c.scaling = NameOr(o->scaling, "auto");
  if (o->pivot_threshold != 0) c.pivot_threshold = o->pivot_threshold;
  c.shift_first = o->shift_first;
  c.shift_rest = o->shift_rest;
  c.shift_count = o->shift_count;
  c.deterministic = o->deterministic != 0;
  c.expected_generation = o->expected_generation;
  return c;
}

client::SolveOptions ToClient(const factord_solve_options* o) {
  client::SolveOptions c;
  if (o == nullptr) return c;
  c.krylov = NameOr(o->krylov, "auto");
  c.tolerance = o->tolerance;
  c.max_iterations = o->max_iterations;
  c.expected_generation = o->expected_generation;
  return c;
}

factord_factor_report ToReport(const client::FactorizeResult& f,
                               double wall_s) {
  factord_factor_report r{};
  r.status = f.factor_status == "singular"    ? FACTORD_FACTOR_SINGULAR
             : f.factor_status == "perturbed" ? FACTORD_FACTOR_PERTURBED
                                              : FACTORD_FACTOR_OK;
  CopyName(f.method, r.method);
  r.positive = f.inertia.positive;
  r.negative = f.inertia.negative;
  r.zero = f.inertia.zero;
  r.inertia_reliable = f.inertia_reliable ? 1 : 0;
  r.perturbed_pivots = f.perturbed_pivots;
  r.delayed_pivots = f.delayed_pivots;
  r.two_by_two_pivots = f.two_by_two_pivots;
  r.nnz_factor = f.nnz_factor;
  r.factor_bytes = f.factor_bytes;
  r.analysis_reused = f.analysis_reused ? 1 : 0;
  r.generation = f.generation;
  r.preprocess_s = f.timings.preprocess_s;
  r.analyze_s = f.timings.analyze_s;
  r.factorize_s = f.timings.factorize_s;
  r.queue_s = f.timings.queue_s;
  r.wall_s = wall_s;
  return r;
}

factord_solve_report ToReport(const client::SolveResult& s) {
  factord_solve_report r{};
  r.status = s.status == "not_converged" ? FACTORD_SOLVE_NOT_CONVERGED
             : s.status == "breakdown"   ? FACTORD_SOLVE_BREAKDOWN
             : s.status == "singular"    ? FACTORD_SOLVE_SINGULAR
                                         : FACTORD_SOLVE_CONVERGED;
  r.relative_residual = s.relative_residual;
  r.backward_error = s.backward_error;
  r.iterations = s.iterations;
  r.solve_s = s.timings.solve_s;
  r.queue_s = s.timings.queue_s;
  return r;
}

void KeepFactorReport(MatrixEntry* entry, const factord_factor_report& r) {
  std::lock_guard<std::mutex> lock(entry->mutex);
  entry->factor_report = r;
}

// Writes the solutions into x (n x count column-major, from column
// `first`) and keeps their reports (appended when `append`).
void TakeSolutions(MatrixEntry* entry, int64_t n,
                   const std::vector<client::SolveResult>& results,
                   int64_t first, bool append, double* x) {
  std::vector<factord_solve_report> reports;
  reports.reserve(results.size());
  for (size_t k = 0; k < results.size(); ++k) {
    const std::vector<double>& xk = results[k].x;
    std::copy_n(xk.begin(), std::min<int64_t>(n, xk.size()),
                x + (first + static_cast<int64_t>(k)) * n);
    reports.push_back(ToReport(results[k]));
  }
  std::lock_guard<std::mutex> lock(entry->mutex);
  if (append && entry->solve_reports) {
    entry->solve_reports->insert(entry->solve_reports->end(), reports.begin(),
                                 reports.end());
  } else {
    entry->solve_reports = std::move(reports);
  }
}

// Columns [first, first + count) of b as spans of n entries.
std::vector<std::span<const double>> Columns(const double* b, int64_t n,
                                             int64_t first, int64_t count) {
  std::vector<std::span<const double>> rhs;
  rhs.reserve(count);
  for (int64_t k = first; k < first + count; ++k) {
    rhs.emplace_back(b + k * n, static_cast<size_t>(n));
  }
  return rhs;
}

int64_t KnownN(MatrixEntry* entry) {
  std::lock_guard<std::mutex> lock(entry->mutex);
  return entry->n;
}

factord_status CheckId(factord_handle* handle, const char* id) {
  if (handle == nullptr) return BadRequest("handle is NULL");
  if (id == nullptr || id[0] == '\0') return BadRequest("id is NULL or empty");
  return FACTORD_OK;
}

// The Step of factord_step and factord_factorize (with a diagonal): values
// (stored order, empty: keep), diagonal (n or NULL), right-hand sides.
factord_status RunStep(factord_handle* handle, const std::string& id,
                       MatrixEntry* entry, const std::vector<double>& values,
                       const factord_factorize_options* factorize,
                       const double* diagonal,
                       const factord_solve_options* solve, int64_t nrhs,
                       const double* b, double* x) {
  const int64_t n = KnownN(entry);
  client::StepOptions step;
  step.factorize = ToClient(factorize);
  step.solve = ToClient(solve);
  if (diagonal != nullptr) {
    step.diagonal_shift = std::span<const double>(diagonal, size_t(n));
  }
  const int64_t in_step = std::min(nrhs, kMaxStepRhs);
  std::vector<std::span<const double>> rhs = Columns(b, n, 0, in_step);
  const absl::Time start = absl::Now();
  absl::StatusOr<client::StepResult> result = handle->EndpointOf(entry)->Step(
        id, values, std::span<const std::span<const double>>(rhs), step);
  if (!result.ok()) {
    return FailWith(result.status(), absl::StrCat("step '", id, "'"));
  }
  KeepFactorReport(entry, ToReport(result->factorization,
                                   absl::ToDoubleSeconds(absl::Now() - start)));
  if (nrhs == 0) return FACTORD_OK;
  TakeSolutions(entry, n, result->solutions, 0, /*append=*/false, x);
  if (nrhs == in_step) return FACTORD_OK;
  // The rest with the factorization the step made.
  client::SolveOptions rest_options = step.solve;
  rest_options.expected_generation = result->factorization.generation;
  std::vector<std::span<const double>> rest =
      Columns(b, n, in_step, nrhs - in_step);
  absl::StatusOr<std::vector<client::SolveResult>> solved =
      handle->EndpointOf(entry)->Solve(
            id, std::span<const std::span<const double>>(rest), rest_options);
  if (!solved.ok()) {
    return FailWith(solved.status(), absl::StrCat("solve '", id, "'"));
  }
  TakeSolutions(entry, n, *solved, in_step, /*append=*/true, x);
  return FACTORD_OK;
}

}  // namespace
}  // namespace factord::capi

extern "C" {

FACTORD_C_EXPORT void factord_factorize_options_init(
    factord_factorize_options* options) {
  if (options != nullptr) *options = factord_factorize_options{};
}

FACTORD_C_EXPORT void factord_solve_options_init(
    factord_solve_options* options) {
  if (options != nullptr) *options = factord_solve_options{};
}

FACTORD_C_EXPORT factord_status factord_factorize(
    factord_handle* handle, const char* id,
    const factord_factorize_options* options, const double* diagonal) {
  using namespace factord::capi;
  return Guarded([&]() -> factord_status {
    if (factord_status s = CheckId(handle, id); s != FACTORD_OK) return s;
    const std::string name = id;
    std::shared_ptr<MatrixEntry> entry = handle->Entry(name);
    if (diagonal != nullptr) {
      // Only the Step RPC takes a per-entry diagonal: one without values
      // and right-hand sides.
      if (factord_status s = EnsureShape(handle, name, entry.get());
          s != FACTORD_OK) {
        return s;
      }
      return RunStep(handle, name, entry.get(), {}, options, diagonal, nullptr,
                     0, nullptr, nullptr);
    }
    const factord::client::FactorizeOptions o = ToClient(options);
    const absl::Time start = absl::Now();
    absl::StatusOr<factord::client::FactorizeResult> f = handle->EndpointOf(entry.get())->Factorize(name, o);
    if (!f.ok()) {
      return FailWith(f.status(), absl::StrCat("factorize '", name, "'"));
    }
    KeepFactorReport(entry.get(),
                     ToReport(*f, absl::ToDoubleSeconds(absl::Now() - start)));
    return FACTORD_OK;
  });
}

FACTORD_C_EXPORT factord_status
factord_solve(factord_handle* handle, const char* id,
              const factord_solve_options* options, int64_t nrhs,
              const double* b, double* x) {
  using namespace factord::capi;
  return Guarded([&]() -> factord_status {
    if (factord_status s = CheckId(handle, id); s != FACTORD_OK) return s;
    if (nrhs < 1) {
      return BadRequest(absl::StrCat("nrhs = ", nrhs, ": at least 1"));
    }
    if (b == nullptr) return BadRequest("b is NULL");
    if (x == nullptr) return BadRequest("x is NULL");
    const std::string name = id;
    std::shared_ptr<MatrixEntry> entry = handle->Entry(name);
    if (factord_status s = EnsureShape(handle, name, entry.get());
        s != FACTORD_OK) {
      return s;
    }
    const int64_t n = KnownN(entry.get());
    std::vector<std::span<const double>> rhs = Columns(b, n, 0, nrhs);
    const factord::client::SolveOptions o = ToClient(options);
    absl::StatusOr<std::vector<factord::client::SolveResult>> solved =
        handle->EndpointOf(entry.get())
              ->Solve(name, std::span<const std::span<const double>>(rhs), o);
    if (!solved.ok()) {
      return FailWith(solved.status(), absl::StrCat("solve '", name, "'"));
    }
    TakeSolutions(entry.get(), n, *solved, 0, /*append=*/false, x);
    return FACTORD_OK;
  });
}

FACTORD_C_EXPORT factord_status
factord_step(factord_handle* handle, const char* id, const double* values,
             const factord_factorize_options* factorize, const double* diagonal,
             const factord_solve_options* solve, int64_t nrhs, const double* b,
             double* x) {
  using namespace factord::capi;
  return Guarded([&]() -> factord_status {
    if (factord_status s = CheckId(handle, id); s != FACTORD_OK) return s;
    if (nrhs < 0) {
      return BadRequest(absl::StrCat("nrhs = ", nrhs, " is negative"));
    }
    if (nrhs > 0 && b == nullptr) return BadRequest("b is NULL");
    if (nrhs > 0 && x == nullptr) return BadRequest("x is NULL");
    const std::string name = id;
    std::shared_ptr<MatrixEntry> entry = handle->Entry(name);
    if (factord_status s = EnsureShape(handle, name, entry.get());
        s != FACTORD_OK) {
      return s;
    }
    std::vector<double> stored;
    if (values != nullptr) {
      if (factord_status s =
              StoredValues(handle, name, entry.get(), values, &stored);
          s != FACTORD_OK) {
        return s;
      }
    }
    return RunStep(handle, name, entry.get(), stored, factorize, diagonal,
                   solve, nrhs, b, x);
  });
}

FACTORD_C_EXPORT factord_status factord_last_factor_report(
    factord_handle* handle, const char* id, factord_factor_report* report) {
  using namespace factord::capi;
  return Guarded([&]() -> factord_status {
    if (factord_status s = CheckId(handle, id); s != FACTORD_OK) return s;
    if (report == nullptr) return BadRequest("report is NULL");
    std::shared_ptr<MatrixEntry> entry;
    {
      std::lock_guard<std::mutex> lock(handle->mutex);
      auto it = handle->matrices.find(id);
      if (it != handle->matrices.end()) entry = it->second;
    }
    if (entry) {
      std::lock_guard<std::mutex> lock(entry->mutex);
      if (entry->factor_report) {
        *report = *entry->factor_report;
        return FACTORD_OK;
      }
    }
    return Fail(FACTORD_ERR_FAILED_PRECONDITION, "NO_REPORT",
                absl::StrCat("this handle has not factorized '", id, "'"));
  });
}

FACTORD_C_EXPORT factord_status factord_last_solve_reports(
    factord_handle* handle, const char* id, factord_solve_report* reports,
    int64_t capacity, int64_t* count) {
  using namespace factord::capi;
  return Guarded([&]() -> factord_status {
    if (factord_status s = CheckId(handle, id); s != FACTORD_OK) return s;
    if (count == nullptr) return BadRequest("count is NULL");
    if (capacity < 0 || (capacity > 0 && reports == nullptr)) {
      return BadRequest("reports is NULL or capacity is negative");
    }
    std::shared_ptr<MatrixEntry> entry;
    {
      std::lock_guard<std::mutex> lock(handle->mutex);
      auto it = handle->matrices.find(id);
      if (it != handle->matrices.end()) entry = it->second;
    }
    if (entry) {
      std::lock_guard<std::mutex> lock(entry->mutex);
      if (entry->solve_reports) {
        const auto& kept = *entry->solve_reports;
        *count = static_cast<int64_t>(kept.size());
        std::copy_n(kept.begin(), std::min<int64_t>(capacity, kept.size()),
                    reports);
        return FACTORD_OK;
      }
    }
    return Fail(FACTORD_ERR_FAILED_PRECONDITION, "NO_REPORT",
                absl::StrCat("this handle has not solved with '", id, "'"));
  });
}

}  // extern "C"
