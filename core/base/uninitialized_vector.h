// A std::vector whose resize leaves new trivially constructible entries
// uninitialized: for scratch that is written before it is read, where
// zeroing it first would touch every new page once more (on a large dense
// front that costs as much as the assembly).
#ifndef FACTORD_BASE_UNINITIALIZED_VECTOR_H_
#define FACTORD_BASE_UNINITIALIZED_VECTOR_H_

#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace factord {

template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  // Value-less construction (resize) default-initializes: no write for a
  // trivially constructible T.
  template <typename U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

}  // namespace factord

#endif  // FACTORD_BASE_UNINITIALIZED_VECTOR_H_
