# Issue 14 — model, automaton, machine and certificate formats: the inputs the issue names
# answer within seconds, and untrusted input ends in a diagnostic with exit code 2.
rnncc_golden(model-input-run-diagonal-d1024 0 model_input_run_diagonal_d1024.txt stdout run tests/cli/models/diagonal_d1024.json aabbb)
rnncc_golden(model-input-verify-sparse-wfa 0 model_input_verify_sparse_wfa.txt stdout verify wfa tests/cli/models/sparse_100.att --seed 1 --no-timing)
rnncc_golden(model-input-deep-json 2 model_input_deep_json.txt stderr run tests/cli/models/deep_nested.json a)
rnncc_golden(model-input-huge-layer 2 model_input_huge_layer.txt stderr run tests/cli/models/huge_layer.json a)
rnncc_golden(model-input-att-not-utf8 2 model_input_att_not_utf8.txt stderr verify wfa tests/cli/models/not_utf8.att)
rnncc_golden(model-input-tm-not-utf8 2 model_input_tm_not_utf8.txt stderr verify tm tests/cli/models/not_utf8_tm.txt)
rnncc_golden(model-input-certificate-deep 2 model_input_certificate_deep.txt stderr check-certificate examples/binary_value_wfa.json examples/wfa_binary_value.att tests/cli/models/deep_certificate.json)
rnncc_golden(model-input-number-overflow 2 model_input_number_overflow.txt stderr run tests/cli/models/number_overflow.json a)
# 47 s under the sanitizers (the 100-state sparse WFA's every-length proof); the unit case
# "verify on the 100-state sparse WFA of issue 14 answers within seconds" is labelled alike.
set_tests_properties("cli: model-input-verify-sparse-wfa" PROPERTIES LABELS slow)
