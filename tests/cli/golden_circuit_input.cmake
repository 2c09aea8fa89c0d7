# Issue 14, circuit formats (circuits/io/): untrusted input ends in an answer or a diagnostic
# with exit code 2 — never an abort. Inputs under tests/cli/circuits/circuit_input_*.
# Names that are not UTF-8 are refused where they are read (stats --json used to abort in
# nlohmann-json when writing them).
rnncc_golden(circuit-input-aiger-utf8 2 circuit_input_aiger_utf8.txt stderr stats tests/cli/circuits/circuit_input_symbol.aag --json)
rnncc_golden(circuit-input-blif-utf8 2 circuit_input_blif_utf8.txt stderr stats tests/cli/circuits/circuit_input_name.blif --json)
rnncc_golden(circuit-input-bench-utf8 2 circuit_input_bench_utf8.txt stderr stats tests/cli/circuits/circuit_input_name.bench --json)
# A malformed AIGER symbol table (an input named twice): file:line:column, exit 2.
rnncc_golden(circuit-input-aiger-symbol-twice 2 circuit_input_aiger_symbol_twice.txt stderr stats tests/cli/circuits/circuit_input_symbol_twice.aag)
# AIGER header counts that wrap around or exceed what the file can hold.
rnncc_golden(circuit-input-aiger-wrap 2 circuit_input_aiger_wrap.txt stderr stats tests/cli/circuits/circuit_input_wrap.aag)
rnncc_golden(circuit-input-aig-inputs 2 circuit_input_aig_inputs.txt stderr eval tests/cli/circuits/circuit_input_inputs.aig)
# Threshold gates at the int32 limits: evaluated (bit-parallel, 64-bit sums), lowered to AND/NOT
# (convert), and refused with a diagnostic by the 32-bit device program (--outputs).
rnncc_golden(circuit-input-thr-limits-convert 0 circuit_input_thr_limits_convert.txt "file:${CMAKE_CURRENT_BINARY_DIR}/thr_limits.bench" convert tests/cli/circuits/circuit_input_thr_limits.json ${CMAKE_CURRENT_BINARY_DIR}/thr_limits.bench)
rnncc_golden(circuit-input-thr-limits-outputs 2 circuit_input_thr_limits_outputs.txt stderr eval tests/cli/circuits/circuit_input_thr_limits.json --exhaustive --outputs)
# eval --outputs on a compiled arithmetic circuit with a positive gate: exact over Q
# (rnncc compile examples/dplr_d3.json --length 3 -o circuit_input_dplr3.json).
rnncc_golden(circuit-input-positive-outputs 0 circuit_input_positive_outputs.txt stdout eval tests/cli/circuits/circuit_input_dplr3.json --outputs --batch 3)
rnncc_golden(circuit-input-positive-digest 2 circuit_input_positive_digest.txt stderr eval tests/cli/circuits/circuit_input_dplr3.json --batch 3)
# Malformed circuit JSON: diagnostics at the JSON pointer.
rnncc_golden(circuit-input-json-arity 2 circuit_input_json_arity.txt stderr eval tests/cli/circuits/circuit_input_bad_arity.json)
rnncc_golden(circuit-input-json-huge-id 2 circuit_input_json_huge_id.txt stderr stats tests/cli/circuits/circuit_input_huge_id.json)
# S-expression formulas nested past the depth limit.
rnncc_golden(circuit-input-sexpr-deep 2 circuit_input_sexpr_deep.txt stderr verify barrington tests/cli/circuits/circuit_input_deep.sexp)
