// Seeded random models of every LRNN family, shared by the evaluator and compiler tests.
#pragma once

#include <random>
#include <stdexcept>

#include "rnn/families.hpp"
#include "rnn/model.hpp"
#include "tests/support.hpp"

namespace rnncc::test {

inline Vector random_vector(std::mt19937_64& rng, std::size_t n) {
  Vector v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(test::small_rational(rng));
  return v;
}
inline Matrix<Rational> random_matrix(std::mt19937_64& rng, std::size_t r, std::size_t c) {
  Matrix<Rational> m(r, c);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) m(i, j) = test::small_rational(rng);
  return m;
}

inline const Family all_families[] = {Family::general, Family::diagonal, Family::s4,
                                      Family::mamba2,  Family::gla,      Family::pd,
                                      Family::dplr,    Family::deltanet, Family::gated_deltanet,
                                      Family::kda,     Family::rwkv7};

// A random layer of `family` over `k` features.
inline LrnnLayer random_layer(std::mt19937_64& rng, Family family, std::size_t d, std::size_t m,
                              std::size_t k) {
  LayerFrame f;
  f.d = d;
  f.m = m;
  f.features = k;
  f.initial_state = random_matrix(rng, d, m);
  f.readout = random_matrix(rng, 2, d);
  f.readout_bias = random_matrix(rng, 2, m);
  if (rng() % 2)
    for (std::size_t i = 0; i < k; ++i) f.readout_feature.push_back(random_matrix(rng, 2, d));
  auto gate = [&] { return Rational(static_cast<long>(rng() % 4) + 1, 4); };  // (0,1]
  switch (family) {
    case Family::general: {
      std::vector<AffineStep> s;
      for (std::size_t i = 0; i < k; ++i)
        s.push_back({random_matrix(rng, d, d), random_matrix(rng, d, m)});
      return make_general(f, s);
    }
    case Family::diagonal:
    case Family::gla:
    case Family::mamba2:
    case Family::s4: {
      std::vector<DecayStep> s;
      Vector shared = random_vector(rng, d);
      for (std::size_t i = 0; i < k; ++i)
        s.push_back(
            {family == Family::s4 ? shared : random_vector(rng, family == Family::mamba2 ? 1 : d),
             random_matrix(rng, d, m)});
      return make_diagonal(family, f, s);
    }
    case Family::pd: {
      std::vector<PdStep> s;
      for (std::size_t i = 0; i < k; ++i) {
        std::vector<std::size_t> image(d);
        for (auto& x : image) x = rng() % d;
        s.push_back({image, random_vector(rng, d), random_matrix(rng, d, m)});
      }
      return make_pd(f, s, false);
    }
    case Family::dplr: {
      std::vector<DplrStep> s;
      for (std::size_t i = 0; i < k; ++i)
        s.push_back({random_vector(rng, d), random_vector(rng, d), random_vector(rng, d),
                     random_matrix(rng, d, m)});
      return make_dplr(f, s);
    }
    case Family::deltanet:
    case Family::gated_deltanet:
    case Family::kda: {
      std::vector<DeltaStep> s;
      for (std::size_t i = 0; i < k; ++i) {
        DeltaStep st{{},
                     Rational(static_cast<long>(rng() % 8) + 1, 4),
                     random_vector(rng, d),
                     random_vector(rng, m)};
        if (family == Family::gated_deltanet) st.alpha = {gate()};
        if (family == Family::kda)
          for (std::size_t j = 0; j < d; ++j) st.alpha.push_back(gate());
        s.push_back(st);
      }
      return make_delta(family, f, s, BetaRange::half_open_0_2);
    }
    case Family::rwkv7: {
      std::vector<Rwkv7Step> s;
      for (std::size_t i = 0; i < k; ++i)
        s.push_back({random_vector(rng, d), random_vector(rng, d), random_vector(rng, d),
                     random_matrix(rng, d, m)});
      return make_rwkv7(f, s);
    }
  }
  throw std::logic_error("family");
}

// Integers in −2..2, for the paths that need integer parameters (checked int64).
inline Matrix<Rational> random_int_matrix(std::mt19937_64& rng, std::size_t r, std::size_t c) {
  Matrix<Rational> m(r, c);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) m(i, j) = Rational(static_cast<long>(rng() % 5) - 2);
  return m;
}

// A general-family layer's parameters redrawn as integers in −2..2 (A, B, S_0, a readout of
// `rows` rows and its bias; no per-feature readout).
inline void integer_parameters(std::mt19937_64& rng, LrnnLayer& l, std::size_t rows) {
  for (auto& A : l.A) A = random_int_matrix(rng, l.d, l.d);
  for (auto& B : l.B) B = random_int_matrix(rng, l.d, l.m);
  l.initial_state = random_int_matrix(rng, l.d, l.m);
  l.readout = random_int_matrix(rng, rows, l.d);
  l.readout_bias = random_int_matrix(rng, rows, l.m);
  l.readout_feature.clear();
}

inline Model single_layer_model(LrnnLayer layer, std::size_t sigma) {
  Model model;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < sigma; ++i)
    names.push_back(std::string(1, static_cast<char>('a' + i)));
  model.alphabet = Alphabet(names, "test");
  model.layers.push_back({std::nullopt, std::move(layer)});
  return model;
}

// A random one-layer model every compiler takes (no per-symbol readouts), its acceptance test
// drawn too.
inline Model random_single_layer_model(std::mt19937_64& rng, Family family, std::size_t d,
                                       std::size_t m, std::size_t sigma) {
  LrnnLayer l = random_layer(rng, family, d, m, sigma);
  l.readout_feature.clear();  // per-symbol readouts are refused by the boolean route
  Model model = single_layer_model(std::move(l), sigma);
  model.accept.mode = rng() % 2 ? Acceptance::Mode::positive : Acceptance::Mode::zero;
  return model;
}

inline std::vector<std::size_t> random_input(std::mt19937_64& rng, std::size_t n,
                                             std::size_t sigma) {
  std::vector<std::size_t> w(n);
  for (auto& x : w) x = rng() % sigma;
  return w;
}

}  // namespace rnncc::test
