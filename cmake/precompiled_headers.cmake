# Precompiled headers (RNNCC_PCH, on by default): the external headers that nearly every
# translation unit reads — Boost.Multiprecision on GMP (algebra/rational.hpp), nlohmann/json and
# the standard containers; Catch2 in the test binaries — parsed once per target instead of once
# per file. They were 3–5 s of every 10–20 s compile on the 2-core CI machine (GCC -O3 and clang
# with ASan: test_evaluate.cpp 14.0 → 10.2 s, generate.cpp 11.3 → 8.3 s; docs/reliability.md,
# "CI time"). A target's header costs 5–9 s to precompile, so only targets of three or more
# translation units take one (rnncc_precompile below). Headers of the project itself stay out: a
# change to one of them would rebuild every header of the target.
option(RNNCC_PCH "Precompile the external headers of targets with several translation units" ON)

set(RNNCC_PCH_HEADERS
    <algorithm> <cstddef> <cstdint> <functional> <map> <memory> <optional> <random> <set>
    <sstream> <stdexcept> <string> <string_view> <unordered_map> <utility> <variant> <vector>
    <boost/multiprecision/gmp.hpp> <nlohmann/json.hpp>)

# rnncc_precompile(<target> [<header> ...]): RNNCC_PCH_HEADERS and the extra headers, for the
# target's C++ sources only (never its CUDA sources).
function(rnncc_precompile target)
  if(NOT RNNCC_PCH)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  list(FILTER sources INCLUDE REGEX "\\.cpp$")
  list(LENGTH sources count)
  if(count LESS 3)
    return()
  endif()
  set(headers "")
  foreach(h IN LISTS RNNCC_PCH_HEADERS ARGN)
    # `>` would close the generator expression: $<ANGLE-R> writes it.
    string(REPLACE ">" "$<ANGLE-R>" h "${h}")
    list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:${h}>")
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
