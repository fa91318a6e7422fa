// factord-load: N concurrent clients x M mixed operations (upload,
// factorize, solve, update, release) against one factord (or a fleet behind
// a proxy), reporting errors, throughput and latency percentiles, and the
// retries and re-uploads that saved operations from failing; in soak mode
// it repeats rounds for a given time and samples the daemon's resident
// memory.
// With --json the last line of stdout is one JSON object with the figures.
// Exit status: 0 when no operation failed, 1 on errors, 2 on bad usage.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "client/factord_client.h"
#include "client/load/load_client.h"
#include "client/load/load_options.h"
#include "client/load/load_stats.h"
#include "client/load/rss_sampler.h"
#include "client/matrix_arrays.h"
#include "core/matrix/matrix_market.h"

namespace factord::load {
namespace {

// The source tree's tests/data: below the working directory, or below a
// folder above the executable (build-x/client/factord-load finds the
// tests/data of the tree that holds build-x).
std::string FindTestsData() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates = {fs::current_path() / "tests/data"};
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path dir = exe.parent_path();
         !dir.empty() && dir != dir.root_path(); dir = dir.parent_path()) {
      candidates.push_back(dir / "tests/data");
    }
  }
  for (const fs::path& c : candidates) {
    if (fs::exists(c / "bcsstk13.mtx")) return c.string();
  }
  return "tests/data";
}

// Calls repeated by the retry policy and matrices uploaded again after
// NOT_FOUND, over all clients: counted apart from the operations, which
// succeed when a retry or a re-upload saved them.
struct Recoveries {
  int64_t retries = 0;
  int64_t reuploads = 0;
};

std::string Json(const LoadOptions& options, const LoadStats::Summary& s,
                 const Recoveries& recoveries, int rounds, double wall_s,
                 std::optional<int64_t> rss_warm,
                 std::optional<int64_t> rss_end, int64_t rss_max) {
  std::vector<std::string> ops, codes;
  for (int k = 0; k < kOpKinds; ++k) {
    ops.push_back(absl::StrCat("\"", OpName(static_cast<OpKind>(k)),
                               "\":{\"count\":", s.count[k],
                               ",\"errors\":", s.errors_by_kind[k],
                               ",\"p50_s\":", s.p50_by_kind[k], "}"));
  }
  for (const auto& [code, n] : s.error_codes) {
    codes.push_back(absl::StrCat("\"", code, "\":", n));
  }
  std::string json = absl::StrCat(
      "{\"clients\":", options.clients,
      ",\"operations_per_client\":", options.operations, ",\"rounds\":", rounds,
      ",\"operations\":", s.operations, ",\"errors\":", s.errors,
      ",\"limited\":", s.limited, ",\"retries\":", recoveries.retries,
      ",\"reuploads\":", recoveries.reuploads,
      ",\"throughput_ops_s\":", wall_s > 0 ? s.operations / wall_s : 0.0,
      ",\"p50_s\":", s.p50_s, ",\"p99_s\":", s.p99_s, ",\"max_s\":", s.max_s,
      ",\"wall_s\":", wall_s, ",\"ops\":{", absl::StrJoin(ops, ","), "}",
      ",\"error_codes\":{", absl::StrJoin(codes, ","), "}");
  if (rss_warm && rss_end) {
    const double growth =
        *rss_warm > 0 ? 100.0 * static_cast<double>(*rss_end - *rss_warm) /
                            static_cast<double>(*rss_warm)
                      : 0.0;
    absl::StrAppend(&json, ",\"rss_warm_kb\":", *rss_warm,
                    ",\"rss_end_kb\":", *rss_end, ",\"rss_max_kb\":", rss_max,
                    ",\"rss_growth_pct\":", growth);
  }
  absl::StrAppend(&json, "}");
  return json;
}

