// WFA → LRNN in the general, DPLR and DeltaNet families (theorems and claims in the header).
#include "constructions/wfa_to_lrnn.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/memory.hpp"
#include "algebra/saturating.hpp"
#include "circuits/compile/lrnn.hpp"
#include "constructions/dwfa_pd.hpp"
#include "constructions/matrix_factors.hpp"
#include "constructions/registry.hpp"
#include "constructions/spectral.hpp"
#include "rnn/families.hpp"

namespace rnncc {

namespace {

using wfa_internal::factor_sparse;
using wfa_internal::Q;
using wfa_internal::SparseSquare;
using wfa_internal::unit;

std::string entry(std::size_t i, std::size_t j) {
  return "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

void check_wfa(const Wfa& a) {
  const std::size_t d = a.states();
  if (d == 0) throw std::invalid_argument("WFA with no states");
  if (a.final.size() != d || a.state_names.size() != d)
    throw std::invalid_argument("WFA: initial, final and state_names sizes differ");
  if (a.transition.size() != a.alphabet.size() || a.alphabet.size() == 0)
    throw std::invalid_argument("WFA: one transition matrix per symbol expected");
  for (const Matrix<Rational>& m : a.transition)
    if (m.rows() != d || m.cols() != d)
      throw std::invalid_argument("WFA: transition matrix of shape " + shape_string(m) +
                                  ", expected " + std::to_string(d) + "×" + std::to_string(d));
}

// The construction's memory before it is built (algebra/memory.hpp, check_memory): the model's
// |Σ|·K dense d×d matrices A and d×1 matrices B (sub-steps: K per symbol) and `vectors` more
// dense vectors of d rationals (records, Householder keys), plus the two copies of the WFA that
// the target keeps (its value function and its automaton), at kRationalEntryBytes an entry.
void check_model_memory(std::uint64_t S, std::uint64_t n, const std::string& family, std::size_t K,
                        std::size_t d, std::uint64_t vectors, std::size_t max_memory_mib) {
  const std::uint64_t features = saturating_mul(S, K);
  const std::uint64_t entries =
      saturating_add(saturating_add(saturating_mul(features, saturating_mul(d, d + 1)),
                                    saturating_mul(vectors, d)),
                     saturating_mul(2 * S, saturating_mul(n, n)));
  check_memory("--max-memory", saturating_mul(entries, kRationalEntryBytes), max_memory_mib,
               "the " + family + " model of this " + std::to_string(n) + "-state WFA would take",
               (K > 1 ? "K = " + std::to_string(K) + " sub-steps per symbol, " : std::string()) +
                   std::to_string(features) + " dense " + std::to_string(d) + "×" +
                   std::to_string(d) + " matrices of rationals at about " +
                   std::to_string(kRationalEntryBytes) + " bytes an entry");
}

// S_0 = α (d×1), C = βᵀ (1×d), m = 1: the frame every WFA layer shares.
LayerFrame wfa_frame(const Wfa& a, std::size_t features) {
  const std::size_t d = a.states();
  LayerFrame frame;
  frame.d = d;
  frame.m = 1;
  frame.features = features;
  frame.initial_state = Matrix<Rational>(d, 1);
  frame.readout = Matrix<Rational>(1, d);
  for (std::size_t i = 0; i < d; ++i) {
    frame.initial_state(i, 0) = a.initial[i];
    frame.readout(0, i) = a.final[i];
  }
  return frame;
}

Model one_layer_model(std::string name, std::string description, Alphabet alphabet,
                      LrnnLayer layer) {
  Model m;
  m.name = std::move(name);
  m.description = std::move(description);
  m.alphabet = std::move(alphabet);
  m.layers.push_back(StackLayer{std::nullopt, std::move(layer)});
  return m;  // acceptance: y[0][0] > 0 (the default)
}

// The general model A_σ = M_σᵀ, S_0 = α, C = βᵀ.
Model general_model(const Wfa& a) {
  std::vector<AffineStep> steps;
  for (const Matrix<Rational>& m : a.transition)
    steps.push_back({transpose(m), Matrix<Rational>(a.states(), 1, Rational(0))});
  return one_layer_model(
      "wfa-general",
      "WFA with " + std::to_string(a.states()) +
          " states as a general LRNN: A_σ = M_σᵀ, S_0 = α, C = βᵀ (constructions.md §4)",
      a.alphabet, make_general(wfa_frame(a, a.alphabet.size()), std::move(steps)));
}

// The alphabet Σ×[K], symbol (σ, k) named "σ.k" with id σ·K + k. Names cannot collide: k has
// no '.', so the text after the last '.' is k and the text before it is σ.
Alphabet substep_alphabet(const Alphabet& sigma, std::size_t K) {
  std::vector<std::string> names;
  for (const std::string& s : sigma.symbols())
    for (std::size_t k = 0; k < K; ++k) names.push_back(s + "." + std::to_string(k));
  return Alphabet(std::move(names), "sub-step alphabet");
}

std::function<std::vector<std::size_t>(const std::vector<std::size_t>&)> substep_encoder(
    std::size_t K) {
  return [K](const std::vector<std::size_t>& w) {
    std::vector<std::size_t> out;
    out.reserve(w.size() * K);
    for (std::size_t sigma : w)
      for (std::size_t k = 0; k < K; ++k) out.push_back(sigma * K + k);
    return out;
  };
}

// Identity embedding: model input (t−1)|Σ| + σ is f's input with the same index.
std::function<std::vector<InputSource>(std::size_t)> identity_embedding(std::size_t symbols) {
  return [symbols](std::size_t n) {
    std::vector<InputSource> out(n * symbols);
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = InputSource{Rational(0), {static_cast<std::uint32_t>(i)}};
    return out;
  };
}

// Input forms of the sub-step encoding (construction.hpp, input_forms): position u = (i−1)K + k
// of encode(w) holds token (w_i, k), so X's indicator of token (σ', k') there is
//     [k' = k]·x[i, σ']      (model input (u−1)·|Σ|K + σ'K + k', f's input (i−1)|Σ| + σ'),
// exact on one-hot inputs; the K tokens of one symbol all read the same block of f's inputs.
std::function<std::vector<InputSource>(std::size_t)> substep_input_forms(std::size_t symbols,
                                                                         std::size_t K) {
  return [symbols, K](std::size_t n) {
    const std::size_t features = symbols * K;
    std::vector<InputSource> out(n * K * features);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < K; ++k)
        for (std::size_t s = 0; s < symbols; ++s)
          out[(i * K + k) * features + s * K + k].variables.push_back(
              static_cast<std::uint32_t>(i * symbols + s));
    return out;
  };
}

Claim state_size_claim(const Wfa& a, const Model& m) {
  return claim_equal("state size = number of WFA states", Integer(a.states()),
                     Integer(std::get<LrnnLayer>(m.layers[0].layer).d));
}

Claim steps_claim(const Construction& c, std::size_t claimed, bool at_most,
                  const std::string& name) {
  const std::size_t measured = c.encode({0}).size();  // tokens read for one symbol
  return at_most ? claim_at_most(name, Integer(claimed), Integer(measured))
                 : claim_equal(name, Integer(claimed), Integer(measured));
}

}  // namespace

std::string to_string(WfaFamily f) {
  switch (f) {
    case WfaFamily::general:
      return "general";
    case WfaFamily::dplr:
      return "dplr";
    case WfaFamily::deltanet:
      return "deltanet";
  }
  return "?";
}

std::optional<WfaFamily> parse_wfa_family(std::string_view name) {
  for (WfaFamily f : {WfaFamily::general, WfaFamily::dplr, WfaFamily::deltanet})
    if (to_string(f) == name) return f;
  return std::nullopt;
}

namespace {

// The sub-step factors of every A_σ = M_σᵀ and K, the longest factor list (at least 1),
// counted before any Householder key or model matrix is built, so that the memory check refuses
// a model too large at once; `vectors` counts the Householder keys (deltanet) and the records.
struct FactorPlan {
  std::vector<std::vector<ElementaryFactor>> elementary;
  std::size_t K = 1;
  std::uint64_t vectors = 0;
};

FactorPlan plan_factors(std::vector<SparseSquare> transposed, WfaFamily family) {
  FactorPlan plan;
  for (SparseSquare& w : transposed) {
    plan.elementary.push_back(factor_sparse(std::move(w)));
    const std::size_t k = family == WfaFamily::dplr
                              ? plan.elementary.back().size()
                              : householder_factor_count(plan.elementary.back());
    plan.K = std::max(plan.K, k);
    plan.vectors += family == WfaFamily::dplr ? 0 : k;
  }
  plan.vectors += saturating_mul(transposed.size() * plan.K,
                                 family == WfaFamily::dplr ? 3 : 2);  // records
  return plan;
}

// A_σ = M_σᵀ of every symbol, sparse: from the dense matrices, or straight from the arcs.
std::vector<SparseSquare> transposed_matrices(const Wfa& a) {
  std::vector<SparseSquare> out;
  for (const Matrix<Rational>& m : a.transition) out.emplace_back(m, true);
  return out;
}

std::vector<SparseSquare> transposed_matrices(const WfaArcs& a) {
  std::vector<SparseSquare> out(a.alphabet.size(), SparseSquare(a.states()));
  for (const WfaArcs::Arc& arc : a.arcs) out.at(arc.label).add(arc.dst, arc.src, arc.weight);
  return out;
}

}  // namespace

Claim check_factor_products(const Wfa& a, const LrnnLayer& layer, std::size_t K) {
  Claim claim{"factor products equal M_σᵀ", "exact", "", false};
  const std::size_t d = a.states();
  if (layer.d != d || layer.features != a.alphabet.size() * K || layer.A.size() != layer.features) {
    claim.measured = "shape mismatch: layer d = " + std::to_string(layer.d) + " with " +
                     std::to_string(layer.features) +
                     " features, expected d = " + std::to_string(d) + " with " +
                     std::to_string(a.alphabet.size() * K);
    return claim;
  }
  for (std::size_t sigma = 0; sigma < a.alphabet.size(); ++sigma) {
    std::vector<Matrix<Rational>> fs(layer.A.begin() + sigma * K,
                                     layer.A.begin() + (sigma + 1) * K);
    const Matrix<Rational> p = product_in_application_order(fs, d);
    const Matrix<Rational> want = transpose(a.transition[sigma]);
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < d; ++j)
        if (p(i, j) != want(i, j)) {
          claim.measured =
              "differs for symbol '" + a.alphabet.symbol(sigma) + "' at " + entry(i, j);
          return claim;
        }
  }
  claim.measured = "exact";
  claim.ok = true;
  return claim;
}

