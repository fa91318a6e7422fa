// factord: the sparse linear solver daemon. The only place with flags: they
// become a ServerConfig. SIGTERM / SIGINT drain in-flight work, then exit 0;
// SIGHUP reloads the tokens file and the TLS files (Server::Reload).
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "server/config.h"
#include "server/server.h"
#include "server/service/request_log.h"

namespace {

const factord::server::ServerConfig kDefaults;

// Self-pipe: the handler may run on any thread (OpenBLAS and TBB start
// threads before main, so masking signals in main cannot steer them), and
// writing a byte is async-signal-safe.
int signal_pipe[2] = {-1, -1};

extern "C" void OnTerminationSignal(int signo) {
  const char byte = static_cast<char>(signo);
  const int saved_errno = errno;
  [[maybe_unused]] ssize_t n = write(signal_pipe[1], &byte, 1);
  errno = saved_errno;
}

bool InstallSignalHandlers() {
  if (pipe(signal_pipe) != 0) return false;
  struct sigaction action = {};
  action.sa_handler = OnTerminationSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  return sigaction(SIGTERM, &action, nullptr) == 0 &&
         sigaction(SIGINT, &action, nullptr) == 0 &&
         sigaction(SIGHUP, &action, nullptr) == 0;
}

// Blocks until a byte arrives on the pipe; returns it (the signal number,
// or 0 when main wakes the waiter up itself).
int WaitForSignal() {
  char byte = 0;
  while (read(signal_pipe[0], &byte, 1) < 0 && errno == EINTR) {
  }
  return byte;
}

// --help and --version. Abseil's --help lists the flags of files named
// after the program (factord.cc) and exits 1; here the daemon's flags are
// those defined under server/, and `factord --help` prints them with their
// defaults and exits 0, as help2man (man/) and scripts expect. --helpfull,
// --helpshort and --help=SUBSTRING stay Abseil's.

// What the daemon is, for --help and Abseil's --helpshort/--helpfull
// (which print it after "factord: ").
constexpr char kSummary[] =
    "the sparse linear solver daemon: it keeps factorizations cached by "
    "matrix ID and serves factorizations, solves, residuals and inertia over "
    "gRPC, with a worker pool, Prometheus metrics and health checks. Flags "
    "read --flag=value or --flag value; durations read like 30s, 5m, 1h. "
    "SIGTERM and SIGINT drain in-flight work, then exit 0; SIGHUP reloads "
    "--auth_tokens_file and the TLS files.";

// The source tree's root as this file was compiled ("/src/" for
// "/src/server/main.cc"), so that flag file names compare without it.
absl::string_view SourceRoot() {
  absl::string_view file = __FILE__;
  const size_t at = file.rfind("server/main.cc");
  return at == absl::string_view::npos ? absl::string_view()
                                       : file.substr(0, at);
}

// "server/main.cc" for the flags of this tree, whether Abseil hands over
// the compiled path or a path it has normalized (its default strips the
// leading slashes).
std::string NormalizeFlagFile(absl::string_view filename) {
  const absl::string_view root = SourceRoot();
  absl::string_view root_no_slash = root;
  while (absl::ConsumePrefix(&root_no_slash, "/")) {
  }
  if (!root.empty() && !absl::ConsumePrefix(&filename, root)) {
    absl::ConsumePrefix(&filename, root_no_slash);
  }
  return std::string(filename);
}

// A flag of the daemon: defined in a file under server/.
bool IsDaemonFlagFile(absl::string_view filename) {
  return absl::StartsWith(NormalizeFlagFile(filename), "server/");
}

std::string VersionString() {
  return absl::StrCat("factord ", FACTORD_VERSION, "\n");
}

// `text` wrapped to `width` columns in a column that starts at `indent`.
// The first line begins with `head`, padded to the column, or alone on its
// line when it reaches the column: the layout of GNU --help output, which
// help2man (man/) turns into the man page's option list.
std::string Wrap(absl::string_view head, absl::string_view text, size_t indent,
                 size_t width) {
  std::string out(head);
  size_t column = head.size();
  if (column > 0 && column + 2 > indent) {
    out += '\n';
    column = 0;
  }
  bool line_empty = true;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line_empty && column + 1 + word.size() > width) {
      out += '\n';
      column = 0;
      line_empty = true;
    }
    if (line_empty) {
      out.append(indent - column, ' ');
      column = indent;
    } else {
      out += ' ';
      ++column;
    }
    absl::StrAppend(&out, word);
    column += word.size();
    line_empty = false;
  }
  out += '\n';
  return out;
}