int Run(const LoadOptions& options_in) {
  LoadOptions options = options_in;
  if (options.matrices.empty()) {
    options.matrices = StandardWorkload(FindTestsData());
  }
  std::vector<LoadMatrix> matrices;
  for (const MatrixSpec& spec : options.matrices) {
    absl::StatusOr<CsrMatrix> a = ReadMatrixMarket(spec.path);
    if (!a.ok()) {
      std::fprintf(stderr, "factord-load: %s: %s\n", spec.path.c_str(),
                   a.status().ToString().c_str());
      return 2;
    }
    std::printf("matrix %s: n=%lld nnz=%lld %s, method %s, krylov %s\n",
                spec.path.c_str(), static_cast<long long>(a->rows),
                static_cast<long long>(a->nnz()),
                client::StructureWireName(a->structure).c_str(),
                spec.method.c_str(), spec.krylov.c_str());
    matrices.push_back({spec, *std::move(a)});
  }

  client::ConnectOptions connect;
  connect.token = options.token;
  connect.rpc_timeout = absl::Seconds(options.rpc_timeout_s);
  connect.connect_timeout = absl::Seconds(10);
  connect.retry.max_attempts = options.max_attempts;
  connect.reupload_on_not_found = options.reupload;
  std::vector<std::unique_ptr<client::Client>> clients;
  for (int c = 0; c < options.clients; ++c) {
    absl::StatusOr<std::unique_ptr<client::Client>> client =
        client::Client::Connect(options.server, connect);
    if (!client.ok()) {
      std::fprintf(stderr, "factord-load: connect %s: %s\n",
                   options.server.c_str(), client.status().ToString().c_str());
      return 1;
    }
    clients.push_back(*std::move(client));
  }

  LoadStats stats;
  std::unique_ptr<RssSampler> sampler;
  if (options.daemon_pid > 0 && options.soak_seconds > 0) {
    sampler = std::make_unique<RssSampler>(options.daemon_pid,
                                           options.sample_seconds);
  }
  std::optional<int64_t> rss_warm, rss_end;
  const absl::Time start = absl::Now();
  int rounds = 0;
  do {
    std::vector<std::thread> threads;
    for (int c = 0; c < options.clients; ++c) {
      const uint64_t seed = options.seed * 1000003u +
                            static_cast<uint64_t>(rounds) * 7919u +
                            static_cast<uint64_t>(c);
      threads.emplace_back([&, c, seed] {
        RunClientRound(*clients[c], matrices, options.operations, seed,
                       options.allow_limits, stats);
      });
    }
    for (std::thread& t : threads) t.join();
    ++rounds;
    if (options.daemon_pid > 0) {
      // Between rounds every client has released its matrix: comparable
      // states, so the first one is the post-warm-up reference.
      absl::StatusOr<int64_t> kb = ReadRssKb(options.daemon_pid);
      if (kb.ok()) {
        if (!rss_warm) rss_warm = *kb;
        rss_end = *kb;
        std::printf("round %d done t=%.1f vmrss_kb=%lld\n", rounds,
                    absl::ToDoubleSeconds(absl::Now() - start),
                    static_cast<long long>(*kb));
        std::fflush(stdout);
      }
    }
  } while (absl::ToDoubleSeconds(absl::Now() - start) < options.soak_seconds);
  const double wall_s = absl::ToDoubleSeconds(absl::Now() - start);
  const int64_t rss_max = sampler ? sampler->max_kb() : 0;
  sampler.reset();

  const LoadStats::Summary s = stats.Summarize();
  Recoveries recoveries;
  for (const auto& client : clients) {
    recoveries.retries += client->retries();
    recoveries.reuploads += client->reuploads();
  }
  std::printf(
      "%d clients x %d operations x %d rounds: %lld operations in "
      "%.2f s, %lld errors, %.1f ops/s, p50 %.4f s, p99 %.4f s; "
      "%lld retries, %lld re-uploads\n",
      options.clients, options.operations, rounds,
      static_cast<long long>(s.operations), wall_s,
      static_cast<long long>(s.errors),
      wall_s > 0 ? s.operations / wall_s : 0.0, s.p50_s, s.p99_s,
      static_cast<long long>(recoveries.retries),
      static_cast<long long>(recoveries.reuploads));
  if (!s.first_error.empty()) {
    std::printf("first error: %s\n", s.first_error.c_str());
  }
  if (options.json) {
    std::printf("%s\n", Json(options, s, recoveries, rounds, wall_s, rss_warm,
                             rss_end, std::max(rss_max, rss_end.value_or(0)))
                            .c_str());
  }
  std::fflush(stdout);
  return s.errors == 0 ? 0 : 1;
}

}  // namespace
}  // namespace factord::load

int main(int argc, char** argv) {
  const factord::load::ParsedLoadOptions parsed =
      factord::load::ParseLoadOptions(argc, argv);
  if (parsed.exit_code) return *parsed.exit_code;
  return factord::load::Run(parsed.options);
}
