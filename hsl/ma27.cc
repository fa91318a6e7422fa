// The MA27 entry points of libhsl.so (factord_hsl.h, docs/hsl.md) with
// their argument checks. What lives where:
//   IKEEP  the analysis tag (3 integers; 3N >= 3 always);
//   IW     the token of the factorization (kFactorTokenSize integers),
//          which ma27cd_ reads: it receives neither IKEEP nor the pattern;
//   A      the caller's values, read and left as they are;
//   factord the matrix and its LDL^T factor, under the session's ID.
// ma27bd_ receives the pattern again, so a session released by the
// registry (or never made: ma27ad_ could not reach factord) is made again
// from IRN/ICN. No C++ exception leaves these functions.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <string>

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

constexpr int kInfoSize = 20;

int& Info(int* info, int k) { return info[k - 1]; }

int ClampToInt(int64_t value) {
  return static_cast<int>(std::min<int64_t>(value, INT_MAX));
}

int Failed(const char* routine, int* info, const Failure& failure) {
  Info(info, 2) = static_cast<int>(failure.status);
  return Refuse(routine, kMa27FactordFailure, failure.message);
}

int CheckSizes(const char* routine, int n, int nz, const int* irn,
               const int* icn, int* info) {
  if (n < 1) {
    Info(info, 2) = n;
    return Refuse(routine, kMa27BadN,
                  absl::StrCat("N = ", n, ": must be at least 1"));
  }
  if (nz < 0 || (nz > 0 && (irn == nullptr || icn == nullptr))) {
    Info(info, 2) = nz;
    return Refuse(routine, kMa27BadNz,
                  nz < 0 ? absl::StrCat("NZ = ", nz, ": must be at least 0")
                         : std::string("IRN or ICN is NULL"));
  }
  return kMa27Ok;
}

int Analyse(int n, int nz, const int* irn, const int* icn, int* ikeep,
            int* nsteps, int* info) {
  if (int e = CheckSizes("ma27ad", n, nz, irn, icn, info); e != kMa27Ok) {
    return e;
  }
  if (ikeep == nullptr || nsteps == nullptr) {
    Info(info, 2) = n;
    return Refuse("ma27ad", kMa27BadN, "IKEEP or NSTEPS is NULL");
  }
  *nsteps = 1;
  Info(info, 5) = std::max(nz, 1);   // NRLNEC: LA holds the values
  Info(info, 6) = kFactorTokenSize;  // NIRNEC: IW holds the token
  Triplets triplets = ReadTriplets(n, nz, irn, icn);
  const int64_t outside = triplets.out_of_range;
  const int64_t first = triplets.first_outside;
  WriteAnalysisTag(kMa27IkeepMarker, 0, ikeep);

  Failure failure;
  factord_handle* connection = Registry::Get().Connection(&failure);
  if (connection == nullptr) return Failed("ma27ad", info, failure);
  std::shared_ptr<Session> session =
      Registry::Get().Create(ikeep, std::move(triplets));
  {
    std::lock_guard<std::mutex> lock(session->mutex());
    if (!session->Upload(connection, &failure)) {
      return Failed("ma27ad", info, failure);
    }
  }
  WriteAnalysisTag(kMa27IkeepMarker, session->serial(), ikeep);
  if (Registry::Get().verbose()) {
    Trace("ma27ad",
          absl::StrCat("n ", n, ", ", nz, " entries (", outside,
                       " outside): pattern sent as '", session->id(), "'"));
  }
  if (outside > 0) {
    Info(info, 2) = ClampToInt(outside);
    Warn("ma27ad", kMa27OutOfRange,
         absl::StrCat(outside, " entries outside 1..N = ", n,
                      " ignored (INFO(2)); the first is entry ", first + 1,
                      ": IRN = ", irn[first], ", ICN = ", icn[first]));
    return kMa27OutOfRange;
  }
  return kMa27Ok;
}

// The session of the analysis in IKEEP if it holds this pattern, else a
// new one for it.
std::shared_ptr<Session> SessionOfIkeep(int* ikeep, int n, int nz,
                                        const int* irn, const int* icn) {
  const uint64_t serial = ReadAnalysisTag(kMa27IkeepMarker, ikeep);
  std::shared_ptr<Session> session = Registry::Get().Find(ikeep, serial);
  if (session != nullptr) {
    const Triplets& t = session->triplets();
    if (t.n == n && t.entries == nz && SamePairs(t, irn, icn)) return session;
  }
  session = Registry::Get().Create(ikeep, ReadTriplets(n, nz, irn, icn));
  WriteAnalysisTag(kMa27IkeepMarker, session->serial(), ikeep);
  return session;
}