Claim check_factor_products_on_copies(const Wfa& a, const LrnnLayer& layer, std::size_t K,
                                      std::size_t copies) {
  Claim claim{"factor products equal M_σᵀ on the copies (x; x)", "exact", "", false};
  const std::size_t d = a.states(), D = d * copies;
  if (layer.d != D || layer.A.size() != a.alphabet.size() * K) {
    claim.measured =
        "shape mismatch: layer d = " + std::to_string(layer.d) + ", expected " + std::to_string(D);
    return claim;
  }
  Matrix<Rational> J(D, d, Rational(0));
  for (std::size_t c = 0; c < copies; ++c)
    for (std::size_t i = 0; i < d; ++i) J(c * d + i, i) = 1;
  for (std::size_t sigma = 0; sigma < a.alphabet.size(); ++sigma) {
    std::vector<Matrix<Rational>> fs(layer.A.begin() + sigma * K,
                                     layer.A.begin() + (sigma + 1) * K);
    const Matrix<Rational> lhs = mul(Q, product_in_application_order(fs, D), J);
    const Matrix<Rational> rhs = mul(Q, J, transpose(a.transition[sigma]));
    for (std::size_t i = 0; i < D; ++i)
      for (std::size_t j = 0; j < d; ++j)
        if (lhs(i, j) != rhs(i, j)) {
          claim.measured =
              "differs for symbol '" + a.alphabet.symbol(sigma) + "' at " + entry(i, j);
          return claim;
        }
  }
  claim.measured = "exact";
  claim.ok = true;
  return claim;
}

