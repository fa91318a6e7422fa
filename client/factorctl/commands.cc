// The commands of factorctl (see commands.h): local files are read with
// the Matrix Market reader of factord_matrix_io, everything else goes
// through the client library.
#include "client/factorctl/commands.h"

#include <cstdio>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "client/matrix_arrays.h"
#include "core/matrix/csr.h"
#include "core/matrix/matrix_market.h"

namespace factord::factorctl {
namespace {

double SecondsSince(absl::Time start) {
  return absl::ToDoubleSeconds(absl::Now() - start);
}

// A local file problem: INVALID_ARGUMENT whatever the reader said, keeping
// its message and naming the file. The reason is FILE_UNREADABLE when the
// file could not be opened or read (the reader's NotFound,
// PermissionDenied, ...), else `content_reason`: the text is not a valid
// matrix or vector.
absl::Status LocalFileError(const absl::Status& status, const std::string& path,
                            absl::string_view content_reason) {
  const bool content =
      status.code() == absl::StatusCode::kInvalidArgument ||
      status.code() ==
          absl::StatusCode::kResourceExhausted;  // gunzipped text too large
  const absl::string_view reason =
      content ? content_reason : absl::string_view(kReasonFileUnreadable);
  if (absl::StrContains(status.message(), path)) {
    return LocalError(absl::StatusCode::kInvalidArgument, reason,
                      status.message());
  }
  return LocalError(absl::StatusCode::kInvalidArgument, reason,
                    absl::StrCat(status.message(), " (file ", path, ")"));
}

absl::Status InvalidMatrix(absl::string_view message) {
  return LocalError(absl::StatusCode::kInvalidArgument, kReasonInvalidMatrix,
                    message);
}

// Reads the matrix FILE and applies --structure.
absl::StatusOr<CsrMatrix> ReadMatrix(const CommandLine& line,
                                     Outcome* outcome) {
  const std::string& path = line.positional.at(0);
  const absl::Time start = absl::Now();
  absl::StatusOr<CsrMatrix> a = ReadMatrixMarket(path);
  if (!a.ok()) return LocalFileError(a.status(), path, kReasonInvalidMatrix);
  if (a->rows != a->cols) {
    return InvalidMatrix(absl::StrCat("the matrix is ", a->rows, " x ", a->cols,
                                      ", factord solves square systems (file ",
                                      path, ")"));
  }
  if (line.structure == "general") {
    if (IsSymmetric(a->structure)) *a = ExpandSymmetric(*a);
  } else if (line.structure == "symmetric" || line.structure == "spd") {
    if (!IsSymmetric(a->structure)) {
      return InvalidMatrix(absl::StrCat(
          "--structure=", line.structure,
          " needs a symmetric Matrix Market file (file ", path, ")"));
    }
    a->structure = line.structure == "spd" ? Structure::kSpdLower
                                           : Structure::kSymmetricLower;
  }
  outcome->read_s = outcome->read_s.value_or(0) + SecondsSince(start);
  return a;
}

// The right-hand side: --rhs, or all ones of size n.
absl::StatusOr<std::vector<double>> ReadRhs(const CommandLine& line, int64_t n,
                                            Outcome* outcome) {
  if (line.rhs_file.empty()) return std::vector<double>(n, 1.0);
  const absl::Time start = absl::Now();
  absl::StatusOr<std::vector<double>> b = ReadDenseVector(line.rhs_file);
  if (!b.ok()) {
    return LocalFileError(b.status(), line.rhs_file, kReasonInvalidRequest);
  }
  if (n >= 0 && static_cast<int64_t>(b->size()) != n) {
    return LocalError(absl::StatusCode::kInvalidArgument, kReasonInvalidRequest,
                      absl::StrCat("the right-hand side has ", b->size(),
                                   " entries, the matrix has n = ", n,
                                   " (file ", line.rhs_file, ")"));
  }
  outcome->read_s = outcome->read_s.value_or(0) + SecondsSince(start);
  return b;
}

absl::Status WriteSolution(const std::string& path,
                           const std::vector<double>& x) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "w"),
                                             &std::fclose);
  if (file == nullptr) {
    return LocalError(absl::StatusCode::kInvalidArgument, kReasonFileUnwritable,
                      absl::StrCat("cannot write the solution to ", path));
  }
  for (double v : x) absl::FPrintF(file.get(), "%.17g\n", v);
  if (std::ferror(file.get())) {
    return LocalError(absl::StatusCode::kInvalidArgument, kReasonFileUnwritable,
                      absl::StrCat("error writing ", path));
  }
  return absl::OkStatus();
}