int Factorize(int n, int nz, const int* irn, const int* icn, const double* a,
              int la, int* iw, int liw, int* ikeep, int* maxfrt,
              const double* cntl, int* info) {
  if (int e = CheckSizes("ma27bd", n, nz, irn, icn, info); e != kMa27Ok) {
    return e;
  }
  if (ikeep == nullptr || maxfrt == nullptr) {
    Info(info, 2) = n;
    return Refuse("ma27bd", kMa27BadN, "IKEEP or MAXFRT is NULL");
  }
  if (a == nullptr || la < nz) {
    Info(info, 2) = nz;
    return Refuse(
        "ma27bd", kMa27ATooSmall,
        absl::StrCat("LA = ", la, " < NZ = ", nz, " (A must hold the values)"));
  }
  if (iw == nullptr || liw < kFactorTokenSize) {
    // MA27's code for too little integer space, with the size that
    // suffices (fixed): a caller that grows IW succeeds next time.
    Info(info, 2) = kFactorTokenSize;
    return Refuse("ma27bd", kMa27IwTooSmall,
                  absl::StrCat("LIW = ", liw, " < ", kFactorTokenSize,
                               " (INFO(6) of ma27ad_)"));
  }
  FactorSettings settings;
  settings.pivot_threshold =
      PivotThreshold("ma27bd", cntl != nullptr ? cntl[0] : 0.1);

  Failure failure;
  factord_handle* connection = Registry::Get().Connection(&failure);
  if (connection == nullptr) return Failed("ma27bd", info, failure);
  factord_factor_report report;
  for (;;) {
    std::shared_ptr<Session> session = SessionOfIkeep(ikeep, n, nz, irn, icn);
    std::lock_guard<std::mutex> lock(session->mutex());
    if (session->released()) continue;  // released meanwhile: make another
    if (!session->Factorize(connection, a, settings, &report, &failure)) {
      return Failed("ma27bd", info, failure);
    }
    FactorToken token;
    token.serial = session->serial();
    token.factor_number = session->factor_number();
    token.n = n;
    WriteFactorToken(kMa27IwMarker, token, iw);
    *maxfrt = 1;  // W of ma27cd_ is not used
    const FactorOutcome outcome = OutcomeOf(report, n);
    Info(info, 9) = ClampToInt(report.nnz_factor);
    Info(info, 14) = ClampToInt(report.two_by_two_pivots);
    Info(info, 15) = ClampToInt(outcome.negative);
    if (outcome.singular) Info(info, 2) = ClampToInt(outcome.rank);
    if (Registry::Get().verbose()) {
      Trace("ma27bd",
            absl::StrFormat(
                "'%s' #%d: u %g, inertia (+%d -%d 0:%d)%s, perturbed %d, "
                "rank %d%s; %s: factorize %.3f ms",
                session->id(), token.factor_number, settings.pivot_threshold,
                report.positive, report.negative, report.zero,
                report.inertia_reliable ? "" : " unreliable",
                report.perturbed_pivots, outcome.rank,
                outcome.singular ? ": IFLAG = 3" : "",
                Location(connection, session->id()), 1e3 * report.factorize_s));
    }
    return outcome.singular ? kMa27Singular : kMa27Ok;
  }
}

// Solves one right-hand side in place; returns "" or what went wrong.
std::string Solve(int n, const int* iw, int liw, double* rhs) {
  if (n < 1) return absl::StrCat("N = ", n, ": must be at least 1");
  if (rhs == nullptr) return "RHS is NULL";
  FactorToken token;
  if (iw == nullptr || liw < kFactorTokenSize ||
      !ReadFactorToken(kMa27IwMarker, iw, &token)) {
    return "IW holds no factorization of this library: call ma27bd_ first";
  }
  if (token.n != n) {
    return absl::StrCat("N = ", n, " differs from the factorization's ",
                        token.n);
  }
  Failure failure;
  factord_handle* connection = Registry::Get().Connection(&failure);
  if (connection == nullptr) return failure.message;
  std::shared_ptr<Session> session = Registry::Get().FindSerial(token.serial);
  if (session == nullptr) {
    return "the analysis of this factorization is no longer held: analysed "
           "again, or released as the least recently used "
           "(FACTORD_HSL_MAX_MATRICES)";
  }
  std::lock_guard<std::mutex> lock(session->mutex());
  if (session->released() || !session->factorized() ||
      session->factor_number() != token.factor_number) {
    return absl::StrCat("IW holds factorization #", token.factor_number,
                        " of '", session->id(),
                        "', which factord no longer holds (its latest is #",
                        session->factor_number(), "): call ma27bd_ again");
  }
  if (!session->Solve(connection, 1, rhs, &failure)) return failure.message;
  if (Registry::Get().verbose()) {
    Trace("ma27cd", absl::StrCat("'", session->id(), "' #", token.factor_number,
                                 ": solved"));
  }
  return "";
}

}  // namespace
}  // namespace factord::hsl

