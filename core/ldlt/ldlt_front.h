// One front of the multifrontal LDL^T: assembly of the original entries and
// of the children's contribution blocks (extend-add), partial factorization
// of the fully summed columns with pivoting (core/dense/kernels/dense_ldlt.h,
// blocked with BLAS 3 beyond 32 columns:
// core/dense/kernels/dense_ldlt_blocked.h), delayed pivots passed up in the
// contribution block (S2 §V push-back), and the Schur update of the
// contribution block through a backend kernel. Written once; the reference and
// cpu backends differ only in the Schur update kernel and in how the fronts of
// the tree are scheduled.
//
// A refactorization does only arithmetic: the local rows of the original
// entries and the extend-add positions come from the analysis' assembly
// plan (ldlt_symbolic.h), the factor goes into slots sized by the analysis
// (FrontFactors), the contribution blocks of a postorder run live on a
// stack in a per-thread workspace that keeps its memory between
// factorizations. Only a front that received delayed pivots (its rows are
// then not the analysis' ones) allocates its own factor storage.
//
// The front's types and FactorizeFront's declaration are in
// core/ldlt/kernels/front_types.h, which the tree kernels include;
// core/ldlt/kernels/front.cc defines FactorizeFront, the workspace and the
// factor storage.
#ifndef FACTORD_LDLT_LDLT_FRONT_H_
#define FACTORD_LDLT_LDLT_FRONT_H_

#include "core/ldlt/kernels/front_types.h"
#include "core/ldlt/ldlt_symbolic.h"

#endif  // FACTORD_LDLT_LDLT_FRONT_H_
