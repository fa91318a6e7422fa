// The C++ client of the factord service (proto/factord/v1/solver.proto).
//
// A thin, thread-safe wrapper over the generated gRPC stub that hides the
// wire: large arrays are chunked transparently (no message above
// ConnectOptions::max_chunk_bytes, 1 MiB by default), many right-hand sides
// go through one bidirectional Solve stream, and replies come back as the
// plain structs below, so a program using this library needs no proto or
// gRPC headers. Errors are absl::Status with the gRPC code mapped to the
// absl code of the same number and the server's message kept; the server's
// structured details (reason, retry delay, field violations) are read with
// the functions of status_details.h.
//
// Every matrix has a name, and the client gives it: Upload makes a random
// UUID (v4) when the caller gives none (the server makes no IDs). Every
// request that names a matrix (all but List and Info) carries the metadata
// header `x-factord-matrix-id: <id>`, so that a mesh can route all requests
// for one matrix to the pod that holds its factors (consistent hash on the
// header). A bearer token (ConnectOptions::token, else $FACTORD_TOKEN) is
// sent as `authorization: Bearer <token>`.
//
// Generations: a matrix is at generation 1 after its upload and advances by
// one with every UpdateValues and every replacing upload. UpdateValues,
// Factorize and Solve may state the generation they expect (0: no check);
// on a mismatch the call fails with ABORTED, reason GENERATION_MISMATCH,
// and changes nothing, so a retried UpdateValues is applied at most once.
//
// Calls that fail on the way to or from a daemon (a daemon restarting, a
// proxy's 502 or 503, a stream reset) are retried with backoff, by default
// up to 5 attempts within 15 s (RetryPolicy); a first connection that
// fails (nothing listens at the target) fails at once, naming the target
// (ConnectOptions::connect_timeout, DaemonNeverReached).
//
// Enumerations (structure, method, Krylov method, ordering, pivoting, ...)
// are passed as their names, derived from the .proto (option_names.h):
// "block_jacobi", "cg", "bunch_kaufman" ("bk" also accepted); "" is the
// server's default. An unknown name is InvalidArgument (INVALID_OPTION)
// before any request is sent.
#ifndef FACTORD_CLIENT_FACTORD_CLIENT_H_
#define FACTORD_CLIENT_FACTORD_CLIENT_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "client/option_names.h"
#include "client/status_details.h"

namespace factord::v1 {
class StepHeader;  // wire type, used only by the library's internals
}  // namespace factord::v1

