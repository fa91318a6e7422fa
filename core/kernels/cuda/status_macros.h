// Status plumbing for the host side of the CUDA backend (the wrappers that
// copy, launch and copy back). Kept to this library: core has no common
// macros of this kind, and these names cannot collide with others.
#ifndef FACTORD_KERNELS_CUDA_STATUS_MACROS_H_
#define FACTORD_KERNELS_CUDA_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"

#define FACTORD_CUDA_CONCAT_INNER_(a, b) a##b
#define FACTORD_CUDA_CONCAT_(a, b) FACTORD_CUDA_CONCAT_INNER_(a, b)

// Declares `lhs` from the value of a StatusOr, or returns its error.
#define FACTORD_CUDA_ASSIGN_OR_RETURN(lhs, expr)                        \
  auto FACTORD_CUDA_CONCAT_(factord_status_or_, __LINE__) = (expr);     \
  if (!FACTORD_CUDA_CONCAT_(factord_status_or_, __LINE__).ok()) {       \
    return FACTORD_CUDA_CONCAT_(factord_status_or_, __LINE__).status(); \
  }                                                                     \
  auto lhs = std::move(*FACTORD_CUDA_CONCAT_(factord_status_or_, __LINE__))

#define FACTORD_CUDA_RETURN_IF_NOT_OK(expr)            \
  do {                                                 \
    absl::Status factord_status_ = (expr);             \
    if (!factord_status_.ok()) return factord_status_; \
  } while (0)

#endif  // FACTORD_KERNELS_CUDA_STATUS_MACROS_H_
