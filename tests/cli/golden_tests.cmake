# Every shipped example, in each semantics it supports; then the diagnostics.
rnncc_golden(parity-exact 0 parity_exact.txt stdout run examples/parity_deltanet.json 0110 1101)
rnncc_golden(parity-mod 0 parity_mod.txt stdout run examples/parity_deltanet.json 0110 --precision mod:7)
rnncc_golden(binary-value-trace 0 binary_value_trace.txt stdout run examples/binary_value_wfa.json 1011 --trace)
rnncc_golden(binary-value-log 0 binary_value_log.txt stdout run examples/binary_value_wfa.json 1011 --precision log:1)
rnncc_golden(binary-value-json 0 binary_value_json.txt stdout run examples/binary_value_wfa.json 110 --json)
rnncc_golden(mamba-log 0 mamba_log.txt stdout run examples/mamba_diagonal.json aab aba --precision log:1 --rounding toward-zero)
rnncc_golden(s5 0 s5.txt stdout run examples/s5_word_problem.json ss ccccc sc)
rnncc_golden(gdn-mod 0 gdn_mod.txt stdout run examples/gated_deltanet.json aba --precision mod:1000000007)
rnncc_golden(rwkv7-json-trace 0 rwkv7_json_trace.txt stdout run examples/rwkv7_overwrite.json xxy --json --trace)
rnncc_golden(relu-counter 0 relu_counter.txt stdout run examples/relu_counter.json aab ab --precision log:2)
rnncc_golden(version 0 version.txt stdout --version)

rnncc_golden(err-missing-file 2 err_missing_file.txt stderr run examples/no_such_model.json 01)
rnncc_golden(err-bad-symbol 2 err_bad_symbol.txt stderr run examples/parity_deltanet.json 01a1)
rnncc_golden(err-empty-input 2 err_empty_input.txt stderr run examples/parity_deltanet.json EMPTY_ARG)
rnncc_golden(err-not-prime 2 err_not_prime.txt stderr run examples/parity_deltanet.json 01 --precision mod:15)
rnncc_golden(err-bad-precision 2 err_bad_precision.txt stderr run examples/parity_deltanet.json 01 --precision float)
rnncc_golden(err-denominator-mod-p 2 err_denominator_mod_p.txt stderr run examples/mamba_diagonal.json ab --precision mod:2)
rnncc_golden(err-relu-mod-p 2 err_relu_mod_p.txt stderr run examples/relu_counter.json ab --precision mod:5)
rnncc_golden(err-overflow 2 err_overflow.txt stderr run examples/binary_value_wfa.json 1011 --precision log:1 --overflow error)
rnncc_golden(err-malformed-json 2 err_malformed_json.txt stderr run tests/cli/models/malformed.json 01)
rnncc_golden(err-wrong-shape 2 err_wrong_shape.txt stderr run tests/cli/models/wrong_shape.json 01)
rnncc_golden(err-int-bits-range 2 err_int_bits_range.txt stderr run examples/binary_value_wfa.json 1 --precision log:1 --int-bits 0)
rnncc_golden(err-int-bits-not-log 2 err_int_bits_not_log.txt stderr run examples/binary_value_wfa.json 1 --int-bits 4)
rnncc_golden(err-unknown-flag 2 err_unknown_flag.txt stderr run examples/binary_value_wfa.json 1 --precison exact)
rnncc_golden(help-run 0 help_run.txt stdout run --help)