namespace factord::client {

namespace internal {
struct ClientChannel;
class RetainedMatrices;
}  // namespace internal

// The metadata key that names the matrix of a request (for routing).
inline constexpr char kMatrixIdHeader[] = "x-factord-matrix-id";

// Retries of calls that failed on the way to or from a daemon, not in it
// (docs/fleet.md, "Client retry policy"). On by default: up to 5 attempts,
// 0.1 s doubling to 2 s between them, within 15 s of the first; max_attempts
// 1 turns them off.
//
// Retried: UNAVAILABLE (the daemon draining or gone, the connection lost
// during the call, a proxy with no server up, a stream the proxy refused),
// and INTERNAL, UNKNOWN or CANCELLED that came without factord's error
// details, i.e. made by gRPC or a proxy on the way (HAProxy resets a stream
// with CANCEL when the daemon behind it died during the request; nginx
// answers 502). Never retried: what a daemon decided (it details every
// error), DEADLINE_EXCEEDED (the call's own rpc_timeout), and a first
// connection that failed (DaemonNeverReached, status_details.h): the retry
// window is for a daemon that was there and is restarting, not for an
// address where nothing listens.
//
// Before each further attempt the client waits out the backoff, then, when
// the connection is down, for the channel to connect again (a restarting
// daemon), up to the end of total_timeout; the attempt goes out once it is
// up. So a daemon back within total_timeout costs the call a delay, not a
// failure, however few attempts were left.
//
// Every factord call is safe to repeat: uploads name their ID (a repeat
// that finds the first attempt's matrix, ALREADY_EXISTS, adopts it),
// UpdateValues and Step set values rather than add to them (with an
// expected generation a repeat is applied at most once: ABORTED,
// GENERATION_MISMATCH, if the first attempt got through), Factorize and
// Solve compute the same thing again, and a repeated Release that finds
// nothing (NOT_FOUND) returns 0 bytes. Each attempt has its own
// rpc_timeout. Re-uploads (reupload_on_not_found) happen after the retries
// of the call that got NOT_FOUND, and their own calls are retried too.
struct RetryPolicy {
  int max_attempts = 5;  // attempts of one call in all; 1: no retry
  // Wait before the second attempt, multiplied by backoff_multiplier for
  // each further one, at most max_backoff, with +-20% random jitter; a
  // longer delay asked by the server (RetryInfo) is waited instead.
  absl::Duration initial_backoff = absl::Milliseconds(100);
  absl::Duration max_backoff = absl::Seconds(2);
  double backoff_multiplier = 2.0;
  // No attempt starts later than this after the call's first one: a call
  // whose next backoff, or wait for the connection, would end past it
  // fails with the last attempt's status. The attempts themselves are
  // bounded by rpc_timeout, not by this.
  absl::Duration total_timeout = absl::Seconds(15);
};

struct ConnectOptions {
  // Bearer token; empty: the FACTORD_TOKEN environment variable, if set.
  std::string token;
  // Upper bound on the serialized size of every request message (unless the
  // matrix id is longer than max_chunk_bytes - 256 bytes). Values below 256
  // are raised to 256: a chunk must hold a few entries.
  int64_t max_chunk_bytes = int64_t{1} << 20;
  // Largest reply message accepted (solution chunks are the big ones).
  int64_t max_receive_message_bytes = int64_t{64} << 20;
  // Deadline of each RPC, measured from its start; infinite by default.
  absl::Duration rpc_timeout = absl::InfiniteDuration();
  // When positive, Connect waits this long for the channel to connect and
  // fails with UNAVAILABLE otherwise; zero connects lazily on the first
  // call. Either way a first connection that fails (refused: nothing
  // listens there; a TLS handshake that fails) fails at once, not after
  // the timeout or the retries: UNAVAILABLE with a message that names the
  // target and how to start a daemon there (DaemonNeverReached).
  absl::Duration connect_timeout = absl::ZeroDuration();
  // TLS: on when `tls` is set or any file below is given (PEM files).
  bool tls = false;
  std::string tls_ca_file;    // CA that signed the server; empty: system roots
  std::string tls_cert_file;  // client certificate (mutual TLS), with...
  std::string tls_key_file;   // ...its private key
  // Transparent re-upload (off by default). A restarted daemon, or one that
  // evicted a matrix, answers NOT_FOUND for it. When set, the client keeps
  // its own copy of every matrix it uploads (pattern and latest values: the
  // matrix's size again in client memory) and the options of its last
  // Factorize; on NOT_FOUND from UpdateValues, Factorize or Solve it uploads
  // the copy again under the same ID, factorizes it again when the call
  // needs a factorization (Solve after a Factorize of the current values),
  // and retries the call once. The retried call expects the generation the
  // re-upload got (when the caller stated one and it was the copy's; else
  // the call fails with GENERATION_MISMATCH without re-uploading), and its
  // reply carries that generation. Release forgets the copy, and returns 0
  // bytes freed when the server no longer holds the matrix (NOT_FOUND).
  bool reupload_on_not_found = false;
  // Longest wait between two attempts to reconnect when the daemon went
  // away (gRPC's reconnect backoff, which otherwise grows to 120 s), so that
  // retries see a restarted daemon soon after it is back; zero: gRPC's
  // default.
  absl::Duration max_reconnect_backoff = absl::Seconds(1);
  // Retries of calls that failed in transit (RetryPolicy; on by default).
  RetryPolicy retry;
};

// A square sparse matrix in 0-based CSR form, borrowed from the caller for
// the duration of the call. Symmetric structures store the lower triangle
// with the diagonal; explicit zeros are entries and are kept.
struct CsrArrays {
  int64_t n = 0;
  std::string structure = "general";  // general | symmetric_lower | spd_lower
  std::span<const int64_t> row_ptr;   // n + 1 entries, row_ptr[0] == 0
  std::span<const int32_t> col_idx;   // row_ptr[n] entries
  std::span<const double> values;     // row_ptr[n] entries
};

// What the server holds about one matrix (MatrixInfo on the wire).
struct MatrixInfo {
  std::string id;
  int64_t n = 0;
  int64_t nnz = 0;
  std::string structure;
  uint64_t pattern_hash = 0;
  int64_t bytes = 0;           // held by the server
  int64_t bytes_received = 0;  // of the request stream
  bool factorized = false;
  bool stale = false;       // values changed since the last factorization
  std::string method;       // of the current factorization; "" if none
  uint64_t generation = 0;  // 1 after upload, +1 per UpdateValues / replace
  uint64_t factorized_generation = 0;  // of the factorization, or 0
};

struct UploadOptions {
  // Replace a matrix already held under the ID (its generation advances);
  // without it an upload of an ID in use fails with ALREADY_EXISTS.
  bool replace = false;
};

// The value of an option set by its name (FactorizeOptions::Set): typed, or
// as text to be read for the option's type ("true" / "false", an integer, a
// number, an enumeration's name), as a command line gives it.
using OptionValue = std::variant<bool, int64_t, double, std::string>;

// Factorization options; unset ones take the server's defaults.
struct FactorizeOptions {
  // auto | none | jacobi | block_jacobi | ldlt | block_ildlt | jacobi_ldlt |
  // ic | ilu | lu
  std::string method = "auto";
  std::string ordering = "auto";  // auto | natural | amd | metis | rcm | gmc
  // "" (server default: Bunch-Kaufman) | bunch_kaufman (or bk) | static |
  // rook
  std::string pivoting;
  // auto | none | ruiz | matching | column_norm (auto: the method's default).
  // A method takes auto, none and its own: ruiz (ldlt, block_ildlt,
  // jacobi_ldlt), matching (ldlt), column_norm (ic, ilu); another is
  // InvalidArgument (INVALID_OPTION on options.scaling).
  std::string scaling = "auto";
  // block_ildlt (S1 §III-A): "" (server default: rb) | rb | br
  std::string blocking;
  int max_block_size = 0;         // 0: server default
  std::optional<int> fill_level;  // -1: full fill
  std::optional<double> drop_tolerance;
  std::optional<double> fill_factor;
  int sweeps = 0;  // jacobi_ldlt sweeps; 0: default
  std::optional<double> epsilon;
  std::optional<double> delta;
  // ic/ilu: "" (server default: exact) | exact | jacobi | block_jacobi
  std::string trisolve;
  int trisolve_sweeps = 0;
  // IPM regularization: shift_first is added to the first shift_count
  // diagonal entries, shift_rest to the others. The shifted matrix is the
  // system factorized and solved, and the solve reports give its residuals.
  // Methods none and lu refuse shifts.
  double shift_first = 0;
  double shift_rest = 0;
  int64_t shift_count = 0;
  // No effect: the server is always bitwise deterministic for a fixed
  // thread count (same input, options and --threads, same bits).
  bool deterministic = false;
  // Threshold u of the pivot test |l_ij| <= 1/u in (0, 0.5] (ldlt,
  // block_ildlt, jacobi_ldlt); unset: the server's 0.01. Raise it for a more
  // accurate factorization.
  std::optional<double> pivot_threshold;
  // Factorize only if the matrix is at this generation (0: no check).
  uint64_t expected_generation = 0;

