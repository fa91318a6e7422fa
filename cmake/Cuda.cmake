# FACTORD_CUDA: AUTO enables the CUDA language whenever nvcc exists (PLATFORM.md:
# pass the compiler explicitly, a clean environment may not have it on PATH)
# and builds without the CUDA backend otherwise; ON requires it and stops the
# configuration when there is no usable CUDA compiler (CI: .ci/run, with
# scripts/check_cuda_built.sh after the build); OFF never builds it.
set(FACTORD_HAVE_CUDA OFF)
if(NOT FACTORD_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  if(FACTORD_CUDA STREQUAL "ON" AND IS_ABSOLUTE "${CMAKE_CUDA_COMPILER}"
     AND NOT EXISTS "${CMAKE_CUDA_COMPILER}")
    message(FATAL_ERROR "FACTORD_CUDA=ON but the CUDA compiler "
      "CMAKE_CUDA_COMPILER=${CMAKE_CUDA_COMPILER} does not exist")
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
    if(NOT CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 80 90)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(FACTORD_HAVE_CUDA ON)
  elseif(FACTORD_CUDA STREQUAL "ON")
    message(FATAL_ERROR "FACTORD_CUDA=ON but no CUDA compiler was found "
      "(pass -DCMAKE_CUDA_COMPILER=/path/to/nvcc)")
  endif()
endif()
message(STATUS "factord: CUDA backend ${FACTORD_HAVE_CUDA}")
