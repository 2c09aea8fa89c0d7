# Issue 17, item 5 — files recognized by kind (rnn/file_kind.hpp): a file of the wrong kind for a
# command says what it is and which command reads it; an arithmetic circuit written as a netlist
# says that the netlist formats need --target boolean. Exit 2 each, nothing written.
rnncc_golden(kind-model-stats 2 kind_model_stats.txt stderr stats examples/parity_deltanet.json)
rnncc_golden(kind-model-eval 2 kind_model_eval.txt stderr eval examples/parity_deltanet.json)
rnncc_golden(kind-model-convert 2 kind_model_convert.txt stderr convert examples/parity_deltanet.json kind_out.aig)
rnncc_golden(kind-circuit-run 2 kind_circuit_run.txt stderr run tests/cli/circuits/tiny.json 01)
rnncc_golden(kind-circuit-compile 2 kind_circuit_compile.txt stderr compile tests/cli/circuits/tiny.json -n 4 -o kind_out.json)
rnncc_golden(kind-circuit-verify 2 kind_circuit_verify.txt stderr verify model tests/cli/circuits/tiny.json --against examples/wfa_binary_value.att)
rnncc_golden(kind-circuit-equiv 2 kind_circuit_equiv.txt stderr equiv tests/cli/circuits/tiny.json examples/parity_deltanet.json)
rnncc_golden(kind-circuit-depth 2 kind_circuit_depth.txt stderr depth --model tests/cli/circuits/tiny.json)
rnncc_golden(kind-aig-run 2 kind_aig_run.txt stderr run tests/cli/circuits/circuit_input_inputs.aig 01)
rnncc_golden(kind-wfa-compile 2 kind_wfa_compile.txt stderr compile examples/wfa_binary_value.wfa.json -n 4 -o kind_out.json)
rnncc_golden(kind-att-run 2 kind_att_run.txt stderr run examples/wfa_binary_value.att 0101)
rnncc_golden(kind-tm-compile 2 kind_tm_compile.txt stderr compile examples/tm_bb2.txt -n 4 -o kind_out.json)
rnncc_golden(kind-tm-stats 2 kind_tm_stats.txt stderr stats examples/tm_bb3.txt)
rnncc_golden(kind-formula-stats 2 kind_formula_stats.txt stderr stats examples/formula_majority3.sexp)
rnncc_golden(kind-model-construct-tm 2 kind_model_construct_tm.txt stderr construct tm examples/parity_deltanet.json -o kind_out.json)
rnncc_golden(kind-model-construct-wfa 2 kind_model_construct_wfa.txt stderr construct wfa examples/parity_deltanet.json -o kind_out.json)
rnncc_golden(kind-model-verify-against 2 kind_model_verify_against.txt stderr verify model examples/parity_deltanet.json --against examples/parity_deltanet.json)
rnncc_golden(kind-model-certificate 2 kind_model_certificate.txt stderr check-certificate examples/parity_deltanet.json examples/parity_deltanet.json examples/parity_deltanet.json)
rnncc_golden(kind-model-generators 2 kind_model_generators.txt stderr construct matmul3 --generators examples/parity_deltanet.json -o kind_out.json)
rnncc_golden(kind-arith-aig 2 kind_arith_aig.txt stderr compile examples/parity_deltanet.json -n 4 -o kind_out.aig)
rnncc_golden(kind-arith-convert-aig 2 kind_arith_convert_aig.txt stderr convert tests/cli/circuits/tiny.json kind_out.aag)
rnncc_golden(kind-arith-convert-bench 2 kind_arith_convert_bench.txt stderr convert tests/cli/circuits/arith.json kind_out.bench)

# Issue 17, item 6 — progress on stderr: none without a terminal or with --quiet (every command
# accepts it); under a pseudo-terminal (script(1)) a line redrawn with \r, erased at the end.
add_test(NAME "cli: progress-terminal-and-quiet"
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/progress.sh $<TARGET_FILE:rnncc>
                 ${CMAKE_CURRENT_BINARY_DIR}/progress-test
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties("cli: progress-terminal-and-quiet" PROPERTIES SKIP_RETURN_CODE 77)
