// Nonlinear RNN layers with piecewise-linear activations, so exact arithmetic applies
// (docs/semantics.md, "Nonlinear RNNs"). Inputs z_t ∈ Q^k as for LRNN layers.
//
// Elman:  h_t = act(W h_{t−1} + U z_t + b),  act = ReLU (max(0,x)) or sign (∈ {−1, 0, 1});
//         y_t = C h_t + c₀.                                     [MJLLS26 §3: ReLU RNNs]
// LSTM-style cell with hard gates:
//         f = σ̂(W_f h + U_f z + b_f), i = σ̂(…_i), o = σ̂(…_o), g = tanĥ(W_g h + U_g z + b_g)
//         c_t = f ⊙ c_{t−1} + i ⊙ g,   h_t = o ⊙ tanĥ(c_t),   y_t = C h_t + c₀
//         σ̂(x) = clamp(x/4 + 1/2, 0, 1)  (slope σ'(0) = 1/4),   tanĥ(x) = clamp(x, −1, 1).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"

namespace rnncc {

enum class Activation { relu, sign };
std::string to_string(Activation a);  // "relu" | "sign"
std::optional<Activation> parse_activation(std::string_view name);

// The activations on exact rationals; evaluators apply them to the exact value of their
// argument and round once (algebra/fixed_point.hpp).
Rational relu(const Rational& x);
Rational sign_activation(const Rational& x);
Rational hard_sigmoid(const Rational& x);
Rational hard_tanh(const Rational& x);

struct AffineMap {        // x ↦ W h + U z + b
  Matrix<Rational> W;     // d×d
  Matrix<Rational> U;     // d×k
  Matrix<Rational> bias;  // d×1
};

struct ElmanLayer {
  Activation activation = Activation::relu;
  std::size_t d = 0, features = 0;
  AffineMap pre;                   // W h + U z + b
  Matrix<Rational> initial_state;  // h_0, d×1
  Matrix<Rational> readout;        // C, r×d
  Matrix<Rational> readout_bias;   // c₀, r×1 or empty
  std::size_t output_rows() const { return readout.rows(); }
  std::size_t output_cols() const { return 1; }
};

struct LstmLayer {
  std::size_t d = 0, features = 0;
  AffineMap forget, input, output, cell;  // f, i, o, g
  Matrix<Rational> initial_hidden;        // h_0, d×1
  Matrix<Rational> initial_cell;          // c_0, d×1
  Matrix<Rational> readout;               // C, r×d
  Matrix<Rational> readout_bias;          // c₀, r×1 or empty
  std::size_t output_rows() const { return readout.rows(); }
  std::size_t output_cols() const { return 1; }
};

// Shape checks; throw ParamError (rnn/families.hpp) naming the field.
void check_layer(const ElmanLayer& layer);
void check_layer(const LstmLayer& layer);

}  // namespace rnncc