absl::Status Upload(const CommandLine& line, client::Client& client,
                    Outcome* outcome) {
  absl::StatusOr<CsrMatrix> a = ReadMatrix(line, outcome);
  if (!a.ok()) return a.status();
  const absl::Time start = absl::Now();
  absl::StatusOr<client::MatrixInfo> info =
      client.Upload(client::ArraysOf(*a), line.id,
                    client::UploadOptions{.replace = line.replace});
  if (!info.ok()) return info.status();
  outcome->upload_s = SecondsSince(start);
  outcome->id = info->id;
  outcome->matrix = *std::move(info);
  return absl::OkStatus();
}

absl::Status Update(const CommandLine& line, client::Client& client,
                    Outcome* outcome) {
  absl::StatusOr<CsrMatrix> a = ReadMatrix(line, outcome);
  if (!a.ok()) return a.status();
  const absl::Time start = absl::Now();
  absl::StatusOr<client::MatrixInfo> info =
      client.UpdateValues(line.id, a->values, line.expected_generation);
  if (!info.ok()) return info.status();
  outcome->upload_s = SecondsSince(start);
  outcome->matrix = *std::move(info);
  return absl::OkStatus();
}

absl::Status Factorize(const CommandLine& line, client::Client& client,
                       Outcome* outcome) {
  client::FactorizeOptions options = line.factorize;
  options.expected_generation = line.expected_generation;
  absl::StatusOr<client::FactorizeResult> r =
      client.Factorize(outcome->id, options);
  if (!r.ok()) return r.status();
  outcome->factor = *std::move(r);
  return absl::OkStatus();
}

absl::Status Solve(const CommandLine& line, client::Client& client, int64_t n,
                   Outcome* outcome) {
  if (n < 0 && line.rhs_file.empty()) {
    // b = ones needs the order of the matrix: ask the server for this one.
    absl::StatusOr<client::MatrixInfo> info = client.GetMatrix(outcome->id);
    if (!info.ok()) return info.status();
    n = info->n;
  }
  absl::StatusOr<std::vector<double>> b = ReadRhs(line, n, outcome);
  if (!b.ok()) return b.status();
  std::vector<std::vector<double>> rhs;
  rhs.push_back(*std::move(b));
  client::SolveOptions options = line.solve;
  options.expected_generation = line.expected_generation;
  absl::StatusOr<std::vector<client::SolveResult>> results =
      client.Solve(outcome->id, rhs, options);
  if (!results.ok()) return results.status();
  outcome->solve = std::move(results->at(0));
  if (!line.solution_file.empty()) {
    return WriteSolution(line.solution_file, outcome->solve->x);
  }
  return absl::OkStatus();
}

absl::Status Run(const CommandLine& line, client::Client& client,
                 Outcome* outcome) {
  if (absl::Status s = Upload(line, client, outcome); !s.ok()) return s;
  absl::Status status = Factorize(line, client, outcome);
  if (status.ok()) status = Solve(line, client, outcome->matrix->n, outcome);
  if (!line.keep) {
    absl::StatusOr<int64_t> freed = client.Release(outcome->id);
    if (freed.ok()) outcome->bytes_freed = *freed;
    if (status.ok() && !freed.ok()) status = freed.status();
  }
  return status;
}

}  // namespace

absl::Status RunCommand(const CommandLine& line, client::Client& client,
                        Outcome* outcome) {
  const absl::Time start = absl::Now();
  outcome->command = line.command;
  outcome->id = line.id;
  absl::Status status;
  if (line.command == "upload") {
    status = Upload(line, client, outcome);
  } else if (line.command == "update") {
    status = Update(line, client, outcome);
  } else if (line.command == "factorize") {
    status = Factorize(line, client, outcome);
  } else if (line.command == "solve") {
    status = Solve(line, client, /*n=*/-1, outcome);
  } else if (line.command == "run") {
    status = Run(line, client, outcome);
  } else if (line.command == "release") {
    absl::StatusOr<int64_t> freed = client.Release(line.id);
    if (freed.ok()) outcome->bytes_freed = *freed;
    status = freed.status();
  } else if (line.command == "get") {
    absl::StatusOr<client::MatrixInfo> info = client.GetMatrix(line.id);
    if (info.ok()) outcome->matrix = *std::move(info);
    status = info.status();
  } else if (line.command == "list") {
    absl::StatusOr<std::vector<client::MatrixInfo>> list = client.List();
    if (list.ok()) outcome->matrices = *std::move(list);
    status = list.status();
  } else if (line.command == "info") {
    absl::StatusOr<client::ServerInfo> info = client.Info();
    if (info.ok()) outcome->server = *std::move(info);
    status = info.status();
  } else {
    status = LocalError(absl::StatusCode::kInvalidArgument, kReasonUsage,
                        absl::StrCat("unknown command '", line.command, "'"));
  }
  outcome->total_s = SecondsSince(start);
  return status;
}

}  // namespace factord::factorctl
