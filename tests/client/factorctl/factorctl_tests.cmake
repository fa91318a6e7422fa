# factorctl's --json output contract (docs/factorctl_json.md): the built
# factorctl against the built daemon (bearer tokens, --max_n=100) on a free
# loopback port, every failure class and every command's success checked
# against docs/schema/factorctl-v1.schema.json with Debian's
# python3-jsonschema. ctest: sdk.factorctl_json (label sdk), about 1 s; it
# skips (exit 77) when python3-jsonschema is missing.
if(TARGET factorctl AND TARGET factord)
  if(FACTORD_PYTHON)
    set(factorctl_python ${FACTORD_PYTHON})
  else()
    set(factorctl_python /usr/bin/python3)  # Debian's, with its python3-*
  endif()
  add_test(NAME sdk.factorctl_json
    COMMAND ${factorctl_python}
      ${CMAKE_CURRENT_LIST_DIR}/check_json_schema.py
      $<TARGET_FILE:factorctl> $<TARGET_FILE:factord>
      ${PROJECT_SOURCE_DIR}/docs/schema/factorctl-v1.schema.json)
  set_tests_properties(sdk.factorctl_json PROPERTIES
    LABELS sdk TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()
