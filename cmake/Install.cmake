# The SDK that `cmake --install` lays under the prefix (docs/sdk.md), beside
# the targets' own install rules (client/, proto/, capi/, pardiso/,
# server/):
#   lib/cmake/factord/  factordConfig.cmake, factordConfigVersion.cmake and
#                       the exported targets: factord::client (the C++
#                       client, static, with factord::proto) and factord::c
#                       (libfactord_c.so)
#   lib/pkgconfig/      factord.pc (C++ client), factord-c.pc (C API)
# Both are relocatable: they find the prefix from where they are installed,
# so `cmake --install BUILD --prefix DIR` works for any DIR.
if(NOT TARGET factord_client OR NOT TARGET factord_c)
  return()
endif()
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(FACTORD_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/factord)
install(EXPORT factordTargets
  NAMESPACE factord::
  FILE factordTargets.cmake
  DESTINATION ${FACTORD_CMAKE_INSTALL_DIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/factordConfig.cmake.in
  ${PROJECT_BINARY_DIR}/factordConfig.cmake
  INSTALL_DESTINATION ${FACTORD_CMAKE_INSTALL_DIR})
# 0.x: a minor version may change the API, so only 0.1.* satisfies 0.1.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/factordConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/factordConfig.cmake
  ${PROJECT_BINARY_DIR}/factordConfigVersion.cmake
  DESTINATION ${FACTORD_CMAKE_INSTALL_DIR})

# The .pc files name their prefix relative to their own directory
# (${pcfiledir}), as the CMake config does through PACKAGE_INIT.
set(FACTORD_PKGCONFIG_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH FACTORD_PKGCONFIG_TO_PREFIX
  /prefix/${FACTORD_PKGCONFIG_INSTALL_DIR} /prefix)
string(REGEX REPLACE "/$" "" FACTORD_PKGCONFIG_TO_PREFIX
  "${FACTORD_PKGCONFIG_TO_PREFIX}")
foreach(pc factord factord-c)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in
    ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc
    DESTINATION ${FACTORD_PKGCONFIG_INSTALL_DIR})
endforeach()
