// See session.h. Values go to factord in one factord_step with the
// factorization (one round trip), and only when they changed: a
// refactorization with a higher pivot threshold (what Ipopt asks for to
// get a more accurate factor) sends nothing but the options.
#include "hsl/session.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "hsl/registry.h"

namespace factord::hsl {

Session::Session(uint64_t serial, std::string id, Triplets triplets)
    : serial_(serial), id_(std::move(id)), triplets_(std::move(triplets)) {}

bool Session::Fail(const char* what, factord_status status,
                   Failure* failure) const {
  failure->status = status;
  failure->message = absl::StrCat(
      what, " '", id_, "': ", factord_status_name(status), " [",
      factord_last_error_reason(), "]: ", factord_last_error_message());
  Registry::Get().NoteStatus(status);
  return false;
}

bool Session::Upload(factord_handle* connection, Failure* failure) {
  if (uploaded_) return true;
  factord_matrix m;
  factord_matrix_init(&m);
  m.n = triplets_.n;
  m.format = FACTORD_COO;
  m.structure = FACTORD_SYMMETRIC;
  m.triangle = FACTORD_LOWER;
  m.base = 0;
  m.nnz = triplets_.nnz();
  m.row_idx = triplets_.rows.data();
  m.col_idx = triplets_.cols.data();
  std::vector<int32_t> diagonal;
  if (triplets_.nnz() == 0) {
    // No entry at all (NE = 0, or every one out of range): the zero
    // matrix, sent as an explicit zero diagonal (factord's analysis
    // refuses a matrix without entries).
    diagonal.resize(triplets_.n);
    for (int i = 0; i < triplets_.n; ++i) diagonal[i] = i;
    m.nnz = triplets_.n;
    m.row_idx = m.col_idx = diagonal.data();
  }
  m.values = nullptr;  // zeros until the first factorization
  factorized_ = false;
  values_known_ = false;
  if (factord_status s =
          factord_upload(connection, &m, id_.c_str(),
                         FACTORD_UPLOAD_REPLACE | FACTORD_UPLOAD_SUM_DUPLICATES,
                         nullptr, 0, nullptr);
      s != FACTORD_OK) {
    return Fail("sending the pattern of", s, failure);
  }
  Registry::Get().NoteStatus(FACTORD_OK);
  Registry::Get().CountUpload();
  uploaded_ = true;
  sent_values_.assign(triplets_.nnz(), 0.0);
  values_known_ = true;
  return true;
}

bool Session::Factorize(factord_handle* connection, const double* a,
                        const FactorSettings& settings,
                        factord_factor_report* report, Failure* failure) {
  if (!Upload(connection, failure)) return false;
  const double* kept = KeptValues(triplets_, a, &gathered_);
  const int64_t nnz = triplets_.nnz();
  const double* values = nullptr;  // nullptr: the daemon holds them
  if (nnz > 0 &&
      (!values_known_ || !std::equal(kept, kept + nnz, sent_values_.begin()))) {
    values = kept;
    values_known_ = false;  // until the step succeeds
  }
  factord_factorize_options options;
  factord_factorize_options_init(&options);
  options.method = "ldlt";
  options.pivot_threshold = settings.pivot_threshold;
  options.ordering = settings.ordering;
  options.scaling = settings.scaling;
  factorized_ = false;
  if (factord_status s = factord_step(connection, id_.c_str(), values, &options,
                                      nullptr, nullptr, 0, nullptr, nullptr);
      s != FACTORD_OK) {
    return Fail("factorizing", s, failure);
  }
  if (values != nullptr) {
    sent_values_.assign(kept, kept + nnz);
    values_known_ = true;
  }
  if (factord_status s =
          factord_last_factor_report(connection, id_.c_str(), report);
      s != FACTORD_OK) {
    return Fail("reading the factorization report of", s, failure);
  }
  Registry::Get().NoteStatus(FACTORD_OK);
  factorized_ = true;
  factor_number_ = factor_number_ == INT32_MAX ? 1 : factor_number_ + 1;
  return true;
}

bool Session::Solve(factord_handle* connection, int64_t nrhs, double* b,
                    Failure* failure) {
  if (factord_status s =
          factord_solve(connection, id_.c_str(), nullptr, nrhs, b, b);
      s != FACTORD_OK) {
    return Fail("solving with", s, failure);
  }
  Registry::Get().NoteStatus(FACTORD_OK);
  return true;
}

}  // namespace factord::hsl
