// Claims about models a user brings: "MODEL computes the WFA's function" (rnncc verify model).
#pragma once

#include "constructions/construction.hpp"
#include "constructions/registry.hpp"
#include "constructions/wfa.hpp"

namespace rnncc {

// X = the model (read symbol by symbol), f = the WFA; the output compared is the model's
// acceptance entry (row, col) at the last position. The alphabets must have the same symbols
// (InputError otherwise, naming the missing ones); identity testing is offered when the model
// is one LRNN layer with a token-independent readout.
Construction model_against_wfa(const Model& model, const Wfa& wfa);

// Adds the `model` kind (verify only): INPUT a model file, --against the WFA.
void register_subjects(Registry& registry);

// Every kind `rnncc construct` and `rnncc verify` offer: register_all, then register_subjects.
const Registry& verify_registry();

}  // namespace rnncc
