# The v1 wire-contract checks, as ctest tests labelled wire (ctest -L wire);
# included from tests/CMakeLists.txt. No build needed; about 6 s together.
#   wire.contract        scripts/check_wire_contract.sh: proto/ against the
#                        committed reference proto/factord/v1/v1.binpb
#   wire.contract_bites  that the check fails on breaking changes (renumbered
#                        field, removed enum value, ...) and passes additions
# Both need buf (tests/wire/node_modules), which the deploy_tools fixture
# (deploy.install_tools: scripts/install_ops_tools.sh) installs; without it
# they fail, saying so, rather than skip. Not in sanitizer build trees
# (scripts/sanitize.sh): they run no C++, and the normal tree runs them.
if(FACTORD_SANITIZE)
  return()
endif()
add_test(NAME wire.contract
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/../../scripts/check_wire_contract.sh)
add_test(NAME wire.contract_bites
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_wire_contract_test.sh)
set_tests_properties(wire.contract wire.contract_bites PROPERTIES
  FIXTURES_REQUIRED deploy_tools LABELS wire TIMEOUT 120)
