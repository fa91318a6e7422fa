/*
 * A diagnostic libpardiso.so that sits between Ipopt and factord's
 * libpardiso.so: it forwards every call and writes the matrix of every
 * factorization (phase 22, 12, 13 or 23) as a Matrix Market file, with the
 * inertia the real library reported, so that a KKT system Ipopt saw can be
 * given to factorctl or another solver afterwards (docs/ipopt.md,
 * "Looking at the KKT systems").
 *
 *   FACTORD_KKT_DUMP_LIBRARY=/abs/path/build/pardiso/libpardiso.so \
 *   FACTORD_KKT_DUMP_DIR=/tmp/kkt LD_LIBRARY_PATH=build/ipopt/kkt_dump \
 *   FACTORD_SERVER=... build/ipopt/factord-ipopt-nlp --linear_solver=pardiso
 * ...
 *
 * Files: DIR/K_0000.mtx, K_0001.mtx, ... (call order), "coordinate real
 * symmetric", the lower triangle (Ipopt passes the upper one, 1-based CSR),
 * every stored entry kept (explicit zeros too). A comment line gives the
 * phase, IPARM(22)/(23)/(14) (positive, negative, perturbed pivots) and the
 * error code. C99; not used by any test.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*PardisoInit)(void*, int*, int*, int*, double*, int*);
typedef void (*Pardiso)(void*, int*, int*, int*, int*, int*, double*, int*,
                        int*, int*, int*, int*, int*, double*, double*, int*,
                        double*);

static void* real_library;
static int dump_count;

static void* Resolve(const char* symbol) {
  if (real_library == NULL) {
    const char* path = getenv("FACTORD_KKT_DUMP_LIBRARY");
    if (path == NULL) {
      fprintf(stderr,
              "kkt_dump: set FACTORD_KKT_DUMP_LIBRARY to the real "
              "libpardiso.so (an absolute path)\n");
      exit(3);
    }
    real_library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (real_library == NULL) {
      fprintf(stderr, "kkt_dump: %s\n", dlerror());
      exit(3);
    }
  }
  return dlsym(real_library, symbol);
}

static void Dump(int phase, int n, const double* a, const int* ia,
                 const int* ja, const int* iparm, int error) {
  const char* dir = getenv("FACTORD_KKT_DUMP_DIR");
  if (dir == NULL || a == NULL || ia == NULL || ja == NULL) return;
  char name[4096];
  snprintf(name, sizeof name, "%s/K_%04d.mtx", dir, dump_count++);
  FILE* out = fopen(name, "w");
  if (out == NULL) {
    perror(name);
    return;
  }
  const int nnz = ia[n] - 1;
  fprintf(out, "%%%%MatrixMarket matrix coordinate real symmetric\n");
  fprintf(out,
          "%% phase %d, IPARM(22) %d positive, IPARM(23) %d negative, "
          "IPARM(14) %d perturbed, error %d\n",
          phase, iparm[21], iparm[22], iparm[13], error);
  fprintf(out, "%d %d %d\n", n, n, nnz);
  for (int i = 0; i < n; ++i) {
    for (int k = ia[i] - 1; k < ia[i + 1] - 1; ++k) {
      fprintf(out, "%d %d %.17g\n", ja[k], i + 1, a[k]); /* (col, row): lower */
    }
  }
  fclose(out);
}

void pardiso_ipopt_newinterface(void) {}

void pardisoinit(void* pt, int* mtype, int* solver, int* iparm, double* dparm,
                 int* error) {
  ((PardisoInit)Resolve("pardisoinit"))(pt, mtype, solver, iparm, dparm, error);
}

void pardiso(void* pt, int* maxfct, int* mnum, int* mtype, int* phase, int* n,
             double* a, int* ia, int* ja, int* perm, int* nrhs, int* iparm,
             int* msglvl, double* b, double* x, int* error, double* dparm) {
  ((Pardiso)Resolve("pardiso"))(pt, maxfct, mnum, mtype, phase, n, a, ia, ja,
                                perm, nrhs, iparm, msglvl, b, x, error, dparm);
  if (*phase == 22 || *phase == 12 || *phase == 13 || *phase == 23) {
    Dump(*phase, *n, a, ia, ja, iparm, *error);
  }
}
