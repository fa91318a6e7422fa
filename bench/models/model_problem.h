// Model problems of growing size for bench/scale_benchmark.cc: a symmetric
// matrix (its lower triangle, as factord and the peers take it), a right-hand
// side and the inertia the matrix has in exact arithmetic.
//
// Each generator orders the unknowns block by block (for the saddle-point
// problems: the positive definite block first, then the multipliers), so
// that an LDL^T without pivoting in the natural order exists and its pivots
// have the signs of the inertia: the first `expected.positive` pivots
// positive, the rest negative (Sylvester's law of inertia; --check of
// scale_benchmark verifies that on small sizes).
#ifndef FACTORD_BENCH_MODELS_MODEL_PROBLEM_H_
#define FACTORD_BENCH_MODELS_MODEL_PROBLEM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/matrix/csr.h"
#include "core/solver/report.h"

namespace factord::bench {

struct ModelProblem {
  std::string family;  // "poisson3d", "stokes_mac2d", "control_kkt2d"
  int k = 0;           // grid size parameter (see each generator)
  std::shared_ptr<const CsrMatrix> a;  // lower triangle, n x n
  std::vector<double> b;               // n entries
  Inertia expected;                    // exact inertia (positive, negative, 0)
  bool spd = false;                    // CHOLMOD applies
};

// -Laplace u = 1 on the unit cube, homogeneous Dirichlet, 7-point finite
// differences on the k^3 interior nodes (h = 1/(k+1)), scaled by h^2: 6 on
// the diagonal, -1 to each neighbour, b = h^2. n = k^3, SPD: inertia (n, 0,
// 0). Structure::kSpdLower.
ModelProblem Poisson3d(int k);

// Stokes flow, -Laplace u + grad p = f, div u = 0, in the unit square with
// no-slip walls: MAC (staggered) finite differences on k x k cells, h = 1/k.
// Unknowns: the (k-1)k interior x-face velocities, the k(k-1) interior
// y-face velocities, then the k^2 cell pressures. The velocity rows are
// scaled by h^2 (5-point Laplacian 4 / -1; a wall-tangential neighbour is a
// mirrored ghost, +1 on the diagonal) and the pressure unknown is h p, so
// that the gradient and divergence entries are +-1:
//   [ A   B^T      ]
//   [ B   -eps I   ]   eps = pressure_stabilization (default 1e-6)
// B has the constant pressure in its left null space; the -eps I block
// removes that singularity and makes the matrix quasi-definite, so the
// inertia is exactly (2k(k-1), k^2, 0) for every eps > 0. f is a swirl,
// (-(y - 1/2), x - 1/2). n = 3k^2 - 2k. Structure::kSymmetricLower.
ModelProblem StokesMac2d(int k, double pressure_stabilization = 1e-6);

// The KKT system of a distributed optimal-control problem:
//   minimise 1/2 ||y - y_d||_M^2 + alpha/2 ||u||_M^2
//   subject to -Laplace y = u in the unit square, y = 0 on the boundary,
// discretised with P1 finite elements on the k x k interior nodes of a
// uniform triangulation (h = 1/(k+1), each square cut along its SW-NE
// diagonal): K the stiffness matrix (the 5-point stencil 4 / -1), M the
// consistent mass matrix (h^2/2 on the diagonal, h^2/12 to the E, W, N, S,
// NE and SW neighbours). With N = k^2 and the unknowns (y, u, lambda):
//   [ M     0         K^T     ] [y]        [M y_d]
//   [ 0     alpha M   -M      ] [u]      = [  0  ]
//   [ K     -M        -delta I] [lambda]   [  0  ]
// delta = 0 by default (the plain KKT matrix; its (3,3) diagonal is stored
// as explicit zeros); delta > 0 mimics an interior-point regularization.
// The (1,1)-(2,2) block is SPD and its Schur complement negative definite
// for every delta >= 0: inertia (2N, N, 0). y_d = sin(pi x) sin(pi y).
// n = 3k^2. Structure::kSymmetricLower.
ModelProblem ControlKkt2d(int k, double alpha = 1e-4, double delta = 0.0);

}  // namespace factord::bench

#endif  // FACTORD_BENCH_MODELS_MODEL_PROBLEM_H_
