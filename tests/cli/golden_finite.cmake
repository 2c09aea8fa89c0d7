# Every-length equivalence of finite-state models by product search (issue 13, item 4):
# rnncc equiv --method product|auto.
rnncc_golden(equiv-product-proved 0 equiv_product_proved.txt stdout equiv examples/s5_word_problem.json examples/s5_word_problem.json --method product --no-timing)
rnncc_golden(equiv-product-refuted-json 1 equiv_product_refuted_json.txt stdout equiv examples/s5_word_problem.json tests/cli/models/s5_swapped.json --method product --json --no-timing)
rnncc_golden(equiv-auto-nonlinear-finite 0 equiv_auto_nonlinear_finite.txt stdout equiv tests/cli/models/seen_a_sign.json tests/cli/models/seen_a.att --no-timing)
rnncc_golden(err-equiv-product-infinite 2 err_equiv_product_infinite.txt stderr equiv examples/relu_counter.json examples/relu_counter.json --method product)
rnncc_golden(err-equiv-product-attention 2 err_equiv_product_attention.txt stderr equiv examples/hybrid_counter_attention.json examples/hybrid_counter_attention.json --method product)
rnncc_golden(err-equiv-product-modulus 2 err_equiv_product_modulus.txt stderr equiv examples/s5_word_problem.json examples/s5_word_problem.json --method product --modulus 7)
rnncc_golden(err-equiv-linear-nonlinear 2 err_equiv_linear_nonlinear.txt stderr equiv examples/relu_counter.json examples/relu_counter.json --method linear)