namespace {

// The unit-key DeltaNet construction (header); nullopt when unit_key_obstruction says why not.
std::optional<Construction> wfa_to_deltanet_unit(const Wfa& a, std::size_t max_memory_mib) {
  if (unit_key_obstruction(a)) return std::nullopt;
  const std::size_t d = a.states(), sigma_count = a.alphabet.size();
  std::vector<Matrix<Rational>> at;  // A_σ = M_σᵀ, transposed once
  for (const Matrix<Rational>& m : a.transition) at.push_back(transpose(m));
  std::size_t copies = 1;
  for (const Matrix<Rational>& m : at)
    if (monomial_needs_permutation(m)) copies = 2;
  const std::size_t D = d * copies;
  // K from the factor counts (monomial_split, no keys built yet): the memory check comes first.
  std::size_t K = 1;
  std::uint64_t keys = 0;
  for (const Matrix<Rational>& m : at) {
    const std::size_t k = unit_monomial_factor_count(m, copies);
    K = std::max(K, k);
    keys += k;
  }
  check_model_memory(sigma_count, d, "deltanet (unit keys)", K, D, keys, max_memory_mib);
  std::vector<std::vector<HouseholderFactor>> fs;
  for (const Matrix<Rational>& m : at) fs.push_back(factor_unit_monomial(m, copies));
  at.clear();
  LayerFrame frame;
  frame.d = D;
  frame.m = 1;
  frame.features = sigma_count * K;
  frame.initial_state = Matrix<Rational>(D, 1);
  frame.readout = Matrix<Rational>(1, D, Rational(0));
  for (std::size_t c = 0; c < copies; ++c)
    for (std::size_t i = 0; i < d; ++i) frame.initial_state(c * d + i, 0) = a.initial[i];
  for (std::size_t i = 0; i < d; ++i) frame.readout(0, i) = a.final[i];
  std::vector<DeltaStep> steps;
  for (std::size_t s = 0; s < sigma_count; ++s)
    for (std::size_t k = 0; k < K; ++k) {
      DeltaStep step{{}, Rational(1), Vector(D, Rational(0)), Vector{Rational(0)}};
      if (k < fs[s].size()) {
        step.beta = fs[s][k].beta;
        step.k = fs[s][k].k;
      }  // else β = 1, k = 0: the identity
      steps.push_back(std::move(step));
    }
  Construction c;
  c.name = "wfa-deltanet-unit";
  c.target = wfa_target(a);
  LrnnLayer layer =
      make_delta(Family::deltanet, std::move(frame), std::move(steps), BetaRange::half_open_0_2);
  const Alphabet sub = substep_alphabet(a.alphabet, K);
  c.model = one_layer_model(c.name,
                            "WFA with " + std::to_string(d) +
                                " states as a DeltaNet LRNN with β ∈ (0, 2] and rational "
                                "unit keys, state " +
                                std::to_string(D) + (copies == 2 ? " (two copies (x; x))" : "") +
                                ", K = " + std::to_string(K) +
                                " sub-steps per symbol (constructions/wfa_to_lrnn.hpp)",
                            sub, std::move(layer));
  c.encode = substep_encoder(K);
  c.input_forms = substep_input_forms(sigma_count, K);
  const LrnnLayer& built = std::get<LrnnLayer>(c.model.layers[0].layer);
  c.claims.push_back(claim_equal(copies == 2 ? "state size = 2d (copies)" : "state size = d",
                                 Integer(D), Integer(built.d)));
  c.claims.push_back(check_factor_products_on_copies(a, built, K, copies));
  for (Claim& cl : delta_properties(built, sub.symbols())) c.claims.push_back(std::move(cl));
  return c;
}

}  // namespace