  // Options by the names of their fields in factord.v1.FactorOptions
  // (proto/factord/v1/solver.proto), for every scalar or enumeration field:
  // an option the server knows needs no member above, e.g.
  // Set("pivot_threshold", 0.1). Sent after the members above, so a name
  // set both ways takes this value. Factorize fails with InvalidArgument
  // (INVALID_OPTION, a BadRequest on "options.<name>") for a name that is
  // not such a field or a value not of its type (CheckNamedOption); the
  // server checks the ranges.
  std::map<std::string, OptionValue> named;

  FactorizeOptions& Set(std::string name, OptionValue value) {
    named[std::move(name)] = std::move(value);
    return *this;
  }
};

// OK when FactorizeOptions::named may hold `value` under `name` (see there);
// else InvalidArgument with reason INVALID_OPTION and a BadRequest on
// "options.<name>". For programs that check options before connecting
// (factorctl); Factorize checks them again.
absl::Status CheckNamedOption(absl::string_view name, const OptionValue& value);

// Seconds measured by the server.
struct Timings {
  double preprocess_s = 0;
  double analyze_s = 0;
  double factorize_s = 0;
  double solve_s = 0;
  double queue_s = 0;  // waiting for a worker
};

struct Inertia {
  int64_t positive = 0;
  int64_t negative = 0;
  int64_t zero = 0;
};

struct FactorizeResult {
  std::string id;
  std::string method;         // the method used (auto resolved)
  std::string factor_status;  // ok | singular | perturbed
  Inertia inertia;
  bool inertia_reliable = false;
  int64_t perturbed_pivots = 0;
  int64_t two_by_two_pivots = 0;
  int64_t delayed_pivots = 0;
  int64_t nnz_factor = 0;
  int64_t factor_bytes = 0;
  bool analysis_reused = false;
  int64_t blocks = 0;
  std::vector<double> sweep_errors;  // jacobi_ldlt: per sweep (S2)
  Timings timings;
  std::string message;
  uint64_t generation = 0;  // of the values factorized
};

// Solve options; zero fields take the server's defaults (tolerance 1e-8,
// 1000 iterations, GMRES restart 50, IDR s = 4). The server checks them
// against the factorization's method (INVALID_OPTION naming the field):
// ldlt and lu solve directly and take krylov auto or none and no restart
// or idr_s, ldlt no max_iterations either; the other methods need a
// Krylov method, block_ildlt and jacobi_ldlt one other than cg.
struct SolveOptions {
  std::string krylov =
      "auto";  // auto | none | cg | gmres | sqmr | idr | bicgstab
  double tolerance = 0;
  int max_iterations = 0;
  int restart = 0;
  int idr_s = 0;
  // Solve only with a factorization of this generation of the matrix (0: no
  // check).
  uint64_t expected_generation = 0;
};

// The solution of one right-hand side and its report.
struct SolveResult {
  std::vector<double> x;  // n entries
  std::string status;     // converged | not_converged | breakdown | singular
  double relative_residual = 0;  // ||b - Ax||_2 / ||b||_2, true residual
  double backward_error = 0;
  int iterations = 0;
  Timings timings;
  std::string message;
};

// One interior-point iteration (Client::Step): the factorization options
// (method, shifts, pivot threshold; factorize.expected_generation is the
// generation the matrix must be at before the new values), an optional
// per-entry diagonal shift (n entries, added to the scalar shifts), and the
// solve options of the right-hand sides.
struct StepOptions {
  FactorizeOptions factorize;
  std::span<const double> diagonal_shift;
  SolveOptions solve;
};

struct StepResult {
  FactorizeResult factorization;       // its generation: the matrix's now
  std::vector<SolveResult> solutions;  // in the order of the right-hand sides
};

struct ServerInfo {
  std::string version;
  std::string backend;
  std::string device;
  int64_t cache_bytes_used = 0;
  int64_t cache_bytes_budget = 0;
  int64_t cache_entries = 0;
  int64_t max_n = 0;
  int64_t max_nnz = 0;
  int64_t max_message_bytes = 0;
  int threads = 0;
  int workers = 0;
  std::vector<std::string> methods;  // the methods this build offers
};

// A random RFC 4122 version-4 UUID, lower-case 8-4-4-4-12 hex.
std::string NewMatrixId();

// What a program asks of factord, wherever the work runs: a daemon reached
// over gRPC (Client, below) or factord's core in the calling process
// (local::InProcessSolver, local/in_process_solver.h, in builds that have
// the core). Both take and return the structs above with the same meaning,
// the same option names, generations and errors (absl::Status with
// factord's ErrorInfo reasons, read with status_details.h), so that a
// program, or the C API, switches between them without other changes. The
// calls are those of Client, documented there.
class Endpoint {
 public:
  virtual ~Endpoint() = default;

