// A construction's model X as a linear representation of the output it is compared on
// ((out_row, out_col) of the last layer) over f's symbols: what the every-length decision
// (verify_proofs.cpp) and prefix sharing (prefix_check.cpp) both compare against f.
#pragma once

#include <cstddef>

#include "constructions/construction.hpp"
#include "verify/linear_representation.hpp"

namespace rnncc {

struct ComparedOutput {
  LinearRepresentation x;  // the compared output over f's symbols
  // X reads f's symbols one token each, in the same order: no input map was composed (and, for
  // one LRNN layer with one output, the certificate checker can recompute X's states).
  bool one_token_each = false;
  std::size_t model_outputs = 0;  // outputs of X's own representation, before the selection
};

// from_model(X), the compared output selected, then read through encode's input map
// (input_map_from_encode with encode_period) unless one_token_each. Throws NotLinearError (X is
// not linear in its state), std::invalid_argument (encode is not a sequential input map) and
// std::out_of_range (the compared output is not in X's representation).
ComparedOutput compared_output(const Construction& c);

}  // namespace rnncc
