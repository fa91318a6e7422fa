#include "mumps_peer.h"

#include <dmumps_c.h>

#include "absl/strings/str_cat.h"
#include "core/base/timer.h"

namespace factord::bench {
namespace {

constexpr int kUseCommWorld = -987654;

// MUMPS documents its control arrays 1-based.
int& Icntl(DMUMPS_STRUC_C& m, int k) { return m.icntl[k - 1]; }
int Infog(const DMUMPS_STRUC_C& m, int k) { return m.infog[k - 1]; }

}  // namespace

PeerResult RunMumps(const CsrMatrix& a, std::span<const double> b) {
  PeerResult result;
  DMUMPS_STRUC_C m = {};
  m.sym = 2;
  m.par = 1;
  m.comm_fortran = kUseCommWorld;
  m.job = -1;
  dmumps_c(&m);
  Icntl(m, 1) = -1;
  Icntl(m, 2) = -1;
  Icntl(m, 3) = -1;
  Icntl(m, 4) = 0;
  Icntl(m, 7) = 5;   // METIS
  Icntl(m, 24) = 1;  // null pivot detection
  Icntl(m, 10) = 0;  // no iterative refinement

  std::vector<MUMPS_INT> irn(a.nnz()), jcn(a.nnz());
  std::vector<double> values = a.values;
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      irn[k] = static_cast<MUMPS_INT>(i + 1);
      jcn[k] = a.col_idx[k] + 1;
    }
  }
  m.n = static_cast<MUMPS_INT>(a.rows);
  m.nnz = a.nnz();
  m.irn = irn.data();
  m.jcn = jcn.data();
  m.a = values.data();

  Timer timer;
  m.job = 1;
  dmumps_c(&m);
  result.analyze_s = timer.Seconds();
  result.ordering_used = Infog(m, 7);
  if (Infog(m, 1) < 0) {
    result.error = absl::StrCat("MUMPS analysis INFOG(1)=", Infog(m, 1));
  } else {
    for (int attempt = 0; attempt < 8; ++attempt) {
      timer.Reset();
      m.job = 2;
      dmumps_c(&m);
      result.factorize_s = timer.Seconds();
      result.factorize_total_s += result.factorize_s;
      if (Infog(m, 1) != -8 && Infog(m, 1) != -9) break;
      ++result.retries;
      Icntl(m, 14) = Icntl(m, 14) * 2;  // Ipopt's remedy for too little memory
    }
    if (Infog(m, 1) < 0) {
      result.error =
          absl::StrCat("MUMPS factorization INFOG(1)=", Infog(m, 1),
                       " INFOG(2)=", Infog(m, 2), " after ", result.retries,
                       " retries, ICNTL(14)=", Icntl(m, 14) / 2);
    } else {
      result.negative_pivots = Infog(m, 12);
      result.null_pivots = Infog(m, 28);
      result.factor_flops = m.rinfog[2];  // RINFOG(3)
      result.largest_front = Infog(m, 11);
      // INFOG(29): entries in the factors; negative means millions.
      const int64_t entries = Infog(m, 29);
      result.nnz_factor = entries >= 0 ? entries : -entries * 1000000;
      result.x.assign(b.begin(), b.end());
      m.rhs = result.x.data();
      m.nrhs = 1;
      m.lrhs = m.n;
      timer.Reset();
      m.job = 3;
      dmumps_c(&m);
      result.solve_s = timer.Seconds();
      if (Infog(m, 1) < 0) {
        result.error = absl::StrCat("MUMPS solve INFOG(1)=", Infog(m, 1));
      } else {
        result.ok = true;
      }
    }
  }
  m.job = -2;
  dmumps_c(&m);
  return result;
}

}  // namespace factord::bench
