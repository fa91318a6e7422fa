# The load smoke test: a short run of tests/load/run_load.sh,
# 4 clients x 20 operations and a 10 s soak. The full run (32 x 200, 5-minute
# soak) is `tests/load/run_load.sh BUILD_DIR` without the environment below.
if(TARGET factord AND TARGET factord-load)
  add_test(NAME load.smoke
    COMMAND ${CMAKE_COMMAND} -E env
      FACTORD_LOAD_CLIENTS=4 FACTORD_LOAD_OPERATIONS=20
      FACTORD_SOAK_SECONDS=10 FACTORD_SOAK_CLIENTS=4 FACTORD_SOAK_OPERATIONS=20
      ${CMAKE_CURRENT_LIST_DIR}/run_load.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(load.smoke PROPERTIES TIMEOUT 120 LABELS load)
endif()
