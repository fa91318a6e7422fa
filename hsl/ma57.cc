// The MA57 entry points of libhsl.so (factord_hsl.h, docs/hsl.md) with
// their argument checks. What lives where:
//   KEEP   the analysis tag, N, NE and the caller's IRN/JCN (so that
//          ma57bd_ can upload the pattern again when its session was
//          released), within MA57's own LKEEP rule;
//   IFACT  the token of the factorization (kFactorTokenSize integers);
//   FACT   nothing (INFO(9) = 1);
//   factord the matrix and its LDL^T factor, under the session's ID.
// No C++ exception leaves these functions: an allocation failure is the
// factord-failure code -14 like any other failure to reach the factor.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hsl/factor_outcome.h"
#include "hsl/factord_hsl.h"
#include "hsl/messages.h"
#include "hsl/registry.h"
#include "hsl/session.h"
#include "hsl/token.h"
#include "hsl/triplets.h"

namespace factord::hsl {
namespace {

constexpr int kInfoSize = 40;
constexpr int kRinfoSize = 20;
constexpr int kKeepHeader = 8;  // analysis tag, N, NE, reserved
constexpr int kFactLength = 1;  // INFO(9): FACT holds nothing

int& Info(int* info, int k) { return info[k - 1]; }
int Icntl(const int* icntl, int k, int fallback) {
  return icntl != nullptr ? icntl[k - 1] : fallback;
}

int ClampToInt(int64_t value) {
  return static_cast<int>(std::min<int64_t>(value, INT_MAX));
}

// MA57's rule for LKEEP; the pattern needs 2 NE + kKeepHeader of it.
int64_t KeepNeeded(int64_t n, int64_t ne) {
  return 5 * n + ne + std::max(n, ne) + 42;
}

void Clear(int* info, double* rinfo) {
  std::fill(info, info + kInfoSize, 0);
  if (rinfo != nullptr) std::fill(rinfo, rinfo + kRinfoSize, 0.0);
}

// ICNTL(6): 0, 2, 3 (AMD / minimum degree) -> amd, 4 -> metis, 5 and the
// rest (1: a user order, which factord does not take) -> the daemon's
// choice.
const char* OrderingOf(int icntl6) {
  switch (icntl6) {
    case 0:
    case 2:
    case 3:
      return "amd";
    case 4:
      return "metis";
    default:
      return "";
  }
}

int Failed(const char* routine, int* info, const Failure& failure) {
  Info(info, 2) = static_cast<int>(failure.status);
  return Refuse(routine, kMa57FactordFailure, failure.message);
}

int Analyse(int n, int ne, const int* irn, const int* jcn, int lkeep, int* keep,
            const int* icntl, int* info) {
  Info(info, 9) = Info(info, 11) = kFactLength;
  Info(info, 10) = Info(info, 12) = kFactorTokenSize;
  if (n < 1) {
    Info(info, 2) = n;
    return Refuse("ma57ad", kMa57BadN,
                  absl::StrCat("N = ", n, ": must be at least 1"));
  }
  if (ne < 0 || (ne > 0 && (irn == nullptr || jcn == nullptr))) {
    Info(info, 2) = ne;
    return Refuse("ma57ad", kMa57BadNe,
                  ne < 0 ? absl::StrCat("NE = ", ne, ": must be at least 0")
                         : std::string("IRN or JCN is NULL"));
  }
  const int64_t needed = KeepNeeded(n, ne);
  if (keep == nullptr || lkeep < needed) {
    Info(info, 2) = lkeep;
    return Refuse("ma57ad", kMa57KeepTooSmall,
                  absl::StrCat("LKEEP = ", lkeep,
                               " < 5N + NE + max(N, NE) + 42 = ", needed));
  }
  Triplets triplets = ReadTriplets(n, ne, irn, jcn);
  const int64_t outside = triplets.out_of_range;
  const int64_t duplicates = triplets.duplicates;
  const int64_t first = triplets.first_outside;
  keep[3] = n;
  keep[4] = ne;
  std::fill(keep + 5, keep + kKeepHeader, 0);
  std::copy(irn, irn + ne, keep + kKeepHeader);
  std::copy(jcn, jcn + ne, keep + kKeepHeader + ne);
  WriteAnalysisTag(kMa57KeepMarker, 0, keep);  // no session until uploaded

  Failure failure;
  factord_handle* connection = Registry::Get().Connection(&failure);
  if (connection == nullptr) return Failed("ma57ad", info, failure);
  std::shared_ptr<Session> session =
      Registry::Get().Create(keep, std::move(triplets));
  {
    std::lock_guard<std::mutex> lock(session->mutex());
    if (!session->Upload(connection, &failure)) {
      return Failed("ma57ad", info, failure);
    }
  }
  WriteAnalysisTag(kMa57KeepMarker, session->serial(), keep);

  Info(info, 3) = ClampToInt(outside);
  Info(info, 4) = ClampToInt(duplicates);
  int code = kMa57Ok;
  if (outside > 0) {
    code += kMa57OutOfRange;
    Warn("ma57ad", kMa57OutOfRange,
         absl::StrCat(outside, " entries outside 1..N = ", n,
                      " ignored (INFO(3)); the first is entry ", first + 1,
                      ": IRN = ", irn[first], ", JCN = ", jcn[first]));
  }
  if (duplicates > 0) {
    code += kMa57Duplicates;
    // MA57 prints warnings at ICNTL(5) >= 2; Ipopt, whose matrices always
    // repeat diagonal entries, sets 0.
    if (Icntl(icntl, 5, 2) >= 2) {
      Warn("ma57ad", kMa57Duplicates,
           absl::StrCat(duplicates, " duplicate entries, to be summed"));
    }
  }
  if (Registry::Get().verbose()) {
    Trace("ma57ad",
          absl::StrCat("n ", n, ", ", ne, " entries (", outside, " outside, ",
                       duplicates, " duplicates): pattern sent as '",
                       session->id(), "'"));
  }
  return code;
}

// The session of the analysis in KEEP; one is made again from KEEP's
// pattern when the registry released it.
std::shared_ptr<Session> SessionOfKeep(int* keep, int n, int ne) {
  const uint64_t serial = ReadAnalysisTag(kMa57KeepMarker, keep);
  std::shared_ptr<Session> session = Registry::Get().Find(keep, serial);
  if (session == nullptr) {
    session = Registry::Get().Create(
        keep, ReadTriplets(n, ne, keep + kKeepHeader, keep + kKeepHeader + ne));
    WriteAnalysisTag(kMa57KeepMarker, session->serial(), keep);
  }
  return session;
}

int Factorize(int n, int ne, const double* a, int lifact, int* ifact, int lkeep,
              int* keep, const int* icntl, const double* cntl, int* info) {
  if (n < 1) {
    Info(info, 2) = n;
    return Refuse("ma57bd", kMa57BadN,
                  absl::StrCat("N = ", n, ": must be at least 1"));
  }
  if (ne < 0) {
    Info(info, 2) = ne;
    return Refuse("ma57bd", kMa57BadNe,
                  absl::StrCat("NE = ", ne, ": must be at least 0"));
  }
  const int64_t needed = KeepNeeded(n, ne);
  if (keep == nullptr || lkeep < needed) {
    Info(info, 2) = lkeep;
    return Refuse("ma57bd", kMa57KeepTooSmall,
                  absl::StrCat("LKEEP = ", lkeep,
                               " < 5N + NE + max(N, NE) + 42 = ", needed));
  }
  if (keep[0] != kMa57KeepMarker) {
    Info(info, 2) = lkeep;
    return Refuse("ma57bd", kMa57KeepTooSmall,
                  "KEEP holds no analysis of this library: call ma57ad_ "
                  "with it first");
  }
  if (keep[3] != n) {
    Info(info, 2) = n;
    return Refuse(
        "ma57bd", kMa57BadN,
        absl::StrCat("N = ", n, " differs from ma57ad_'s N = ", keep[3]));
  }
  if (keep[4] != ne) {
    Info(info, 2) = ne;
    return Refuse(
        "ma57bd", kMa57BadNe,
        absl::StrCat("NE = ", ne, " differs from ma57ad_'s NE = ", keep[4]));
  }
  if (ne > 0 && a == nullptr) {
    Info(info, 2) = ne;
    return Refuse("ma57bd", kMa57BadNe, "A is NULL");
  }
  const int pivoting = Icntl(icntl, 7, 1);
  if (pivoting < 1 || pivoting > 4) {
    Info(info, 2) = pivoting;
    return Refuse("ma57bd", kMa57BadIcntl7,
                  absl::StrCat("ICNTL(7) = ", pivoting, " is not 1..4"));
  }
  if (ifact == nullptr || lifact < kFactorTokenSize) {
    // MA57's code for too little integer space, with the size that
    // suffices: a fixed one, so a caller that grows IFACT (as MA57's
    // protocol says) succeeds on the next call.
    Info(info, 2) = lifact;
    Info(info, 18) = kFactorTokenSize;
    return Refuse("ma57bd", kMa57IfactTooSmall,
                  absl::StrCat("LIFACT = ", lifact, " < ", kFactorTokenSize,
                               " (INFO(10) of ma57ad_)"));
  }
  FactorSettings settings;
  settings.pivot_threshold =
      PivotThreshold("ma57bd", cntl != nullptr ? cntl[0] : 0.01);
  settings.ordering = OrderingOf(Icntl(icntl, 6, 5));
  settings.scaling = Icntl(icntl, 15, 1) == 1 ? "matching" : "";

  Failure failure;
  factord_handle* connection = Registry::Get().Connection(&failure);
  if (connection == nullptr) return Failed("ma57bd", info, failure);
  factord_factor_report report;
  for (;;) {
    std::shared_ptr<Session> session = SessionOfKeep(keep, n, ne);
    std::lock_guard<std::mutex> lock(session->mutex());
    if (session->released()) continue;  // released meanwhile: make another
    if (!session->Factorize(connection, a, settings, &report, &failure)) {
      return Failed("ma57bd", info, failure);
    }
    FactorToken token;
    token.serial = session->serial();
    token.factor_number = session->factor_number();
    token.n = n;
    WriteFactorToken(kMa57IfactMarker, token, ifact);
    const FactorOutcome outcome = OutcomeOf(report, n);
    Info(info, 14) = ClampToInt(report.nnz_factor);
    Info(info, 24) = ClampToInt(outcome.negative);
    Info(info, 25) = ClampToInt(outcome.rank);
    if (Registry::Get().verbose()) {
      Trace("ma57bd",
            absl::StrFormat(
                "'%s' #%d: u %g, inertia (+%d -%d 0:%d)%s, perturbed %d, "
                "rank %d%s; %s: factorize %.3f ms",
                session->id(), token.factor_number, settings.pivot_threshold,
                report.positive, report.negative, report.zero,
                report.inertia_reliable ? "" : " unreliable",
                report.perturbed_pivots, outcome.rank,
                outcome.singular ? ": INFO(1) = 4" : "",
                Location(connection, session->id()), 1e3 * report.factorize_s));
    }
    return outcome.singular ? kMa57Singular : kMa57Ok;
  }
}

int Solve(int job, int n, int lifact, const int* ifact, int nrhs, double* rhs,
          int lrhs, int lwork, int* info) {
  if (job != 1) {
    Info(info, 2) = job;
    return Refuse("ma57cd", kMa57BadJob,
                  absl::StrCat("JOB = ", job,
                               ": only 1 (solve with A) is offered; the "
                               "partial solves 2..4 need the factor's "
                               "parts, which stay in factord"));
  }
  if (n < 1) {
    Info(info, 2) = n;
    return Refuse("ma57cd", kMa57BadN,
                  absl::StrCat("N = ", n, ": must be at least 1"));
  }
  if (nrhs < 1) {
    Info(info, 2) = nrhs;
    return Refuse("ma57cd", kMa57BadNrhs,
                  absl::StrCat("NRHS = ", nrhs, ": must be at least 1"));
  }
  if (lrhs < n || rhs == nullptr) {
    Info(info, 2) = lrhs;
    return Refuse("ma57cd", kMa57BadLrhs,
                  absl::StrCat("LRHS = ", lrhs, " < N = ", n));
  }
  const int64_t work_needed = int64_t{n} * nrhs;
  if (lwork < work_needed) {
    Info(info, 2) = ClampToInt(work_needed);
    return Refuse(
        "ma57cd", kMa57WorkTooSmall,
        absl::StrCat("LWORK = ", lwork, " < N * NRHS = ", work_needed));
  }
  FactorToken token;
  if (ifact == nullptr || lifact < kFactorTokenSize ||
      !ReadFactorToken(kMa57IfactMarker, ifact, &token)) {
    Info(info, 2) = lifact;
    return Refuse("ma57cd", kMa57FactordFailure,
                  "IFACT holds no factorization of this library: call "
                  "ma57bd_ first");
  }
  if (token.n != n) {
    Info(info, 2) = n;
    return Refuse(
        "ma57cd", kMa57BadN,
        absl::StrCat("N = ", n, " differs from the factorization's ", token.n));
  }
  Failure failure;
  factord_handle* connection = Registry::Get().Connection(&failure);
  if (connection == nullptr) return Failed("ma57cd", info, failure);
  std::shared_ptr<Session> session = Registry::Get().FindSerial(token.serial);
  if (session == nullptr) {
    return Refuse("ma57cd", kMa57FactordFailure,
                  "the analysis of this factorization is no longer held: "
                  "analysed again, or released as the least recently used "
                  "(FACTORD_HSL_MAX_MATRICES)");
  }
  std::lock_guard<std::mutex> lock(session->mutex());
  if (session->released() || !session->factorized() ||
      session->factor_number() != token.factor_number) {
    return Refuse(
        "ma57cd", kMa57FactordFailure,
        absl::StrCat("IFACT holds factorization #", token.factor_number,
                     " of '", session->id(),
                     "', which factord no longer holds (its latest is #",
                     session->factor_number(), "): call ma57bd_ again"));
  }
  std::vector<double> packed;
  double* b = rhs;
  if (lrhs > n) {  // factord takes n x nrhs contiguous columns
    packed.resize(work_needed);
    for (int k = 0; k < nrhs; ++k) {
      std::copy(rhs + int64_t{k} * lrhs, rhs + int64_t{k} * lrhs + n,
                packed.begin() + int64_t{k} * n);
    }
    b = packed.data();
  }
  if (!session->Solve(connection, nrhs, b, &failure)) {
    return Failed("ma57cd", info, failure);
  }
  if (b != rhs) {
    for (int k = 0; k < nrhs; ++k) {
      std::copy(b + int64_t{k} * n, b + int64_t{k} * n + n,
                rhs + int64_t{k} * lrhs);
    }
  }
  if (Registry::Get().verbose()) {
    Trace("ma57cd", absl::StrCat("'", session->id(), "' #", token.factor_number,
                                 ": ", nrhs, " right-hand sides solved"));
  }
  return kMa57Ok;
}

// Overwrites the right-hand sides with NaN when their sizes are sane:
// Ipopt does not read INFO(1) after a solve, and must not take the
// right-hand side for a solution.
void PoisonRhs(const int* n, const int* nrhs, const int* lrhs, double* rhs) {
  if (n == nullptr || nrhs == nullptr || lrhs == nullptr || rhs == nullptr ||
      *n < 1 || *nrhs < 1 || *lrhs < *n) {
    return;
  }
  for (int k = 0; k < *nrhs; ++k) {
    std::fill(rhs + int64_t{k} * *lrhs, rhs + int64_t{k} * *lrhs + *n,
              std::numeric_limits<double>::quiet_NaN());
  }
}

}  // namespace
}  // namespace factord::hsl

