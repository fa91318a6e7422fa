# Emulated CUDA kernels: the project's .cu kernel sources compiled by the host
# compiler under the CPU emulation of the CUDA execution model (core/emulation,
# library factord_cuda_emulation) and compared with the reference kernels.
# The tests sit with their method family in tests/core/<family>/, beside the
# reference-vs-cpu tests; they build into executables of their own (the .cu
# sources need FACTORD_CUDA_EMULATION). Needs only the host compiler, so it
# builds with FACTORD_CUDA=OFF too. Every ctest name here contains
# "Emulated": `ctest -R Emulated` runs exactly these tests.
set(core_tests_dir ${CMAKE_CURRENT_SOURCE_DIR}/core)

function(factord_emulated_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEFINITIONS" ${ARGN})
  list(TRANSFORM ARG_SOURCES PREPEND ${core_tests_dir}/)
  add_executable(${name} ${ARG_SOURCES} ${CMAKE_CURRENT_SOURCE_DIR}/test_data.cc)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}
    ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(${name} PRIVATE ${ARG_DEFINITIONS}
    FACTORD_TEST_DATA_DIR="${FACTORD_TEST_DATA_DIR}"
    FACTORD_SHARED_DATA_DIR="${FACTORD_SHARED_DATA_DIR}")
  target_link_libraries(${name} PRIVATE factord_cuda_emulation
    factord_core_internal GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
endfunction()

factord_emulated_test(emulation_tests SOURCES
  emulation/cuda_emulation_test.cc
  block_jacobi/block_jacobi_emulated_test.cc
  block_jacobi/block_jacobi_cases.cc block_jacobi/block_jacobi_comparison.cc
  block_jacobi/emulated_block_jacobi_kernels.cc
  dense/dense_ldlt_emulated_test.cc
  dense/dense_ldlt_cases.cc dense/dense_ldlt_emulated_run.cc
  dense/emulated_dense_ldlt_kernels.cc
  dense/dense_batched_emulated_test.cc
  dense/dense_batched_cases.cc dense/dense_batched_emulated_run.cc
  dense/emulated_batched_dense_kernels.cc
  trisolve/trisolve_emulated_test.cc
  trisolve/trisolve_cases.cc trisolve/trisolve_emulated_run.cc
  trisolve/emulated_trisolve_kernels.cc
  block_ildlt/block_ildlt_emulated_test.cc
  block_ildlt/block_ildlt_cases.cc block_ildlt/block_ildlt_emulated_run.cc
  block_ildlt/emulated_block_ildlt_kernels.cc
  block_ildlt/block_ildlt_solve_emulated_test.cc
  block_ildlt/block_ildlt_emulated_solve_run.cc
  block_ildlt/emulated_block_ildlt_solve_kernels.cc
  device/device_dispatch_emulated_test.cc device/emulated_device_kernels.cc)

# Fault injection: each broken variant of the kernel source in its own
# executable (fault_injection_test.cc asserts that the comparison with the
# reference detects it).
set(FACTORD_FAULT_SOURCES
  emulation/fault_injection_test.cc
  block_jacobi/block_jacobi_cases.cc block_jacobi/block_jacobi_comparison.cc
  block_jacobi/faulty_block_jacobi_kernels.cc
  dense/dense_ldlt_cases.cc dense/dense_ldlt_emulated_run.cc
  dense/faulty_dense_ldlt_kernels.cc
  dense/dense_batched_cases.cc dense/dense_batched_emulated_run.cc
  dense/faulty_batched_dense_kernels.cc
  trisolve/trisolve_cases.cc trisolve/trisolve_emulated_run.cc
  trisolve/faulty_trisolve_kernels.cc
  block_ildlt/block_ildlt_cases.cc block_ildlt/block_ildlt_emulated_run.cc
  block_ildlt/faulty_block_ildlt_kernels.cc)
factord_emulated_test(emulation_fault_shuffle_tests
  SOURCES ${FACTORD_FAULT_SOURCES}
  DEFINITIONS FACTORD_FAULT_WRONG_SHUFFLE_LANE)
factord_emulated_test(emulation_fault_syncthreads_tests
  SOURCES ${FACTORD_FAULT_SOURCES}
  DEFINITIONS FACTORD_FAULT_MISSING_SYNCTHREADS)
factord_emulated_test(emulation_fault_xor_stride_tests
  SOURCES ${FACTORD_FAULT_SOURCES}
  DEFINITIONS FACTORD_FAULT_WRONG_XOR_STRIDE)

# The CUDA backend on a real device (skipped with the reason when there is
# none); built only with nvcc. Not emulated, so not matched by -R Emulated.
if(TARGET factord_cuda)
  set(sources
    device/cuda_device_test.cc device/cuda_vendor_device_test.cc
    block_jacobi/block_jacobi_cases.cc dense/dense_ldlt_cases.cc
    dense/dense_batched_cases.cc trisolve/trisolve_cases.cc
    trisolve/cuda_trisolve_device_test.cc block_ildlt/block_ildlt_cases.cc
    block_ildlt/cuda_block_ildlt_device_test.cc)
  list(TRANSFORM sources PREPEND ${core_tests_dir}/)
  add_executable(cuda_device_tests ${sources}
    ${CMAKE_CURRENT_SOURCE_DIR}/test_data.cc)
  target_include_directories(cuda_device_tests PRIVATE ${PROJECT_SOURCE_DIR}
    ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(cuda_device_tests PRIVATE
    FACTORD_TEST_DATA_DIR="${FACTORD_TEST_DATA_DIR}"
    FACTORD_SHARED_DATA_DIR="${FACTORD_SHARED_DATA_DIR}")
  target_link_libraries(cuda_device_tests PRIVATE factord_cuda
    factord_core_internal GTest::gtest GTest::gtest_main)
  gtest_discover_tests(cuda_device_tests DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT 300)
endif()
