#include "constructions/state_tracking.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "constructions/registry.hpp"
#include "rnn/families.hpp"

namespace rnncc {

namespace {

// A sub-step: the transposition (i j) of the N points (0-based), or the identity.
using Swap = std::optional<std::pair<std::size_t, std::size_t>>;

// What the three constructions share: a target alphabet whose symbols are each read as K
// sub-steps, every sub-step one delta-rule token.
struct Plan {
  std::string name;
  std::vector<std::string> symbols;
  std::vector<std::vector<Vector>> keys;  // keys[σ][i]: the key of sub-step i of symbol σ
  std::size_t d = 0;
  Matrix<Rational> initial_state, readout, readout_bias;
};

Rational checked_beta(const StateTrackingOptions& o) {
  const Rational beta = o.beta ? *o.beta : default_beta(o.beta_range);
  if (!contains(o.beta_range, beta))
    throw InputError("--beta", "β = " + to_string(beta) + " is outside the beta range " +
                                   to_string(o.beta_range) + " (expected 0 < β within it)");
  return beta;
}

// The duplicated key of (i j) on Q^{2N}: (e_i − e_j; e_i − e_j)/2, or 0 for the identity.
Vector swap_key(std::size_t N, const Swap& s) {
  Vector k(2 * N, Rational(0));
  if (!s) return k;
  const Rational half(1, 2);
  k[s->first] = half;
  k[s->second] = -half;
  k[N + s->first] = half;
  k[N + s->second] = -half;
  return k;
}

Rational dot(const Vector& a, const Vector& b) {
  Rational s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

bool is_zero(const Vector& v) {
  return std::all_of(v.begin(), v.end(), [](const Rational& x) { return x == 0; });
}

// The model of a plan: one deltanet (or gated_deltanet, α = 1) layer, K tokens per symbol.
Construction build(const Plan& p, const StateTrackingOptions& o) {
  const Rational beta = checked_beta(o);
  const std::size_t K = p.keys.at(0).size();
  for (const auto& ks : p.keys)
    if (ks.size() != K) throw std::logic_error("state_tracking: uneven sub-steps");
  const std::size_t sigma = p.symbols.size();

  std::vector<std::string> tokens;
  for (std::size_t s = 0; s < sigma; ++s)
    for (std::size_t i = 0; i < K; ++i)
      tokens.push_back(K == 1 ? p.symbols[s] : p.symbols[s] + "/" + std::to_string(i));

  LayerFrame frame;
  frame.d = p.d;
  frame.m = 1;
  frame.features = tokens.size();
  frame.initial_state = p.initial_state;
  frame.readout = p.readout;
  frame.readout_bias = p.readout_bias;
  std::vector<DeltaStep> steps;
  for (std::size_t s = 0; s < sigma; ++s)
    for (std::size_t i = 0; i < K; ++i)
      steps.push_back(
          {o.gated ? Vector{Rational(1)} : Vector{}, beta, p.keys[s][i], Vector{Rational(0)}});
  const Family family = o.gated ? Family::gated_deltanet : Family::deltanet;
  LrnnLayer layer = make_delta(family, std::move(frame), std::move(steps), o.beta_range);

  Construction c;
  c.name = p.name + (o.gated ? " (gated deltanet" : " (deltanet") + ", β = " + to_string(beta) +
           " in " + to_string(o.beta_range) + ")";
  c.model.name = c.name;
  c.model.description = p.name + " by " + to_string(family) +
                        " with unit rational keys (duplicated permutation representation) "
                        "[GSZ+25]; exact arithmetic";
  c.model.alphabet = Alphabet(tokens, p.name + " tokens");
  c.model.layers.push_back({std::nullopt, layer});
  c.target.alphabet = Alphabet(p.symbols, p.name);
  c.encode = [K, sigma](const std::vector<std::size_t>& w) {
    std::vector<std::size_t> out;
    for (std::size_t s : w) {
      if (s >= sigma)
        throw InputError("encode", "symbol id " + std::to_string(s) + " is out of range");
      for (std::size_t i = 0; i < K; ++i) out.push_back(s * K + i);
    }
    return out;
  };
  // Input forms: the token at position (t−1)·K + i + 1 is σK + i for w_t = σ, so its indicator
  // is x[t,σ] (one variable) — exact on one-hot inputs.
  const std::size_t features = tokens.size();
  c.input_forms = [K, sigma, features](std::size_t n) {
    std::vector<InputSource> out(n * K * features);
    for (std::size_t t = 0; t < n; ++t)
      for (std::size_t s = 0; s < sigma; ++s)
        for (std::size_t i = 0; i < K; ++i)
          out[(t * K + i) * features + s * K + i].variables.push_back(
              static_cast<std::uint32_t>(t * sigma + s));
    return out;
  };

  // Claims, measured on the built layer and on encode.
  std::size_t low = SIZE_MAX, high = 0;
  for (std::size_t s = 0; s < sigma; ++s) {
    low = std::min(low, c.encode({s}).size());
    high = std::max(high, c.encode({s}).size());
  }
  std::size_t minus_one = 0, bad_norm = 0, not_orthogonal = 0, bad_gate = 0;
  const LrnnLayer& built = std::get<LrnnLayer>(c.model.layers[0].layer);
  RationalField Q;
  const Matrix<Rational> I = identity(Q, built.d);
  for (std::size_t f = 0; f < built.features; ++f) {
    const auto& dp = std::get<DeltaParams>(built.record[f]);
    if (!is_zero(dp.k)) {
      if (dot(dp.k, dp.k) != 1) ++bad_norm;
      Matrix<Rational> kcol(built.d, 1);
      for (std::size_t i = 0; i < built.d; ++i) kcol(i, 0) = dp.k[i];
      if (mul(Q, built.A[f], kcol) == scale(Q, Rational(-1), kcol)) ++minus_one;
    }
    if (!(mul(Q, built.A[f], transpose(built.A[f])) == I)) ++not_orthogonal;
    for (const Rational& a : dp.alpha) bad_gate += a != 1;
  }
  c.claims.push_back(claim_equal("state dimension d", Integer(static_cast<long>(p.d)),
                                 Integer(static_cast<long>(built.d))));
  c.claims.push_back(
      {"sub-steps (tokens) per symbol", "= " + std::to_string(K),
       low == high ? std::to_string(low) : std::to_string(low) + ".." + std::to_string(high),
       low == K && high == K});
  c.claims.push_back({"tokens with eigenvalue −1 (A_σ k_σ = −k_σ)", "≥ 1",
                      std::to_string(minus_one), minus_one >= 1});
  c.claims.push_back(
      claim_equal("nonzero keys with ‖k‖² ≠ 1", Integer(0), Integer(static_cast<long>(bad_norm))));
  c.claims.push_back(claim_equal("tokens with A_σ A_σᵀ ≠ I (not orthogonal)", Integer(0),
                                 Integer(static_cast<long>(not_orthogonal))));
  if (o.gated)
    c.claims.push_back(
        claim_equal("gates α ≠ 1", Integer(0), Integer(static_cast<long>(bad_gate))));
  return c;
}

Matrix<Rational> column(const Vector& v) {
  Matrix<Rational> m(v.size(), 1);
  for (std::size_t i = 0; i < v.size(); ++i) m(i, 0) = v[i];
  return m;
}

std::size_t count_of(const std::vector<std::size_t>& w, std::size_t symbol) {
  return static_cast<std::size_t>(std::count(w.begin(), w.end(), symbol));
}

// The DFA "number of 1s mod k" over {0, 1} as a 0/1 WFA: state q = count mod k, α = e₀,
// M_0 = I, M_1 the cycle q ↦ q + 1 mod k, β = e_r: α·M_w·β = [count_1(w) ≡ r (mod k)].
Wfa counter_automaton(std::size_t k, std::size_t r, const Alphabet& alphabet) {
  Wfa a;
  a.alphabet = alphabet;
  a.initial.assign(k, Rational(0));
  a.initial[0] = 1;
  a.final.assign(k, Rational(0));
  a.final[r] = 1;
  Matrix<Rational> stay(k, k, Rational(0)), cycle(k, k, Rational(0));
  for (std::size_t q = 0; q < k; ++q) {
    a.state_names.push_back(std::to_string(q));
    stay(q, q) = 1;
    cycle(q, (q + 1) % k) = 1;
  }
  a.transition = {stay, cycle};
  return a;
}

// f(w) = Σ_i c_i c_{π(i)} − ‖c‖² (π = g_{w_T} ∘ ⋯ ∘ g_{w_1}) as a WFA of n + 1 states rather
// than the n!-state permutation DFA: the row vector v(u) = c·P_{π_u}, P_π[i][j] = [π(i) = j],
// steps by P_{g∘π} = P_π·G with G[k][j] = [g(k) = j], and f = v·c − ‖c‖²; the last state
// carries the constant 1. So α = [c, 1], M_σ = diag(G_σ, 1), β = [c, −‖c‖²].
Wfa permutation_automaton(const std::vector<std::vector<std::size_t>>& perms, std::size_t n,
                          const Alphabet& alphabet) {
  Wfa a;
  a.alphabet = alphabet;
  Rational norm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Rational ci(static_cast<long>(i + 1));
    a.state_names.push_back("c" + std::to_string(i + 1));
    a.initial.push_back(ci);
    a.final.push_back(ci);
    norm += ci * ci;
  }
  a.state_names.push_back("1");
  a.initial.push_back(Rational(1));
  a.final.push_back(-norm);
  for (const auto& g : perms) {
    Matrix<Rational> M(n + 1, n + 1, Rational(0));
    for (std::size_t k = 0; k < n; ++k) M(k, g[k]) = 1;
    M(n, n) = 1;
    a.transition.push_back(std::move(M));
  }
  return a;
}

}  // namespace

Rational default_beta(BetaRange range) {
  switch (range) {
    case BetaRange::any:
    case BetaRange::half_open_0_2:
      return Rational(2);
    case BetaRange::half_open_0_1:
      return Rational(1);
    case BetaRange::open_0_2:
      return Rational(511, 256);
    case BetaRange::open_0_1:
      return Rational(255, 256);
  }
  return Rational(2);
}

Construction parity(const StateTrackingOptions& options) {
  Plan p;
  p.name = "parity";
  p.symbols = {"0", "1"};
  p.keys = {{Vector{Rational(0)}}, {Vector{Rational(1)}}};
  p.d = 1;
  p.initial_state = Matrix<Rational>(1, 1, Rational(1));
  p.readout = Matrix<Rational>(1, 1, Rational(-1, 2));  // y = (1 − S)/2
  p.readout_bias = Matrix<Rational>(1, 1, Rational(1, 2));
  Construction c = build(p, options);
  c.target.value = [](const std::vector<std::size_t>& w) {
    return Rational(static_cast<long>(count_of(w, 1) % 2));
  };
  c.target.automaton = counter_automaton(2, 1, c.target.alphabet);
  c.model.accept = Acceptance{Acceptance::Mode::positive, 0, 0};
  return c;
}

Construction mod_count(std::size_t k, std::size_t r, const StateTrackingOptions& options) {
  if (k < 2 || k > 16)
    throw InputError("--k", "expected a modulus k in 2..16, got " + std::to_string(k));
  if (r >= k)
    throw InputError("--r", "expected a residue r in 0.." + std::to_string(k - 1) + ", got " +
                                std::to_string(r));
  Plan p;
  p.name = "mod-count (k = " + std::to_string(k) + ", r = " + std::to_string(r) + ")";
  p.symbols = {"0", "1"};
  std::vector<Vector> zero(k - 1, swap_key(k, std::nullopt)), cycle;
  // (k−2 k−1), …, (0 1): e_i ↦ e_{i+1 mod k} once all are applied in this order.
  for (std::size_t i = k - 1; i-- > 0;) cycle.push_back(swap_key(k, std::make_pair(i, i + 1)));
  p.keys = {zero, cycle};
  p.d = 2 * k;
  Vector s0(2 * k, Rational(0));
  s0[0] = s0[k] = 1;
  p.initial_state = column(s0);
  p.readout = Matrix<Rational>(1, 2 * k, Rational(0));
  p.readout(0, r) = 1;  // y = x_r = [count ≡ r]
  Construction c = build(p, options);
  c.target.value = [k, r](const std::vector<std::size_t>& w) {
    return Rational(count_of(w, 1) % k == r ? 1 : 0);
  };
  c.target.automaton = counter_automaton(k, r, c.target.alphabet);
  c.model.accept = Acceptance{Acceptance::Mode::positive, 0, 0};
  return c;
}

Construction symmetric_word(std::size_t n, SymmetricGenerators generators,
                            const StateTrackingOptions& options) {
  if (n < 2 || n > 6)
    throw InputError("--n", "expected n in 2..6 points, got " + std::to_string(n));
  Plan p;
  // perms[σ]: the generator as a map of 0-based points (the target's own semantics).
  std::vector<std::vector<std::size_t>> perms;
  auto transposition = [n](std::size_t i, std::size_t j) {
    std::vector<std::size_t> g(n);
    std::iota(g.begin(), g.end(), 0);
    std::swap(g[i], g[j]);
    return g;
  };
  if (generators == SymmetricGenerators::cycle_and_swap) {
    p.name = "S" + std::to_string(n) + " word problem (swap, cycle)";
    p.symbols = {"s", "c"};
    std::vector<Vector> swap{swap_key(n, std::make_pair(0, 1))}, cycle;
    while (swap.size() < n - 1) swap.push_back(swap_key(n, std::nullopt));
    for (std::size_t i = n - 1; i-- > 0;) cycle.push_back(swap_key(n, std::make_pair(i, i + 1)));
    p.keys = {swap, cycle};
    std::vector<std::size_t> c(n);
    for (std::size_t i = 0; i < n; ++i) c[i] = (i + 1) % n;
    perms = {transposition(0, 1), c};
  } else {
    p.name = "S" + std::to_string(n) + " word problem (transpositions)";
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        p.symbols.push_back("(" + std::to_string(i + 1) + std::to_string(j + 1) + ")");
        p.keys.push_back({swap_key(n, std::make_pair(i, j))});
        perms.push_back(transposition(i, j));
      }
  }
  p.d = 2 * n;
  Vector s0(2 * n);
  Rational norm = 0;
  p.readout = Matrix<Rational>(1, 2 * n, Rational(0));
  for (std::size_t i = 0; i < n; ++i) {
    const Rational ci(static_cast<long>(i + 1));
    s0[i] = s0[n + i] = ci;
    p.readout(0, i) = ci;  // y = ⟨c, x⟩ − ‖c‖²
    norm += ci * ci;
  }
  p.initial_state = column(s0);
  p.readout_bias = Matrix<Rational>(1, 1, -norm);
  Construction c = build(p, options);
  // f(w) = Σ_i c_i c_{π(i)} − Σ_i c_i², π = g_{w_T} ∘ ⋯ ∘ g_{w_1}, c_i = i + 1.
  c.target.value = [n, perms](const std::vector<std::size_t>& w) {
    std::vector<std::size_t> pi(n);
    std::iota(pi.begin(), pi.end(), 0);
    for (std::size_t s : w) {
      if (s >= perms.size()) throw InputError("target", "symbol id out of range");
      for (std::size_t i = 0; i < n; ++i) pi[i] = perms[s][pi[i]];
    }
    long f = 0;
    for (std::size_t i = 0; i < n; ++i)
      f += static_cast<long>((i + 1) * (pi[i] + 1)) - static_cast<long>((i + 1) * (i + 1));
    return Rational(f);
  };
  c.target.automaton = permutation_automaton(perms, n, c.target.alphabet);
  c.model.accept = Acceptance{Acceptance::Mode::zero, 0, 0};
  return c;
}