extern "C" {

using factord::hsl::Refuse;

FACTORD_HSL_EXPORT void ma27id_(int* icntl, double* cntl) {
  // MA27's documented defaults (libhsl reads CNTL(1) only).
  if (icntl != nullptr) {
    std::fill(icntl, icntl + 30, 0);
    icntl[0] = 6;  // error stream
    icntl[1] = 6;  // diagnostic stream
    icntl[2] = 0;  // print level
  }
  if (cntl != nullptr) {
    cntl[0] = 0.1;  // threshold pivoting u
    cntl[1] = 1.0;  // fraction of a row that makes it dense (ordering)
    cntl[2] = 0.0;  // zero-pivot tolerance
    cntl[3] = 0.0;
    cntl[4] = 0.0;
  }
}

FACTORD_HSL_EXPORT void ma27ad_(int* n, int* nz, const int* irn, const int* icn,
                                int* iw, int* liw, int* ikeep, int* iw1,
                                int* nsteps, int* iflag, int* icntl,
                                double* cntl, int* info, double* ops) {
  using namespace factord::hsl;
  (void)iw;
  (void)liw;
  (void)iw1;
  (void)iflag;  // 1 (a pivot order in IKEEP) is not taken: factord orders
  (void)icntl;
  (void)cntl;
  if (info == nullptr) {
    Refuse("ma27ad", kMa27BadN, "INFO is NULL");
    return;
  }
  std::fill(info, info + kInfoSize, 0);
  if (ops != nullptr) *ops = 0;
  info[0] = Guarded(kMa27FactordFailure, "ma27ad", [&] {
    return Analyse(n != nullptr ? *n : 0, nz != nullptr ? *nz : -1, irn, icn,
                   ikeep, nsteps, info);
  });
}

FACTORD_HSL_EXPORT void ma27bd_(int* n, int* nz, const int* irn, const int* icn,
                                double* a, int* la, int* iw, int* liw,
                                int* ikeep, int* nsteps, int* maxfrt, int* iw1,
                                int* icntl, double* cntl, int* info) {
  using namespace factord::hsl;
  (void)nsteps;
  (void)iw1;
  (void)icntl;
  if (info == nullptr) {
    Refuse("ma27bd", kMa27BadN, "INFO is NULL");
    return;
  }
  std::fill(info, info + kInfoSize, 0);
  info[0] = Guarded(kMa27FactordFailure, "ma27bd", [&] {
    return Factorize(n != nullptr ? *n : 0, nz != nullptr ? *nz : -1, irn, icn,
                     a, la != nullptr ? *la : 0, iw, liw != nullptr ? *liw : 0,
                     ikeep, maxfrt, cntl, info);
  });
}

FACTORD_HSL_EXPORT void ma27cd_(int* n, double* a, int* la, int* iw, int* liw,
                                double* w, int* maxfrt, double* rhs, int* iw1,
                                int* nsteps, int* icntl, double* cntl) {
  using namespace factord::hsl;
  (void)a;
  (void)la;
  (void)w;
  (void)maxfrt;
  (void)iw1;
  (void)nsteps;
  (void)icntl;
  (void)cntl;
  const int order = n != nullptr ? *n : 0;
  std::string failure;
  try {
    failure = Solve(order, iw, liw != nullptr ? *liw : 0, rhs);
  } catch (const std::bad_alloc&) {
    failure = "out of memory";
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (...) {
    failure = "unknown exception";
  }
  if (failure.empty()) return;
  // MA27CD has no status argument: the NaN is what the caller sees.
  std::fprintf(stderr,
               "factord hsl: ma27cd: solve failed, solution set to NaN: %s\n",
               failure.c_str());
  if (rhs != nullptr && order > 0) {
    std::fill(rhs, rhs + order, std::numeric_limits<double>::quiet_NaN());
  }
}

}  // extern "C"