// Where the flags' descriptions start in --help.
constexpr size_t kHelpColumn = 30;

// What --help prints: the usage text, then every daemon flag, sorted, with
// its help and default (strings quoted, as Abseil's --helpfull shows them).
std::string DaemonHelp() {
  std::vector<const absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (!flag->IsRetired() && IsDaemonFlagFile(flag->Filename())) {
      flags.push_back(flag);
    }
  }
  std::sort(flags.begin(), flags.end(),
            [](const auto* a, const auto* b) { return a->Name() < b->Name(); });
  std::string out = absl::StrCat(
      "Usage: factord [--flag=value]...\n",
      Wrap("", absl::StrCat("factord: ", kSummary), 0, 79), "\nOptions:\n");
  for (const absl::CommandLineFlag* flag : flags) {
    const bool is_string = flag->IsOfType<std::string>();
    const char* value = is_string                          ? "TEXT"
                        : flag->IsOfType<absl::Duration>() ? "DURATION"
                        : flag->IsOfType<bool>()           ? nullptr
                                                           : "N";
    const std::string default_value =
        is_string ? absl::StrCat("\"", flag->DefaultValue(), "\"")
                  : flag->DefaultValue();
    absl::StrAppend(
        &out,
        Wrap(absl::StrCat("  --", flag->Name(),
                          value ? absl::StrCat("=", value) : ""),
             absl::StrCat(flag->Help(), " (default: ", default_value, ")"),
             kHelpColumn, 79));
  }
  absl::StrAppend(
      &out, Wrap("  --help", "print this help and exit", kHelpColumn, 79),
      Wrap("  --helpfull",
           "also list Abseil's own flags (--flagfile, --fromenv, ...) and "
           "exit",
           kHelpColumn, 79),
      Wrap("  --version", "print the version and exit", kHelpColumn, 79));
  return out;
}

