// What a PARDISO handle `pt` holds in libpardiso.so (docs/pardiso.md): the
// connection to factord (through the C API, with transparent re-upload),
// the pattern of the last phase 11, and per matrix number mnum the factord
// matrix that holds it. The phases map to C API calls:
//   11  sends pattern and values (factord_upload) only when the pattern
//       differs from the one the daemon holds; an unchanged pattern costs
//       nothing, and the daemon's cached analysis is reused.
//   22  factord_step without right-hand sides: the values when they changed,
//       then a factorization reusing the analysis.
//   23  the same step with the right-hand sides (one round trip).
//   33  factord_solve.
//   0   releases matrix mnum; -1 releases all and closes the connection.
#ifndef FACTORD_PARDISO_PARDISO_SOLVER_H_
#define FACTORD_PARDISO_PARDISO_SOLVER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "factord/factord.h"

namespace factord::pardiso {

// One call of pardiso(), its pointers checked for NULL where every phase
// needs them (maxfct, mnum, mtype, phase, n, iparm, msglvl).
struct Call {
  int maxfct = 1;
  int mnum = 1;
  int mtype = 0;
  int phase = 0;
  int n = 0;
  const double* a = nullptr;
  const int* ia = nullptr;
  const int* ja = nullptr;
  int nrhs = 0;
  int* iparm = nullptr;  // 64 entries; IPARM(k) is iparm[k - 1]
  int msglvl = 0;
  double* b = nullptr;
  double* x = nullptr;
};

class PardisoSolver {
 public:
  // The value of pt[1] that marks pt[0] as a PardisoSolver.
  static constexpr uintptr_t kMagic = 0x66616374'6f726470;  // "factordp"

  PardisoSolver();
  ~PardisoSolver();  // releases every matrix, closes the connection
  PardisoSolver(const PardisoSolver&) = delete;
  PardisoSolver& operator=(const PardisoSolver&) = delete;

  // Runs one phase (not -1, which is deleting the solver); returns the
  // PARDISO error code, having printed a line on stderr when it is not 0.
  int Run(const Call& call);

  int64_t uploads() const { return uploads_; }
  // The factord ID of matrix mnum, "" when it has none yet.
  std::string MatrixId(int mnum) const;

 private:
  struct Factor {
    std::string id;
    uint64_t pattern_version = 0;     // of the pattern the daemon holds
    std::vector<double> sent_values;  // the values it holds (caller order)
    bool values_known = false;        // sent_values are what it holds
    bool factorized = false;
    double pivot_threshold = 0;  // 0: the daemon's (or the environment's)
    bool perturbed = false;      // the last factorization perturbed pivots
  };

  int Analyze(const Call& c);
  int Factorize(const Call& c, bool solve);
  int Solve(const Call& c);
  int Release(int mnum);

  int Connect(const Call& c);
  int Upload(const Call& c, Factor& f);
  Factor& FactorOf(int mnum);
  bool SamePattern(const int* ia, const int* ja) const;
  // The most refinement steps (iterations) among the last solve's nrhs
  // right-hand sides of matrix `id`, and their worst backward error.
  int RefinementSteps(const std::string& id, int nrhs,
                      double* worst_backward_error) const;
  // ", k not converged (worst: ...)" for the last solve of matrix `id`
  // when some of its nrhs right-hand sides did not converge, else "".
  std::string UnconvergedNote(const std::string& id, int nrhs) const;
  // The ldlt pivot threshold to ask for matrix f (0: the daemon's).
  double PivotThreshold(const Factor& f) const;
  int64_t nnz() const { return ia_.empty() ? 0 : ia_[n_] - 1; }

  // Records a failure: prints "factord pardiso: phase P: error E: text" on
  // stderr and returns E.
  int Fail(const Call& c, int error, const std::string& text) const;
  // The PARDISO code of the C API's last failure on this thread (-2 for a
  // refused budget, -1 for input the daemon refused, else -5), reported by
  // Fail with `what`; notes whether the daemon was unreachable.
  int FailFromLastError(const Call& c, factord_status status,
                        const std::string& what);
  // Where matrix `id` is held, for the msglvl lines: "in process" or
  // "daemon ADDRESS".
  std::string Location(const std::string& id) const;
  // msglvl > 0: one line per phase on stdout.
  void Print(const Call& c, const std::string& text, double seconds) const;

  factord_handle* connection_ = nullptr;
  std::string id_prefix_;
  // The pattern of the last phase 11 (1-based, as given).
  bool analyzed_ = false;
  int mtype_ = 0;
  int n_ = 0;
  std::vector<int> ia_, ja_;
  uint64_t pattern_version_ = 0;
  double base_pivot_threshold_ = 0;  // $FACTORD_PARDISO_PIVOT_THRESHOLD
  std::map<int, Factor> factors_;    // by mnum
  int64_t uploads_ = 0;
  // The last call to the daemon failed UNAVAILABLE or DEADLINE_EXCEEDED.
  bool daemon_unreachable_ = false;
};

}  // namespace factord::pardiso

#endif  // FACTORD_PARDISO_PARDISO_SOLVER_H_