extern "C" {

using factord::hsl::Refuse;

FACTORD_HSL_EXPORT void ma57id_(double* cntl, int* icntl) {
  // MA57's documented defaults; libhsl reads CNTL(1), ICNTL(5), (6), (7)
  // and (15) (docs/hsl.md).
  if (cntl != nullptr) {
    cntl[0] = 0.01;   // threshold pivoting u
    cntl[1] = 1e-20;  // zero-pivot tolerance
    cntl[2] = 0.5;    // iterative refinement convergence (MA57DD)
    cntl[3] = 0.0;    // static pivoting off
    cntl[4] = 0.0;
  }
  if (icntl != nullptr) {
    std::fill(icntl, icntl + 20, 0);
    icntl[0] = 6;    // error stream
    icntl[1] = 6;    // warning stream
    icntl[2] = 6;    // monitoring stream
    icntl[3] = -1;   // statistics stream (none)
    icntl[4] = 2;    // print level: errors and warnings
    icntl[5] = 5;    // ordering: automatic choice
    icntl[6] = 1;    // threshold pivoting
    icntl[8] = 10;   // refinement steps (MA57DD)
    icntl[10] = 16;  // block size
    icntl[11] = 16;  // node amalgamation
    icntl[14] = 1;   // scaling on
  }
}

FACTORD_HSL_EXPORT void ma57ad_(int* n, int* ne, const int* irn, const int* jcn,
                                int* lkeep, int* keep, int* iwork, int* icntl,
                                int* info, double* rinfo) {
  using namespace factord::hsl;
  (void)iwork;
  if (info == nullptr) {
    Refuse("ma57ad", kMa57BadN, "INFO is NULL");
    return;
  }
  Clear(info, rinfo);
  info[0] = Guarded(kMa57FactordFailure, "ma57ad", [&] {
    return Analyse(n != nullptr ? *n : 0, ne != nullptr ? *ne : -1, irn, jcn,
                   lkeep != nullptr ? *lkeep : 0, keep, icntl, info);
  });
}

FACTORD_HSL_EXPORT void ma57bd_(int* n, int* ne, double* a, double* fact,
                                int* lfact, int* ifact, int* lifact, int* lkeep,
                                int* keep, int* iwork, int* icntl, double* cntl,
                                int* info, double* rinfo) {
  using namespace factord::hsl;
  (void)fact;
  (void)lfact;
  (void)iwork;
  if (info == nullptr) {
    Refuse("ma57bd", kMa57BadN, "INFO is NULL");
    return;
  }
  Clear(info, rinfo);
  info[0] = Guarded(kMa57FactordFailure, "ma57bd", [&] {
    return Factorize(n != nullptr ? *n : 0, ne != nullptr ? *ne : -1, a,
                     lifact != nullptr ? *lifact : 0, ifact,
                     lkeep != nullptr ? *lkeep : 0, keep, icntl, cntl, info);
  });
}

FACTORD_HSL_EXPORT void ma57cd_(int* job, int* n, double* fact, int* lfact,
                                int* ifact, int* lifact, int* nrhs, double* rhs,
                                int* lrhs, double* work, int* lwork, int* iwork,
                                int* icntl, int* info) {
  using namespace factord::hsl;
  (void)fact;
  (void)lfact;
  (void)work;
  (void)iwork;
  (void)icntl;
  if (info == nullptr) {
    Refuse("ma57cd", kMa57BadN, "INFO is NULL");
    PoisonRhs(n, nrhs, lrhs, rhs);
    return;
  }
  info[1] = 0;
  info[0] = Guarded(kMa57FactordFailure, "ma57cd", [&] {
    return Solve(job != nullptr ? *job : 0, n != nullptr ? *n : 0,
                 lifact != nullptr ? *lifact : 0, ifact,
                 nrhs != nullptr ? *nrhs : 0, rhs, lrhs != nullptr ? *lrhs : 0,
                 lwork != nullptr ? *lwork : 0, info);
  });
  if (info[0] < 0) PoisonRhs(n, nrhs, lrhs, rhs);
}

FACTORD_HSL_EXPORT void ma57ed_(int* n, int* ic, int* keep, double* fact,
                                int* lfact, double* newfac, int* lnew,
                                int* ifact, int* lifact, int* newifc,
                                int* linew, int* info) {
  using namespace factord::hsl;
  (void)n;
  (void)keep;
  if (info == nullptr || ic == nullptr) return;
  info[0] = kMa57Ok;
  if (*ic == 0) {  // FACT into NEWFAC
    if (lfact == nullptr || lnew == nullptr || *lnew < *lfact) {
      info[1] = lnew != nullptr ? *lnew : 0;
      info[0] = Refuse("ma57ed", kMa57NewArrayTooSmall,
                       "LNEW < LFACT (or either is NULL)");
      return;
    }
    if (*lfact > 0) std::copy(fact, fact + *lfact, newfac);
    return;
  }
  if (lifact == nullptr || linew == nullptr || *linew < *lifact) {  // IFACT
    info[1] = linew != nullptr ? *linew : 0;
    info[0] = Refuse("ma57ed", kMa57NewArrayTooSmall,
                     "LINEW < LIFACT (or either is NULL)");
    return;
  }
  if (*lifact > 0) std::copy(ifact, ifact + *lifact, newifc);
}

}  // extern "C"