# compile / stats / draw
rnncc_golden(compile-stats 0 compile_stats.txt stdout compile examples/binary_value_wfa.json --length 16 --scan kogge-stone)
rnncc_golden(compile-stats-json 0 compile_stats_json.txt stdout compile examples/s5_word_problem.json -n 8 --scan sklansky --json)
rnncc_golden(compile-chunked 0 compile_chunked.txt stdout compile examples/parity_deltanet.json -n 12 --scan chunked:4 --json)
# Issue 28, item 5 — declared pass pipelines (circuits/passes/pipeline.hpp): --print-pipeline prints
# the compiler, the as-written passes and -o's write passes and writer, and compiles and writes
# nothing; --stats --json lists what ran with the gates before and after each pass.
file(RELATIVE_PATH pipeline_out ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/pipeline_out)
rnncc_golden(compile-print-pipeline 0 compile_print_pipeline.txt stdout compile examples/dplr_d3.json -n 4 --target boolean --precision log:1 --valid-output -o ${pipeline_out}.aig --print-pipeline)
rnncc_golden(compile-print-pipeline-writes-nothing 0 compile_print_pipeline_writes_nothing.txt "file:${pipeline_out}.aig" compile examples/dplr_d3.json -n 4 --target boolean --precision log:1 -o ${pipeline_out}.aig --print-pipeline)
rnncc_golden(compile-print-pipeline-json 0 compile_print_pipeline_json.txt stdout compile examples/attention_most_recent_a.json -n 4 --target threshold --precision log:1 -o ${pipeline_out}.aag --print-pipeline --json)
rnncc_golden(convert-print-pipeline 0 convert_print_pipeline.txt stdout convert tests/cli/circuits/tiny.json ${pipeline_out}.bench --print-pipeline)
rnncc_golden(compile-stats-json-write-passes 0 compile_stats_json_write_passes.txt stdout compile examples/attention_most_recent_a.json -n 4 --target threshold --precision log:1 -o ${pipeline_out}_stats.aag --stats --json)
rnncc_golden(err-print-pipeline-extension 2 err_print_pipeline_extension.txt stderr compile examples/dplr_d3.json -n 4 -o pipeline_out.txt --print-pipeline)
rnncc_golden(err-print-pipeline-model 2 err_print_pipeline_model.txt stderr compile examples/relu_counter.json -n 4 --target threshold --print-pipeline)
rnncc_golden(stats-file 0 stats_file.txt stdout stats tests/cli/circuits/tiny.json)
rnncc_golden(err-length-zero 2 err_length_zero.txt stderr compile examples/parity_deltanet.json -n 0)
rnncc_golden(err-unknown-scan 2 err_unknown_scan.txt stderr compile examples/parity_deltanet.json -n 4 --scan bogus)
rnncc_golden(err-max-gates 2 err_max_gates.txt stderr compile examples/s5_word_problem.json -n 100000 --scan kogge-stone)
rnncc_golden(err-forward-ref 2 err_forward_ref.txt stderr stats tests/cli/circuits/forward_reference.json)
rnncc_golden(err-unknown-gate 2 err_unknown_gate.txt stderr stats tests/cli/circuits/unknown_gate.json)
rnncc_golden(err-compile-nonlinear 2 err_compile_nonlinear.txt stderr compile examples/relu_counter.json -n 4 --target threshold)
# --target boolean / threshold (circuits/compile/target.hpp)
rnncc_golden(compile-relu-arith 0 compile_relu_arith.txt stdout compile examples/relu_counter.json -n 8)
rnncc_golden(compile-threshold 0 compile_threshold.txt stdout compile examples/majority_counter.json -n 16 --target threshold)
rnncc_golden(compile-threshold-log 0 compile_threshold_log.txt stdout compile examples/mamba_diagonal.json -n 16 --target threshold --precision log:1)
rnncc_golden(compile-boolean-log 0 compile_boolean_log.txt stdout compile examples/dplr_d3.json -n 8 --target boolean --precision log:1)
# Which function a circuit computes (issue 27, item 1; docs/semantics.md, "Which function"): the
# compile note and its JSON, `run --scan` (the scan-rounded run beside the sequential one), and
# a model without a scan-rounded function refused naming --scan.
rnncc_golden(compile-boolean-function-json 0 compile_boolean_function_json.txt stdout compile examples/dplr_d3.json -n 8 --target boolean --precision log:1 --scan sklansky --json)
rnncc_golden(run-scan-brent-kung 0 run_scan_brent_kung.txt stdout run examples/dplr_d3.json 01101011 --precision log:1 --scan brent-kung --trace)
rnncc_golden(run-scan-sequential 0 run_scan_sequential.txt stdout run examples/dplr_d3.json 01101011 --precision log:1 --scan sequential)
rnncc_golden(err-run-scan-elman 2 err_run_scan_elman.txt stderr run examples/relu_counter.json ab --precision log:1 --scan sklansky)
# eval --against: a circuit against the model's function of its precision and scan (the
# scan-rounded function for a tree scan), refuted against the wrong one with the scans it equals.
add_test(NAME "cli: eval-against"
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/eval_against.sh $<TARGET_FILE:rnncc>
                 ${CMAKE_CURRENT_BINARY_DIR}/eval-against-test
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
rnncc_golden(compile-boolean-fsm 0 compile_boolean_fsm.txt stdout compile examples/s5_word_problem.json -n 16 --target boolean)
rnncc_golden(compile-boolean-relu 0 compile_boolean_relu.txt stdout compile examples/relu_counter.json -n 8 --target boolean)
rnncc_golden(compile-uhat-threshold 0 compile_uhat_threshold.txt stdout compile examples/attention_most_recent_a.json -n 8 --target threshold --precision log:1)
rnncc_golden(compile-hybrid-arith 0 compile_hybrid_arith.txt stdout compile examples/hybrid_counter_attention.json -n 8)
rnncc_golden(err-boolean-exact 2 err_boolean_exact.txt stderr compile examples/dplr_d3.json -n 4 --target boolean)
rnncc_golden(err-threshold-varying 2 err_threshold_varying.txt stderr compile examples/dplr_d3.json -n 4 --target threshold)
rnncc_golden(err-arith-log 2 err_arith_log.txt stderr compile examples/dplr_d3.json -n 4 --precision log:1)
rnncc_golden(err-precision 2 err_precision.txt stderr compile examples/dplr_d3.json -n 4 --target boolean --precision log:0)
rnncc_golden(err-target 2 err_target.txt stderr compile examples/dplr_d3.json -n 4 --target quantum)
rnncc_golden(err-max-states 2 err_max_states.txt stderr compile examples/relu_counter.json -n 64 --target boolean --max-states 20)
if(RNNCC_WITH_GRAPHVIZ)
  rnncc_golden(draw-dot 0 draw_dot.txt "file:${CMAKE_CURRENT_BINARY_DIR}/tiny.dot" draw tests/cli/circuits/tiny.json -o ${CMAKE_CURRENT_BINARY_DIR}/tiny.dot --highlight critical)
  rnncc_golden(err-draw-format 2 err_draw_format.txt stderr draw tests/cli/circuits/tiny.json -o out.pdf)
endif()

# construct / verify (exit 0 holds, 1 counterexample, 2 bad input)
rnncc_golden(verify-wfa-dplr 0 verify_wfa_dplr.txt stdout verify wfa examples/wfa_binary_value.att --family dplr --exhaustive 4 --random 20 --no-timing --seed 1)
rnncc_golden(verify-wfa-identity 0 verify_wfa_identity.txt stdout verify wfa examples/wfa_count_ab.att --exhaustive 3 --random 10 --identity 2 --identity-length 4 --json --no-timing --seed 1)
rnncc_golden(verify-dwfa 0 verify_dwfa.txt stdout verify dwfa examples/dwfa_mod3.att --exhaustive 4 --random 10 --no-timing --seed 1)
# Spectral claims (issue 16 item 2): the unit-key WFA→DeltaNet construction, where it is
# impossible (a failed claim: exit 1), and the exact spectra of the β-any one as JSON.
rnncc_golden(verify-wfa-deltanet-unit 0 verify_wfa_deltanet_unit.txt stdout verify wfa examples/dwfa_mod3.att --family deltanet --beta-range unit --exhaustive 4 --random 10 --no-timing --seed 1)
rnncc_golden(verify-wfa-deltanet-unit-impossible 1 verify_wfa_deltanet_unit_impossible.txt stdout verify wfa examples/wfa_binary_value.att --family deltanet --beta-range unit --exhaustive 3 --random 10 --no-timing --seed 1)
rnncc_golden(verify-wfa-deltanet-spectral-json 0 verify_wfa_deltanet_spectral_json.txt stdout verify wfa examples/wfa_binary_value.att --family deltanet --exhaustive 3 --random 10 --json --no-timing --seed 1)
rnncc_golden(err-verify-beta-range-family 2 err_verify_beta_range_family.txt stderr verify wfa examples/wfa_count_ab.att --family dplr --beta-range unit)
rnncc_golden(verify-barrington 0 verify_barrington.txt stdout verify barrington examples/formula_majority3.sexp --exhaustive --random 0 --seed 1)
rnncc_golden(verify-barrington-broken 1 verify_barrington_broken.txt stdout verify barrington examples/formula_majority3.sexp --exhaustive --random 0 --defect swapped-cycle --json --seed 1)
rnncc_golden(verify-ben-or-cleve 0 verify_ben_or_cleve.txt stdout verify ben-or-cleve examples/formula_poly.sexp --exhaustive --random 0 --seed 1)
rnncc_golden(verify-graph-walk-broken 1 verify_graph_walk_broken.txt stdout verify graph-walk --variant final-no-promise --exhaustive --random 0 --seed 1 --no-timing)
rnncc_golden(verify-model-against 0 verify_model_against.txt stdout verify model examples/binary_value_wfa.json --against examples/wfa_binary_value.att --exhaustive 5 --random 10 --identity 2 --no-timing --seed 1)
file(RELATIVE_PATH golden_out ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR})
rnncc_golden(construct-wfa 0 construct_wfa.txt stdout construct wfa examples/wfa_count_ab.att --family deltanet -o ${golden_out}/count_ab_deltanet.json)
rnncc_golden(err-verify-exhaustive-cap 2 err_verify_exhaustive_cap.txt stderr verify wfa examples/wfa_count_ab.att --exhaustive 30)
# --no-three-way: the model walk at every length, past the per-string cap (7 174 452 strings of
# length 1..14 in 0.7 s on 2 cores); without it the same range is refused; --max-work still
# bounds it (n steps a string estimated: length 20 is refused).
rnncc_golden(verify-no-three-way 0 verify_no_three_way.txt stdout verify assoc-recall --keys 1 --values 1 --no-proof --no-three-way --exhaustive 14 --random 0 --no-timing --seed 1)
rnncc_golden(err-verify-exhaustive-walk-work 2 err_verify_exhaustive_walk_work.txt stderr verify assoc-recall --keys 1 --values 1 --no-proof --no-three-way --exhaustive 20 --random 0)
rnncc_golden(err-verify-bad-formula 2 err_verify_bad_formula.txt stderr verify barrington "(and x1")
rnncc_golden(err-verify-bad-wfa 2 err_verify_bad_wfa.txt stderr verify wfa tests/cli/models/bad_weight.att)
rnncc_golden(err-verify-family 2 err_verify_family.txt stderr verify wfa examples/wfa_count_ab.att --family lstm)
rnncc_golden(err-construct-kind 2 err_construct_kind.txt stderr construct turing examples/wfa_count_ab.att -o out.json)
# Generated from the construction registry: the KIND lists are complete, `KIND --help` lists that
# kind's options only, and an option of another kind is refused, naming the kinds it belongs to.
rnncc_golden(help-construct 0 help_construct.txt stdout construct --help)
rnncc_golden(help-verify 0 help_verify.txt stdout verify --help)
rnncc_golden(help-construct-mod-count 0 help_construct_mod_count.txt stdout construct mod-count --help)
rnncc_golden(help-verify-matmul3 0 help_verify_matmul3.txt stdout verify matmul3 --help)
rnncc_golden(help-verify-wfa 0 help_verify_wfa.txt stdout verify wfa --help)
rnncc_golden(help-verify-model 0 help_verify_model.txt stdout verify model --help)
rnncc_golden(err-verify-inapplicable 2 err_verify_inapplicable.txt stderr verify matmul3 --k 7 --family pd)
rnncc_golden(err-verify-inapplicable-flag 2 err_verify_inapplicable_flag.txt stderr verify assoc-recall --exhaustive 3 --gated)
rnncc_golden(err-construct-inapplicable 2 err_construct_inapplicable.txt stderr construct dwfa examples/dwfa_mod3.att --family pd -o out.json)
rnncc_golden(err-construct-extra-input 2 err_construct_extra_input.txt stderr construct parity examples/wfa_count_ab.att -o out.json)

