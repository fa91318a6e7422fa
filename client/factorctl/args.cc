#include "client/factorctl/args.h"

#include <functional>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "client/option_names.h"

namespace factord::factorctl {
namespace {

constexpr const char* kCommands[] = {"upload", "update", "factorize",
                                     "solve",  "run",    "release",
                                     "get",    "list",   "info"};

absl::Status BadValue(absl::string_view flag, absl::string_view value,
                      absl::string_view expected) {
  return absl::InvalidArgumentError(
      absl::StrCat("--", flag, "=", value, ": expected ", expected));
}

absl::StatusOr<int> ToInt(absl::string_view flag, absl::string_view value) {
  int v = 0;
  if (!absl::SimpleAtoi(value, &v)) return BadValue(flag, value, "an integer");
  return v;
}

absl::StatusOr<double> ToDouble(absl::string_view flag,
                                absl::string_view value) {
  double v = 0;
  if (!absl::SimpleAtod(value, &v)) return BadValue(flag, value, "a number");
  return v;
}

absl::StatusOr<bool> ToBool(absl::string_view flag, absl::string_view value) {
  bool v = false;
  if (!absl::SimpleAtob(value, &v)) return BadValue(flag, value, "true|false");
  return v;
}

absl::StatusOr<uint64_t> ToUint64(absl::string_view flag,
                                  absl::string_view value) {
  uint64_t v = 0;
  if (!absl::SimpleAtoi(value, &v)) {
    return BadValue(flag, value, "an integer >= 0");
  }
  return v;
}

using Setter =
    std::function<absl::Status(CommandLine&, absl::string_view value)>;

// `status` with its message prefixed by the flag; its payloads (the reason
// and the field violation) kept.
absl::Status ForFlag(absl::string_view flag, absl::string_view value,
                     const absl::Status& status) {
  absl::Status out(status.code(), absl::StrCat("--", flag, "=", value, ": ",
                                               status.message()));
  status.ForEachPayload(
      [&out](absl::string_view type_url, const absl::Cord& payload) {
        out.SetPayload(type_url, payload);
      });
  return out;
}

// Sets `field` to `value`, a name of a value of the wire enumeration
// `which`, when it is one.
absl::Status SetEnum(absl::string_view flag, client::OptionEnum which,
                     absl::string_view value, std::string& field) {
  if (absl::Status s = client::CheckOptionName(which, value); !s.ok()) {
    return ForFlag(flag, value, s);
  }
  field = std::string(value);
  return absl::OkStatus();
}

// Flags that take a value.
const std::map<std::string, Setter, std::less<>>& ValueFlags() {
  static const auto*
      flags =
          new std::map<std::string, Setter, std::less<>>{
              {"server",
               [](CommandLine& c, absl::string_view v) {
                 c.server = std::string(v);
                 return absl::OkStatus();
               }},
              {"id",
               [](CommandLine& c, absl::string_view v) {
                 c.id = std::string(v);
                 return absl::OkStatus();
               }},
              {"token",
               [](CommandLine& c, absl::string_view v) {
                 c.token = std::string(v);
                 return absl::OkStatus();
               }},
              {"tls_ca",
               [](CommandLine& c, absl::string_view v) {
                 c.tls_ca = std::string(v);
                 return absl::OkStatus();
               }},
              {"tls_cert",
               [](CommandLine& c, absl::string_view v) {
                 c.tls_cert = std::string(v);
                 return absl::OkStatus();
               }},
              {"tls_key",
               [](CommandLine& c, absl::string_view v) {
                 c.tls_key = std::string(v);
                 return absl::OkStatus();
               }},
              {"rhs",
               [](CommandLine& c, absl::string_view v) {
                 c.rhs_file = std::string(v);
                 return absl::OkStatus();
               }},
              {"solution",
               [](CommandLine& c, absl::string_view v) {
                 c.solution_file = std::string(v);
                 return absl::OkStatus();
               }},
              {"structure",
               [](CommandLine& c, absl::string_view v) {
                 if (v != "auto" && v != "general" && v != "symmetric" &&
                     v != "spd") {
                   return BadValue("structure", v,
                                   "auto|general|symmetric|spd");
                 }
                 c.structure = std::string(v);
                 return absl::OkStatus();
               }},
              {"method",
               [](CommandLine& c, absl::string_view v) {
                 return SetEnum("method", client::OptionEnum::kMethod, v,
                                c.factorize.method);
               }},
              {"krylov",
               [](CommandLine& c, absl::string_view v) {
                 return SetEnum("krylov", client::OptionEnum::kKrylov, v,
                                c.solve.krylov);
               }},
              {"ordering",
               [](CommandLine& c, absl::string_view v) {
                 return SetEnum("ordering", client::OptionEnum::kOrdering, v,
                                c.factorize.ordering);
               }},
              {"pivoting",
               [](CommandLine& c, absl::string_view v) {
                 return SetEnum("pivoting", client::OptionEnum::kPivoting, v,
                                c.factorize.pivoting);
               }},
              {"scaling",
               [](CommandLine& c, absl::string_view v) {
                 return SetEnum("scaling", client::OptionEnum::kScaling, v,
                                c.factorize.scaling);
               }},
              {"blocking",
               [](CommandLine& c, absl::string_view v) {
                 return SetEnum("blocking", client::OptionEnum::kBlocking, v,
                                c.factorize.blocking);
               }},
              {"trisolve",
               [](CommandLine& c, absl::string_view v) {
                 return SetEnum("trisolve",
                                client::OptionEnum::kTriangularSolve, v,
                                c.factorize.trisolve);
               }},
              {"tol",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<double> x = ToDouble("tol", v);
                 if (!x.ok()) return x.status();
                 c.solve.tolerance = *x;
                 return absl::OkStatus();
               }},
              {"max_iterations",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<int> x = ToInt("max_iterations", v);
                 if (!x.ok()) return x.status();
                 c.solve.max_iterations = *x;
                 return absl::OkStatus();
               }},
              {"restart",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<int> x = ToInt("restart", v);
                 if (!x.ok()) return x.status();
                 c.solve.restart = *x;
                 return absl::OkStatus();
               }},
              {"idr_s",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<int> x = ToInt("idr_s", v);
                 if (!x.ok()) return x.status();
                 c.solve.idr_s = *x;
                 return absl::OkStatus();
               }},
              {"fill_level",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<int> x = ToInt("fill_level", v);
                 if (!x.ok()) return x.status();
                 c.factorize.fill_level = *x;
                 return absl::OkStatus();
               }},
              {"drop_tol",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<double> x = ToDouble("drop_tol", v);
                 if (!x.ok()) return x.status();
                 c.factorize.drop_tolerance = *x;
                 return absl::OkStatus();
               }},
              {"fill_factor",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<double> x = ToDouble("fill_factor", v);
                 if (!x.ok()) return x.status();
                 c.factorize.fill_factor = *x;
                 return absl::OkStatus();
               }},
              {"block_size",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<int> x = ToInt("block_size", v);
                 if (!x.ok()) return x.status();
                 c.factorize.max_block_size = *x;
                 return absl::OkStatus();
               }},
              {"sweeps",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<int> x = ToInt("sweeps", v);
                 if (!x.ok()) return x.status();
                 c.factorize.sweeps = *x;
                 return absl::OkStatus();
               }},
              {"trisolve_sweeps",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<int> x = ToInt("trisolve_sweeps", v);
                 if (!x.ok()) return x.status();
                 if (*x < 0) return BadValue("trisolve_sweeps", v, "N >= 0");
                 c.factorize.trisolve_sweeps = *x;
                 return absl::OkStatus();
               }},
              {"epsilon",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<double> x = ToDouble("epsilon", v);
                 if (!x.ok()) return x.status();
                 c.factorize.epsilon = *x;
                 return absl::OkStatus();
               }},
              {"delta",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<double> x = ToDouble("delta", v);
                 if (!x.ok()) return x.status();
                 c.factorize.delta = *x;
                 return absl::OkStatus();
               }},
              {"expected_generation",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<uint64_t> x =
                     ToUint64("expected_generation", v);
                 if (!x.ok()) return x.status();
                 c.expected_generation = *x;
                 return absl::OkStatus();
               }},
              {"timeout",
               [](CommandLine& c, absl::string_view v) -> absl::Status {
                 absl::StatusOr<double> x = ToDouble("timeout", v);
                 if (!x.ok()) return x.status();
                 if (!(*x > 0)) return BadValue("timeout", v, "seconds > 0");
                 c.timeout_s = *x;
                 return absl::OkStatus();
               }},
          };
  return *flags;
}

