// The BLAS library's own threads: off. The cpu kernels run their BLAS calls
// as tasks of the caller's TBB arena (ctx.threads threads), one
// single-threaded call a task, so that a job never uses more cores than its
// thread setting, concurrent jobs on several worker threads do not share a
// process-global BLAS thread count that one of them changes, and a result
// does not depend on how a BLAS call was split over threads.
#ifndef FACTORD_KERNELS_CPU_BLAS_THREADS_H_
#define FACTORD_KERNELS_CPU_BLAS_THREADS_H_

namespace factord::kernels::cpu {

// Sets OpenBLAS to one thread, once per process (openblas_set_num_threads).
// Called by every cpu kernel family that calls BLAS before its first call.
// Does nothing after KeepHostBlasThreads.
void UseSingleThreadedBlas();

// Leaves the BLAS library's process-wide thread count as the host program
// set it, for the core embedded in another program (the in-process solver,
// local/), which must not change the host's state. Call it before the
// first factorization. Each BLAS call of a chunk then runs on the host's
// BLAS threads.
void KeepHostBlasThreads();

}  // namespace factord::kernels::cpu

#endif  // FACTORD_KERNELS_CPU_BLAS_THREADS_H_