  // Where the work runs, for reports: "local" (this process) or the
  // daemon's gRPC target.
  virtual std::string location() const = 0;

  virtual absl::StatusOr<MatrixInfo> Upload(
      const CsrArrays& matrix, absl::string_view id = "",
      const UploadOptions& options = {}) = 0;
  virtual absl::StatusOr<MatrixInfo> UpdateValues(
      absl::string_view id, std::span<const double> values,
      uint64_t expected_generation = 0) = 0;
  virtual absl::StatusOr<FactorizeResult> Factorize(
      absl::string_view id, const FactorizeOptions& options = {}) = 0;
  virtual absl::StatusOr<std::vector<SolveResult>> Solve(
      absl::string_view id, std::span<const std::span<const double>> rhs,
      const SolveOptions& options = {}) = 0;
  virtual absl::StatusOr<StepResult> Step(
      absl::string_view id, std::span<const double> values,
      std::span<const std::span<const double>> rhs,
      const StepOptions& options = {}) = 0;
  virtual absl::StatusOr<int64_t> Release(absl::string_view id) = 0;
  virtual absl::StatusOr<MatrixInfo> GetMatrix(absl::string_view id) = 0;

  // Matrices uploaded again after NOT_FOUND (reupload_on_not_found); 0
  // where nothing can be lost.
  virtual int64_t reuploads() const { return 0; }
};

class Client : public Endpoint {
 public:
  // `target` is a gRPC target ("127.0.0.1:50051", "dns:///factord:50051").
  // Plaintext unless ConnectOptions asks for TLS (tls / tls_ca_file /
  // tls_cert_file); InvalidArgument naming the option when a file cannot be
  // read.
  static absl::StatusOr<std::unique_ptr<Client>> Connect(
      absl::string_view target, const ConnectOptions& options = {});

