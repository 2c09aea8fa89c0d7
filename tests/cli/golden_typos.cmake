# Issue 23, item 7 — a CLI that helps a typo (cli/usage_errors.cpp, algebra/suggest.hpp): an
# unknown command or kind names the nearest one and lists them all; an unknown option names the
# nearest option of that command; a missing command or kind prints the usage line and the list; a
# misspelled value of a choice option names the nearest value. Exit 2 each.
# The list of commands includes `draw` only in builds with Graphviz; a new command changes these
# four files (RNNCC_UPDATE_GOLDEN=1 rewrites them).
if(RNNCC_WITH_GRAPHVIZ)
  rnncc_golden(err-no-subcommand 2 err_no_subcommand.txt stderr)
  rnncc_golden(typo-command 2 typo_command.txt stderr comple examples/parity_deltanet.json -n 8)
  rnncc_golden(typo-command-none 2 typo_command_none.txt stderr frobnicate)
  rnncc_golden(typo-command-prefix 2 typo_command_prefix.txt stderr check x.json)
endif()
rnncc_golden(typo-verify-kind 2 typo_verify_kind.txt stderr verify partiy)
rnncc_golden(typo-verify-kind-case 2 typo_verify_kind_case.txt stderr verify Parity --random 5)
rnncc_golden(typo-construct-kind 2 typo_construct_kind.txt stderr construct dwaf examples/dwfa_mod3.att -o out.json)
rnncc_golden(typo-verify-no-kind 2 typo_verify_no_kind.txt stderr verify)
rnncc_golden(typo-compile-flag 2 typo_compile_flag.txt stderr compile examples/parity_deltanet.json --lenght 8)
rnncc_golden(typo-compile-flag-equals 2 typo_compile_flag_equals.txt stderr compile examples/parity_deltanet.json --lenght=8)
rnncc_golden(typo-run-flag 2 typo_run_flag.txt stderr run examples/parity_deltanet.json 01 --precison log:1)
rnncc_golden(typo-run-flag-prefix 2 typo_run_flag_prefix.txt stderr run examples/parity_deltanet.json 01 --prec log:1)
rnncc_golden(typo-verify-flag 2 typo_verify_flag.txt stderr verify parity --lenght 8)
rnncc_golden(typo-root-flag 2 typo_root_flag.txt stderr --verison)
rnncc_golden(typo-flag-none 2 typo_flag_none.txt stderr depth --frobnicate)
rnncc_golden(typo-target 2 typo_target.txt stderr compile examples/parity_deltanet.json -n 4 --target boolen)
rnncc_golden(typo-scan 2 typo_scan.txt stderr compile examples/parity_deltanet.json -n 4 --scan brent-kong)
rnncc_golden(typo-scan-argument 2 typo_scan_argument.txt stderr compile examples/parity_deltanet.json -n 4 --scan ladner-fisher:2)
rnncc_golden(typo-precision 2 typo_precision.txt stderr run examples/parity_deltanet.json 01 --precision lgo:8)
rnncc_golden(typo-family 2 typo_family.txt stderr verify wfa examples/wfa_count_ab.att --family deltnet)
rnncc_golden(typo-method 2 typo_method.txt stderr equiv examples/wfa_binary_value.att examples/binary_value_wfa.json --method prodcut)
rnncc_golden(typo-arch 2 typo_arch.txt stderr depth --arch diagnal,s4)
