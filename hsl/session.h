// One analysis held by libhsl.so: the pattern of an ma57ad_ / ma27ad_
// call, the factord matrix that holds it (one ID), the values last sent,
// and the number of the latest factorization (the token ma57bd_ writes
// into IFACT and ma27bd_ into IW, so that a solve finds it). Calls on one
// session hold its mutex; sessions are made, found and released by the
// Registry (registry.h).
#ifndef FACTORD_HSL_SESSION_H_
#define FACTORD_HSL_SESSION_H_

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "factord/factord.h"
#include "hsl/triplets.h"

namespace factord::hsl {

// How ma57bd_ / ma27bd_ ask factord to factorize.
struct FactorSettings {
  double pivot_threshold = 0.01;  // in (0, 0.5]
  const char* ordering = "";      // "" the daemon's choice, "amd", "metis"
  const char* scaling = "";       // "" the daemon's choice, "matching"
};

// A failed call to factord: the C API's code and a one-line message.
struct Failure {
  factord_status status = FACTORD_OK;
  std::string message;
};

class Session {
 public:
  Session(uint64_t serial, std::string id, Triplets triplets);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  uint64_t serial() const { return serial_; }
  const std::string& id() const { return id_; }
  const Triplets& triplets() const { return triplets_; }
  int n() const { return triplets_.n; }

  // Held by every call that uses the session (and by its release).
  std::mutex& mutex() { return mutex_; }
  // Under mutex(): the Registry dropped the session; its factorization is
  // gone and it must not be used.
  bool released() const { return released_; }
  void MarkReleased() { released_ = true; }

  // Under mutex(): sends the pattern (values zero) unless the daemon holds
  // it already.
  bool Upload(factord_handle* connection, Failure* failure);
  // Under mutex(): sends the caller's values `a` (triplets().entries of
  // them) when they differ from those held, factorizes with `settings`
  // and fills *report. The factorization number advances on success.
  bool Factorize(factord_handle* connection, const double* a,
                 const FactorSettings& settings, factord_factor_report* report,
                 Failure* failure);
  // Under mutex(): solves in place for nrhs right-hand sides (n x nrhs,
  // column-major) with the latest factorization.
  bool Solve(factord_handle* connection, int64_t nrhs, double* b,
             Failure* failure);

  bool uploaded() const { return uploaded_; }
  bool factorized() const { return factorized_; }
  // 1, 2, ... per successful factorization, 31 bits (wraps).
  int32_t factor_number() const { return factor_number_; }

 private:
  bool Fail(const char* what, factord_status status, Failure* failure) const;

  const uint64_t serial_;
  const std::string id_;
  const Triplets triplets_;
  std::mutex mutex_;
  bool released_ = false;
  bool uploaded_ = false;
  bool factorized_ = false;
  int32_t factor_number_ = 0;
  std::vector<double> sent_values_;  // kept-entry values the daemon holds
  bool values_known_ = false;
  std::vector<double> gathered_;  // scratch of KeptValues
};

}  // namespace factord::hsl

#endif  // FACTORD_HSL_SESSION_H_