// ---- the `parity`, `mod-count` and `sn` kinds (constructions/registry.hpp) ----

namespace {

// The options every DeltaNet state-tracking kind takes, after its own.
std::vector<OptionSpec> with_layer_options(std::vector<OptionSpec> own) {
  own.push_back({.name = "--beta-range",
                 .kind = OptionKind::choice,
                 .help = "the layer's beta range: (0,2], (0,2), (0,1], (0,1) or any",
                 .default_value = "(0,2]",
                 .allowed = {"any", "(0,1)", "(0,1]", "(0,2)", "(0,2]"}});
  own.push_back({.name = "--beta",
                 .kind = OptionKind::rational,
                 .help = "β of every token (default: the largest the range allows)"});
  own.push_back(
      {.name = "--gated", .kind = OptionKind::flag, .help = "Gated DeltaNet (gates α = 1)"});
  return own;
}

StateTrackingOptions layer_options(const OptionValues& v) {
  StateTrackingOptions o;
  o.gated = v.flag("--gated");
  o.beta_range = parse_beta_range(v.text("--beta-range")).value();
  o.beta = v.rational("--beta");
  return o;
}

}  // namespace

void register_state_tracking(Registry& registry) {
  registry.add({.name = "parity",
                .help = "parity by DeltaNet / Gated DeltaNet with a reflection (β = 2) [GSZ+25]",
                .options = with_layer_options({}),
                .build_from = [](const OptionValues& v) { return parity(layer_options(v)); }});
  registry.add({.name = "mod-count",
                .help = "counting mod k by k − 1 DeltaNet reflections per symbol [GSZ+25]",
                .options = with_layer_options({{.name = "--k",
                                                .kind = OptionKind::whole_number,
                                                .help = "the modulus k (2..16)",
                                                .default_value = "3"},
                                               {.name = "--r",
                                                .kind = OptionKind::whole_number,
                                                .help = "accept iff the count of 1s ≡ r (mod k)",
                                                .default_value = "0"}}),
                .build_from = [](const OptionValues& v) {
                  const StateTrackingOptions o = layer_options(v);
                  return mod_count(v.whole_number("--k"), v.whole_number("--r"), o);
                }});
  registry.add(
      {.name = "sn",
       .help = "the S_n word problem by DeltaNet reflections [GSZ+25], accept iff the identity",
       .options = with_layer_options({{.name = "--n",
                                       .kind = OptionKind::whole_number,
                                       .help = "the points n (2..6)",
                                       .default_value = "5"},
                                      {.name = "--generators",
                                       .kind = OptionKind::choice,
                                       .help = "cycle ((1 2) and the n-cycle) or transpositions",
                                       .default_value = "cycle",
                                       .allowed = {"cycle", "transpositions"}}}),
       .build_from = [](const OptionValues& v) {
         return symmetric_word(v.whole_number("--n"),
                               v.text("--generators") == "cycle"
                                   ? SymmetricGenerators::cycle_and_swap
                                   : SymmetricGenerators::transpositions,
                               layer_options(v));
       }});
}

}  // namespace rnncc