# AIGER: EPFL circuits shipped with the tests (tests/data/epfl).
rnncc_golden(stats-aiger 0 stats_aiger.txt stdout stats tests/data/epfl/ctrl.aig --json)
rnncc_golden(err-eval-exhaustive 2 err_eval_exhaustive.txt stderr eval tests/data/epfl/adder.aig --exhaustive)
rnncc_golden(err-eval-device 2 err_eval_device.txt stderr eval tests/cli/circuits/tiny.json --device tpu)
rnncc_golden(err-verify-device 2 err_verify_device.txt stderr verify wfa examples/wfa_count_ab.att --family dplr --device tpu)
rnncc_golden(eval-outputs 0 eval_outputs.txt stdout eval tests/cli/circuits/arith.json --exhaustive --outputs)
rnncc_golden(err-eval-outputs 2 err_eval_outputs.txt stderr eval tests/cli/circuits/arith.json --batch 300000 --outputs)
rnncc_golden(depth-json 0 depth_json.txt stdout depth --arch dplr,relu-rnn --lengths 2..32 --json)
rnncc_golden(depth-threshold 0 depth_threshold.txt stdout depth --arch s4,counter,uhat,pd --lengths 2..64 --target threshold)
rnncc_golden(depth-threshold-notes 0 depth_threshold_notes.txt stderr depth --arch s4,counter,uhat,pd --lengths 2..64 --target threshold)
rnncc_golden(depth-boolean 0 depth_boolean.txt stdout depth --arch pd,relu-rnn,counter --lengths 2..32 --target boolean)
rnncc_golden(err-depth-none 2 err_depth_none.txt stderr depth --arch pd,relu-rnn --lengths 2..16 --target threshold)
rnncc_golden(err-depth-plot-format 2 err_depth_plot_format.txt stderr depth --arch dplr --lengths 2..16 --plot out.jpg)
rnncc_golden(err-depth-arch 2 err_depth_arch.txt stderr depth --arch dplr,transformer --lengths 2..8)
rnncc_golden(err-depth-lengths 2 err_depth_lengths.txt stderr depth --arch dplr --lengths 64..8)
rnncc_golden(depth-model 0 depth_model.txt stdout depth --arch dplr --model examples/dplr_d3.json,examples/majority_counter.json --lengths 2..64)
rnncc_golden(depth-model-threshold 0 depth_model_threshold.txt stdout depth --model examples/majority_counter.json,examples/attention_most_recent_a.json --target threshold --lengths 2..64)
rnncc_golden(err-depth-model-path 2 err_depth_model_path.txt stderr depth --model examples/dplr_d3.json,examples/no_such_model.json --lengths 2..16)
rnncc_golden(err-depth-model-target 2 err_depth_model_target.txt stderr depth --model examples/dplr_d3.json --target threshold --lengths 2..16)
rnncc_golden(err-depth-model-empty 2 err_depth_model_empty.txt stderr depth --model examples/dplr_d3.json, --lengths 2..16)
rnncc_golden(err-depth-few-lengths 2 err_depth_few_lengths.txt stderr depth --arch dplr --lengths 2..8)
rnncc_golden(err-depth-max-gates 2 err_depth_max_gates.txt stderr depth --arch dplr --lengths 2..65536 --max-gates 100000)

