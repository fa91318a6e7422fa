// factord's core in the calling process: the service's calls (upload,
// new values, factorize, solve, step, release, what is held) with the
// daemon's semantics, options, generations, reports and errors, but no
// daemon and no gRPC traffic. The C API (and through it libpardiso.so and
// libhsl.so) runs here with FACTORD_SERVER=local, when no server is
// configured, and for systems below a size threshold (docs/in_process.md).
//
// It is the daemon's own work without the wire: the same validation of
// uploads (server/service/matrix_upload.h), the same caches (factor cache
// with its generations and budget, analysis cache), the same factorization
// of a cache entry (server/service/cached_work.h) and the same error
// reasons (core/base/error_details.h); the client's structs become core
// types and back as the wire would carry them (local/client_types.h). No
// protobuf and no gRPC: loading them costs an optimizer more than a small
// problem takes to solve.
//
// It leaves the host program's state alone: it installs no signal
// handler, and it does not set the BLAS library's process-wide thread
// count (core/kernels/cpu/blas_threads.h: KeepHostBlasThreads), so BLAS
// runs with the threads the host gave it; the core's own threads per call
// are InProcessOptions::threads. Thread-safe: calls may come from several
// threads at once.
#ifndef FACTORD_LOCAL_IN_PROCESS_SOLVER_H_
#define FACTORD_LOCAL_IN_PROCESS_SOLVER_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "client/factord_client.h"
#include "core/base/exec_context.h"
#include "server/cache/analysis_cache.h"
#include "server/cache/factor_cache.h"
#include "server/config.h"

namespace factord::local {

struct InProcessOptions {
  // Kernel threads of the core per call (the TBB arena); BLAS keeps the
  // host's own thread count. $FACTORD_THREADS.
  int threads = 1;
  // Bytes of matrices and factors held at once (LRU eviction, and `auto`
  // falls back from ldlt to block_ildlt above it), as the daemon's
  // --cache_bytes. $FACTORD_CACHE_BYTES.
  int64_t cache_bytes = int64_t{8} << 30;
};

// The options from the environment: FACTORD_THREADS (1..1024) and
// FACTORD_CACHE_BYTES (bytes, >= 1 MiB), each unset or empty for its
// default. InvalidArgument (INVALID_OPTION) naming the variable otherwise.
absl::StatusOr<InProcessOptions> InProcessOptionsFromEnvironment();

class InProcessSolver final : public client::Endpoint {
 public:
  explicit InProcessSolver(const InProcessOptions& options);

  std::string location() const override { return "local"; }

  absl::StatusOr<client::MatrixInfo> Upload(
      const client::CsrArrays& matrix, absl::string_view id,
      const client::UploadOptions& options) override;
  absl::StatusOr<client::MatrixInfo> UpdateValues(
      absl::string_view id, std::span<const double> values,
      uint64_t expected_generation) override;
  absl::StatusOr<client::FactorizeResult> Factorize(
      absl::string_view id, const client::FactorizeOptions& options) override;
  absl::StatusOr<std::vector<client::SolveResult>> Solve(
      absl::string_view id, std::span<const std::span<const double>> rhs,
      const client::SolveOptions& options) override;
  absl::StatusOr<client::StepResult> Step(
      absl::string_view id, std::span<const double> values,
      std::span<const std::span<const double>> rhs,
      const client::StepOptions& options) override;
  absl::StatusOr<int64_t> Release(absl::string_view id) override;
  absl::StatusOr<client::MatrixInfo> GetMatrix(absl::string_view id) override;

 private:
  // The entry of `id` (checked as the daemon checks IDs); NOT_FOUND.
  absl::StatusOr<server::CacheEntry> Find(absl::string_view id);
  // A factorization stored in the cache, and its report.
  struct Factorized {
    server::CacheEntry entry;
    client::FactorizeResult result;
  };
  // Factorizes `id` at `expected_generation` (0: any) with the request's
  // options (and the per-entry `diagonal`, n values or empty).
  absl::StatusOr<Factorized> FactorizeNow(
      absl::string_view id, const client::FactorizeOptions& options,
      std::span<const double> diagonal, uint64_t expected_generation);
  // Solves every right-hand side with `entry`'s factorization.
  absl::StatusOr<std::vector<client::SolveResult>> SolveWith(
      const server::CacheEntry& entry,
      std::span<const std::span<const double>> rhs,
      const client::SolveOptions& options);
  ExecContext Context() const;

  const InProcessOptions options_;
  server::ServerConfig limits_;  // the upload limits and budget
  server::FactorCache cache_;
  server::AnalysisCache analyses_;
};

}  // namespace factord::local

#endif  // FACTORD_LOCAL_IN_PROCESS_SOLVER_H_
