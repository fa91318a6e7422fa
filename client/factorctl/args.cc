#include "client/factorctl/args.h"

#include <functional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "client/cli/cli_app.h"
#include "client/factorctl/failure.h"
#include "client/option_names.h"

namespace factord::factorctl {
namespace {

static_assert(kExitUsage == cli::kUsageExitCode);

struct Command {
  const char* name;
  const char* summary;
  bool takes_file;    // FILE, the one positional argument
  bool needs_id;      // --id
  const char* flags;  // the flags it reads, for its --help
};

constexpr Command kCommands[] = {
    {"upload", "upload the Matrix Market matrix FILE (prints its id)", true,
     false, "--id (default: a new UUID), --replace, --structure"},
    {"update", "replace the values of matrix --id by those of FILE", true, true,
     "--id, --expected_generation, --structure"},
    {"factorize", "factorize matrix --id", false, true,
     "--id, --expected_generation and the Factorization flags"},
    {"solve", "solve with matrix --id (b from --rhs, default all ones)", false,
     true, "--id, --expected_generation and the Solve flags"},
    {"run", "upload FILE, factorize, solve, then release", true, false,
     "--id, --replace, --keep, --structure, --expected_generation and the "
     "Factorization and Solve flags"},
    {"release", "free matrix --id on the server", false, true, "--id"},
    {"get", "what the server holds about matrix --id (generations...)", false,
     true, "--id"},
    {"list", "the matrices the server holds", false, false, "none"},
    {"info", "server version, backend, cache, limits, methods", false, false,
     "none"},
};

const Command* FindCommand(absl::string_view name) {
  for (const Command& c : kCommands) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

std::string CommandNames() {
  std::vector<std::string> names;
  for (const Command& c : kCommands) names.emplace_back(c.name);
  return absl::StrJoin(names, "|");
}

// Values CLI11 would convert but factorctl refuses, with a message that says
// what is expected.
const CLI::Validator& PositiveSeconds() {
  static const auto* v = new CLI::Validator(
      [](std::string& value) -> std::string {
        double x = 0;
        if (absl::SimpleAtod(value, &x) && x > 0) return "";
        return absl::StrCat("'", value, "' is not a number of seconds > 0");
      },
      /*validator_desc=*/"");
  return *v;
}

const CLI::Validator& NonNegativeInteger() {
  static const auto* v = new CLI::Validator(
      [](std::string& value) -> std::string {
        uint64_t x = 0;
        if (absl::SimpleAtoi(value, &x)) return "";
        return absl::StrCat("'", value, "' is not an integer >= 0");
      },
      /*validator_desc=*/"");
  return *v;
}

constexpr char kConnection[] = "Connection";
constexpr char kMatrix[] = "Matrix";
constexpr char kFactorization[] = "Factorization";
constexpr char kSolve[] = "Solve";
constexpr char kOutput[] = "Output";

// factorctl's CLI::App, its options writing into a CommandLine. Not
// movable: the validators hold `this`.
class Parser {
 public:
  explicit Parser(const std::string& default_server) {
    line_.server = default_server;
    cli::ConfigureApp(app_, "factorctl");
    app_.description(
        "factorctl: command line client of the factord sparse solver "
        "service");
    app_.get_formatter()->label("SUBCOMMAND", "COMMAND");
    app_.footer([] {
      return std::string(
          "Flags may come before or after the command. Enumeration values "
          "are the wire contract's names; an empty value is the server's "
          "default.\n"
          "With --json, stdout gets exactly one JSON object, a failure "
          "included (docs/factorctl_json.md).\n"
          "Exit status: 0 done, 1 the command failed (the status code name "
          "and the reason on stderr).");
    });
    AddConnectionFlags();
    AddMatrixFlags();
    AddFactorizationFlags();
    AddSolveFlags();
    app_.add_flag("--json", line_.json,
                  "print exactly one JSON object on stdout")
        ->group(kOutput);
    AddCommands();
  }
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  CLI::App& app() { return app_; }
  CommandLine& line() { return line_; }
  // The failed check of an enumeration flag, if one failed.
  const absl::Status& option_error() const { return option_error_; }

  // Parses argv and checks what CLI11 does not: one known command, its
  // --id. Throws CLI::ParseError (CallForHelp and CallForVersion
  // included).
  void Parse(int argc, const char* const* argv) {
    app_.parse(argc, argv);
    std::vector<CLI::App*> chosen = app_.get_subcommands();
    // What no option or FILE took; CLI11 keeps a "--" there as a mark.
    std::vector<std::string> extra;
    for (std::string& arg : app_.remaining(/*recurse=*/true)) {
      if (arg != "--") extra.push_back(std::move(arg));
    }
    if (chosen.empty()) {
      if (!extra.empty() && !absl::StartsWith(extra[0], "-")) {
        throw CLI::ValidationError(absl::StrCat(
            "unknown command '", extra[0], "' (one of ", CommandNames(), ")"));
      }
      if (extra.empty()) {
        throw CLI::RequiredError(
            absl::StrCat("no command (one of ", CommandNames(), ")"),
            CLI::ExitCodes::RequiredError);
      }
    }
    if (!extra.empty()) throw CLI::ExtrasError(extra);
    const Command& command = *FindCommand(chosen.at(0)->get_name());
    line_.command = command.name;
    if (command.takes_file) line_.positional = {file_};
    if (command.needs_id && line_.id.empty()) {
      throw CLI::RequiredError(absl::StrCat(command.name, " needs --id=ID"),
                               CLI::ExitCodes::RequiredError);
    }
  }

 private:
  void AddConnectionFlags() {
    app_.add_option("--server", line_.server,
                    "daemon address HOST:PORT (default: $FACTORD_SERVER, "
                    "else 127.0.0.1:50051)")
        ->type_name("HOST:PORT")
        ->group(kConnection);
    app_.add_option("--token", line_.token,
                    "bearer token (default: $FACTORD_TOKEN)")
        ->type_name("TOKEN")
        ->group(kConnection);
    app_.add_flag("--tls", line_.tls, "TLS, trusting the system's root CAs")
        ->group(kConnection);
    app_.add_option("--tls_ca", line_.tls_ca,
                    "TLS, trusting the CA in this PEM file")
        ->type_name("FILE")
        ->group(kConnection);
    app_.add_option("--tls_cert", line_.tls_cert,
                    "client certificate, PEM (mutual TLS, with --tls_key)")
        ->type_name("FILE")
        ->group(kConnection);
    app_.add_option("--tls_key", line_.tls_key,
                    "client private key, PEM (mutual TLS, with --tls_cert)")
        ->type_name("FILE")
        ->group(kConnection);
    app_.add_option("--timeout", line_.timeout_s,
                    "deadline of each request, seconds > 0 (default: none)")
        ->type_name("SECONDS")
        ->check(PositiveSeconds())
        ->group(kConnection);
    app_.add_option("--max_attempts", line_.max_attempts,
                    "attempts per request: one that failed in transit (a "
                    "daemon restarting, a proxy's 502 or 503, a stream "
                    "reset) is retried, 0.1 s doubling to 2 s apart, within "
                    "15 s; 1: no retry. An address where nothing listens "
                    "fails at once")
        ->type_name("N")
        ->check(CLI::Range(1, 100))
        ->group(kConnection);
  }

  void AddMatrixFlags() {
    app_.add_option("--id", line_.id,
                    "matrix id (upload/run: default a new UUID)")
        ->type_name("ID")
        ->group(kMatrix);
    app_.add_flag("--replace", line_.replace,
                  "upload/run: replace the matrix held under --id")
        ->group(kMatrix);
    app_.add_option("--expected_generation", line_.expected_generation,
                    "update/factorize/solve/run: only if the matrix is at "
                    "generation G, else ABORTED [GENERATION_MISMATCH] (0: "
                    "no check)")
        ->type_name("G")
        ->check(NonNegativeInteger())
        ->group(kMatrix);
    app_.add_option("--structure", line_.structure,
                    "the matrix's structure (auto: from the file's header)")
        ->check(CLI::IsMember({"auto", "general", "symmetric", "spd"}))
        ->group(kMatrix);
    app_.add_flag("--keep", line_.keep,
                  "run: keep the matrix on the server afterwards")
        ->group(kMatrix);
  }

  void AddFactorizationFlags() {
    AddEnum("--method", client::OptionEnum::kMethod, line_.factorize.method,
            "factorization or preconditioner", kFactorization);
    AddEnum("--ordering", client::OptionEnum::kOrdering,
            line_.factorize.ordering, "fill-reducing ordering", kFactorization);
    AddEnum("--pivoting", client::OptionEnum::kPivoting,
            line_.factorize.pivoting,
            "ldlt pivoting (bk: bunch_kaufman; empty: the server's, "
            "bunch_kaufman)",
            kFactorization);
    AddEnum("--scaling", client::OptionEnum::kScaling, line_.factorize.scaling,
            "auto: the method's (Ruiz for ldlt/block_ildlt/jacobi_ldlt, "
            "none for ic/ilu); matching: ldlt only; column_norm: ic/ilu "
            "only",
            kFactorization);
    AddEnum("--blocking", client::OptionEnum::kBlocking,
            line_.factorize.blocking,
            "block_ildlt blocking: rb (order, then block neighbours) | br "
            "(block similar rows, then order); empty: the server's, rb",
            kFactorization);
    AddEnum("--trisolve", client::OptionEnum::kTriangularSolve,
            line_.factorize.trisolve,
            "ic/ilu triangular solves (empty: the server's, exact)",
            kFactorization);
    app_.add_option("--fill_level", line_.factorize.fill_level,
                    "ic/ilu fill level K (-1: full fill; default: the "
                    "server's)")
        ->type_name("K")
        ->group(kFactorization);
    app_.add_option("--drop_tol", line_.factorize.drop_tolerance,
                    "ic/ilu drop tolerance (default: the server's)")
        ->type_name("X")
        ->group(kFactorization);
    app_.add_option("--fill_factor", line_.factorize.fill_factor,
                    "block_ildlt fill factor: at most X times A's entries "
                    "per block column (0: no limit; default: the server's)")
        ->type_name("X")
        ->group(kFactorization);
    app_.add_option("--block_size", line_.factorize.max_block_size,
                    "largest block (0: the server's, 12 for block_jacobi "
                    "trisolves)")
        ->type_name("B")
        ->group(kFactorization);
    app_.add_option("--sweeps", line_.factorize.sweeps,
                    "jacobi_ldlt sweeps (0: the server's)")
        ->type_name("N")
        ->group(kFactorization);
    app_.add_option("--epsilon", line_.factorize.epsilon,
                    "jacobi_ldlt pivot threshold (default: the server's)")
        ->type_name("X")
        ->group(kFactorization);
    app_.add_option("--delta", line_.factorize.delta,
                    "jacobi_ldlt threshold relaxation per sweep (default: "
                    "the server's)")
        ->type_name("X")
        ->group(kFactorization);
    app_.add_option("--trisolve_sweeps", line_.factorize.trisolve_sweeps,
                    "ic/ilu Jacobi sweeps after x0 = D^-1 b, N >= 0 (0: the "
                    "server's, 5)")
        ->type_name("N")
        ->check(NonNegativeInteger())
        ->group(kFactorization);
    // The options below go by their proto field names
    // (FactorizeOptions::named): one call each, no client member.
    AddNamedSwitch("--deterministic", "deterministic",
                   "no effect: the server is always bitwise reproducible "
                   "for a fixed thread count");
    AddNamedOption("--pivot_threshold", "pivot_threshold", "U",
                   "ldlt/block_ildlt/jacobi_ldlt pivot test |l| <= 1/U, U "
                   "in (0, 0.5] (default: the server's, 0.01)");
    AddNamedSwitch("--impose_matching_pairs", "impose_matching_pairs",
                   "ldlt with --scaling=matching: the matching's 2x2 pairs "
                   "in one front (default: the server's, true)");
  }

  void AddSolveFlags() {
    AddEnum("--krylov", client::OptionEnum::kKrylov, line_.solve.krylov,
            "Krylov method around the factorization (ldlt, lu: auto or "
            "none, they solve directly)",
            kSolve);
    app_.add_option("--tol", line_.solve.tolerance,
                    "relative residual to reach (0: the server's)")
        ->type_name("X")
        ->group(kSolve);
    app_.add_option("--max_iterations", line_.solve.max_iterations,
                    "Krylov iterations at most (0: the server's; lu: "
                    "refinement steps; not for ldlt)")
        ->type_name("N")
        ->group(kSolve);
    app_.add_option("--restart", line_.solve.restart,
                    "gmres restart (0: the server's)")
        ->type_name("M")
        ->group(kSolve);
    app_.add_option("--idr_s", line_.solve.idr_s,
                    "idr shadow space dimension (0: the server's)")
        ->type_name("S")
        ->group(kSolve);
    app_.add_option("--rhs", line_.rhs_file,
                    "right-hand side: Matrix Market array or one value per "
                    "line (default: all ones)")
        ->type_name("FILE")
        ->group(kSolve);
    app_.add_option("--solution", line_.solution_file,
                    "write the solution here, one value per line")
        ->type_name("FILE")
        ->group(kSolve);
  }

  // An enumeration flag: its values are checked with CheckOptionName, whose
  // status (reason INVALID_OPTION, a BadRequest on the request field) is
  // kept for the failure object.
  void AddEnum(const std::string& flag, client::OptionEnum which,
               std::string& field, const std::string& description,
               const char* group) {
    std::vector<std::string> names;
    for (const std::string& name : client::OptionNames(which)) {
      // "unspecified" (value 0) is the server's default, as is "".
      if (!name.empty() && name != "unspecified") names.push_back(name);
    }
    CLI::Validator names_only(
        [this, which](std::string& value) -> std::string {
          absl::Status s = client::CheckOptionName(which, value);
          if (s.ok()) return "";
          option_error_ = s;
          return std::string(s.message());
        },
        absl::StrCat("{", absl::StrJoin(names, ","), "}"));
    app_.add_option(flag, field, description)->check(names_only)->group(group);
  }

  // A flag for the field `field` of factord.v1.FactorOptions, kept as text
  // in FactorizeOptions::named. Its value is checked for the field's type
  // with client::CheckNamedOption, whose status (reason INVALID_OPTION, a
  // BadRequest on "options.<field>") is kept like an enumeration flag's;
  // the server checks the range.
  void AddNamedOption(const std::string& flag, const std::string& field,
                      const std::string& type_name,
                      const std::string& description) {
    AddNamed(flag, field, description)->type_name(type_name);
  }

  // The same for a bool field: a switch (`--flag`, `--flag=false`).
  void AddNamedSwitch(const std::string& flag, const std::string& field,
                      const std::string& description) {
    AddNamed(flag, field, description)->expected(0);
  }

  CLI::Option* AddNamed(const std::string& flag, const std::string& field,
                        const std::string& description) {
    CLI::Validator of_its_type(
        [this, field](std::string& value) -> std::string {
          absl::Status s = client::CheckNamedOption(field, value);
          if (s.ok()) return "";
          option_error_ = s;
          return std::string(s.message());
        },
        /*validator_desc=*/"");
    CLI::callback_t keep = [this, field](const CLI::results_t& values) {
      line_.factorize.named[field] = values.back();
      return true;
    };
    return app_.add_option(flag, keep, description)
        ->check(of_its_type)
        ->group(kFactorization);
  }

  void AddCommands() {
    app_.require_subcommand(0, 1);
    app_.fallthrough();
    // The root keeps what no option takes, for Parse to name: an unknown
    // command or flag.
    app_.allow_extras();
    for (const Command& c : kCommands) {
      CLI::App* sub = app_.add_subcommand(c.name, c.summary);
      sub->group("Commands");
      sub->allow_extras(false);
      sub->footer(absl::StrCat(
          "Flags of ", c.name, ": ", c.flags,
          "; --server, --token, --tls*, --timeout, --max_attempts and --json "
          "apply to every command. 'factorctl --help' lists every flag with "
          "its default."));
      if (c.takes_file) {
        sub->add_option("FILE", file_, "Matrix Market file (.mtx or .mtx.gz)")
            ->required();
      }
    }
  }

  CLI::App app_;
  CommandLine line_;
  std::string file_;
  absl::Status option_error_;
};

// The mistake `error` as a status (args.h: ParsedCommandLine::mistake).
absl::Status Mistake(const CLI::ParseError& error,
                     const absl::Status& option_error) {
  if (option_error.ok() ||
      dynamic_cast<const CLI::ValidationError*>(&error) == nullptr) {
    return LocalError(absl::StatusCode::kInvalidArgument, kReasonUsage,
                      error.what());
  }
  // CheckOptionName's details, with CLI11's message naming the flag.
  absl::Status status(absl::StatusCode::kInvalidArgument, error.what());
  option_error.ForEachPayload(
      [&status](absl::string_view type_url, const absl::Cord& payload) {
        status.SetPayload(type_url, payload);
      });
  return status;
}

}  // namespace

ParsedCommandLine ParseCommandLine(int argc, const char* const* argv,
                                   const std::string& default_server) {
  Parser parser(default_server);
  ParsedCommandLine parsed;
  try {
    parser.Parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    parsed.exit_code = cli::ReportParseOutcome(parser.app(), error);
    if (*parsed.exit_code != 0) {
      parsed.mistake = Mistake(error, parser.option_error());
    }
    if (std::vector<CLI::App*> chosen = parser.app().get_subcommands();
        !chosen.empty()) {
      parser.line().command = chosen[0]->get_name();
    }
  }
  parsed.line = std::move(parser.line());
  return parsed;
}

bool JsonRequested(int argc, const char* const* argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg == "--json") {
      json = true;
    } else if (absl::ConsumePrefix(&arg, "--json=")) {
      bool on = false;
      if (absl::SimpleAtob(arg, &on)) json = on;
    }
  }
  return json;
}

std::string HelpText(const std::string& default_server,
                     const std::string& command) {
  Parser parser(default_server);
  if (command.empty()) return parser.app().help();
  return parser.app().get_subcommand(command)->help("factorctl");
}

}  // namespace factord::factorctl
