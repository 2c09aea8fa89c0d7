# Words that mean what they say (issue 24, items 1 and 4): a certificate names its field and a
# claim over Q refuses one over F_p; proved / refuted / tested; equiv --compare accept; symbols
# matched by name; minimize's least dimension.
set(M tests/cli/models)
# Item 1: ones_a (f ≡ 1) and threes_a (g = 3ⁿ) differ over Q but agree modulo 2.
rnncc_golden(equiv-ones-threes-q 1 equiv_ones_threes_q.txt stdout equiv ${M}/ones_a.att ${M}/threes_a.att --no-timing)
rnncc_golden(equiv-ones-threes-mod2 0 equiv_ones_threes_mod2.txt stdout equiv ${M}/ones_a.att ${M}/threes_a.att --modulus 2 --no-timing)
rnncc_golden(equiv-ones-threes-mod2-json 0 equiv_ones_threes_mod2_json.txt stdout equiv ${M}/ones_a.att ${M}/threes_a.att --modulus 2 --json --no-timing)
rnncc_golden(equiv-ones-threes-mod2-certificate 0 ones_threes_mod2.cert.json "file:${CMAKE_CURRENT_BINARY_DIR}/ones_threes_mod2.cert.json" equiv ${M}/ones_a.att ${M}/threes_a.att --modulus 2 --certificate ${CMAKE_CURRENT_BINARY_DIR}/ones_threes_mod2.cert.json --no-timing)
rnncc_golden(check-certificate-mod2-over-q 1 check_certificate_mod2_over_q.txt stderr check-certificate ${M}/ones_a.att ${M}/threes_a.att tests/cli/golden/ones_threes_mod2.cert.json)
rnncc_golden(check-certificate-mod2-over-q-json 1 check_certificate_mod2_over_q_json.txt stdout check-certificate ${M}/ones_a.att ${M}/threes_a.att tests/cli/golden/ones_threes_mod2.cert.json --json)
rnncc_golden(check-certificate-mod2-field-fp 0 check_certificate_mod2_field_fp.txt stdout check-certificate ${M}/ones_a.att ${M}/threes_a.att tests/cli/golden/ones_threes_mod2.cert.json --field F_p)
rnncc_golden(equiv-ones-two61-certificate 0 ones_two61.cert.json "file:${CMAKE_CURRENT_BINARY_DIR}/ones_two61.cert.json" equiv ${M}/ones_a.att ${M}/two61_a.att --modulus 2305843009213693951 --certificate ${CMAKE_CURRENT_BINARY_DIR}/ones_two61.cert.json --no-timing)
rnncc_golden(check-certificate-two61-over-q 1 check_certificate_two61_over_q.txt stderr check-certificate ${M}/ones_a.att ${M}/two61_a.att tests/cli/golden/ones_two61.cert.json)
rnncc_golden(check-certificate-json 0 check_certificate_json.txt stdout check-certificate examples/binary_value_wfa.json examples/wfa_binary_value.att tests/cli/models/binary_value.cert.json --json)
rnncc_golden(err-check-certificate-field 2 err_check_certificate_field.txt stderr check-certificate ${M}/ones_a.att ${M}/threes_a.att tests/cli/golden/ones_threes_mod2.cert.json --field R)
# Item 4 (a), (f): a wrong model whose counterexample (a^13) is beyond the tested length.
rnncc_golden(verify-no-proof-tested 0 verify_no_proof_tested.txt stdout verify model ${M}/zero_a.json --against ${M}/cycle13.att --no-proof --exhaustive 12 --random 0 --seed 1)
rnncc_golden(verify-no-proof-tested-json 0 verify_no_proof_tested_json.txt stdout verify model ${M}/zero_a.json --against ${M}/cycle13.att --no-proof --exhaustive 12 --random 0 --seed 1 --json)
rnncc_golden(verify-zero-vs-cycle13-refuted 1 verify_zero_vs_cycle13_refuted.txt stdout verify model ${M}/zero_a.json --against ${M}/cycle13.att --random 0 --seed 1 --no-timing)
# (g): a given seed, identity testing: the bound does not cover an adversary who knows it.
rnncc_golden(verify-identity-seed-given 0 verify_identity_seed_given.txt stdout verify wfa examples/wfa_count_ab.att --no-proof --random 5 --identity 2 --identity-length 3 --seed 7)
# (c): minimize counts no ε: a 4-dim LRNN and a 5-state WFA equal to it on nonempty strings.
rnncc_golden(minimize-cycle4 0 minimize_cycle4.txt stdout minimize ${M}/cycle4.json)
rnncc_golden(minimize-cycle4-eps-json 0 minimize_cycle4_eps_json.txt stdout minimize ${M}/cycle4_eps.att --json)
# (d): --compare accept — proved (equal outputs; finite-state), refuted, tested.
rnncc_golden(equiv-accept-proved-outputs 0 equiv_accept_proved_outputs.txt stdout equiv examples/binary_value_wfa.json examples/wfa_binary_value.att --compare accept --no-timing)
rnncc_golden(equiv-accept-finite 0 equiv_accept_finite.txt stdout equiv ${M}/parity_b_pm1.att ${M}/parity_b_5m2.att --compare accept --no-timing)
rnncc_golden(equiv-accept-refuted 1 equiv_accept_refuted.txt stdout equiv examples/binary_value_wfa.json ${M}/binary_value_minus_one.json --compare accept --no-timing)
rnncc_golden(equiv-accept-tested 0 equiv_accept_tested.txt stdout equiv examples/binary_value_wfa.json ${M}/binary_value_twice.json --compare accept --accept-length 8 --no-timing)
rnncc_golden(equiv-accept-tested-json 0 equiv_accept_tested_json.txt stdout equiv examples/binary_value_wfa.json ${M}/binary_value_twice.json --compare accept --accept-length 8 --json --no-timing)
rnncc_golden(err-equiv-accept-modulus 2 err_equiv_accept_modulus.txt stderr equiv examples/binary_value_wfa.json ${M}/binary_value_twice.json --compare accept --modulus 7)
rnncc_golden(err-equiv-accept-length 2 err_equiv_accept_length.txt stderr equiv examples/binary_value_wfa.json ${M}/binary_value_twice.json --accept-length 8)
# (e): a reordered alphabet is matched by name; different symbol sets are refused.
rnncc_golden(equiv-reordered 0 equiv_reordered.txt stdout equiv examples/wfa_binary_value.att ${M}/binary_value_reordered.json --no-timing)
rnncc_golden(err-equiv-reordered-certificate 2 err_equiv_reordered_certificate.txt stderr equiv examples/wfa_binary_value.att ${M}/binary_value_reordered.json --certificate reordered.cert.json)