// Switches: `--json`, `--json=false`.
absl::Status SetSwitch(CommandLine& c, absl::string_view name, bool value) {
  if (name == "json") c.json = value;
  if (name == "keep") c.keep = value;
  if (name == "deterministic") c.factorize.deterministic = value;
  if (name == "help") c.help = value;
  if (name == "tls") c.tls = value;
  if (name == "replace") c.replace = value;
  return absl::OkStatus();
}

bool IsSwitch(absl::string_view name) {
  return name == "json" || name == "keep" || name == "deterministic" ||
         name == "help" || name == "tls" || name == "replace";
}

}  // namespace

absl::StatusOr<CommandLine> ParseCommandLine(
    int argc, const char* const* argv, const std::string& default_server) {
  CommandLine c;
  c.server = default_server;
  bool only_positional = false;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (only_positional || !absl::StartsWith(arg, "-") || arg == "-") {
      if (c.command.empty()) {
        c.command = std::string(arg);
      } else {
        c.positional.emplace_back(arg);
      }
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    if (arg == "-h") {
      c.help = true;
      continue;
    }
    arg.remove_prefix(absl::StartsWith(arg, "--") ? 2 : 1);
    absl::string_view name = arg;
    std::optional<absl::string_view> value;
    if (size_t eq = arg.find('='); eq != absl::string_view::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    if (IsSwitch(name)) {
      bool on = true;
      if (value) {
        absl::StatusOr<bool> b = ToBool(name, *value);
        if (!b.ok()) return b.status();
        on = *b;
      }
      if (absl::Status s = SetSwitch(c, name, on); !s.ok()) return s;
      continue;
    }
    auto flag = ValueFlags().find(name);
    if (flag == ValueFlags().end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag --", name, " (see factorctl --help)"));
    }
    if (!value) {
      if (i + 1 >= argc) {
        return absl::InvalidArgumentError(
            absl::StrCat("flag --", name, " needs a value"));
      }
      value = argv[++i];
    }
    if (absl::Status s = flag->second(c, *value); !s.ok()) return s;
  }
  if (c.help) return c;
  if (c.command.empty()) {
    return absl::InvalidArgumentError("no command (see factorctl --help)");
  }
  bool known = false;
  for (const char* command : kCommands) known = known || c.command == command;
  if (!known) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown command '", c.command, "' (see factorctl --help)"));
  }
  const bool needs_file =
      c.command == "upload" || c.command == "update" || c.command == "run";
  const size_t expected = needs_file ? 1 : 0;
  if (c.positional.size() != expected) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.command, " takes ", needs_file ? "one FILE" : "no file",
                     ", got ", c.positional.size(), " arguments"));
  }
  const bool needs_id = c.command == "update" || c.command == "factorize" ||
                        c.command == "solve" || c.command == "release" ||
                        c.command == "get";
  if (needs_id && c.id.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.command, " needs --id=ID"));
  }
  return c;
}

