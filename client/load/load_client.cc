#include "client/load/load_client.h"

#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "client/matrix_arrays.h"

namespace factord::load {
namespace {

constexpr double kMaxRelativeResidual = 1e-6;

// The matrix this client holds on the server, if any.
struct Held {
  std::string id;
  const LoadMatrix* matrix = nullptr;
  bool factorized = false;
  bool stale = false;
};

class ClientRound {
 public:
  ClientRound(client::Client& client, const std::vector<LoadMatrix>& matrices,
              uint64_t seed, bool allow_limits, LoadStats& stats)
      : client_(client),
        matrices_(matrices),
        rng_(seed),
        allow_limits_(allow_limits),
        stats_(stats) {}

  void Step(bool last) {
    if (held_.id.empty()) {
      if (!last) Upload();
      return;
    }
    if (last) {
      Release();
      return;
    }
    if (!held_.factorized || held_.stale) {
      Factorize();
      return;
    }
    const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
    if (r < 0.55) {
      Solve();
    } else if (r < 0.75) {
      Update();
    } else if (r < 0.85) {
      Factorize();
    } else {
      Release();
    }
  }

  void Finish() {
    if (!held_.id.empty()) Release();
  }

 private:
  template <typename F>
  absl::Status Timed(OpKind kind, F&& call) {
    const absl::Time start = absl::Now();
    absl::Status status = call();
    stats_.Record(kind, absl::ToDoubleSeconds(absl::Now() - start), status,
                  allow_limits_);
    return status;
  }

  // After a failed operation the matrix is dropped (best effort), so that
  // one failure does not cascade into every later operation of the client.
  void Drop() {
    if (!held_.id.empty()) (void)client_.Release(held_.id);
    held_ = Held{};
  }

  void Upload() {
    const LoadMatrix& m = matrices_[std::uniform_int_distribution<size_t>(
        0, matrices_.size() - 1)(rng_)];
    std::string id;
    absl::Status status = Timed(OpKind::kUpload, [&]() -> absl::Status {
      absl::StatusOr<client::MatrixInfo> info =
          client_.Upload(client::ArraysOf(m.matrix));
      if (!info.ok()) return info.status();
      id = info->id;
      return absl::OkStatus();
    });
    if (status.ok()) held_ = Held{id, &m, false, false};
  }

  void Factorize() {
    client::FactorizeOptions options;
    options.method = held_.matrix->spec.method;
    absl::Status status = Timed(OpKind::kFactorize, [&]() -> absl::Status {
      absl::StatusOr<client::FactorizeResult> result =
          client_.Factorize(held_.id, options);
      if (!result.ok()) return result.status();
      if (result->factor_status == "singular") {
        return absl::InternalError(
            absl::StrCat("factor status singular: ", result->message));
      }
      return absl::OkStatus();
    });
    if (status.ok()) {
      held_.factorized = true;
      held_.stale = false;
    } else {
      Drop();
    }
  }

  void Solve() {
    const CsrMatrix& a = held_.matrix->matrix;
    const std::vector<std::vector<double>> rhs(
        1, std::vector<double>(static_cast<size_t>(a.rows), 1.0));
    client::SolveOptions options;
    options.krylov = held_.matrix->spec.krylov;
    absl::Status status = Timed(OpKind::kSolve, [&]() -> absl::Status {
      absl::StatusOr<std::vector<client::SolveResult>> results =
          client_.Solve(held_.id, rhs, options);
      if (!results.ok()) return results.status();
      if (results->size() != 1 || (*results)[0].x.size() != rhs[0].size()) {
        return absl::InternalError("solve returned the wrong shape");
      }
      const client::SolveResult& r = (*results)[0];
      if (r.status != "converged" ||
          !(r.relative_residual <= kMaxRelativeResidual)) {
        return absl::InternalError(
            absl::StrCat("solve status ", r.status, ", relative residual ",
                         r.relative_residual, ": ", r.message));
      }
      return absl::OkStatus();
    });
    if (!status.ok()) Drop();
  }

  void Update() {
    const std::vector<double>& original = held_.matrix->matrix.values;
    const double scale = 1.0 + 0.01 * static_cast<double>(++updates_ % 5);
    std::vector<double> values(original.size());
    for (size_t k = 0; k < values.size(); ++k) values[k] = original[k] * scale;
    absl::Status status = Timed(OpKind::kUpdate, [&]() -> absl::Status {
      return client_.UpdateValues(held_.id, values).status();
    });
    if (status.ok()) {
      held_.stale = true;
    } else {
      Drop();
    }
  }

  void Release() {
    const std::string id = held_.id;
    held_ = Held{};
    (void)Timed(OpKind::kRelease,
                [&]() -> absl::Status { return client_.Release(id).status(); });
  }

  client::Client& client_;
  const std::vector<LoadMatrix>& matrices_;
  std::mt19937_64 rng_;
  bool allow_limits_;
  LoadStats& stats_;
  Held held_;
  int64_t updates_ = 0;
};

}  // namespace

void RunClientRound(client::Client& client,
                    const std::vector<LoadMatrix>& matrices, int operations,
                    uint64_t seed, bool allow_limits, LoadStats& stats) {
  ClientRound round(client, matrices, seed, allow_limits, stats);
  for (int op = 0; op < operations; ++op) round.Step(op + 1 == operations);
  round.Finish();
}

}  // namespace factord::load
