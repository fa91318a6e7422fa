# A fleet of daemons behind a real proxy (HAProxy, deploy/haproxy), as
# ctest tests labelled `fleet`; included from tests/CMakeLists.txt. Each runs
# its own daemons and proxy on free loopback ports, bounded in time
# (ctest -L fleet). docs/fleet.md describes them.
#   fleet.install_tools  fixture: Debian haproxy, nginx-light (and curl,
#                        openssl, python3, iproute2, procps)
#   fleet.reload         SIGHUP reloads tokens and TLS files (factorctl)
#   fleet.run            3 daemons + HAProxy: routing by matrix ID, a
#                        SIGKILL and a SIGTERM under factord-load
#   fleet.ipm_failover.haproxy, fleet.ipm_failover.nginx
#                        3 daemons behind HAProxy or nginx: factord-ipm with
#                        its default flags on the bundled LP forplan reaches
#                        its optimum when the daemon holding its KKT matrix
#                        is SIGKILLed with iteration 6's Step in hand
if(TARGET factord AND TARGET factorctl AND TARGET factord-load)
  add_test(NAME fleet.install_tools
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/install_tools.sh)
  set_tests_properties(fleet.install_tools PROPERTIES
    FIXTURES_SETUP fleet_tools LABELS fleet TIMEOUT 300)
  # deploy.haproxy (tests/deploy) runs `haproxy -c`.
  if(TEST deploy.haproxy)
    set_tests_properties(deploy.haproxy PROPERTIES
      FIXTURES_REQUIRED "deploy_tools;fleet_tools")
  endif()
  add_test(NAME fleet.reload
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_reload.sh ${CMAKE_BINARY_DIR})
  add_test(NAME fleet.run
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/run_fleet.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(fleet.reload fleet.run PROPERTIES
    FIXTURES_REQUIRED fleet_tools LABELS fleet TIMEOUT 180 RUN_SERIAL TRUE)
  if(TARGET factord-ipm)
    # About 5 s each; every wait in the script is bounded, the whole by 90 s.
    foreach(proxy haproxy nginx)
      add_test(NAME fleet.ipm_failover.${proxy}
        COMMAND ${CMAKE_CURRENT_LIST_DIR}/ipm_failover.sh ${CMAKE_BINARY_DIR}
          ${proxy})
      set_tests_properties(fleet.ipm_failover.${proxy} PROPERTIES
        FIXTURES_REQUIRED fleet_tools LABELS fleet TIMEOUT 90 RUN_SERIAL TRUE)
    endforeach()
  endif()
endif()
