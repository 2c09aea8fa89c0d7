# Issue 16, item 4 — open reductions: matmul3 on the user's generators (a generator file,
# docs/formats.md), the stacked variant, and Barrington / Ben-Or–Cleve on seeded random formulas
# of any depth; every diagnostic of these inputs exits 2 with its message.
set(G tests/cli/generators)
rnncc_golden(verify-matmul3-rational 0 verify_matmul3_rational.txt stdout verify matmul3 --generators ${G}/rational.json --no-timing --seed 1)
rnncc_golden(verify-matmul3-rational-stacked-mod 0 verify_matmul3_rational_stacked_mod.txt stdout verify matmul3 --generators ${G}/rational.json --stacked --modulus 31 --no-timing --seed 1)
rnncc_golden(verify-matmul3-stacked 0 verify_matmul3_stacked.txt stdout verify matmul3 --stacked --no-timing --seed 1)
rnncc_golden(verify-matmul3-permutations-stacked-no-bos 1 verify_matmul3_permutations_stacked_no_bos.txt stdout verify matmul3 --generators ${G}/permutations.json --stacked --no-bos --no-timing --seed 1)
rnncc_golden(verify-barrington-random 0 verify_barrington_random.txt stdout verify barrington --depth 5 --formula-seed 2 --no-timing --seed 1)
rnncc_golden(verify-ben-or-cleve-random 0 verify_ben_or_cleve_random.txt stdout verify ben-or-cleve --depth 4 --formula-seed 2 --no-timing --seed 1)
rnncc_golden(err-generators-row 2 err_generators_row.txt stderr verify matmul3 --generators ${G}/bad_row.json)
rnncc_golden(err-generators-rows 2 err_generators_rows.txt stderr verify matmul3 --generators ${G}/bad_rows.json)
rnncc_golden(err-generators-entry 2 err_generators_entry.txt stderr verify matmul3 --generators ${G}/bad_entry.json)
rnncc_golden(err-generators-float 2 err_generators_float.txt stderr verify matmul3 --generators ${G}/float_entry.json)
rnncc_golden(err-generators-zero-denominator 2 err_generators_zero_denominator.txt stderr verify matmul3 --generators ${G}/zero_denominator.json)
rnncc_golden(err-generators-empty 2 err_generators_empty.txt stderr verify matmul3 --generators ${G}/empty.json)
rnncc_golden(err-generators-too-many 2 err_generators_too_many.txt stderr verify matmul3 --generators ${G}/too_many.json)
rnncc_golden(err-generators-missing 2 err_generators_missing.txt stderr verify matmul3 --generators ${G}/no_such_file.json)
rnncc_golden(err-generators-modulus 2 err_generators_modulus.txt stderr verify matmul3 --generators ${G}/rational.json --modulus 2)
rnncc_golden(err-formula-none 2 err_formula_none.txt stderr verify barrington)
rnncc_golden(err-formula-both 2 err_formula_both.txt stderr verify ben-or-cleve x1 --depth 2)
rnncc_golden(err-formula-variables 2 err_formula_variables.txt stderr verify barrington --variables 3)
rnncc_golden(err-formula-depth 2 err_formula_depth.txt stderr verify barrington --depth 25)
file(RELATIVE_PATH openred_out ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR})
rnncc_golden(construct-barrington-random 0 construct_barrington_random.txt stdout construct barrington --depth 3 --formula-seed 4 -o ${openred_out}/barrington_random.json)
rnncc_golden(construct-matmul3-generators-stacked 0 construct_matmul3_generators_stacked.txt stdout construct matmul3 --generators ${G}/rational.json --stacked -o ${openred_out}/matmul3_rational_stacked.json)

# Label `slow` (tests/CMakeLists.txt): 124 s under ASan + UBSan (clean clone, 2026-12-02);
# the Release run checks these goldens, the sanitizer run the same paths through faster cases.
set_tests_properties("cli: verify-matmul3-stacked" PROPERTIES LABELS slow)
