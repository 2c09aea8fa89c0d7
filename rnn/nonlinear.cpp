#include "rnn/nonlinear.hpp"

#include "rnn/families.hpp"

namespace rnncc {

std::string to_string(Activation a) {
  return a == Activation::relu ? "relu" : "sign";
}

std::optional<Activation> parse_activation(std::string_view name) {
  if (name == "relu") return Activation::relu;
  if (name == "sign") return Activation::sign;
  return std::nullopt;
}

Rational relu(const Rational& x) {
  return x > 0 ? x : Rational(0);
}
Rational sign_activation(const Rational& x) {
  return Rational(x.sign());
}
Rational hard_sigmoid(const Rational& x) {
  Rational y = x / 4 + Rational(1, 2);
  return y < 0 ? Rational(0) : y > 1 ? Rational(1) : y;
}
Rational hard_tanh(const Rational& x) {
  return x < -1 ? Rational(-1) : x > 1 ? Rational(1) : x;
}

namespace {

const std::size_t L = ParamError::layer_level;

void expect(const Matrix<Rational>& m, std::size_t rows, std::size_t cols,
            const std::string& field) {
  if (m.rows() != rows || m.cols() != cols)
    throw ParamError(L, field,
                     "expected " + std::to_string(rows) + "×" + std::to_string(cols) +
                         " matrix, got " + shape_string(m));
}

void check_map(const AffineMap& f, std::size_t d, std::size_t k, const std::string& prefix) {
  expect(f.W, d, d, prefix + "W");
  expect(f.U, d, k, prefix + "U");
  expect(f.bias, d, 1, prefix + "bias");
}

void check_readout(const Matrix<Rational>& c, const Matrix<Rational>& bias, std::size_t d) {
  if (c.rows() == 0 || c.cols() != d)
    throw ParamError(L, "readout",
                     "expected r×" + std::to_string(d) + " matrix (r ≥ 1), got " + shape_string(c));
  if (!bias.empty()) expect(bias, c.rows(), 1, "readout_bias");
}

}  // namespace

void check_layer(const ElmanLayer& l) {
  if (l.d == 0) throw ParamError(L, "d", "expected a state dimension d ≥ 1");
  check_map(l.pre, l.d, l.features, "");
  expect(l.initial_state, l.d, 1, "initial_state");
  check_readout(l.readout, l.readout_bias, l.d);
}

void check_layer(const LstmLayer& l) {
  if (l.d == 0) throw ParamError(L, "d", "expected a state dimension d ≥ 1");
  check_map(l.forget, l.d, l.features, "gates/f/");
  check_map(l.input, l.d, l.features, "gates/i/");
  check_map(l.output, l.d, l.features, "gates/o/");
  check_map(l.cell, l.d, l.features, "gates/g/");
  expect(l.initial_hidden, l.d, 1, "initial_state/h");
  expect(l.initial_cell, l.d, 1, "initial_state/c");
  check_readout(l.readout, l.readout_bias, l.d);
}

}  // namespace rnncc
