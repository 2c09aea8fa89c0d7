#include "constructions/retrieval.hpp"

#include <algorithm>
#include <string>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "constructions/registry.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"

namespace rnncc {

namespace {

Rational q(long x) {
  return Rational(x);
}
Rational q(std::size_t x) {
  return Rational(static_cast<long>(x));
}

Matrix<Rational> zeros(std::size_t rows, std::size_t cols) {
  return Matrix<Rational>(rows, cols, Rational(0));
}

Matrix<Rational> identity(std::size_t n) {
  Matrix<Rational> m = zeros(n, n);
  for (std::size_t i = 0; i < n; ++i) m(i, i) = 1;
  return m;
}

Matrix<Rational> column(const std::vector<Rational>& v) {
  Matrix<Rational> m = zeros(v.size(), 1);
  for (std::size_t i = 0; i < v.size(); ++i) m(i, 0) = v[i];
  return m;
}

// A `diagonal` layer with S_0 = 0 and readout C = I (y_t = S_t): one (decay, B) per feature.
LrnnLayer diagonal_layer(std::size_t d, std::vector<DecayStep> steps) {
  LayerFrame frame;
  frame.d = d;
  frame.m = 1;
  frame.features = steps.size();
  frame.initial_state = zeros(d, 1);
  frame.readout = identity(d);
  return make_diagonal(Family::diagonal, std::move(frame), std::move(steps));
}

// X's one-hot inputs for encode = identity: model input (t, σ) is f's input x[t, σ].
std::function<std::vector<InputSource>(std::size_t)> identity_forms(std::size_t sigma) {
  return [sigma](std::size_t n) {
    std::vector<InputSource> out(n * sigma);
    for (std::size_t i = 0; i < n * sigma; ++i) out[i].variables = {static_cast<std::uint32_t>(i)};
    return out;
  };
}

std::string letter(std::size_t i, char base) {
  return std::string(1, static_cast<char>(base + static_cast<int>(i)));
}

// The largest |entry| of every LRNN state, every layer output and every attention score
// (q_tᵀk_s + λs over the visible s) on `input`, in exact arithmetic: the figure behind the
// precision claims (an integer model whose values stay below 2^b needs b + 1 bits).
Rational largest_magnitude(const Model& model, const std::vector<std::size_t>& input) {
  const RationalField Q;
  const auto trace = evaluate(model, Q, input);
  Rational best = 0;
  auto see = [&](const Rational& x) { best = std::max(best, Rational(abs(x))); };
  for (std::size_t l = 0; l < model.layers.size(); ++l) {
    for (const auto& s : trace.layers[l].states)
      for (const Rational& x : s.data()) see(x);
    for (const auto& y : trace.layers[l].outputs)
      for (const Rational& x : y.data()) see(x);
    const auto* att = std::get_if<AttentionLayer>(&model.layers[l].layer);
    if (!att || l == 0) continue;
    const InputMap& in = *model.layers[l].input;
    std::vector<Matrix<Rational>> z;  // the attention layer's inputs z_t = W vec(y_t) + b
    for (const auto& y : trace.layers[l - 1].outputs) {
      Matrix<Rational> zt = zeros(in.weights.rows(), 1);
      for (std::size_t i = 0; i < in.weights.rows(); ++i) {
        Rational acc = in.bias.rows() ? in.bias(i, 0) : Rational(0);
        for (std::size_t j = 0; j < in.weights.cols(); ++j) acc += in.weights(i, j) * y.data()[j];
        zt(i, 0) = acc;
      }
      z.push_back(std::move(zt));
    }
    auto project = [](const LinearMap& f, const Matrix<Rational>& zt) {
      std::vector<Rational> out(f.weights.rows());
      for (std::size_t i = 0; i < f.weights.rows(); ++i) {
        out[i] = f.bias(i, 0);
        for (std::size_t j = 0; j < f.weights.cols(); ++j) out[i] += f.weights(i, j) * zt(j, 0);
      }
      return out;
    };
    for (std::size_t t = 1; t <= z.size(); ++t) {
      const auto qt = project(att->query, z[t - 1]);
      for (std::size_t s = first_visible(*att, t); s <= t; ++s) {
        const auto ks = project(att->key, z[s - 1]);
        Rational score = att->position_bias * q(s);
        for (std::size_t i = 0; i < qt.size(); ++i) score += qt[i] * ks[i];
        see(score);
      }
    }
  }
  return best;
}

struct LayerCounts {
  std::size_t diagonal = 0, attention = 0, state = 0;
  const AttentionLayer* att = nullptr;
};
LayerCounts count_layers(const Model& m) {
  LayerCounts c;
  for (const StackLayer& sl : m.layers) {
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
      c.diagonal += l->family == Family::diagonal;
      c.state += l->d;
    } else if (const auto* a = std::get_if<AttentionLayer>(&sl.layer)) {
      ++c.attention;
      c.att = a;
    }
  }
  return c;
}

// The claims both constructions share: layer counts, state dimension, window, key size and the
// precision figure on a probe string.
void add_claims(Construction& c, std::size_t lrnn_layers, std::size_t state, std::size_t window,
                const std::string& window_what, std::size_t key_size, const Integer& bound,
                const std::string& bound_what, const std::vector<std::size_t>& probe) {
  const LayerCounts n = count_layers(c.model);
  c.claims.push_back(claim_equal("LRNN layers (diagonal family, input-dependent decay)",
                                 Integer(static_cast<long>(lrnn_layers)),
                                 Integer(static_cast<long>(n.diagonal))));
  c.claims.push_back(claim_equal("attention layers (unique-hard, sliding window)", Integer(1),
                                 Integer(static_cast<long>(n.attention))));
  c.claims.push_back(claim_equal("state dimension (all LRNN layers; independent of L)",
                                 Integer(static_cast<long>(state)),
                                 Integer(static_cast<long>(n.state))));
  const std::string wname = "attention window = " + window_what;
  if (n.att && n.att->window)
    c.claims.push_back(claim_equal(wname, Integer(static_cast<long>(window)),
                                   Integer(static_cast<long>(*n.att->window))));
  else
    c.claims.push_back({wname, "= " + std::to_string(window),
                        n.att ? "no window (full attention)" : "no attention layer", false});
  if (n.att)
    c.claims.push_back(claim_equal("attention key size h", Integer(static_cast<long>(key_size)),
                                   Integer(static_cast<long>(n.att->key_size()))));
  c.claims.push_back(
      claim_at_most("precision: largest |state, output or score| on a probe of length " +
                        std::to_string(probe.size()) + " ≤ " + bound_what,
                    bound, numerator(largest_magnitude(c.model, probe))));
}

constexpr std::size_t kProbeLength = 64;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Selective copying.

Construction selective_copy(const SelectiveCopyOptions& o) {
  const std::size_t K = o.data_symbols, N = o.max_distance;
  if (K < 1 || K > 26)
    throw InputError("--data-symbols", "expected 1..26 data symbols, got " + std::to_string(K));
  if (N < 1 || N > 9)
    throw InputError("--max-distance",
                     "expected a largest distance N in 1..9 (number tokens \"1\"..\"N\"), got " +
                         std::to_string(N));
  const std::size_t window = o.window.value_or(N);
  if (window < 1) throw InputError("--window", "expected a window of at least 1 position, got 0");
  const std::size_t S = K + N;
  std::vector<std::string> symbols;
  for (std::size_t i = 0; i < K; ++i) symbols.push_back(letter(i, 'a'));
  for (std::size_t j = 1; j <= N; ++j) symbols.push_back(std::to_string(j));
  auto number = [K](std::size_t id) { return id >= K ? id - K + 1 : std::size_t{0}; };

  Construction c;
  c.name = "selective-copy";
  if (!o.attention)
    c.name += " (LRNN alone)";
  else if (window != N)
    c.name += " (window " + std::to_string(window) + ")";
  c.model.name = c.name;
  c.model.description =
      "selective copying [CDMS26 Thm 4.3]: diagonal LRNN (t, latest number n, token) -> diagonal "
      "LRNN (t^2, t, n, token) -> unique-hard attention, window N, score (t+1-n)^2 - "
      "(s-(t+1-n))^2, "
      "copies the token at position t+1-n";
  c.model.alphabet = Alphabet(symbols, "selective-copy");
  c.model.accept = Acceptance{Acceptance::Mode::positive, 0, 0};

  // Layer 1 (d = 3): t, n_t (the selective reset), v_t = id(w_t).
  std::vector<DecayStep> l1;
  for (std::size_t id = 0; id < S; ++id) {
    const std::size_t n = number(id);
    l1.push_back({{q(1L), q(n ? 0L : 1L), q(0L)}, column({q(1L), q(n), q(id)})});
  }
  c.model.layers.push_back({std::nullopt, diagonal_layer(3, std::move(l1))});

  // Layer 2 (d = 4) on z = (t, n, v, 1): t² += 2t − 1 (decay = z₄ = 1), t, n, v copied.
  InputMap in2{zeros(4, 3), zeros(4, 1)};
  for (std::size_t i = 0; i < 3; ++i) in2.weights(i, i) = 1;
  in2.bias(3, 0) = 1;
  std::vector<DecayStep> l2 = {
      {{q(0L), q(0L), q(0L), q(0L)}, column({q(2L), q(1L), q(0L), q(0L)})},   // z₁ = t
      {{q(0L), q(0L), q(0L), q(0L)}, column({q(0L), q(0L), q(1L), q(0L)})},   // z₂ = n
      {{q(0L), q(0L), q(0L), q(0L)}, column({q(0L), q(0L), q(0L), q(1L)})},   // z₃ = v
      {{q(1L), q(0L), q(0L), q(0L)}, column({q(-1L), q(0L), q(0L), q(0L)})},  // z₄ = 1
  };
  c.model.layers.push_back({in2, diagonal_layer(4, std::move(l2))});

  // Layer 3: attention on (t², t, n, v): q = (2(t + 1 − n), −1), k = (s, s²), v = id(w_s).
  if (o.attention) {
    AttentionLayer a;
    a.kind = AttentionKind::unique_hard;
    a.tie = TieRule::rightmost;
    a.features = 4;
    a.query = {zeros(2, 4), column({q(2L), q(-1L)})};
    a.query.weights(0, 1) = 2;
    a.query.weights(0, 2) = -2;
    a.key = {zeros(2, 4), zeros(2, 1)};
    a.key.weights(0, 1) = 1;
    a.key.weights(1, 0) = 1;
    a.value = {zeros(1, 4), zeros(1, 1)};
    a.value.weights(0, 3) = 1;
    a.window = window;
    check_layer(a);
    c.model.layers.push_back({InputMap{identity(4), zeros(4, 1)}, a});
    c.out_row = 0;
  } else {
    c.out_row = 3;  // layer 2's token coordinate v_t: the LRNN's own guess, the current token
  }
  c.out_col = 0;

  // f: the id of w_{L+1−n}, n the latest number token.
  c.target.alphabet = c.model.alphabet;
  auto latest_number = [number](const std::vector<std::size_t>& w) {
    for (std::size_t i = w.size(); i-- > 0;)
      if (number(w[i])) return number(w[i]);
    return std::size_t{0};
  };
  c.target.promise = [latest_number](const std::vector<std::size_t>& w) {
    const std::size_t n = latest_number(w);
    return n >= 1 && n <= w.size();
  };
  c.target.value = [latest_number](const std::vector<std::size_t>& w) {
    const std::size_t n = latest_number(w);
    if (n < 1 || n > w.size())
      throw DomainError("selective copy: f is claimed only where a number token n ≤ |w| occurs");
    return q(w[w.size() - n]);
  };
  c.target.boolean_spec = {"selective-copy", {{"K", K}, {"N", N}}};
  c.encode = [](const std::vector<std::size_t>& w) { return w; };
  c.input_forms = identity_forms(S);

  // Probe: data tokens, the number N in the middle, number tokens 1..N, data again.
  std::vector<std::size_t> probe;
  for (std::size_t i = 0; probe.size() < kProbeLength; ++i)
    probe.push_back(i == kProbeLength / 2                ? S - 1
                    : i % 3 == 0 && i > kProbeLength / 2 ? K + i % N
                                                         : i % K);
  const long L = static_cast<long>(kProbeLength), NN = static_cast<long>(N);
  add_claims(c, 2, 7, N, "N (the largest distance)", 2, Integer((L + NN) * (L + NN)), "(L + N)²",
             probe);
  return c;
}

// ---------------------------------------------------------------------------------------------
// Associative recall with decoding.

Construction associative_recall(const AssocRecallOptions& o) {
  const std::size_t k = o.keys, v = o.values;
  if (k < 1 || k > 26) throw InputError("--keys", "expected 1..26 keys, got " + std::to_string(k));
  if (v < 1 || v > 10)
    throw InputError("--values", "expected 1..10 values (\"0\"..\"9\"), got " + std::to_string(v));
  const std::size_t span = o.span.value_or(2 * k + 1);
  if (span < 2)
    throw InputError("--span",
                     "expected a span of at least 2 positions (a key and its value), got " +
                         std::to_string(span));
  const std::size_t window = o.window.value_or(span);
  if (window < 1) throw InputError("--window", "expected a window of at least 1 position, got 0");
  const std::size_t S = 2 * k + v;
  std::vector<std::string> symbols;
  for (std::size_t i = 0; i < k; ++i) symbols.push_back(letter(i, 'a'));
  for (std::size_t j = 0; j < v; ++j) symbols.push_back(std::to_string(j));
  for (std::size_t i = 0; i < k; ++i) symbols.push_back(letter(i, 'A'));
  // Key index 1..k of a key / query symbol (0 otherwise); value index + 1 of a value (0 else).
  auto key_of = [k](std::size_t id) { return id < k ? id + 1 : std::size_t{0}; };
  auto query_of = [k, v](std::size_t id) { return id >= k + v ? id - k - v + 1 : std::size_t{0}; };
  auto value_of = [k, v](std::size_t id) {
    return id >= k && id < k + v ? id - k + 1 : std::size_t{0};
  };

  Construction c;
  c.name = "assoc-recall";
  if (!o.attention)
    c.name += " (LRNN alone)";
  else if (window != span)
    c.name += " (window " + std::to_string(window) + ")";
  if (o.attention && o.tie == TieRule::leftmost) c.name += " (tie leftmost)";
  c.model.name = c.name;
  c.model.description =
      "associative recall with decoding [CDMS26 Thm 4.6]: diagonal LRNN (latest query key q, "
      "latest "
      "key c, c^2, [value], value index) -> unique-hard attention, window = span, score "
      "q^2 - (c_s - q)^2 + [value at s], ties rightmost: the most recent value bound to key q";
  c.model.alphabet = Alphabet(symbols, "assoc-recall");
  c.model.accept = Acceptance{Acceptance::Mode::positive, 0, 0};

  // Layer 1 (d = 5): q_t, c_t, c_t², isval_t, val_t.
  std::vector<DecayStep> l1;
  for (std::size_t id = 0; id < S; ++id) {
    const std::size_t key = key_of(id), query = query_of(id), val = value_of(id);
    l1.push_back(
        {{q(query ? 0L : 1L), q(key ? 0L : 1L), q(key ? 0L : 1L), q(0L), q(0L)},
         column({q(query), q(key), q(key * key), q(val ? 1L : 0L), val ? q(val - 1) : q(-1L)})});
  }
  c.model.layers.push_back({std::nullopt, diagonal_layer(5, std::move(l1))});

  // Layer 2: attention on (q, c, c², isval, val): q = (2q, −1, 1), k = (c, c², isval), v = val.
  if (o.attention) {
    AttentionLayer a;
    a.kind = AttentionKind::unique_hard;
    a.tie = o.tie;
    a.features = 5;
    a.query = {zeros(3, 5), column({q(0L), q(-1L), q(1L)})};
    a.query.weights(0, 0) = 2;
    a.key = {zeros(3, 5), zeros(3, 1)};
    a.key.weights(0, 1) = 1;
    a.key.weights(1, 2) = 1;
    a.key.weights(2, 3) = 1;
    a.value = {zeros(1, 5), zeros(1, 1)};
    a.value.weights(0, 4) = 1;
    a.window = window;
    check_layer(a);
    c.model.layers.push_back({InputMap{identity(5), zeros(5, 1)}, a});
    c.out_row = 0;
  } else {
    c.out_row = 4;  // the LRNN's own guess: the current token's value index (−1: not a value)
  }
  c.out_col = 0;

  // f: the value index at s*, the latest value position bound to the latest query's key.
  c.target.alphabet = c.model.alphabet;
  // s* (1-based), 0 when there is no query or no bound value.
  auto answer = [key_of, query_of, value_of](const std::vector<std::size_t>& w) {
    std::size_t want = 0;
    for (std::size_t i = w.size(); i-- > 0 && !want;) want = query_of(w[i]);
    if (!want) return std::size_t{0};
    std::size_t bound = 0, found = 0;  // bound: the latest key so far
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (key_of(w[i])) bound = key_of(w[i]);
      if (value_of(w[i]) && bound == want) found = i + 1;
    }
    return found;
  };
  c.target.promise = [answer, span](const std::vector<std::size_t>& w) {
    const std::size_t s = answer(w);
    return s > 0 && s + span > w.size();
  };
  c.target.value = [answer, value_of, span](const std::vector<std::size_t>& w) {
    const std::size_t s = answer(w);
    if (s == 0 || s + span <= w.size())
      throw DomainError(
          "assoc-recall: f is claimed only where the query's key has a bound value "
          "among the last " +
          std::to_string(span) + " tokens");
    return q(value_of(w[s - 1]) - 1);
  };
  c.target.boolean_spec = {"assoc-recall", {{"keys", k}, {"values", v}, {"span", span}}};
  c.encode = [](const std::vector<std::size_t>& w) { return w; };
  c.input_forms = identity_forms(S);