// True when argv asks for --help (or -help) before any "--".
bool AsksForHelp(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) return false;
    if (std::strcmp(argv[i], "--help") == 0 ||
        std::strcmp(argv[i], "-help") == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

ABSL_FLAG(std::string, listen, kDefaults.listen,
          "gRPC address host:port (port 0 picks a free one)");
ABSL_FLAG(std::string, metrics_listen, kDefaults.metrics_listen,
          "/metrics HTTP address host:port; empty disables it");
ABSL_FLAG(std::string, backend, kDefaults.backend, "auto | cpu | cuda");
ABSL_FLAG(int, threads, kDefaults.threads,
          "kernel threads per job; 0 = hardware concurrency");
ABSL_FLAG(int, workers, kDefaults.workers,
          "concurrent jobs (factorizations, solves)");
ABSL_FLAG(int, max_queue, kDefaults.max_queue,
          "jobs waiting for a worker before RESOURCE_EXHAUSTED");
ABSL_FLAG(int64_t, cache_bytes, kDefaults.cache_bytes,
          "host byte budget of the factor cache");
ABSL_FLAG(int64_t, device_cache_bytes, kDefaults.device_cache_bytes,
          "device bytes in use by all requests on the CUDA backend "
          "(0 = no limit); over it a request is RESOURCE_EXHAUSTED");
ABSL_FLAG(absl::Duration, idle_ttl, kDefaults.idle_ttl,
          "matrices unused for this long are released");
ABSL_FLAG(int64_t, max_n, kDefaults.max_n, "largest accepted dimension n");
ABSL_FLAG(int64_t, max_nnz, kDefaults.max_nnz,
          "largest accepted number of stored entries");
ABSL_FLAG(int64_t, max_message_bytes, kDefaults.max_message_bytes,
          "gRPC max receive message size");
ABSL_FLAG(int, max_concurrent_requests, kDefaults.max_concurrent_requests,
          "Solver RPCs open at once (streams included) before "
          "RESOURCE_EXHAUSTED; 0 = unlimited");
ABSL_FLAG(std::string, tls_cert, "",
          "PEM certificate chain: serve gRPC over TLS (needs --tls_key)");
ABSL_FLAG(std::string, tls_key, "", "PEM private key of --tls_cert");
ABSL_FLAG(std::string, tls_client_ca, "",
          "PEM CA: require and verify client certificates signed by it "
          "(mutual TLS; needs --tls_cert)");
ABSL_FLAG(std::string, auth_tokens_file, "",
          "file of `token tenant` lines: every Solver RPC then needs "
          "`authorization: Bearer <token>` and sees only its tenant's "
          "matrices; empty: authentication off");
ABSL_FLAG(int64_t, tenant_cache_bytes, kDefaults.tenant_cache_bytes,
          "bytes of matrices and factors one tenant may hold; 0 = unlimited");
ABSL_FLAG(absl::Duration, shutdown_grace, absl::Seconds(30),
          "on SIGTERM, how long in-flight requests may take before they are "
          "cancelled");
ABSL_FLAG(absl::Duration, drain_delay, kDefaults.drain_delay,
          "on SIGTERM, keep serving new requests this long after readiness "
          "(gRPC health, HTTP /ready) turns NOT_SERVING, so that proxies "
          "polling it stop sending first; within --shutdown_grace");
ABSL_FLAG(absl::Duration, reload_interval, kDefaults.reload_interval,
          "how often --auth_tokens_file and the TLS files are checked for "
          "changes (SIGHUP checks at once); 0: only on SIGHUP");

int main(int argc, char** argv) {
  absl::FlagsUsageConfig usage_config;
  usage_config.contains_help_flags = IsDaemonFlagFile;
  usage_config.contains_helpshort_flags = IsDaemonFlagFile;
  usage_config.contains_helppackage_flags = IsDaemonFlagFile;
  usage_config.version_string = VersionString;
  usage_config.normalize_filename = NormalizeFlagFile;
  absl::SetFlagsUsageConfig(usage_config);
  absl::SetProgramUsageMessage(kSummary);
  if (AsksForHelp(argc, argv)) {
    std::fputs(DaemonHelp().c_str(), stdout);
    return 0;
  }
  absl::ParseCommandLine(argc, argv);

  factord::server::ServerConfig config;
  config.listen = absl::GetFlag(FLAGS_listen);
  config.metrics_listen = absl::GetFlag(FLAGS_metrics_listen);
  config.backend = absl::GetFlag(FLAGS_backend);
  config.threads = absl::GetFlag(FLAGS_threads);
  config.workers = absl::GetFlag(FLAGS_workers);
  config.max_queue = absl::GetFlag(FLAGS_max_queue);
  config.cache_bytes = absl::GetFlag(FLAGS_cache_bytes);
  config.device_cache_bytes = absl::GetFlag(FLAGS_device_cache_bytes);
  config.idle_ttl = absl::GetFlag(FLAGS_idle_ttl);
  config.max_n = absl::GetFlag(FLAGS_max_n);
  config.max_nnz = absl::GetFlag(FLAGS_max_nnz);
  config.max_message_bytes = absl::GetFlag(FLAGS_max_message_bytes);
  config.max_concurrent_requests = absl::GetFlag(FLAGS_max_concurrent_requests);
  config.tls_cert_file = absl::GetFlag(FLAGS_tls_cert);
  config.tls_key_file = absl::GetFlag(FLAGS_tls_key);
  config.tls_client_ca_file = absl::GetFlag(FLAGS_tls_client_ca);
  config.auth_tokens_file = absl::GetFlag(FLAGS_auth_tokens_file);
  config.tenant_cache_bytes = absl::GetFlag(FLAGS_tenant_cache_bytes);
  config.drain_delay = absl::GetFlag(FLAGS_drain_delay);
  config.reload_interval = absl::GetFlag(FLAGS_reload_interval);

  if (!InstallSignalHandlers()) {
    std::fprintf(stderr, "factord: cannot install the SIGTERM handler\n");
    return 1;
  }
  auto server = factord::server::Server::Start(config);
  if (!server.ok()) {
    std::fprintf(stderr, "factord: %s\n", server.status().ToString().c_str());
    return 1;
  }
  const absl::Duration grace = absl::GetFlag(FLAGS_shutdown_grace);
  std::thread signal_waiter([&server, grace] {
    int signo = WaitForSignal();
    while (signo == SIGHUP) {
      factord::server::LogLine("received SIGHUP: reloading credentials");
      const factord::server::ReloadResult reload = (*server)->Reload();
      if (reload.applied == 0 && reload.refused == 0) {
        factord::server::LogLine(
            "reload: no credential file changed (or none is configured)");
      }
      signo = WaitForSignal();
    }
    if (signo != 0) {
      factord::server::LogLine(absl::StrCat("received signal ", signo,
                                            ", draining (grace ",
                                            absl::FormatDuration(grace), ")"));
    }
    (*server)->Shutdown(grace);
  });
  (*server)->Wait();
  OnTerminationSignal(0);  // wake the waiter if no signal came
  signal_waiter.join();
  return 0;
}
