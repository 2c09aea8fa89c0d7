# Issue 14 — the command boundary: one error boundary (exit 2 bad input, 3 a bug), atomic
# outputs (nothing left behind on failures and signals), and resource limits (a refusal up
# front, naming the estimate and the option that raises the limit). Each refusal runs in well
# under a second: it is decided from the flags and the inputs' sizes before any work.

# The boundary itself, called with bodies that throw each class of exception; the output files.
rnncc_test_binary(cli_boundary_tests test_error_boundary.cpp)
target_link_libraries(cli_boundary_tests PRIVATE rnncc_cli_boundary rnncc_circuits)

# Outputs: an unwritable target is refused before the work, leaving nothing.
rnncc_golden(boundary-output-no-dir 2 boundary_output_no_dir.txt stderr compile examples/dplr_d3.json --length 8 -o no-such-dir/out.json)
rnncc_golden(boundary-output-is-dir 2 boundary_output_is_dir.txt stderr compile examples/dplr_d3.json --length 8 -o tests)
rnncc_golden(boundary-output-before-work 2 boundary_output_before_work.txt stderr compile examples/dplr_d3.json --length 1000000000000 -o no-such-dir/out.json)
rnncc_golden(boundary-convert-no-dir 2 boundary_convert_no_dir.txt stderr convert tests/cli/circuits/tiny.json no-such-dir/tiny.aag)
rnncc_golden(boundary-construct-no-dir 2 boundary_construct_no_dir.txt stderr construct parity -o no-such-dir/parity.json)
rnncc_golden(boundary-equiv-certificate-no-dir 2 boundary_equiv_certificate_no_dir.txt stderr equiv examples/wfa_count_ab.att examples/wfa_count_ab.att --certificate no-such-dir/c.json)
# Killing a long `compile -o` over an existing file (SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE), a
# compile that fails after opening its output, a write beyond `ulimit -f`, and a reader that leaves
# a FIFO or a piped /dev/stdout: no temporary file remains, the old target is byte-identical.
# Each through an unnamed temporary file (O_TMPFILE) and through the named fallback, where the
# signal handlers do the removing (circuits/io/output_file.hpp).
foreach(method unnamed named)
  foreach(mode INT TERM QUIT HUP PIPE fail xfsz reader)
    set(suffix ${mode})
    if(method STREQUAL named)
      set(suffix ${mode}-named)
    endif()
    add_test(NAME "cli: boundary-kill-mid-write-${suffix}"
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/kill_mid_write.sh $<TARGET_FILE:rnncc>
                     ${CMAKE_CURRENT_BINARY_DIR}/kill-mid-write-${suffix} ${mode} ${method}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endforeach()
  # SIGKILL at 50 random instants of a 2.4 MB `compile -o` (issue 25): the target is the old
  # bytes or the complete output, and the next run leaves no temporary file. Label `slow`: 50
  # runs of the compile, 10–20 s in the Release build on the 2-core machine and several times
  # that under the sanitizers.
  add_test(NAME "cli: outputs-sigkill-at-random-${method}"
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/kill_at_random.sh $<TARGET_FILE:rnncc>
                   ${CMAKE_CURRENT_BINARY_DIR}/sigkill-at-random-${method} ${method}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties("cli: outputs-sigkill-at-random-${method}" PROPERTIES LABELS slow TIMEOUT 600)
endforeach()

# Out of memory (issue 25): under ulimit -v, exit 3 with what was being done and what to
# lower, and nothing left beside the target (skipped in sanitizer builds).
add_test(NAME "cli: boundary-out-of-memory"
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/out_of_memory.sh $<TARGET_FILE:rnncc>
                 ${CMAKE_CURRENT_BINARY_DIR}/out-of-memory
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties("cli: boundary-out-of-memory" PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
# Memory estimates (issue 25): each command that builds or reads a circuit refuses above
# --max-memory before the work, with the estimate and how it was made.
rnncc_golden(boundary-compile-memory 2 boundary_compile_memory.txt stderr compile examples/s5_word_problem.json -n 200000 --target boolean --max-memory 100 -o ${CMAKE_CURRENT_BINARY_DIR}/no-big.json)
rnncc_golden(boundary-compile-report-memory 2 boundary_compile_report_memory.txt stderr compile examples/s5_word_problem.json -n 2000 --target boolean --max-memory 20)
rnncc_golden(boundary-stats-memory 2 boundary_stats_memory.txt stderr stats tests/cli/circuits/circuit_input_dplr3.json --max-memory 0)
rnncc_golden(boundary-convert-memory 2 boundary_convert_memory.txt stderr convert tests/cli/circuits/small.blif ${CMAKE_CURRENT_BINARY_DIR}/no-small.json --max-memory 0)
rnncc_golden(boundary-eval-memory 2 boundary_eval_memory.txt stderr eval tests/cli/circuits/tiny.json --max-memory 0)
rnncc_golden(boundary-depth-memory 2 boundary_depth_memory.txt stderr depth --arch dplr --lengths 1024..8192 --max-memory 1)

# Sign tests cannot be evaluated by residues: a diagnostic, not an internal error.

# Resource limits: one refusal per limit (docs/architecture.md, "Exit codes and limits").
rnncc_golden(boundary-eval-batch 2 boundary_eval_batch.txt stderr eval tests/cli/circuits/tiny.json --batch 100000000000)
rnncc_golden(boundary-eval-outputs-patterns 2 boundary_eval_outputs_patterns.txt stderr eval tests/cli/circuits/arith.json --outputs --batch 300000)
rnncc_golden(boundary-eval-outputs-values 2 boundary_eval_outputs_values.txt stderr eval tests/cli/circuits/arith.json --outputs --batch 90000 --max-values 1000)
rnncc_golden(boundary-verify-random 2 boundary_verify_random.txt stderr verify parity --random 1000000000 --seed 1)
rnncc_golden(boundary-verify-length 2 boundary_verify_length.txt stderr verify parity --length 1000000000 --seed 1)
rnncc_golden(boundary-verify-exhaustive 2 boundary_verify_exhaustive.txt stderr verify wfa examples/wfa_count_ab.att --exhaustive 14 --max-work 100000 --seed 1)
rnncc_golden(boundary-verify-identity 2 boundary_verify_identity.txt stderr verify wfa examples/wfa_count_ab.att --identity 10 --identity-length 100000 --seed 1)
rnncc_golden(boundary-tm-steps 2 boundary_tm_steps.txt stderr verify tm examples/tm_bb5.txt --max-steps 1000000)
rnncc_golden(boundary-tm-steps-index 2 boundary_tm_steps_index.txt stderr verify tm examples/tm_bb5.txt --max-steps 100000000000 --index)
rnncc_golden(boundary-run-generate 2 boundary_run_generate.txt stderr run examples/tm_bb2_hybrid.json ^ --generate 1000000)
rnncc_golden(boundary-equiv-work 2 boundary_equiv_work.txt stderr equiv examples/wfa_count_ab.att examples/wfa_count_ab.att --max-work 100)
rnncc_golden(boundary-minimize-work 2 boundary_minimize_work.txt stderr minimize examples/wfa_count_ab.att --max-work 100)
if(RNNCC_WITH_GRAPHVIZ)
  rnncc_golden(boundary-draw-gates 2 boundary_draw_gates.txt stderr draw examples/dplr_d3.json --length 100000 -o ${CMAKE_CURRENT_BINARY_DIR}/no-drawing.svg)
  rnncc_golden(boundary-draw-nodes 2 boundary_draw_nodes.txt stderr draw examples/dplr_d3.json --length 1000 -o ${CMAKE_CURRENT_BINARY_DIR}/no-drawing.svg)
  rnncc_golden(boundary-draw-memory 2 boundary_draw_memory.txt stderr draw examples/dplr_d3.json --length 8192 --max-memory 1 -o ${CMAKE_CURRENT_BINARY_DIR}/no-drawing.svg)
  rnncc_golden(boundary-draw-file-memory 2 boundary_draw_file_memory.txt stderr draw tests/cli/circuits/tiny.json --max-memory 0 -o ${CMAKE_CURRENT_BINARY_DIR}/no-drawing.svg)
endif()
rnncc_golden(boundary-verify-exhaustive-huge 2 boundary_verify_exhaustive_huge.txt stderr verify wfa examples/wfa_count_ab.att --exhaustive 1000000000000000000 --seed 1)

# MPI (issue 26, item 5): verify and eval on 1, 2 and 3 ranks equal one process; SIGKILL and
# resume from the checkpoint (tests/cli/mpi_ranks.sh). Only where rnncc was built with MPI.
if(RNNCC_HAVE_MPI)
  add_test(NAME "cli: mpi-ranks"
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/mpi_ranks.sh $<TARGET_FILE:rnncc>
                   ${CMAKE_CURRENT_BINARY_DIR}/mpi-ranks
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties("cli: mpi-ranks" PROPERTIES LABELS mpi SKIP_REGULAR_EXPRESSION "SKIPPED:"
                                                   TIMEOUT 300)
endif()
