#include "verify/compared_output.hpp"

#include <vector>

namespace rnncc {

ComparedOutput compared_output(const Construction& c) {
  ComparedOutput r;
  const LinearRepresentation full = from_model(c.model);
  r.model_outputs = full.outputs;
  const std::size_t cols = output_cols(c.model.layers.back().layer);
  r.x = select_outputs(full, {c.out_row * cols + c.out_col});
  const InputMapSpec map =
      input_map_from_encode(c.target.alphabet.symbols(), c.encode, c.encode_period);
  bool identity = map.prefix.empty() && map.control.states == 1 &&
                  c.model.alphabet.symbols() == c.target.alphabet.symbols();
  for (std::size_t s = 0; identity && s < c.target.alphabet.size(); ++s)
    identity = map.tokens[0][s] == std::vector<std::size_t>{s};
  r.one_token_each = identity;
  if (!identity) r.x = through_input_map(r.x, map);
  return r;
}

}  // namespace rnncc