// f(w) = αᵀ M_{w₁} ⋯ M_{w_n} β straight from the WFA's weights, in the row-vector order of
// constructions/wfa.hpp: v_0 = αᵀ, v_t[j] = Σ_i v_{t−1}[i]·(Σ_σ x[t,σ]·(M_σ)_{ij}), f = v_n·β.
// Nothing here goes through an LRNN model or compile_lrnn, so a model built wrongly from the
// same WFA (a missing transpose, a swapped α and β) cannot agree with it by construction.
Circuit wfa_circuit(const Wfa& a, std::size_t n) {
  check_wfa(a);
  const std::size_t d = a.states(), S = a.alphabet.size();
  CircuitBuilder b;
  std::vector<GateId> v(d);
  for (std::size_t i = 0; i < d; ++i) v[i] = b.constant(a.initial[i]);
  std::vector<GateId> terms;
  for (std::size_t t = 0; t < n; ++t) {
    std::vector<GateId> x(S);
    for (std::size_t s = 0; s < S; ++s)
      x[s] = b.input("x[" + std::to_string(t + 1) + "," + a.alphabet.symbol(s) + "]");
    std::vector<GateId> next(d);
    for (std::size_t j = 0; j < d; ++j) {
      terms.clear();
      for (std::size_t i = 0; i < d; ++i) {
        std::vector<GateId> entry;  // (M(x_t))_{ij} = Σ_σ x[t,σ]·(M_σ)_{ij}
        for (std::size_t s = 0; s < S; ++s)
          if (a.transition[s](i, j) != 0)
            entry.push_back(b.mul(b.constant(a.transition[s](i, j)), x[s]));
        if (!entry.empty()) terms.push_back(b.mul(v[i], b.sum(entry)));
      }
      next[j] = b.sum(terms);
    }
    v = std::move(next);
  }
  terms.clear();
  for (std::size_t j = 0; j < d; ++j) terms.push_back(b.mul(v[j], b.constant(a.final[j])));
  return b.finish({b.sum(terms)}, {"f"});
}