  ~Client() override;
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Streams `matrix` (header, then CSR chunks) under `id`, or under a new
  // UUID when `id` is empty. The reply's id is the name to use afterwards;
  // its generation is 1, or the next one when `options.replace` replaced a
  // matrix.
  absl::StatusOr<MatrixInfo> Upload(const CsrArrays& matrix,
                                    absl::string_view id = "",
                                    const UploadOptions& options = {}) override;

  // Replaces the values of matrix `id` (same pattern, values.size() == nnz,
  // in stored-entry order); the factorization becomes stale. With
  // `expected_generation` not 0, applied only if the matrix is at that
  // generation. The reply carries the new generation.
  absl::StatusOr<MatrixInfo> UpdateValues(
      absl::string_view id, std::span<const double> values,
      uint64_t expected_generation = 0) override;

  absl::StatusOr<FactorizeResult> Factorize(
      absl::string_view id, const FactorizeOptions& options = {}) override;

  // Solves A x = b for every right-hand side (each of n entries) through one
  // bidirectional stream; results are in the order of `rhs`. A numerically
  // failed solve is a result with its status, not an error.
  absl::StatusOr<std::vector<SolveResult>> Solve(
      absl::string_view id, std::span<const std::span<const double>> rhs,
      const SolveOptions& options = {}) override;
  absl::StatusOr<std::vector<SolveResult>> Solve(
      absl::string_view id, const std::vector<std::vector<double>>& rhs,
      const SolveOptions& options = {});

  // One interior-point iteration in one round trip (the Step RPC): replaces
  // the values of `id` with `values` (empty: keeps the values it holds),
  // factorizes with options.factorize (reusing the analysis), and solves
  // every right-hand side. With options.factorize.expected_generation not 0
  // the values are applied only if the matrix is at that generation, so a
  // retried Step is applied at most once (ABORTED, GENERATION_MISMATCH).
  absl::StatusOr<StepResult> Step(absl::string_view id,
                                  std::span<const double> values,
                                  std::span<const std::span<const double>> rhs,
                                  const StepOptions& options = {}) override;

  // Frees the matrix and its factors on the server; returns bytes freed.
  absl::StatusOr<int64_t> Release(absl::string_view id) override;

  // What the server holds about matrix `id` (NOT_FOUND if nothing).
  absl::StatusOr<MatrixInfo> GetMatrix(absl::string_view id) override;

