# The Python package's tests (python/, tests/python) as ctest tests labelled
# python (ctest -L python); included from tests/CMakeLists.txt. About 10 s
# together:
#   python.pytest         the pytest suite against daemons it starts on
#                         loopback (run_suite.py: any skip, or fewer tests
#                         run than collected, is a failure)
#   python.pip_venv       pip install --no-build-isolation --no-index into a
#                         venv with --system-site-packages, then one
#                         upload / factorize / solve from it
#   python.cmake_install  cmake --install --component python into a
#                         temporary prefix, then the same
#   python.api_docs       docs/python.md's API reference is what the
#                         docstrings give (python/tools/gen_api_docs.py)
# They run Debian's interpreter (FACTORD_PYTHON, python/CMakeLists.txt) with
# PYTHONPATH=build/python, writing no __pycache__ into the source tree. Not in sanitizer build trees: the normal tree
# runs them.
if(FACTORD_SANITIZE)
  return()
endif()
set(python_tests python.pytest python.pip_venv python.cmake_install
  python.api_docs)
if(NOT TARGET factord_python OR NOT TARGET factord)
  # Not skipped silently: without them these tests cannot run.
  foreach(name ${python_tests})
    add_test(NAME ${name} COMMAND sh -c
      "echo 'no factord or factord_python target: ${name} cannot run' >&2; exit 1")
  endforeach()
  set_tests_properties(${python_tests} PROPERTIES LABELS python)
  return()
endif()
set(python_dir ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME python.pytest
  COMMAND ${FACTORD_PYTHON} ${python_dir}/run_suite.py)
add_test(NAME python.pip_venv
  COMMAND ${FACTORD_PYTHON} ${python_dir}/check_install.py pip ${CMAKE_BINARY_DIR})
add_test(NAME python.cmake_install
  COMMAND ${FACTORD_PYTHON} ${python_dir}/check_install.py cmake ${CMAKE_BINARY_DIR})
add_test(NAME python.api_docs
  COMMAND ${FACTORD_PYTHON} ${PROJECT_SOURCE_DIR}/python/tools/gen_api_docs.py
    --check ${PROJECT_SOURCE_DIR}/docs/python.md)
set_tests_properties(${python_tests} PROPERTIES
  LABELS python TIMEOUT 300
  ENVIRONMENT "PYTHONPATH=${CMAKE_BINARY_DIR}/python;FACTORD_BINARY=$<TARGET_FILE:factord>;PYTHONDONTWRITEBYTECODE=1")