# BLIF and ISCAS .bench (circuits/io/blif.hpp, circuits/io/iscas.hpp): convert between formats
# (threshold gates lowered to and/or/xor), read them in stats and eval, and their diagnostics.
rnncc_golden(convert-bench-blif 0 convert_bench_blif.txt "file:${CMAKE_CURRENT_BINARY_DIR}/c17.blif" convert tests/cli/circuits/small.bench ${CMAKE_CURRENT_BINARY_DIR}/c17.blif)
rnncc_golden(convert-threshold-bench 0 convert_threshold_bench.txt "file:${CMAKE_CURRENT_BINARY_DIR}/threshold.bench" convert tests/cli/circuits/threshold.json ${CMAKE_CURRENT_BINARY_DIR}/threshold.bench)
rnncc_golden(stats-blif 0 stats_blif.txt stdout stats tests/cli/circuits/small.blif)
rnncc_golden(eval-bench 0 eval_bench.txt stdout eval tests/cli/circuits/small.bench --exhaustive --outputs)
rnncc_golden(err-blif-cycle 2 err_blif_cycle.txt stderr stats tests/cli/circuits/cycle.blif)
rnncc_golden(err-bench-dff 2 err_bench_dff.txt stderr eval tests/cli/circuits/sequential.bench --exhaustive)
rnncc_golden(err-convert-not-boolean 2 err_convert_not_boolean.txt stderr convert tests/cli/circuits/tiny.json tiny.blif)
rnncc_golden(err-convert-extension 2 err_convert_extension.txt stderr convert tests/cli/circuits/small.blif small.txt)
# Unsigned options refuse signs and values beyond 64 bits; lengths whose inputs alone pass
# --max-gates are refused before any table is built.
rnncc_golden(err-negative-length 2 err_negative_length.txt stderr compile examples/majority_counter.json -n -1 --target threshold)
rnncc_golden(err-negative-steps 2 err_negative_steps.txt stderr verify tm 1RB1LB_1LA1RA --max-steps -5)
rnncc_golden(err-negative-generate 2 err_negative_generate.txt stderr run examples/tm_bb2_hybrid.json ^ --generate -1)
rnncc_golden(err-huge-unsigned 2 err_huge_unsigned.txt stderr verify tm 1RB1LB_1LA1RZ --max-steps 99999999999999999999)
rnncc_golden(err-huge-length 2 err_huge_length.txt stderr compile examples/majority_counter.json -n 1099511627776 --target threshold)
rnncc_golden(err-depth-huge-length 2 err_depth_huge_length.txt stderr depth --arch counter --target threshold --lengths 1099511627776..1099511627776 --csv)
# verify proves linear constructions for every length (issue 13), or refutes them with the
# shortest counterexample; --certificate writes the proof for check-certificate
rnncc_golden(verify-proved 0 verify_proved.txt stdout verify wfa examples/wfa_binary_value.att --family dplr --no-timing --seed 1)
rnncc_golden(verify-proved-json 0 verify_proved_json.txt stdout verify parity --random 5 --no-timing --json --seed 1)
rnncc_golden(verify-refuted-matmul3 1 verify_refuted_matmul3.txt stdout verify matmul3 --no-bos --no-timing --seed 1)
rnncc_golden(verify-refuted-parity 1 verify_refuted_parity.txt stdout verify parity --beta-range "(0,1)" --no-timing --json --seed 1)
rnncc_golden(verify-no-proof 0 verify_no_proof.txt stdout verify wfa examples/wfa_count_ab.att --no-proof --random 10 --seed 1)

