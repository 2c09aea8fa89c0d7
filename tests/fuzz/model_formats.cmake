# Model, automaton, machine and certificate formats (rnn/, constructions/, verify/).
rnncc_fuzz_target(model_json fuzz_model_json.cpp)
rnncc_fuzz_target(wfa_att fuzz_wfa_att.cpp LIBS rnncc_constructions)
rnncc_fuzz_target(wfa_json fuzz_wfa_json.cpp LIBS rnncc_equiv)
rnncc_fuzz_target(bbchallenge fuzz_bbchallenge.cpp LIBS rnncc_constructions)
rnncc_fuzz_target(certificate fuzz_certificate.cpp LIBS rnncc_equiv)
rnncc_fuzz_target(safetensors fuzz_safetensors.cpp)
