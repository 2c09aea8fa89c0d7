# Issue 16 item 1 — errata as results: `verify KIND --as-printed` (the paper's version beside
# the corrected one) and the position router of 2×2 rational reflections (docs/errata.md).
rnncc_golden(errata-matmul3 0 errata_matmul3.txt stdout verify matmul3 --as-printed --no-timing --seed 1)
rnncc_golden(errata-graph-walk 0 errata_graph_walk.txt stdout verify graph-walk --as-printed --no-timing --seed 1)
rnncc_golden(errata-router 0 errata_router.txt stdout verify router --as-printed --no-timing --seed 1)
rnncc_golden(errata-router-json 0 errata_router_json.txt stdout verify router --as-printed --no-timing --seed 1 --json)
rnncc_golden(router-1404 1 router_1404.txt stdout verify router --period 1404 --no-timing --seed 1)
rnncc_golden(router-file-period-12 0 router_file_period_12.txt stdout verify router --reflections tests/cli/models/router_orders.json --period 12 --no-timing --seed 1)
rnncc_golden(router-inline-rotation 1 router_inline_rotation.txt stdout verify router --reflections "[[[\"3/5\",\"-4/5\"],[\"4/5\",\"3/5\"]]]" --period 1404 --no-timing --seed 1)
rnncc_golden(help-verify-router 0 help_verify_router.txt stdout verify router --help)
rnncc_golden(err-router-not-2x2 2 err_router_not_2x2.txt stderr verify router --reflections tests/cli/models/router_not_2x2.json)
rnncc_golden(err-router-malformed 2 err_router_malformed.txt stderr verify router --reflections tests/cli/models/router_malformed.json)
rnncc_golden(err-router-not-rational 2 err_router_not_rational.txt stderr verify router --reflections "[[[\"sqrt(2)/2\",\"0\"],[\"0\",\"1\"]]]")
rnncc_golden(err-router-float 2 err_router_float.txt stderr verify router --reflections "[[[0.7071,0],[0,1]]]")
rnncc_golden(err-router-period-zero 2 err_router_period_zero.txt stderr verify router --period 0)
rnncc_golden(err-router-period-negative 2 err_router_period_negative.txt stderr verify router --period -1404)
rnncc_golden(err-router-no-file 2 err_router_no_file.txt stderr verify router --reflections tests/cli/models/no_such_router.json)
rnncc_golden(err-as-printed-unknown-kind 2 err_as_printed_unknown_kind.txt stderr verify parity --as-printed)
rnncc_golden(err-as-printed-certificate 2 err_as_printed_certificate.txt stderr verify matmul3 --as-printed --certificate tests/cli/cert.json)

# Label `slow` (tests/CMakeLists.txt): 98 and 96 s under ASan + UBSan (clean clone, 2026-12-02);
# the Release run checks these goldens, the sanitizer run the same paths through faster cases.
set_tests_properties("cli: errata-router" "cli: errata-router-json" PROPERTIES LABELS slow)