Target wfa_target(const Wfa& a) {
  check_wfa(a);
  auto wfa = std::make_shared<const Wfa>(a);
  Target t;
  t.alphabet = a.alphabet;
  t.value = [wfa](const std::vector<std::size_t>& w) { return evaluate(*wfa, w); };
  t.automaton = a;  // f is the WFA itself
  t.circuit = [wfa](std::size_t n) { return wfa_circuit(*wfa, n); };
  return t;
}

namespace {

Construction general_construction(const Wfa& a) {
  Construction c;
  c.name = "wfa-general";
  c.target = wfa_target(a);
  c.model = general_model(a);
  c.encode = [](const std::vector<std::size_t>& w) { return w; };
  c.embedding = identity_embedding(a.alphabet.size());
  c.input_forms = c.embedding;
  c.claims.push_back(state_size_claim(a, c.model));
  c.claims.push_back(steps_claim(c, 1, false, "steps per symbol"));
  return c;
}

// The DPLR or DeltaNet construction from its factor plan (memory already checked).
Construction structured_construction(const Wfa& a, WfaFamily family, FactorPlan plan);

}  // namespace

Construction wfa_to_lrnn(const Wfa& a, WfaFamily family, WfaKeys keys, std::size_t max_memory_mib) {
  check_wfa(a);
  if (keys == WfaKeys::unit) {
    if (family != WfaFamily::deltanet)
      throw std::invalid_argument("wfa_to_lrnn: unit keys need the deltanet family");
    if (std::optional<Construction> c = wfa_to_deltanet_unit(a, max_memory_mib))
      return std::move(*c);
    Construction c = wfa_to_lrnn(a, family, WfaKeys::any, max_memory_mib);
    c.claims.push_back(
        {"unit-key factorization (β ∈ (0,2], ‖k‖ = 1)", "exists", *unit_key_obstruction(a), false});
    c.notes.push_back("--beta-range unit: no unit-key model (" + *unit_key_obstruction(a) +
                      "); the model checked is the β-any construction");
    return c;
  }
  const std::size_t d = a.states(), sigma_count = a.alphabet.size();
  if (family == WfaFamily::general) {
    check_model_memory(sigma_count, d, "general", 1, d, 0, max_memory_mib);
    return general_construction(a);
  }
  FactorPlan plan = plan_factors(transposed_matrices(a), family);
  check_model_memory(sigma_count, d, to_string(family), plan.K, d, plan.vectors, max_memory_mib);
  return structured_construction(a, family, std::move(plan));
}

