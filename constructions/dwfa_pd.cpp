// DWFA ↔ PD LRNN (theorem, conventions and claims in the header).
#include "constructions/dwfa_pd.hpp"

#include <algorithm>
#include <stdexcept>

#include "algebra/error.hpp"
#include "constructions/registry.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/families.hpp"

namespace rnncc {

namespace {

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + ("'" + items[i] + "'");
  return out;
}

std::string entry(std::size_t i, std::size_t j) {
  return "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

bool all_zero(const Matrix<Rational>& m) {
  for (const Rational& x : m.data())
    if (x != 0) return false;
  return true;
}

// Identity encode, embedding and input forms: one token per symbol, model input
// (t−1)|Σ| + σ = f's input.
void one_token_per_symbol(Construction& c, std::size_t symbols) {
  c.encode = [](const std::vector<std::size_t>& w) { return w; };
  c.embedding = [symbols](std::size_t n) {
    std::vector<InputSource> out(n * symbols);
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = InputSource{Rational(0), {static_cast<std::uint32_t>(i)}};
    return out;
  };
  c.input_forms = c.embedding;
}

void common_claims(Construction& c, std::size_t states) {
  const LrnnLayer& l = std::get<LrnnLayer>(c.model.layers.at(0).layer);
  c.claims.push_back(
      claim_equal("state size = number of WFA states", Integer(states), Integer(l.d)));
  c.claims.push_back(claim_equal("steps per symbol", 1, Integer(c.encode({0}).size())));
}

// Throws when `a` is not deterministic, naming why.
void require_deterministic(const Wfa& a) {
  std::vector<std::string> starts;
  for (std::size_t p = 0; p < a.states(); ++p)
    if (a.initial[p] != 0) starts.push_back(a.state_names[p]);
  if (starts.empty())
    throw InputError("",
                     "the WFA is not deterministic: it has no initial state (α = 0); a DWFA has "
                     "exactly one");
  if (starts.size() > 1)
    throw InputError("", "the WFA is not deterministic: it has " + std::to_string(starts.size()) +
                             " initial states (" + quoted_list(starts) +
                             "); a DWFA has exactly one");
  for (std::size_t s = 0; s < a.alphabet.size(); ++s)
    for (std::size_t p = 0; p < a.states(); ++p) {
      std::vector<std::string> targets;
      for (std::size_t q = 0; q < a.states(); ++q)
        if (a.transition[s](p, q) != 0) targets.push_back(a.state_names[q]);
      if (targets.size() > 1)
        throw InputError("", "the WFA is not deterministic: state '" + a.state_names[p] + "' has " +
                                 std::to_string(targets.size()) + " arcs labelled '" +
                                 a.alphabet.symbol(s) + "' (to " + quoted_list(targets) +
                                 "); a DWFA has at most one arc per state and symbol");
    }
}

}  // namespace

Construction dwfa_to_pd(const Wfa& a) {
  Construction c;
  c.target = wfa_target(a);  // checks the Wfa's shapes
  require_deterministic(a);
  const std::size_t d = a.states();
  c.name = "dwfa-pd";

  // Arc p --σ/w--> q, i.e. (M_σ)_{pq} = w, becomes column p of A_σ = M_σᵀ: image[p] = q,
  // D_p = w. No σ-arc from p: a zero column, image[p] = p, D_p = 0.
  std::vector<PdStep> steps;
  std::vector<std::string> not_onto;
  for (std::size_t s = 0; s < a.alphabet.size(); ++s) {
    PdStep step{std::vector<std::size_t>(d), Vector(d, Rational(0)),
                Matrix<Rational>(d, 1, Rational(0))};
    for (std::size_t p = 0; p < d; ++p) {
      step.image[p] = p;
      for (std::size_t q = 0; q < d; ++q)
        if (a.transition[s](p, q) != 0) {
          step.image[p] = q;
          step.diag[p] = a.transition[s](p, q);
        }
    }
    steps.push_back(std::move(step));
  }
  LayerFrame frame;
  frame.d = d;
  frame.m = 1;
  frame.features = a.alphabet.size();
  frame.initial_state = Matrix<Rational>(d, 1);
  frame.readout = Matrix<Rational>(1, d);
  for (std::size_t i = 0; i < d; ++i) {
    frame.initial_state(i, 0) = a.initial[i];
    frame.readout(0, i) = a.final[i];
  }
  LrnnLayer layer = make_pd(std::move(frame), std::move(steps), false);
  for (std::size_t s = 0; s < a.alphabet.size(); ++s)
    if (!std::get<PdParams>(layer.record[s]).permutation) not_onto.push_back(a.alphabet.symbol(s));

  // The exact check of the layer itself: A_σ rebuilt from (image, D) and as stored, = M_σᵀ.
  Claim product{"A_σ = P_σ·diag(D_σ) = M_σᵀ with P_σ column-one-hot", "exact", "exact", true};
  for (std::size_t s = 0; s < a.alphabet.size() && product.ok; ++s) {
    const PdParams& pd = std::get<PdParams>(layer.record[s]);
    for (std::size_t i = 0; i < d && product.ok; ++i)
      for (std::size_t j = 0; j < d && product.ok; ++j) {
        const Rational rebuilt = pd.image[j] == i ? pd.diag[j] : Rational(0);
        if (rebuilt != a.transition[s](j, i) || layer.A[s](i, j) != a.transition[s](j, i)) {
          product.ok = false;
          product.measured = "differs for symbol '" + a.alphabet.symbol(s) + "' at " + entry(i, j);
        }
      }
  }
  Claim kind{"P_σ kind", "column-one-hot",
             not_onto.empty() ? "permutation for every symbol"
                              : "column-one-hot; not a permutation for " + quoted_list(not_onto),
             true};

  Model m;
  m.name = "dwfa-pd";
  m.description = "deterministic WFA with " + std::to_string(d) +
                  " states as a PD LRNN: A_σ = M_σᵀ = P_σ·diag(D_σ), an arc p --σ/w--> q is "
                  "image[p] = q, D_p = w (constructions.md §4)";
  m.alphabet = a.alphabet;
  m.layers.push_back(StackLayer{std::nullopt, std::move(layer)});
  c.model = std::move(m);
  one_token_per_symbol(c, a.alphabet.size());
  common_claims(c, d);
  c.claims.push_back(std::move(product));
  c.claims.push_back(std::move(kind));
  return c;
}

Wfa pd_to_dwfa(const Model& m) {
  if (m.layers.size() != 1)
    throw InputError("layers", "a WFA is read off a one-layer model, got " +
                                   std::to_string(m.layers.size()) + " layers");
  const auto* l = std::get_if<LrnnLayer>(&m.layers[0].layer);
  if (!l || l->family != Family::pd)
    throw InputError("layer 0", "expected an lrnn/pd layer (a DWFA's transitions are P·D), got " +
                                    layer_kind(m.layers[0].layer));
  if (m.layers[0].input) throw InputError("layer 0", "a stacked input map is not supported");
  if (l->m != 1)
    throw InputError("layer 0", "expected one state column (m = 1), got m = " +
                                    std::to_string(l->m) + ": a WFA's state is a vector");
  if (l->readout.rows() != 1)
    throw InputError("layer 0", "expected a readout of one row (a WFA's final weights), got " +
                                    std::to_string(l->readout.rows()) + " rows");
  if (!l->readout_bias.empty() && !all_zero(l->readout_bias))
    throw InputError("layer 0",
                     "a nonzero readout_bias is not supported: a WFA's value is αᵀ⋯β "
                     "with no constant term");
  for (std::size_t s = 0; s < l->readout_feature.size(); ++s)
    if (!all_zero(l->readout_feature[s]))
      throw InputError("layer 0", "a per-symbol readout C (symbol '" + m.alphabet.symbol(s) +
                                      "') is not supported: a WFA has one final vector β");
  for (std::size_t s = 0; s < l->B.size(); ++s)
    if (!all_zero(l->B[s]))
      throw InputError("layer 0", "symbol '" + m.alphabet.symbol(s) +
                                      "' has a nonzero B (an affine write); a WFA's transitions "
                                      "are linear");
  Wfa a;
  a.alphabet = m.alphabet;
  const std::size_t d = l->d;
  for (std::size_t i = 0; i < d; ++i) {
    a.state_names.push_back(std::to_string(i));
    a.initial.push_back(l->initial_state(i, 0));
    a.final.push_back(l->readout(0, i));
  }
  for (const Matrix<Rational>& A : l->A) a.transition.push_back(transpose(A));  // M_σ = A_σᵀ
  return a;
}

Construction pd_to_dwfa_check(const Model& m) {
  const Wfa a = pd_to_dwfa(m);
  Construction c;
  c.name = "pd-dwfa";
  c.model = m;
  c.target = wfa_target(a);
  one_token_per_symbol(c, a.alphabet.size());
  common_claims(c, a.states());

  Claim rows{"rows of M_σ have ≤ 1 nonzero", "≤ 1", "", true};
  std::size_t most = 0;
  for (const Matrix<Rational>& t : a.transition)
    for (std::size_t p = 0; p < t.rows(); ++p) {
      std::size_t count = 0;
      for (std::size_t q = 0; q < t.cols(); ++q) count += t(p, q) != 0;
      most = std::max(most, count);
    }
  rows.measured = std::to_string(most);
  rows.ok = most <= 1;
  c.claims.push_back(std::move(rows));

  std::size_t starts = 0;
  for (const Rational& x : a.initial) starts += x != 0;
  c.claims.push_back(claim_equal("one initial state (nonzero entries of S_0)", 1, starts));
  return c;
}

// ---- the `dwfa` kind (constructions/registry.hpp) ----

void register_dwfa_pd(Registry& registry) {
  registry.add(
      {.name = "dwfa",
       .help = "deterministic WFA → PD LRNN against the WFA",
       .input_help = "deterministic WFA file: AT&T text, or JSON by the .json extension",
       .build_from = [](const OptionValues& v) { return dwfa_to_pd(load_wfa(v.input())); }});
}

}  // namespace rnncc
