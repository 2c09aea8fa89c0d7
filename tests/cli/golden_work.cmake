# Issue 25, item 3 — work and memory estimates that model the real cost: each case the issue
# measured running away is refused up front (exit 2, the estimate and the option that raises
# the limit) or now runs fast; the input size limit of every file reader. Memory refusals give
# --max-memory explicitly: its default (half the machine's memory) would make the text differ
# from machine to machine. docs/reliability.md has the table (before → after).
string(REPEAT "1" 10000 tm_ones)
string(REPEAT "ab" 30000 ab_60k)
rnncc_golden(work-tm-steps 2 work_tm_steps.txt stderr verify tm examples/tm_bb5.txt --max-steps 100000)
rnncc_golden(work-tm-memory 2 work_tm_memory.txt stderr verify tm examples/tm_bb5.txt --max-steps 100000 --index --max-memory 1)
rnncc_golden(work-tm-input 0 work_tm_input.txt stdout verify tm examples/tm_bb5.txt --max-steps 100 --input ${tm_ones})
rnncc_golden(work-run-argument 2 work_run_argument.txt stderr run examples/s4_decay.json ${ab_60k})
rnncc_golden(work-run-d1024 2 work_run_d1024.txt stderr run tests/cli/models/diagonal_d1024.json ${ab_60k})
rnncc_golden(work-run-memory 2 work_run_memory.txt stderr run examples/binary_value_wfa.json ${tm_ones} --max-memory 16)
rnncc_golden(work-verify-wfa-chain 2 work_verify_wfa_chain.txt stderr verify wfa tests/cli/models/chain_1448.att --random 3 --length 3)
rnncc_golden(work-verify-wfa-chain-deltanet 2 work_verify_wfa_chain_deltanet.txt stderr verify wfa tests/cli/models/chain_1448.att --family deltanet --random 3 --length 3 --no-proof --max-memory 4096)
rnncc_golden(work-construct-wfa-chain-dplr 2 work_construct_wfa_chain_dplr.txt stderr construct wfa tests/cli/models/chain_1448.att --family dplr -o ${CMAKE_CURRENT_BINARY_DIR}/never.json --max-memory 4096)
rnncc_golden(work-equiv-memory 2 work_equiv_memory.txt stderr equiv examples/wfa_count_ab.att examples/wfa_count_ab.att --max-memory 0)
rnncc_golden(work-minimize-memory 2 work_minimize_memory.txt stderr minimize examples/wfa_count_ab.att --max-memory 0)
# The input size limit (rnn/json_cursor.hpp, read_file_bytes): /dev/zero is read up to the
# limit and refused; a regular file larger than it is refused by its size.
rnncc_golden(work-stats-dev-zero 2 work_stats_dev_zero.txt stderr stats /dev/zero)
rnncc_golden(work-run-dev-zero 2 work_run_dev_zero.txt stderr run /dev/zero a --max-input 1)
set_tests_properties("cli: work-verify-wfa-chain" "cli: work-verify-wfa-chain-deltanet" "cli: work-construct-wfa-chain-dplr" "cli: work-tm-input" PROPERTIES LABELS slow)

# The CLI-only estimators against the work they estimate (cli/limits.hpp).
rnncc_test_binary(cli_limits_tests test_limits.cpp)
target_link_libraries(cli_limits_tests PRIVATE rnncc_cli_boundary rnncc_constructions rnncc_equiv)
