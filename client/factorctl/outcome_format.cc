// Printing an Outcome (commands.h): one JSON object, or a short summary.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "client/factorctl/commands.h"
#include "client/factorctl/failure.h"
#include "client/factorctl/json_writer.h"

namespace factord::factorctl {
namespace {

// `factorized_generation`: false when the outcome has a FactorizeResult,
// which tells the generation it factorized itself (run).
void MatrixFields(const client::MatrixInfo& m, bool factorized_generation,
                  JsonWriter& w) {
  w.Field("id", m.id);
  w.Field("n", m.n);
  w.Field("nnz", m.nnz);
  w.Field("structure", m.structure);
  w.Key("pattern_hash");
  w.String(absl::StrFormat("%016x", m.pattern_hash));
  w.Field("bytes", m.bytes);
  w.Field("bytes_received", m.bytes_received);
  w.Field("factorized", m.factorized);
  w.Field("stale", m.stale);
  if (!m.method.empty()) w.Field("matrix_method", m.method);
  w.Key("generation");
  w.Uint(m.generation);
  if (factorized_generation) {
    w.Key("factorized_generation");
    w.Uint(m.factorized_generation);
  }
}

void FactorFields(const client::FactorizeResult& f, JsonWriter& w) {
  w.Field("method", f.method);
  w.Field("factor_status", f.factor_status);
  w.Key("inertia");
  w.BeginObject();
  w.Field("positive", f.inertia.positive);
  w.Field("negative", f.inertia.negative);
  w.Field("zero", f.inertia.zero);
  w.EndObject();
  w.Field("inertia_reliable", f.inertia_reliable);
  w.Field("perturbed_pivots", f.perturbed_pivots);
  w.Field("two_by_two_pivots", f.two_by_two_pivots);
  w.Field("delayed_pivots", f.delayed_pivots);
  w.Field("nnz_factor", f.nnz_factor);
  w.Field("factor_bytes", f.factor_bytes);
  w.Field("analysis_reused", f.analysis_reused);
  w.Field("blocks", f.blocks);
  if (!f.sweep_errors.empty()) {
    w.Key("sweep_errors");
    w.BeginArray();
    for (double e : f.sweep_errors) w.Double(e);
    w.EndArray();
  }
  w.Field("factor_message", f.message);
  w.Key("factorized_generation");
  w.Uint(f.generation);
}

void SolveFields(const client::SolveResult& s, JsonWriter& w) {
  w.Field("status", s.status);
  w.Field("relative_residual", s.relative_residual);
  w.Field("backward_error", s.backward_error);
  w.Field("iterations", s.iterations);
  w.Field("solve_message", s.message);
}

void ServerFields(const client::ServerInfo& s, JsonWriter& w) {
  w.Field("version", s.version);
  w.Field("backend", s.backend);
  w.Field("device", s.device);
  w.Field("cache_bytes_used", s.cache_bytes_used);
  w.Field("cache_bytes_budget", s.cache_bytes_budget);
  w.Field("cache_entries", s.cache_entries);
  w.Field("max_n", s.max_n);
  w.Field("max_nnz", s.max_nnz);
  w.Field("max_message_bytes", s.max_message_bytes);
  w.Field("threads", s.threads);
  w.Field("workers", s.workers);
  w.Key("methods");
  w.BeginArray();
  for (const std::string& m : s.methods) w.String(m);
  w.EndArray();
}

void TimingFields(const Outcome& o, JsonWriter& w) {
  w.Key("timings");
  w.BeginObject();
  if (o.read_s) w.Field("read_s", *o.read_s);
  if (o.upload_s) w.Field("upload_s", *o.upload_s);
  if (o.factor) {
    w.Field("queue_s", o.factor->timings.queue_s);
    w.Field("preprocess_s", o.factor->timings.preprocess_s);
    w.Field("analyze_s", o.factor->timings.analyze_s);
    w.Field("factorize_s", o.factor->timings.factorize_s);
  }
  if (o.solve) w.Field("solve_s", o.solve->timings.solve_s);
  w.Field("total_s", o.total_s);
  w.EndObject();
}

std::string Seconds(double s) { return absl::StrFormat("%.3g s", s); }

}  // namespace

std::string OutcomeJson(const Outcome& o) {
  JsonWriter w;
  w.BeginObject();
  w.Field("schema", kJsonSchema);
  w.Field("command", o.command);
  if (o.matrix) {
    MatrixFields(*o.matrix, /*factorized_generation=*/!o.factor, w);
  } else if (!o.id.empty()) {
    w.Field("id", o.id);
  }
  if (o.solve && !o.matrix)
    w.Field("n", static_cast<int64_t>(o.solve->x.size()));
  if (o.factor) FactorFields(*o.factor, w);
  if (o.solve) SolveFields(*o.solve, w);
  if (o.bytes_freed) w.Field("bytes_freed", *o.bytes_freed);
  if (o.matrices) {
    w.Key("matrices");
    w.BeginArray();
    for (const client::MatrixInfo& m : *o.matrices) {
      w.BeginObject();
      MatrixFields(m, /*factorized_generation=*/true, w);
      w.EndObject();
    }
    w.EndArray();
  }
  if (o.server) ServerFields(*o.server, w);
  TimingFields(o, w);
  w.EndObject();
  return w.str();
}

std::string OutcomeText(const Outcome& o) {
  std::string out;
  if (o.matrix) {
    const client::MatrixInfo& m = *o.matrix;
    absl::StrAppend(&out, "matrix ", m.id, ": n = ", m.n, ", nnz = ", m.nnz,
                    ", ", m.structure, ", generation ", m.generation);
    if (o.upload_s) {
      absl::StrAppend(&out, ", ", m.bytes_received, " bytes sent in ",
                      Seconds(*o.upload_s));
    }
    if (m.factorized && o.command == "get") {
      absl::StrAppend(&out, ", factorized (", m.method, ", generation ",
                      m.factorized_generation, ")");
    }
    if (m.stale) absl::StrAppend(&out, " (factorization stale)");
    out += "\n";
  }
  if (o.factor) {
    const client::FactorizeResult& f = *o.factor;
    absl::StrAppend(&out, "factorize: ", f.method, ", ", f.factor_status,
                    ", nnz(factor) = ", f.nnz_factor,
                    f.analysis_reused ? ", analysis reused" : "");
    if (f.inertia_reliable) {
      absl::StrAppend(&out, ", inertia (+", f.inertia.positive, ", -",
                      f.inertia.negative, ", 0:", f.inertia.zero, ")");
    }
    if (f.perturbed_pivots > 0) {
      absl::StrAppend(&out, ", ", f.perturbed_pivots, " perturbed pivots");
    }
    absl::StrAppend(&out, "; preprocess ", Seconds(f.timings.preprocess_s),
                    ", analyze ", Seconds(f.timings.analyze_s), ", factorize ",
                    Seconds(f.timings.factorize_s), "\n");
    if (!f.message.empty()) absl::StrAppend(&out, "  ", f.message, "\n");
  }
  if (o.solve) {
    const client::SolveResult& s = *o.solve;
    absl::StrAppend(
        &out, absl::StrFormat("solve: %s in %d iterations, relative residual "
                              "%.3e, backward error %.3e; solve %s\n",
                              s.status, s.iterations, s.relative_residual,
                              s.backward_error, Seconds(s.timings.solve_s)));
    if (!s.message.empty()) absl::StrAppend(&out, "  ", s.message, "\n");
  }
  if (o.bytes_freed && o.command == "release") {
    absl::StrAppend(&out, "released ", o.id, ": ", *o.bytes_freed,
                    " bytes freed\n");
  }
  if (o.matrices) {
    absl::StrAppend(&out, o.matrices->size(), " matrices\n");
    for (const client::MatrixInfo& m : *o.matrices) {
      absl::StrAppend(
          &out, "  ", m.id, "  n = ", m.n, ", nnz = ", m.nnz, ", ", m.structure,
          ", generation ", m.generation, ", ", m.bytes, " bytes",
          m.factorized ? absl::StrCat(", factorized (", m.method, ")")
                       : std::string(),
          m.stale ? ", stale" : "", "\n");
    }
  }
  if (o.server) {
    const client::ServerInfo& s = *o.server;
    absl::StrAppend(&out, "factord ", s.version, ", backend ", s.backend,
                    s.device.empty() ? "" : absl::StrCat(" (", s.device, ")"),
                    ", ", s.threads, " threads, ", s.workers, " workers\n");
    absl::StrAppend(&out, "cache: ", s.cache_entries, " entries, ",
                    s.cache_bytes_used, " of ", s.cache_bytes_budget,
                    " bytes\n");
    absl::StrAppend(&out, "limits: n <= ", s.max_n, ", nnz <= ", s.max_nnz,
                    ", messages <= ", s.max_message_bytes, " bytes\n");
    absl::StrAppend(&out, "methods: ", absl::StrJoin(s.methods, " "), "\n");
  }
  absl::StrAppend(&out, "total ", Seconds(o.total_s), "\n");
  return out;
}

}  // namespace factord::factorctl
