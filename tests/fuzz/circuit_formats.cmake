# Circuit formats (circuits/io/): one target per reader the CLI calls, plus the round trip.
set(_circuit_fuzz_libs rnncc_gpu rnncc_circuits)
foreach(_name circuit_json aiger_ascii aiger_binary blif bench sexpr circuit_roundtrip)
  rnncc_fuzz_target(${_name} fuzz_${_name}.cpp LIBS ${_circuit_fuzz_libs})
endforeach()
