# `cmake --install BUILD [--prefix P]`: what a C++ user of rnncc needs (issue 17, item 2).
#
#   P/bin/rnncc                              the command-line tool
#   P/include/rnncc/{algebra,rnn,circuits,constructions,verify,viz}/...hpp
#                                            the library's headers, included as in this tree
#                                            ("circuits/circuit.hpp"): the include root is
#                                            P/include/rnncc
#   P/lib/librnncc_*.a                       the static libraries, one per pipeline stage
#   P/lib/cmake/rnncc/rnnccConfig.cmake      find_package(rnncc) → rnncc::rnncc (everything) and
#                                            rnncc::<stage> (rnncc::circuits, rnncc::verify, ...)
#   P/lib/pkgconfig/rnncc.pc                 the same for pkg-config users
#
# The libraries are static, so their private dependencies (fmt, FLINT, Graphviz, CUDA's runtime
# and NVRTC) are link dependencies of a consumer too: rnnccConfig finds them again with the
# options this tree was built with, and rnncc.pc lists them.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(rnncc_stage_libraries
    algebra rnn circuits gpu constructions equiv sat verify plot)
if(TARGET rnncc_viz)
  list(APPEND rnncc_stage_libraries viz)
endif()
set(rnncc_install_targets rnncc_warnings)
foreach(stage IN LISTS rnncc_stage_libraries)
  set_target_properties(rnncc_${stage} PROPERTIES EXPORT_NAME ${stage})
  list(APPEND rnncc_install_targets rnncc_${stage})
endforeach()
set_target_properties(rnncc_warnings PROPERTIES EXPORT_NAME warnings)

# rnncc::rnncc: every stage.
add_library(rnncc_library INTERFACE)
set_target_properties(rnncc_library PROPERTIES EXPORT_NAME rnncc)
foreach(stage IN LISTS rnncc_stage_libraries)
  target_link_libraries(rnncc_library INTERFACE rnncc_${stage})
endforeach()
list(APPEND rnncc_install_targets rnncc_library)

install(TARGETS rnncc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${rnncc_install_targets} EXPORT rnnccTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rnncc)
foreach(dir algebra rnn circuits constructions verify viz)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rnncc
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(EXPORT rnnccTargets NAMESPACE rnncc:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rnncc)

set(RNNCC_CONFIG_HAVE_CUDA ${RNNCC_HAVE_CUDA})
set(RNNCC_CONFIG_HAVE_GRAPHVIZ OFF)
if(TARGET rnncc_viz)
  set(RNNCC_CONFIG_HAVE_GRAPHVIZ ON)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/rnnccConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/rnnccConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rnncc)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rnnccConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/rnnccConfig.cmake ${PROJECT_BINARY_DIR}/rnnccConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rnncc)

# rnncc.pc (relocatable: the prefix is where the file lies): the stages in link order (a library
# before what it uses), then what they link — all of it in Libs, since the stages are static.
set(rnncc_pc_libs "")
foreach(stage viz plot verify sat equiv constructions gpu circuits rnn algebra)
  if(TARGET rnncc_${stage})
    string(APPEND rnncc_pc_libs " -lrnncc_${stage}")
  endif()
endforeach()
set(rnncc_pc_requires "nlohmann_json fmt gmp")
if(TARGET rnncc_viz)
  string(APPEND rnncc_pc_requires " libgvc")
endif()
if(RNNCC_HAVE_MPI)
  string(APPEND rnncc_pc_libs " -lmpi")
endif()
if(RNNCC_HAVE_FLINT)
  string(APPEND rnncc_pc_libs " -lflint")  # Debian's FLINT ships no .pc file
endif()
if(RNNCC_HAVE_CADICAL)
  string(APPEND rnncc_pc_libs " -lcadical")  # Debian's CaDiCaL ships no .pc file
endif()
if(RNNCC_HAVE_Z3)
  string(APPEND rnncc_pc_libs " -lz3")
endif()
string(APPEND rnncc_pc_libs " -pthread")
if(RNNCC_HAVE_CUDA)
  string(APPEND rnncc_pc_libs " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -lnvrtc -ldl -lrt")
endif()
set(rnncc_pc_cflags "-DRNNCC_HAVE_FLINT=$<BOOL:${RNNCC_HAVE_FLINT}> -DRNNCC_HAVE_CUDA=$<BOOL:${RNNCC_HAVE_CUDA}>")
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/rnncc.pc CONTENT
"prefix=\${pcfiledir}/../..
libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}
includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}/rnncc

Name: rnncc
Description: Circuit complexity of sequence models: compile, measure, evaluate, verify
Version: ${PROJECT_VERSION}
Requires: ${rnncc_pc_requires}
Cflags: -std=c++20 -I\${includedir} ${rnncc_pc_cflags}
Libs: -L\${libdir}${rnncc_pc_libs}
")
install(FILES ${PROJECT_BINARY_DIR}/rnncc.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
