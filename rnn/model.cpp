#include "rnn/model.hpp"

namespace rnncc {

std::size_t input_features(const Layer& layer) {
  return std::visit([](const auto& l) { return l.features; }, layer);
}
std::size_t output_rows(const Layer& layer) {
  return std::visit([](const auto& l) { return l.output_rows(); }, layer);
}
std::size_t output_cols(const Layer& layer) {
  return std::visit([](const auto& l) { return l.output_cols(); }, layer);
}

std::string layer_kind(const Layer& layer) {
  struct Kind {
    std::string operator()(const LrnnLayer& l) const { return "lrnn/" + to_string(l.family); }
    std::string operator()(const ElmanLayer& l) const { return "elman/" + to_string(l.activation); }
    std::string operator()(const LstmLayer&) const { return "lstm"; }
    std::string operator()(const AttentionLayer& l) const {
      return "attention/" + to_string(l.kind);
    }
  };
  return std::visit(Kind{}, layer);
}

}  // namespace rnncc
