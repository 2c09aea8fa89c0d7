# The format check: every C++ and CUDA source of the repository is as the root .clang-format
# formats it. Run by ctest (tests/CMakeLists.txt) from the source directory:
#   cmake -DCLANG_FORMAT=/usr/bin/clang-format -P tests/format/check_format.cmake
# Files come from `git ls-files` (tracked and untracked-not-ignored), else from a glob of the
# source folders. Fails listing each file that differs, with the command that fixes it.
find_program(GIT git)
set(files "")
if(GIT AND EXISTS "${CMAKE_CURRENT_LIST_DIR}/../../.git")
  execute_process(COMMAND ${GIT} ls-files --cached --others --exclude-standard
                          -- "*.cpp" "*.hpp" "*.cu" "*.h"
                  OUTPUT_VARIABLE listed RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0)
    string(REPLACE "\n" ";" files "${listed}")
  endif()
endif()
if(NOT files)
  file(GLOB_RECURSE files RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}
       algebra/* rnn/* circuits/* constructions/* verify/* viz/* cli/* python/* bench/* tests/*)
  list(FILTER files INCLUDE REGEX "\\.(cpp|hpp|cu|h)$")
endif()
list(FILTER files EXCLUDE REGEX "^build")
set(bad "")
foreach(f IN LISTS files)
  if(EXISTS "${f}")
    execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror "${f}"
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(NOT rc EQUAL 0)
      list(APPEND bad "${f}")
    endif()
  endif()
endforeach()
list(LENGTH files n)
if(bad)
  list(JOIN bad "\n  " shown)
  message(FATAL_ERROR "not formatted (fix: clang-format -i FILE):\n  ${shown}")
endif()
message(STATUS "${n} files formatted as .clang-format says")