bool JsonRequested(int argc, const char* const* argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--") break;
    if (!absl::ConsumePrefix(&arg, "--") && !absl::ConsumePrefix(&arg, "-")) {
      continue;
    }
    if (arg == "json") {
      json = true;
    } else if (absl::ConsumePrefix(&arg, "json=")) {
      bool on = false;
      if (absl::SimpleAtob(arg, &on)) json = on;
    }
  }
  return json;
}

const char* Usage() {
  return R"(factorctl: command line client of the factord sparse solver service

usage: factorctl [flags] COMMAND [FILE] [flags]

commands:
  upload FILE          upload a Matrix Market matrix (prints its id)
  update --id=ID FILE  replace the values of matrix ID (same pattern)
  factorize --id=ID    factorize matrix ID
  solve --id=ID        solve with matrix ID (b from --rhs, default all ones)
  run FILE             upload + factorize + solve, then release
  release --id=ID      free matrix ID on the server
  get --id=ID          what the server holds about matrix ID (generation...)
  list                 matrices held by the server
  info                 server version, backend, cache, limits, methods

flags:
  --server=HOST:PORT   default $FACTORD_SERVER, else 127.0.0.1:50051
  --id=ID              matrix id (upload/run: default a new UUID)
  --replace            upload/run: replace the matrix held under --id
  --expected_generation=G  update/factorize/solve: only if the matrix is at
                       generation G (else ABORTED, GENERATION_MISMATCH)
  --token=TOKEN        bearer token (default $FACTORD_TOKEN)
  --tls                TLS, trusting the system's root CAs
  --tls_ca=FILE        TLS, trusting the CA in this PEM file
  --tls_cert=FILE --tls_key=FILE   client certificate (mutual TLS)
  --json               print exactly one JSON object on stdout
  --structure=S        auto|general|symmetric|spd (auto: from the file)
  --method=M           auto|none|jacobi|block_jacobi|ldlt|block_ildlt|
                       jacobi_ldlt|ic|ilu|lu
  --krylov=K           auto|none|cg|gmres|sqmr|idr|bicgstab
  --tol=X --max_iterations=N --restart=M --idr_s=S
  --rhs=FILE           Matrix Market array or one value per line
  --solution=FILE      write the solution, one value per line
  --ordering=O         auto|natural|amd|metis|rcm|gmc
  --pivoting=P         bunch_kaufman (or bk)|static|rook
  --scaling=S          auto|none|ruiz|matching|column_norm (auto: Ruiz for
                       ldlt/block_ildlt, none for ic/ilu)
  --blocking=B         block_ildlt blocking: rb (order, then block
                       neighbours) | br (block similar rows, then order)
  --fill_level=K --drop_tol=X --fill_factor=X --block_size=B
  --sweeps=N           jacobi_ldlt sweeps
  --epsilon=X --delta=X  jacobi_ldlt pivot threshold, relaxed by delta a sweep
  --trisolve=T         ic/ilu triangular solves: exact|jacobi|block_jacobi
  --trisolve_sweeps=N  ic/ilu Jacobi sweeps after x0 = D^-1 b (0: server
                       default, 5); block_jacobi blocks have at most
                       --block_size rows (default 12)
  --deterministic      bitwise-reproducible factorization and solve
  --timeout=SECONDS    deadline of each request
  --keep               run: keep the matrix on the server

Enumeration values are the wire contract's names; an empty value is the
server's default.

On failure the exit status is non-zero and stderr starts with the status
code name, e.g. "INVALID_ARGUMENT: line 12: ...", followed by the error
reason in brackets when there is one; with --json, stdout also gets one
JSON object with "code", "reason" and "message" (and "retry_delay_s",
"metadata", "field_violations" when the error has them).
)";
}

}  // namespace factord::factorctl
