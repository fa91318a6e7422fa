# Every dependency comes from Debian 12 (scripts/install_deps.sh); see PLATFORM.md.

# The clients' (client/, capi/, pardiso/, proto/ and core's Matrix Market
# reader): all that a client-only build (FACTORD_BUILD_SERVER=OFF) looks
# for, with CLI11 (header-only), which client/CMakeLists.txt finds. The
# installed factordConfig.cmake finds the first four again for its users.
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
find_package(absl CONFIG REQUIRED)
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)
find_package(ZLIB REQUIRED)

if(NOT FACTORD_BUILD_SERVER)
  return()
endif()

# The solver core's, the daemon's, the tests' and the benchmarks'.
find_package(prometheus-cpp CONFIG REQUIRED)
find_package(TBB CONFIG REQUIRED)
find_package(GTest CONFIG REQUIRED)
find_package(benchmark CONFIG REQUIRED)
find_package(BLAS REQUIRED)
find_package(LAPACK REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)

# SuiteSparse, METIS and MUMPS ship no CMake config and no .pc file.
function(factord_import_library target header header_hint)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  find_path(${target}_INCLUDE_DIR ${header} HINTS ${header_hint} REQUIRED)
  set(libs)
  foreach(lib ${ARG_LIBS})
    find_library(${target}_${lib}_LIBRARY ${lib} REQUIRED)
    list(APPEND libs ${${target}_${lib}_LIBRARY})
  endforeach()
  add_library(factord::${target} INTERFACE IMPORTED GLOBAL)
  target_include_directories(factord::${target} INTERFACE ${${target}_INCLUDE_DIR})
  target_link_libraries(factord::${target} INTERFACE ${libs})
endfunction()

# AMD (BSD-3-Clause) is the core's; UMFPACK (GPL-2+) only method lu's
# (FACTORD_WITH_UMFPACK); CHOLMOD only the benchmarks' peer.
factord_import_library(suitesparse amd.h /usr/include/suitesparse
  LIBS amd suitesparseconfig)
factord_import_library(umfpack umfpack.h /usr/include/suitesparse
  LIBS umfpack suitesparseconfig)
factord_import_library(cholmod cholmod.h /usr/include/suitesparse
  LIBS cholmod suitesparseconfig)
factord_import_library(metis metis.h /usr/include LIBS metis)
factord_import_library(mumps dmumps_c.h /usr/include
  LIBS dmumps_seq mumps_common_seq)
# MUMPS' sequential build needs its stub mpi.h.
target_include_directories(factord::mumps INTERFACE /usr/include/mumps_seq)