Construction wfa_to_lrnn(const WfaArcs& arcs, WfaFamily family, WfaKeys keys,
                         std::size_t max_memory_mib,
                         const std::function<void(const PlannedShape&)>& before_build) {
  const std::size_t d = arcs.states(), sigma_count = arcs.alphabet.size();
  if (d == 0 || sigma_count == 0) throw std::invalid_argument("WFA with no states or no symbols");
  if (before_build) before_build(PlannedShape{d, sigma_count, d, 1});
  // The unit-key construction needs the dense matrices (spectral norms, monomial splits): its
  // memory is checked after the WFA is built densely, as wfa_to_lrnn(Wfa) does.
  if (keys == WfaKeys::unit) return wfa_to_lrnn(dense_wfa(arcs), family, keys, max_memory_mib);
  if (family == WfaFamily::general) {
    check_model_memory(sigma_count, d, "general", 1, d, 0, max_memory_mib);
    return general_construction(dense_wfa(arcs));
  }
  FactorPlan plan = plan_factors(transposed_matrices(arcs), family);
  check_model_memory(sigma_count, d, to_string(family), plan.K, d, plan.vectors, max_memory_mib);
  const Wfa a = dense_wfa(arcs);
  check_wfa(a);
  return structured_construction(a, family, std::move(plan));
}

