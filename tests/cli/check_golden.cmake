# Runs ${RNNCC} ${ARGS} (a ;-list), compares ${STREAM} (stdout|stderr) with ${GOLDEN} byte
# for byte and the exit code with ${EXPECTED_EXIT}. With RNNCC_UPDATE_GOLDEN=1 in the
# environment it rewrites the golden file instead (review the diff before committing).
# A trailing EMPTY_ARG stands for one empty argument ("" does not survive CMake lists).
set(empty_last FALSE)
if(ARGS MATCHES "@EMPTY_ARG$")
  string(REGEX REPLACE "@EMPTY_ARG$" "" ARGS "${ARGS}")
  set(empty_last TRUE)
endif()
string(REPLACE "@" ";" arg_list "${ARGS}")
if(empty_last)
  execute_process(COMMAND ${RNNCC} ${arg_list} ""
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
else()
  execute_process(COMMAND ${RNNCC} ${arg_list}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
endif()
if(STREAM STREQUAL "stderr")
  set(actual "${err}")
else()
  set(actual "${out}")
endif()
if(DEFINED ENV{RNNCC_UPDATE_GOLDEN})
  file(WRITE ${GOLDEN} "${actual}")
endif()
file(READ ${GOLDEN} expected)
if(NOT rc EQUAL EXPECTED_EXIT)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECTED_EXIT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "${STREAM} differs from ${GOLDEN}\n--- expected\n${expected}\n--- actual\n${actual}")
endif()
