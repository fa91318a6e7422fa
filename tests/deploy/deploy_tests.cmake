# The checks of deploy/, as ctest tests named deploy.*; included
# from tests/CMakeLists.txt. Each is a script in tests/deploy that fails,
# never skips, when a tool it needs is missing (saying which and how to get
# it). deploy.install_tools runs scripts/install_ops_tools.sh first (a fixture:
# quick when everything is present) so that the others find their tools.
# Run them alone with: ctest -L deploy (or ctest -R '^deploy\.').
set(FACTORD_DEPLOY_CHECKS ${CMAKE_CURRENT_LIST_DIR})

add_test(NAME deploy.install_tools
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/../../scripts/install_ops_tools.sh)
set_tests_properties(deploy.install_tools PROPERTIES
  FIXTURES_SETUP deploy_tools LABELS deploy TIMEOUT 600)

function(factord_deploy_check name)
  add_test(NAME deploy.${name} COMMAND ${ARGN})
  set_tests_properties(deploy.${name} PROPERTIES
    FIXTURES_REQUIRED deploy_tools LABELS deploy TIMEOUT 120)
endfunction()

# Offline, no build needed.
factord_deploy_check(kustomize ${FACTORD_DEPLOY_CHECKS}/check_kustomize.sh)
factord_deploy_check(k8s_schema ${FACTORD_DEPLOY_CHECKS}/check_k8s_schema.sh)
factord_deploy_check(mesh ${FACTORD_DEPLOY_CHECKS}/check_mesh.sh)
factord_deploy_check(yamllint ${FACTORD_DEPLOY_CHECKS}/check_yamllint.sh)
factord_deploy_check(promtool_check_rules
  ${FACTORD_DEPLOY_CHECKS}/check_promtool.sh check)
factord_deploy_check(promtool_test_rules
  ${FACTORD_DEPLOY_CHECKS}/check_promtool.sh test)
factord_deploy_check(dashboard_promql
  ${FACTORD_DEPLOY_CHECKS}/check_dashboard.sh)
factord_deploy_check(dockerfiles ${FACTORD_DEPLOY_CHECKS}/check_dockerfiles.sh)
factord_deploy_check(haproxy ${FACTORD_DEPLOY_CHECKS}/check_haproxy.sh)  # haproxy: fleet_tests.cmake

# Against the real daemon on loopback.
if(TARGET factord)
  set(factorctl_arg)
  if(TARGET factorctl)
    set(factorctl_arg $<TARGET_FILE:factorctl>)
  endif()
  factord_deploy_check(flagfiles
    ${FACTORD_DEPLOY_CHECKS}/check_flagfiles.sh $<TARGET_FILE:factord>)
  factord_deploy_check(health_probes
    ${FACTORD_DEPLOY_CHECKS}/check_health_probes.sh $<TARGET_FILE:factord>)
  factord_deploy_check(metrics_names
    ${FACTORD_DEPLOY_CHECKS}/check_metrics_names.sh $<TARGET_FILE:factord>
    ${factorctl_arg})
  factord_deploy_check(prometheus_scrape
    ${FACTORD_DEPLOY_CHECKS}/check_prometheus_scrape.sh $<TARGET_FILE:factord>)
  factord_deploy_check(collect_runtime
    ${FACTORD_DEPLOY_CHECKS}/check_collect_runtime.sh $<TARGET_FILE_DIR:factord>)
else()
  # Not skipped silently: without the daemon these checks cannot run.
  factord_deploy_check(needs_factord sh -c
    "echo 'no factord target: deploy.flagfiles, health_probes, metrics_names, prometheus_scrape and collect_runtime cannot run' >&2; exit 1")
endif()