namespace {

Construction structured_construction(const Wfa& a, WfaFamily family, FactorPlan plan) {
  const std::size_t d = a.states(), sigma_count = a.alphabet.size(), K = plan.K;
  std::vector<std::vector<ElementaryFactor>>& elementary = plan.elementary;
  std::vector<std::vector<HouseholderFactor>> householder;
  Construction c;
  c.name = "wfa-" + to_string(family);
  c.target = wfa_target(a);
  if (family == WfaFamily::deltanet) {
    for (const std::vector<ElementaryFactor>& e : elementary)
      householder.push_back(householder_factors(e, d));
    elementary.clear();
  }
  const Alphabet sub = substep_alphabet(a.alphabet, K);
  LayerFrame frame = wfa_frame(a, sigma_count * K);
  std::string how;
  LrnnLayer layer;
  std::size_t bound = 0;
  if (family == WfaFamily::dplr) {
    std::vector<DplrStep> steps;
    for (std::size_t s = 0; s < sigma_count; ++s)
      for (std::size_t k = 0; k < K; ++k) {
        DplrStep step{Vector(d, Rational(1)), Vector(d, Rational(0)), Vector(d, Rational(0)),
                      Matrix<Rational>(d, 1, Rational(0))};
        if (k < elementary[s].size()) {
          const ElementaryFactor& f = elementary[s][k];
          if (f.kind == ElementaryFactor::Kind::transvection) {
            step.a = unit(d, f.i, -f.c);  // I − (−c e_i) e_jᵀ = I + c e_i e_jᵀ
            step.b = unit(d, f.j);
          } else {
            step.D = f.diag;
          }
        }  // else the identity: D = 1, a = b = 0
        steps.push_back(std::move(step));
      }
    layer = make_dplr(std::move(frame), std::move(steps));
    bound = dplr_steps_bound(d);
    how = "transvections I + c e_i e_jᵀ and one diagonal";
  } else {
    std::vector<DeltaStep> steps;
    for (std::size_t s = 0; s < sigma_count; ++s)
      for (std::size_t k = 0; k < K; ++k) {
        DeltaStep step{{}, Rational(0), Vector(d, Rational(0)), Vector{Rational(0)}};
        if (k < householder[s].size()) {
          step.beta = householder[s][k].beta;
          step.k = householder[s][k].k;
        }  // else β = 0: the identity; the write β k vᵀ is 0 since v = 0
        steps.push_back(std::move(step));
      }
    layer = make_delta(Family::deltanet, std::move(frame), std::move(steps), BetaRange::any);
    bound = deltanet_steps_bound(d);
    how = "generalized Householders I − βkkᵀ";
  }
  const std::string family_name = to_string(family);
  c.model =
      one_layer_model(c.name,
                      "WFA with " + std::to_string(d) + " states as a " + family_name +
                          " LRNN reading K = " + std::to_string(K) + " sub-steps per symbol (" +
                          how + "; constructions.md §4): symbol σ.k applies factor k of M_σᵀ",
                      sub, std::move(layer));
  c.encode = substep_encoder(K);
  // embedding stays empty: K tokens per symbol are not block-linear in f's inputs; the input
  // forms are exact on one-hot inputs, which is all a check circuit needs.
  c.input_forms = substep_input_forms(sigma_count, K);
  c.claims.push_back(state_size_claim(a, c.model));
  c.claims.push_back(steps_claim(c, bound, true,
                                 family == WfaFamily::dplr
                                     ? "steps per symbol K (≤ d² + d − 1)"
                                     : "steps per symbol K (≤ 3(d−1)(d+2) + d)"));
  c.claims.push_back(check_factor_products(a, std::get<LrnnLayer>(c.model.layers[0].layer), K));
  return c;
}

}  // namespace

// ---- the `wfa` kind (constructions/registry.hpp) ----

void register_wfa_to_lrnn(Registry& registry) {
  registry.add({.name = "wfa",
                .help = "WFA → LRNN (--family general|dplr|deltanet|pd) against the WFA",
                .input_help = "WFA file: AT&T text, or JSON by the .json extension",
                .options = {{.name = "--family",
                             .kind = OptionKind::choice,
                             .help = "the LRNN family: general, dplr, deltanet or pd (a "
                                     "deterministic WFA's PD construction, as `dwfa`)",
                             .default_value = "general",
                             .allowed = {"general", "dplr", "deltanet", "pd"}},
                            {.name = "--beta-range",
                             .kind = OptionKind::choice,
                             .help = "deltanet only: any (β ∈ Q, any rational keys) or unit (β ∈ "
                                     "(0,2] with rational keys of norm 1; a failing claim says "
                                     "why when impossible)",
                             .default_value = "any",
                             .allowed = {"any", "unit"}}},
                .build_from = [](const OptionValues& v) {
                  const std::string& family = v.text("--family");
                  const bool unit = v.text("--beta-range") == "unit";
                  if (unit && family != "deltanet")
                    throw InputError("--beta-range",
                                     "unit applies to --family deltanet only, not " + family);
                  if (family == "pd") return dwfa_to_pd(load_wfa(v.input()));
                  return wfa_to_lrnn(load_wfa_arcs(v.input()), parse_wfa_family(family).value(),
                                     unit ? WfaKeys::unit : WfaKeys::any, v.max_memory_mib(),
                                     [&v](const PlannedShape& shape) { v.before_build(shape); });
                }});
}

}  // namespace rnncc
