// The exported functions of libpardiso.so (factord_pardiso.h): the
// pardiso-project 4.x entry points with their argument checks, the handle
// kept in pt[0] (marked by pt[1]), and the library's diagnostics. No C++
// exception leaves them: an allocation failure is error -2, anything else
// -5.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "absl/strings/str_cat.h"
#include "pardiso/factord_pardiso.h"
#include "pardiso/pardiso_solver.h"
#include "pardiso/pattern_check.h"

namespace factord::pardiso {
namespace {

constexpr int kHandleSize = 64;  // pointers in pt

// pardiso-project's defaults of iparm for mtype, for what this library
// reads or reports: pardisoinit's, and a phase's when IPARM(1) = 0.
void FillDefaultIparm(int mtype, int* iparm) {
  std::fill(iparm, iparm + 64, 0);
  const bool symmetric = SymmetricType(mtype);
  iparm[0] = 1;                   // IPARM(1): iparm is filled
  iparm[1] = 2;                   // IPARM(2): METIS ordering
  iparm[2] = 1;                   // IPARM(3): threads (the daemon's own)
  iparm[9] = symmetric ? 8 : 13;  // IPARM(10): pivot perturbation 1e-k
  iparm[10] = symmetric ? 0 : 1;  // IPARM(11): scaling
  iparm[12] = symmetric ? 0 : 1;  // IPARM(13): matching
  iparm[20] = 1;                  // IPARM(21): 1x1 and 2x2 pivoting
}

int Refuse(const char* where, int error, const std::string& text) {
  std::fprintf(stderr, "factord pardiso: %s: error %d: %s\n", where, error,
               text.c_str());
  return error;
}

// The solver pt holds; nullptr when pt is zeroed. Sets *foreign when pt is
// neither zeroed nor ours.
PardisoSolver* SolverOf(void* pt, bool* foreign) {
  void** slots = static_cast<void**>(pt);
  *foreign = false;
  if (slots[0] == nullptr) return nullptr;
  if (reinterpret_cast<uintptr_t>(slots[1]) != PardisoSolver::kMagic) {
    *foreign = true;
    return nullptr;
  }
  return static_cast<PardisoSolver*>(slots[0]);
}

int Pardiso(void* pt, const int* maxfct, const int* mnum, const int* mtype,
            const int* phase, const int* n, const double* a, const int* ia,
            const int* ja, const int* nrhs, int* iparm, const int* msglvl,
            double* b, double* x) {
  if (pt == nullptr || phase == nullptr) {
    return Refuse("pardiso", kInputInconsistent, "pt or phase is NULL");
  }
  const std::string where = absl::StrCat("phase ", *phase);
  bool foreign = false;
  PardisoSolver* solver = SolverOf(pt, &foreign);
  if (foreign) {
    return Refuse(where.c_str(), kInputInconsistent,
                  "pt holds no handle of this library: zero it (pardisoinit) "
                  "before the first call");
  }
  if (*phase == -1) {  // release everything
    delete solver;
    std::memset(pt, 0, kHandleSize * sizeof(void*));
    return kNoError;
  }
  if (maxfct == nullptr || mnum == nullptr || mtype == nullptr ||
      n == nullptr || iparm == nullptr || msglvl == nullptr) {
    return Refuse(where.c_str(), kInputInconsistent,
                  "maxfct, mnum, mtype, n, iparm or msglvl is NULL");
  }
  if (*maxfct < 1 || *mnum < 1 || *mnum > *maxfct) {
    return Refuse(
        where.c_str(), kInputInconsistent,
        absl::StrCat("mnum = ", *mnum, " is outside 1..maxfct = ", *maxfct));
  }
  if (!SupportedMatrixType(*mtype)) {
    return Refuse(where.c_str(), kInputInconsistent,
                  absl::StrCat("matrix type ", *mtype,
                               " is not supported (only -2, 2, 1, 11: real)"));
  }
  if (iparm[0] == 0) {
    // IPARM(1) = 0: every entry but IPARM(3) takes its default (PARDISO's
    // rule), written back as pardisoinit writes them; IPARM(1) stays 0.
    const int threads = iparm[2];
    FillDefaultIparm(*mtype, iparm);
    iparm[0] = 0;
    iparm[2] = threads;
  }
  const bool analysis = *phase == 11 || *phase == 12 || *phase == 13;
  const bool factorizes = analysis || *phase == 22 || *phase == 23;
  const bool solves = *phase == 13 || *phase == 23 || *phase == 33;
  if (analysis && iparm[4] != 0) {
    return Refuse(where.c_str(), kInputInconsistent,
                  absl::StrCat("iparm(5) = ", iparm[4],
                               ": a user permutation is not supported"));
  }
  if (solves && iparm[11] != 0) {
    return Refuse(where.c_str(), kInputInconsistent,
                  absl::StrCat("iparm(12) = ", iparm[11],
                               ": transposed solves are not supported"));
  }
  if (iparm[31] != 0) {
    return Refuse(where.c_str(), kInputInconsistent,
                  "iparm(32) != 0: the iterative solver is not supported");
  }
  if (factorizes && iparm[32] != 0) {
    return Refuse(where.c_str(), kInputInconsistent,
                  absl::StrCat("iparm(33) = ", iparm[32],
                               ": the determinant is not computed (factord "
                               "reports the inertia, not det(A))"));
  }
  if (*phase == 0 && solver == nullptr) return kNoError;
  if (solver == nullptr) {
    solver = new PardisoSolver();
    void** slots = static_cast<void**>(pt);
    slots[0] = solver;
    slots[1] = reinterpret_cast<void*>(PardisoSolver::kMagic);
  }
  Call call;
  call.maxfct = *maxfct;
  call.mnum = *mnum;
  call.mtype = *mtype;
  call.phase = *phase;
  call.n = *n;
  call.a = a;
  call.ia = ia;
  call.ja = ja;
  call.nrhs = nrhs != nullptr ? *nrhs : 0;
  call.iparm = iparm;
  call.msglvl = *msglvl;
  call.b = b;
  call.x = x;
  return solver->Run(call);
}

}  // namespace
}  // namespace factord::pardiso