  // Probe: the last key queried first, then the dictionary k_i v_j repeated.
  std::vector<std::size_t> probe = {k + v + k - 1};
  for (std::size_t i = 0; probe.size() < kProbeLength; ++i)
    probe.push_back(i % 2 == 0 ? (i / 2) % k : k + (i / 2) % v);
  const long kk = static_cast<long>(k), vv = static_cast<long>(v);
  add_claims(c, 1, 5, span, "span (the promise's dictionary window)", 3,
             Integer(std::max(2 * kk * kk + 1, vv)), "max(2k² + 1, v)", probe);
  return c;
}

// ---- the `selective-copy` and `assoc-recall` kinds (constructions/registry.hpp) ----

void register_retrieval(Registry& registry) {
  const OptionSpec no_attention{.name = "--no-attention",
                                .kind = OptionKind::flag,
                                .help = "the LRNN alone (a negative variant)"};
  registry.add(
      {.name = "selective-copy",
       .help = "selective copying by a Mamba-style LRNN + sliding-window attention [CDMS26]",
       .options = {{.name = "--data-symbols",
                    .kind = OptionKind::whole_number,
                    .help = "data symbols K (1..26)",
                    .default_value = "2"},
                   {.name = "--max-distance",
                    .kind = OptionKind::whole_number,
                    .help = "largest distance N (1..9)",
                    .default_value = "3"},
                   {.name = "--window",
                    .kind = OptionKind::whole_number,
                    .help = "the attention's window (default: N)"},
                   no_attention},
       .build_from = [](const OptionValues& v) {
         SelectiveCopyOptions o;
         o.data_symbols = v.whole_number("--data-symbols");
         o.max_distance = v.whole_number("--max-distance");
         o.window = v.optional_whole_number("--window");
         o.attention = !v.flag("--no-attention");
         return selective_copy(o);
       }});
  registry.add(
      {.name = "assoc-recall",
       .help = "associative recall by a diagonal LRNN + sliding-window attention [CDMS26]",
       .options = {{.name = "--keys",
                    .kind = OptionKind::whole_number,
                    .help = "keys (1..26)",
                    .default_value = "2"},
                   {.name = "--values",
                    .kind = OptionKind::text,
                    .help = "the number of values (1..10, default 2)"},
                   {.name = "--span",
                    .kind = OptionKind::whole_number,
                    .help = "the answer lies in the last SPAN tokens"},
                   {.name = "--window",
                    .kind = OptionKind::whole_number,
                    .help = "the attention's window (default: SPAN)"},
                   no_attention,
                   {.name = "--tie",
                    .kind = OptionKind::choice,
                    .help = "rightmost (the most recent binding) or leftmost",
                    .default_value = "rightmost",
                    .allowed = {"leftmost", "rightmost"}}},
       .build_from = [](const OptionValues& v) {
         AssocRecallOptions o;
         o.keys = v.whole_number("--keys");
         if (const std::string& values = v.text("--values"); !values.empty()) {
           if (values.size() > 3 || values.find_first_not_of("0123456789") != std::string::npos)
             throw InputError("--values", "'" + values + "': expected a number of values (1..10)");
           o.values = std::stoul(values);
         }
         o.span = v.optional_whole_number("--span");
         o.window = v.optional_whole_number("--window");
         o.attention = !v.flag("--no-attention");
         o.tie = parse_tie_rule(v.text("--tie")).value();
         return associative_recall(o);
       }});
}

}  // namespace rnncc
