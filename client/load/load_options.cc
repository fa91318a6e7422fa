#include "client/load/load_options.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace factord::load {
namespace {

absl::Status BadValue(absl::string_view name, absl::string_view value) {
  return absl::InvalidArgumentError(
      absl::StrCat("bad value for --", name, ": '", value, "'"));
}

absl::StatusOr<bool> ParseBool(absl::string_view name,
                               absl::string_view value) {
  if (value.empty() || value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  return BadValue(name, value);
}

absl::StatusOr<MatrixSpec> ParseMatrixSpec(absl::string_view text) {
  std::vector<std::string> parts = absl::StrSplit(text, ':');
  if (parts.empty() || parts[0].empty() || parts.size() > 3) {
    return BadValue("matrices", text);
  }
  MatrixSpec spec;
  spec.path = parts[0];
  if (parts.size() > 1 && !parts[1].empty()) spec.method = parts[1];
  if (parts.size() > 2 && !parts[2].empty()) spec.krylov = parts[2];
  return spec;
}

}  // namespace

std::string LoadUsage() {
  return "factord-load: N concurrent clients x M mixed operations (upload, "
         "factorize, solve, update, release) against one factord.\n"
         "  --server=HOST:PORT     daemon address (127.0.0.1:50051)\n"
         "  --token=T              bearer token (default $FACTORD_TOKEN)\n"
         "  --clients=N            concurrent clients (4)\n"
         "  --operations=M         operations per client, per round (50)\n"
         "  --matrices=SPEC,...    path[:method[:krylov]]; default bcsstk13 "
         "and a KKT system, both ldlt\n"
         "  --json                 last line: one JSON object with the "
         "figures\n"
         "  --soak_seconds=S       repeat rounds for S seconds, sampling RSS\n"
         "  --daemon_pid=PID       sample /proc/PID/status VmRSS\n"
         "  --sample_seconds=S     RSS sampling period in soak mode (5)\n"
         "  --allow_limits         RESOURCE_EXHAUSTED is not an error\n"
         "  --rpc_timeout=S        deadline of every RPC in seconds (120)\n"
         "  --seed=K               operation-mix seed (1)\n"
         "  --max_attempts=N       attempts per call, retrying UNAVAILABLE "
         "and\n"
         "                         proxy/transport errors with backoff (1: "
         "none)\n"
         "  --reupload             upload a matrix again under its ID after "
         "NOT_FOUND\n"
         "                         (failover behind a proxy, restarts)\n";
}

absl::StatusOr<LoadOptions> ParseLoadOptions(int argc, char** argv) {
  LoadOptions options;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") return absl::NotFoundError(LoadUsage());
    if (!absl::ConsumePrefix(&arg, "--")) {
      return absl::InvalidArgumentError(
          absl::StrCat("unexpected argument '", arg, "'"));
    }
    std::string name(arg), value;
    bool has_value = false;
    if (const size_t eq = arg.find('='); eq != absl::string_view::npos) {
      name = std::string(arg.substr(0, eq));
      value = std::string(arg.substr(eq + 1));
      has_value = true;
    }
    const bool is_bool =
        name == "json" || name == "allow_limits" || name == "reupload";
    if (!has_value && !is_bool) {
      if (i + 1 >= argc) {
        return absl::InvalidArgumentError(
            absl::StrCat("--", name, " needs a value"));
      }
      value = argv[++i];
    }
    bool ok = true;
    if (name == "server") {
      options.server = value;
    } else if (name == "token") {
      options.token = value;
    } else if (name == "clients") {
      ok = absl::SimpleAtoi(value, &options.clients) && options.clients > 0;
    } else if (name == "operations") {
      ok = absl::SimpleAtoi(value, &options.operations) &&
           options.operations > 0;
    } else if (name == "soak_seconds") {
      ok = absl::SimpleAtod(value, &options.soak_seconds) &&
           options.soak_seconds >= 0;
    } else if (name == "daemon_pid") {
      ok = absl::SimpleAtoi(value, &options.daemon_pid);
    } else if (name == "sample_seconds") {
      ok = absl::SimpleAtod(value, &options.sample_seconds) &&
           options.sample_seconds > 0;
    } else if (name == "rpc_timeout") {
      ok = absl::SimpleAtod(value, &options.rpc_timeout_s) &&
           options.rpc_timeout_s > 0;
    } else if (name == "seed") {
      ok = absl::SimpleAtoi(value, &options.seed);
    } else if (name == "max_attempts") {
      ok = absl::SimpleAtoi(value, &options.max_attempts) &&
           options.max_attempts >= 1 && options.max_attempts <= 100;
    } else if (name == "reupload") {
      absl::StatusOr<bool> flag = ParseBool(name, value);
      if (!flag.ok()) return flag.status();
      options.reupload = *flag;
    } else if (name == "json" || name == "allow_limits") {
      absl::StatusOr<bool> flag = ParseBool(name, value);
      if (!flag.ok()) return flag.status();
      (name == "json" ? options.json : options.allow_limits) = *flag;
    } else if (name == "matrices") {
      for (absl::string_view text :
           absl::StrSplit(value, ',', absl::SkipEmpty())) {
        absl::StatusOr<MatrixSpec> spec = ParseMatrixSpec(text);
        if (!spec.ok()) return spec.status();
        options.matrices.push_back(*std::move(spec));
      }
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag --", name, "\n", LoadUsage()));
    }
    if (!ok) return BadValue(name, value);
  }
  return options;
}

std::vector<MatrixSpec> StandardWorkload(const std::string& tests_data_dir) {
  return {
      {tests_data_dir + "/bcsstk13.mtx", "ldlt", "auto"},
      {tests_data_dir + "/kkt/cvxqp1_s/2x2/iter_0/K_0.mtx", "ldlt", "auto"}};
}

}  // namespace factord::load