extern "C" {

using factord::pardiso::Refuse;

FACTORD_PARDISO_EXPORT void pardisoinit(void* pt, int* mtype, int* solver,
                                        int* iparm, double* dparm, int* error) {
  using namespace factord::pardiso;
  if (error == nullptr) {
    Refuse("pardisoinit", kInputInconsistent, "error is NULL");
    return;
  }
  if (pt == nullptr || mtype == nullptr || iparm == nullptr) {
    *error =
        Refuse("pardisoinit", kInputInconsistent, "pt, mtype or iparm is NULL");
    return;
  }
  std::memset(pt, 0, kHandleSize * sizeof(void*));
  FillDefaultIparm(*mtype, iparm);
  if (dparm != nullptr) std::fill(dparm, dparm + 64, 0.0);
  *error = kNoError;
  if (!SupportedMatrixType(*mtype)) {
    *error = Refuse("pardisoinit", kInputInconsistent,
                    absl::StrCat("matrix type ", *mtype,
                                 " is not supported (only -2, 2, 1, 11)"));
  } else if (solver != nullptr && *solver != 0) {
    *error = Refuse("pardisoinit", kInputInconsistent,
                    absl::StrCat("solver = ", *solver,
                                 ": only the direct solver (0) is offered"));
  }
}

FACTORD_PARDISO_EXPORT void pardiso(void* pt, int* maxfct, int* mnum,
                                    int* mtype, int* phase, int* n, double* a,
                                    int* ia, int* ja, int* perm, int* nrhs,
                                    int* iparm, int* msglvl, double* b,
                                    double* x, int* error, double* dparm) {
  using namespace factord::pardiso;
  (void)perm;   // no user permutation (iparm(5) = 0 is required)
  (void)dparm;  // only the iterative solver reads it
  if (error == nullptr) {
    Refuse("pardiso", kInputInconsistent, "error is NULL");
    return;
  }
  try {
    *error = Pardiso(pt, maxfct, mnum, mtype, phase, n, a, ia, ja, nrhs, iparm,
                     msglvl, b, x);
  } catch (const std::bad_alloc&) {
    *error = Refuse("pardiso", kNotEnoughMemory, "out of memory");
  } catch (const std::exception& e) {
    *error = Refuse("pardiso", kUnclassified, e.what());
  } catch (...) {
    *error = Refuse("pardiso", kUnclassified, "unknown exception");
  }
}

FACTORD_PARDISO_EXPORT void pardiso_chkmatrix(int* mtype, int* n, double* a,
                                              int* ia, int* ja, int* error) {
  using namespace factord::pardiso;
  if (error == nullptr) return;
  try {
    if (mtype == nullptr || n == nullptr || a == nullptr) {
      *error = Refuse("pardiso_chkmatrix", kInputInconsistent,
                      "mtype, n or a is NULL");
    } else if (!SupportedMatrixType(*mtype)) {
      *error = Refuse("pardiso_chkmatrix", kInputInconsistent,
                      absl::StrCat("matrix type ", *mtype,
                                   " is not supported (only -2, 2, 1, 11)"));
    } else if (std::string bad = CheckPattern(*mtype, *n, ia, ja);
               !bad.empty()) {
      *error = Refuse("pardiso_chkmatrix", kInputInconsistent, bad);
    } else {
      *error = kNoError;
    }
  } catch (...) {
    *error = Refuse("pardiso_chkmatrix", kNotEnoughMemory, "out of memory");
  }
}

FACTORD_PARDISO_EXPORT void pardiso_chkvec(int* n, int* nrhs, double* b,
                                           int* error) {
  using namespace factord::pardiso;
  if (error == nullptr) return;
  if (n == nullptr || nrhs == nullptr || b == nullptr || *n <= 0 ||
      *nrhs <= 0) {
    *error = Refuse("pardiso_chkvec", kInputInconsistent,
                    "n and nrhs must be positive and b not NULL");
    return;
  }
  const int64_t count = int64_t{*n} * *nrhs;
  for (int64_t i = 0; i < count; ++i) {
    if (!std::isfinite(b[i])) {
      *error = Refuse(
          "pardiso_chkvec", kInputInconsistent,
          absl::StrCat("b(", i % *n + 1, ", ", i / *n + 1, ") is not finite"));
      return;
    }
  }
  *error = kNoError;
}

FACTORD_PARDISO_EXPORT void pardiso_printstats(int* mtype, int* n, double* a,
                                               int* ia, int* ja, int* nrhs,
                                               double* b, int* error) {
  using namespace factord::pardiso;
  if (error == nullptr) return;
  pardiso_chkmatrix(mtype, n, a, ia, ja, error);
  if (*error != kNoError) return;
  const int64_t nnz = ia[*n] - 1;
  double lo = INFINITY, hi = 0;
  for (int64_t k = 0; k < nnz; ++k) {
    const double v = std::fabs(a[k]);
    hi = std::max(hi, v);
    if (v > 0) lo = std::min(lo, v);
  }
  std::printf("factord pardiso: matrix type %d, n %d, nnz %" PRId64
              ", |a| in [%.3e, %.3e] (nonzeros)\n",
              *mtype, *n, nnz, std::isinf(lo) ? 0.0 : lo, hi);
  if (nrhs != nullptr && *nrhs > 0 && b != nullptr) {
    double blo = INFINITY, bhi = 0;
    for (int64_t i = 0; i < int64_t{*n} * *nrhs; ++i) {
      blo = std::min(blo, std::fabs(b[i]));
      bhi = std::max(bhi, std::fabs(b[i]));
    }
    std::printf("factord pardiso: %d right-hand sides, |b| in [%.3e, %.3e]\n",
                *nrhs, blo, bhi);
  }
  std::fflush(stdout);
}

FACTORD_PARDISO_EXPORT void pardiso_ipopt_newinterface(void) {}

FACTORD_PARDISO_EXPORT int64_t factord_pardiso_uploads(void* pt) {
  bool foreign = false;
  const factord::pardiso::PardisoSolver* solver =
      pt != nullptr ? factord::pardiso::SolverOf(pt, &foreign) : nullptr;
  return solver != nullptr ? solver->uploads() : -1;
}

FACTORD_PARDISO_EXPORT int factord_pardiso_matrix_id(void* pt, int mnum,
                                                     char* buffer, int size) {
  bool foreign = false;
  const factord::pardiso::PardisoSolver* solver =
      pt != nullptr ? factord::pardiso::SolverOf(pt, &foreign) : nullptr;
  if (solver == nullptr || buffer == nullptr) return -1;
  const std::string id = solver->MatrixId(mnum);
  if (id.empty() || static_cast<int>(id.size()) + 1 > size) return -1;
  std::memcpy(buffer, id.c_str(), id.size() + 1);
  return 0;
}

}  // extern "C"