# verify KIND --model FILE: a model `construct` wrote (tests/cli/models/count_ab_dplr.json, from
# `construct wfa examples/wfa_count_ab.att --family dplr`), the same with one number edited, and a
# model over another alphabet.
rnncc_golden(verify-wfa-model 0 verify_wfa_model.txt stdout verify wfa examples/wfa_count_ab.att --family dplr --model tests/cli/models/count_ab_dplr.json --exhaustive 4 --random 10 --seed 1 --no-timing)
rnncc_golden(verify-wfa-model-edited 1 verify_wfa_model_edited.txt stdout verify wfa examples/wfa_count_ab.att --family dplr --model tests/cli/models/count_ab_dplr_edited.json --exhaustive 4 --random 0 --no-timing)
rnncc_golden(err-verify-model-alphabet 2 err_verify_model_alphabet.txt stderr verify wfa examples/wfa_count_ab.att --family dplr --model examples/parity_deltanet.json)
# Input-dependent diagonal (Mamba-style) layers at log precision: the TC⁰ route by iterated
# multiplication (circuits/compile/iterated_multiplication.hpp); the function line; refusals.
rnncc_golden(compile-threshold-diagonal 0 compile_threshold_diagonal.txt stdout compile tests/cli/models/mamba_selective.json -n 8 --target threshold --precision log:1)
rnncc_golden(err-threshold-diagonal-exact 2 err_threshold_diagonal_exact.txt stderr compile tests/cli/models/mamba_selective.json -n 8 --target threshold)
# The memory estimate refuses before building (docs/depth.md, "Memory of the diagonal threshold route").
rnncc_golden(err-threshold-memory 2 err_threshold_memory.txt stderr compile tests/cli/models/diagonal_mixed_decays.json -n 40 --target threshold --precision log:1 --max-memory 1024)
rnncc_golden(err-threshold-pd 2 err_threshold_pd.txt stderr compile examples/s5_word_problem.json -n 8 --target threshold --precision log:1)
rnncc_golden(depth-threshold-diagonal 0 depth_threshold_diagonal.txt stdout depth --arch diagonal --lengths 2..16 --target threshold)
rnncc_golden(depth-model-threshold-diagonal 0 depth_model_threshold_diagonal.txt stdout depth --model tests/cli/models/mamba_selective.json --lengths 2..16 --target threshold)
include(${CMAKE_CURRENT_LIST_DIR}/golden_errata.cmake)  # issue 16: errata as results
# Proofs per length by SAT (verify/sat_proof.hpp; docs/constructions.md, "Proofs per length by
# SAT"): proved, refuted (a window too small; a defective TM hybrid), and a refused length.
if(RNNCC_HAVE_CADICAL)
  rnncc_golden(sat-selective-copy 0 sat_selective_copy.txt stdout verify selective-copy --sat 8 --random 5 --seed 1 --no-timing)
  rnncc_golden(sat-selective-copy-window 1 sat_selective_copy_window.txt stdout verify selective-copy --window 2 --sat 8 --random 5 --seed 1 --no-timing)
  rnncc_golden(sat-tm 0 sat_tm.txt stdout verify tm examples/tm_bb2.txt --sat-tape 3 --max-steps 8 --no-timing)
  rnncc_golden(sat-tm-defect 1 sat_tm_defect.txt stdout verify tm examples/tm_bb2.txt --sat-tape 3 --max-steps 8 --defect off-by-one --no-timing)
endif()
rnncc_golden(sat-zero 2 sat_zero.txt stderr verify selective-copy --sat 0)
rnncc_golden(sat-tm-no-steps 2 sat_tm_no_steps.txt stderr verify tm examples/tm_bb2.txt --sat-tape 3)
# k-induction with Z3 (verify/k_induction.hpp): the graph-walk RNN proved past exhaustive reach
# (V = 9: 10¹⁰ strings), the model without its promise not proved (a real run breaks the
# invariant; testing refutes it), and a refused K.
if(RNNCC_HAVE_Z3)
  rnncc_golden(kind-dgc 0 kind_dgc.txt stdout verify dgc --vertices 9 --k-induction 2 --random 5 --seed 1 --no-timing)
  rnncc_golden(kind-dgc-no-promise 1 kind_dgc_no_promise.txt stdout verify dgc --variant final-no-promise --k-induction 3 --random 20 --seed 1 --no-timing)
endif()
rnncc_golden(kind-zero 2 kind_zero.txt stderr verify dgc --k-induction 0)
