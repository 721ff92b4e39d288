# Proves the purity check can fail: runs tests/purity_check.cmake on one fixture directory and
# passes only if the check fails and reports exactly the lines the fixture marks.
#
#   cmake -DFIXTURE_DIR=<dir> -DCHECK=<purity_check.cmake> -P expect_violations.cmake
#
# A fixture file marks each line that breaks a rule with a trailing comment
# `// expect-violation: <what>`; the check must print `<file>:<line>: <what> — breaks the rule: ...`
# for every marked line, and nothing for any other line.

if(NOT FIXTURE_DIR OR NOT CHECK)
  message(FATAL_ERROR "usage: cmake -DFIXTURE_DIR=<dir> -DCHECK=<purity_check.cmake> -P expect_violations.cmake")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -DMODEL_DIR=${FIXTURE_DIR} -P ${CHECK}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")

# What the fixture expects.
file(GLOB_RECURSE files ${FIXTURE_DIR}/*.hpp ${FIXTURE_DIR}/*.cpp ${FIXTURE_DIR}/*.h)
set(expected 0)
set(problems "")
foreach(f IN LISTS files)
  file(STRINGS "${f}" marked REGEX "expect-violation: ")
  if(NOT marked)
    continue()
  endif()
  # Line numbers: count lines of the whole file (file(STRINGS) drops empty lines).
  file(READ "${f}" content)
  string(REPLACE ";" "<semicolon>" content "${content}")
  string(REPLACE "[" "<lbracket>" content "${content}")
  string(REPLACE "]" "<rbracket>" content "${content}")
  string(REPLACE "\n" ";" lines "${content}")
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    if(line MATCHES "// expect-violation: (.*)$")
      string(STRIP "${CMAKE_MATCH_1}" what)
      string(REPLACE "<lbracket>" "[" what "${what}")
      string(REPLACE "<rbracket>" "]" what "${what}")
      math(EXPR expected "${expected} + 1")
      string(FIND "${all}" "${f}:${n}: ${what} — breaks the rule: " pos)
      if(pos EQUAL -1)
        list(APPEND problems "not reported: ${f}:${n}: ${what}")
      endif()
    endif()
  endforeach()
endforeach()

if(expected EQUAL 0)
  message(FATAL_ERROR "${FIXTURE_DIR} marks no line with `// expect-violation:`")
endif()
if(rc EQUAL 0)
  list(APPEND problems "the check passed (exit 0) on a fixture that breaks a rule")
endif()
string(REGEX MATCHALL "[^\n]*:[0-9]+: [^\n]* — breaks the rule: " reported "${all}")
list(LENGTH reported nreported)
if(NOT nreported EQUAL expected)
  list(APPEND problems "the check reported ${nreported} violation(s), the fixture marks ${expected}")
endif()

if(problems)
  string(REPLACE ";" "\n" problems "${problems}")
  message("${all}")
  message(FATAL_ERROR "purity fixture ${FIXTURE_DIR}:\n${problems}")
endif()
message(STATUS "purity check failed as expected on ${FIXTURE_DIR}: ${expected} violation(s) reported")
