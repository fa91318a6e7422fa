#include "client/load/load_options.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "client/cli/cli_app.h"

namespace factord::load {
namespace {

// path[:method[:krylov]]; nullopt for an empty path or more than three
// parts.
std::optional<MatrixSpec> ParseMatrixSpec(absl::string_view text) {
  std::vector<std::string> parts = absl::StrSplit(text, ':');
  if (parts.empty() || parts[0].empty() || parts.size() > 3) {
    return std::nullopt;
  }
  MatrixSpec spec;
  spec.path = parts[0];
  if (parts.size() > 1 && !parts[1].empty()) spec.method = parts[1];
  if (parts.size() > 2 && !parts[2].empty()) spec.krylov = parts[2];
  return spec;
}

// A number above `min` (or at least `min` with `inclusive`), for the
// counts and seconds (CLI11's PositiveNumber would print DBL_MAX in its
// message). An integer flag converts the value after this check.
CLI::Validator AboveNumber(double min, bool inclusive) {
  const std::string bound =
      (inclusive ? ">= " : "> ") + CLI::detail::to_string(min);
  return CLI::Validator(
      [min, inclusive, bound](std::string& text) -> std::string {
        double value = 0;
        if (!absl::SimpleAtod(text, &value) ||
            !(inclusive ? value >= min : value > min)) {
          return "Value " + text + " is not a number " + bound;
        }
        return "";
      },
      "", bound);
}

}  // namespace

void ConfigureLoadApp(CLI::App& app, LoadOptions& options) {
  app.description(
      "N concurrent clients x M mixed operations (upload, factorize, solve, "
      "update, release) against one factord, or a fleet behind a proxy. "
      "Exit code: 0 when no operation failed, 1 on errors, 2 on bad usage.");
  cli::ConfigureApp(app, "factord-load");
  app.add_option("--server", options.server, "daemon address")
      ->type_name("HOST:PORT");
  app.add_option("--token", options.token,
                 "bearer token (empty: $FACTORD_TOKEN)")
      ->type_name("T");
  app.add_option("--clients", options.clients, "concurrent clients")
      ->type_name("N")
      ->check(AboveNumber(0, /*inclusive=*/false));
  app.add_option("--operations", options.operations,
                 "operations per client, per round")
      ->type_name("M")
      ->check(AboveNumber(0, /*inclusive=*/false));
  app.add_option_function<std::vector<std::string>>(
         "--matrices",
         [&options](const std::vector<std::string>& texts) {
           for (const std::string& text : texts) {
             // Empty items ("a,,b") are skipped; the check lets only
             // well-formed specs through.
             if (std::optional<MatrixSpec> spec = ParseMatrixSpec(text)) {
               options.matrices.push_back(*std::move(spec));
             }
           }
         },
         "the workload, path[:method[:krylov]] each (method ldlt, krylov "
         "auto by default); without it bcsstk13 and a KKT system from "
         "tests/data, both ldlt. Repeating the flag adds matrices")
      ->type_name("SPEC,...")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (text.empty() || ParseMatrixSpec(text)) return "";
            return "bad matrix spec '" + text + "' (path[:method[:krylov]])";
          },
          "", "matrix spec"));
  app.add_flag("--json", options.json,
               "last line: one JSON object with the figures");
  app.add_option("--soak_seconds", options.soak_seconds,
                 "repeat rounds for S seconds, sampling RSS (0: one round)")
      ->type_name("S")
      ->check(AboveNumber(0, /*inclusive=*/true));
  app.add_option("--daemon_pid", options.daemon_pid,
                 "sample /proc/PID/status VmRSS (0: no sampling)")
      ->type_name("PID");
  app.add_option("--sample_seconds", options.sample_seconds,
                 "RSS sampling period in soak mode")
      ->type_name("S")
      ->check(AboveNumber(0, /*inclusive=*/false));
  app.add_flag("--allow_limits", options.allow_limits,
               "RESOURCE_EXHAUSTED is not an error");
  app.add_option("--rpc_timeout", options.rpc_timeout_s,
                 "deadline of every RPC in seconds")
      ->type_name("S")
      ->check(AboveNumber(0, /*inclusive=*/false));
  app.add_option("--seed", options.seed, "operation-mix seed")->type_name("K");
  app.add_option("--max_attempts", options.max_attempts,
                 "attempts per call, retrying UNAVAILABLE and proxy/transport "
                 "errors with backoff, 0.1 s doubling to 2 s, within 15 s "
                 "(the client library's policy; 1: none)")
      ->type_name("N")
      ->check(CLI::Range(1, 100));
  app.add_flag("--reupload", options.reupload,
               "upload a matrix again under its ID after NOT_FOUND "
               "(failover behind a proxy, restarts)");
}

ParsedLoadOptions ParseLoadOptions(int argc, const char* const* argv) {
  ParsedLoadOptions parsed;
  CLI::App app;
  ConfigureLoadApp(app, parsed.options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    parsed.exit_code = cli::ReportParseOutcome(app, error);
  }
  return parsed;
}

std::vector<MatrixSpec> StandardWorkload(const std::string& tests_data_dir) {
  return {
      {tests_data_dir + "/bcsstk13.mtx", "ldlt", "auto"},
      {tests_data_dir + "/kkt/cvxqp1_s/2x2/iter_0/K_0.mtx", "ldlt", "auto"}};
}

}  // namespace factord::load
