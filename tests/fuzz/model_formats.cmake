# Model, automaton, machine and certificate formats (rnn/, constructions/, verify/).
rnncc_fuzz_target(model_json fuzz_model_json.cpp)