  // Every matrix the caller holds on the server, sorted by ID (all pages).
  absl::StatusOr<std::vector<MatrixInfo>> List();
  absl::StatusOr<ServerInfo> Info();

  const ConnectOptions& options() const { return options_; }
  // Matrices uploaded again after NOT_FOUND (reupload_on_not_found).
  int64_t reuploads() const override;
  // The gRPC target this client was connected to.
  std::string location() const override;
  // Attempts beyond the first made by the retry policy, over all calls.
  int64_t retries() const;

 private:
  Client(std::unique_ptr<internal::ClientChannel> channel,
         ConnectOptions options, std::string target);

  // The RPCs themselves; the public calls add the re-upload around them.
  // `id` is not empty.
  absl::StatusOr<MatrixInfo> UploadOnce(const CsrArrays& matrix,
                                        absl::string_view id,
                                        const UploadOptions& options);
  absl::StatusOr<MatrixInfo> UpdateValuesOnce(absl::string_view id,
                                              std::span<const double> values,
                                              uint64_t expected_generation);
  absl::StatusOr<FactorizeResult> FactorizeOnce(
      absl::string_view id, const FactorizeOptions& options);
  absl::StatusOr<std::vector<SolveResult>> SolveOnce(
      absl::string_view id, std::span<const std::span<const double>> rhs,
      const SolveOptions& options);
  absl::StatusOr<StepResult> StepOnce(
      absl::string_view id, std::span<const double> values,
      std::span<const std::span<const double>> rhs, const StepOptions& options);
  // StepOnce in one message each way (StepUnary).
  absl::StatusOr<StepResult> StepUnaryOnce(
      const v1::StepHeader& header, std::span<const double> values,
      std::span<const double> diagonal,
      std::span<const std::span<const double>> rhs);
  // Uploads the kept copy of `id` again (after NOT_FOUND) and, when
  // `refactorize` and the kept values were factorized, factorizes it with
  // the last options. NotFound when no copy is kept. The reply's generation
  // is the one the server now holds the copy at.
  absl::StatusOr<MatrixInfo> Restore(absl::string_view id, bool refactorize);
  // Whether `status` calls for Restore (the option is on and it is
  // NOT_FOUND).
  bool ShouldRestore(const absl::Status& status) const;
  // OK when a call that expects `expected_generation` of `id` may go on
  // with the kept copy: no expectation, or the copy's generation.
  // GENERATION_MISMATCH otherwise (or NOT_FOUND with no copy).
  absl::Status CheckKeptGeneration(absl::string_view id,
                                   uint64_t expected_generation) const;
  // Runs `attempt` (given its number, from 1) until it succeeds, fails in a
  // way the retry policy does not retry, or max_attempts are spent, waiting
  // the policy's backoff in between; returns the last status.
  absl::Status WithRetries(absl::FunctionRef<absl::Status(int)> attempt);
  // The RPCs with the retry policy around them (retry.cc).
  absl::StatusOr<MatrixInfo> UploadRetried(const CsrArrays& matrix,
                                           absl::string_view id,
                                           const UploadOptions& options);
  absl::StatusOr<MatrixInfo> UpdateValuesRetried(absl::string_view id,
                                                 std::span<const double> values,
                                                 uint64_t expected_generation);
  absl::StatusOr<FactorizeResult> FactorizeRetried(
      absl::string_view id, const FactorizeOptions& options);
  absl::StatusOr<std::vector<SolveResult>> SolveRetried(
      absl::string_view id, std::span<const std::span<const double>> rhs,
      const SolveOptions& options);
  absl::StatusOr<StepResult> StepRetried(
      absl::string_view id, std::span<const double> values,
      std::span<const std::span<const double>> rhs, const StepOptions& options);

  std::unique_ptr<internal::ClientChannel> channel_;
  ConnectOptions options_;
  std::string target_;
  std::unique_ptr<internal::RetainedMatrices> retained_;
  std::atomic<int64_t> retries_{0};
};

}  // namespace factord::client

#endif  // FACTORD_CLIENT_FACTORD_CLIENT_H_
