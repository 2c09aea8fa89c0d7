// WFA → LRNN in the general, DPLR and DeltaNet families (theorems and claims in the header).
#include "constructions/wfa_to_lrnn.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "algebra/charpoly.hpp"
#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/real_roots.hpp"
#include "circuits/compile/lrnn.hpp"
#include "constructions/dwfa_pd.hpp"
#include "constructions/registry.hpp"
#include "constructions/spectral.hpp"
#include "rnn/families.hpp"

namespace rnncc {

namespace {

const RationalField Q;

Matrix<Rational> identity_matrix(std::size_t d) {
  return identity(Q, d);
}

Vector unit(std::size_t d, std::size_t i, const Rational& scale = Rational(1)) {
  Vector v(d, Rational(0));
  v[i] = scale;
  return v;
}

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

// Row operation row_i += c·row_j on W: W ← (I + c e_i e_jᵀ) W.
void row_add(Matrix<Rational>& w, std::size_t i, std::size_t j, const Rational& c) {
  for (std::size_t col = 0; col < w.cols(); ++col)
    if (w(j, col) != 0) w(i, col) += c * w(j, col);
}
// Column operation col_j += c·col_i on W: W ← W (I + c e_i e_jᵀ).
void col_add(Matrix<Rational>& w, std::size_t i, std::size_t j, const Rational& c) {
  for (std::size_t row = 0; row < w.rows(); ++row)
    if (w(row, i) != 0) w(row, j) += c * w(row, i);
}

ElementaryFactor transvection(std::size_t i, std::size_t j, const Rational& c) {
  ElementaryFactor f;
  f.kind = ElementaryFactor::Kind::transvection;
  f.i = i;
  f.j = j;
  f.c = c;
  return f;
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

Matrix<Rational> ElementaryFactor::matrix(std::size_t d) const {
  Matrix<Rational> m = identity_matrix(d);
  if (kind == Kind::transvection) {
    m(i, j) += c;
  } else {
    for (std::size_t x = 0; x < d; ++x) m(x, x) = diag.at(x);
  }
  return m;
}

Matrix<Rational> HouseholderFactor::matrix() const {
  const std::size_t d = k.size();
  Matrix<Rational> m = identity_matrix(d);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) m(i, j) -= beta * k[i] * k[j];
  return m;
}

// Exact elimination with transvections only. Invariant before step k: rows and columns < k
// of W are zero except the diagonal. Step k makes W(k,k) ≠ 0 (≤ 2 transvections, only when
// the trailing block is nonzero; never at k = d−1, where a zero 1×1 block ends the loop),
// then clears column k below and row k right of the pivot (≤ 2(d−1−k) transvections). In all
//     L_p ⋯ L_1 · A · R_1 ⋯ R_q = Δ
// with ≤ 2(d−1) + d(d−1) = (d−1)(d+2) transvections L, R, so
//     A = L_1⁻¹ ⋯ L_p⁻¹ · Δ · R_q⁻¹ ⋯ R_1⁻¹,     (I + c e_i e_jᵀ)⁻¹ = I − c e_i e_jᵀ,
// whose application order (rightmost first) is R_1⁻¹, …, R_q⁻¹, Δ, L_p⁻¹, …, L_1⁻¹.
std::vector<ElementaryFactor> factor_elementary(const Matrix<Rational>& a) {
  if (a.rows() != a.cols())
    throw std::invalid_argument("factor_elementary: expected a square matrix, got " +
                                shape_string(a));
  const std::size_t d = a.rows();
  Matrix<Rational> w = a;
  std::vector<ElementaryFactor> left, right;  // L_1, L_2, … and R_1, R_2, … as applied to W
  auto row_op = [&](std::size_t i, std::size_t j, const Rational& c) {
    row_add(w, i, j, c);
    left.push_back(transvection(i, j, c));
  };
  auto col_op = [&](std::size_t i, std::size_t j, const Rational& c) {
    col_add(w, i, j, c);
    right.push_back(transvection(i, j, c));
  };
  for (std::size_t k = 0; k < d; ++k) {
    if (w(k, k) == 0) {
      std::optional<std::size_t> r;
      for (std::size_t i = k + 1; i < d && !r; ++i)
        if (w(i, k) != 0) r = i;
      if (!r) {  // column k is zero from row k down: borrow a nonzero column s > k
        std::optional<std::size_t> s;
        for (std::size_t j = k + 1; j < d && !s; ++j)
          for (std::size_t i = k; i < d && !s; ++i)
            if (w(i, j) != 0) s = j;
        if (!s) break;               // the trailing block is zero: Δ has zeros from k on
        col_op(*s, k, Rational(1));  // col_k += col_s
        if (w(k, k) == 0)
          for (std::size_t i = k + 1; i < d && !r; ++i)
            if (w(i, k) != 0) r = i;
      }
      if (w(k, k) == 0) row_op(k, *r, Rational(1));  // row_k += row_r: W(k,k) = W(r,k) ≠ 0
    }
    const Rational pivot = w(k, k);
    for (std::size_t i = k + 1; i < d; ++i)
      if (w(i, k) != 0) row_op(i, k, -w(i, k) / pivot);  // clears W(i,k)
    for (std::size_t j = k + 1; j < d; ++j)
      if (w(k, j) != 0) col_op(k, j, -w(k, j) / pivot);  // clears W(k,j)
  }
  std::vector<ElementaryFactor> out;
  for (const ElementaryFactor& r : right) out.push_back(transvection(r.i, r.j, -r.c));
  ElementaryFactor delta;
  bool is_identity = true;
  for (std::size_t x = 0; x < d; ++x) {
    delta.diag.push_back(w(x, x));
    is_identity = is_identity && w(x, x) == 1;
  }
  if (!is_identity) out.push_back(std::move(delta));
  for (std::size_t l = left.size(); l-- > 0;)
    out.push_back(transvection(left[l].i, left[l].j, -left[l].c));
  return out;
}

// I + c e_i e_jᵀ = H(1/3, e_j + 2c e_i) · H(1/2, e_j) · H(2/(2c²−1), e_j + c e_i): checked
// symbolically in c (and exactly in tests); 2c² − 1 ≠ 0 because √2 is irrational.
std::vector<HouseholderFactor> householder_transvection(std::size_t d, std::size_t i, std::size_t j,
                                                        const Rational& c) {
  if (i == j || i >= d || j >= d || c == 0)
    throw std::invalid_argument("householder_transvection: needs i ≠ j < d and c ≠ 0");
  auto k = [&](const Rational& t) {
    Vector v = unit(d, j);
    v[i] = t;
    return v;
  };
  return {HouseholderFactor{Rational(2) / (Rational(2) * c * c - 1), k(c)},
          HouseholderFactor{Rational(1, 2), unit(d, j)},
          HouseholderFactor{Rational(1, 3), k(Rational(2) * c)}};
}

std::vector<HouseholderFactor> factor_householder(const Matrix<Rational>& a) {
  const std::size_t d = a.rows();
  std::vector<HouseholderFactor> out;
  for (const ElementaryFactor& f : factor_elementary(a)) {
    if (f.kind == ElementaryFactor::Kind::transvection) {
      for (HouseholderFactor& h : householder_transvection(d, f.i, f.j, f.c))
        out.push_back(std::move(h));
    } else {
      for (std::size_t x = 0; x < d; ++x)  // H(1 − λ, e_x) scales coordinate x by λ
        if (f.diag[x] != 1) out.push_back(HouseholderFactor{1 - f.diag[x], unit(d, x)});
    }
  }
  return out;
}

Matrix<Rational> product_in_application_order(const std::vector<Matrix<Rational>>& factors,
                                              std::size_t d) {
  Matrix<Rational> p = identity_matrix(d);
  for (const Matrix<Rational>& f : factors) p = mul(Q, f, p);  // the later factor on the left
  return p;
}

std::size_t dplr_steps_bound(std::size_t d) {
  return d * d + d - 1;
}
std::size_t deltanet_steps_bound(std::size_t d) {
  return 3 * (d - 1) * (d + 2) + d;
}

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

namespace {

// A = P·D for a monomial contraction: a_j and π(j) (the row of column j's entry; zero columns
// completed to a bijection with the unused rows, in order). nullopt when A is not monomial or
// an entry lies outside [−1, 1].
std::optional<std::pair<Vector, std::vector<std::size_t>>> monomial_split(
    const Matrix<Rational>& a) {
  const std::size_t d = a.rows();
  Vector diag(d, Rational(0));
  std::vector<std::size_t> pi(d, d);
  std::vector<bool> row_used(d, false);
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t i = 0; i < d; ++i) {
      if (a(i, j) == 0) continue;
      if (pi[j] != d || row_used[i] || a(i, j) < -1 || a(i, j) > 1) return std::nullopt;
      pi[j] = i;
      row_used[i] = true;
      diag[j] = a(i, j);
    }
  std::size_t free_row = 0;
  for (std::size_t j = 0; j < d; ++j) {
    if (pi[j] != d) continue;
    while (row_used[free_row]) ++free_row;
    pi[j] = free_row;
    row_used[free_row] = true;
  }
  return std::make_pair(std::move(diag), std::move(pi));
}

}  // namespace

bool monomial_needs_permutation(const Matrix<Rational>& a) {
  const auto split = monomial_split(a);
  if (!split) return false;
  for (std::size_t j = 0; j < split->second.size(); ++j)
    if (split->second[j] != j) return true;
  return false;
}

std::vector<HouseholderFactor> factor_unit_monomial(const Matrix<Rational>& a, std::size_t copies) {
  if (a.rows() != a.cols() || (copies != 1 && copies != 2))
    throw std::invalid_argument("factor_unit_monomial: a square matrix and 1 or 2 copies");
  const auto split = monomial_split(a);
  if (!split) throw std::invalid_argument("factor_unit_monomial: not a monomial contraction");
  const std::size_t d = a.rows(), D = d * copies;
  const auto& [diag, pi0] = *split;
  std::vector<HouseholderFactor> out;
  for (std::size_t j = 0; j < d; ++j)  // D first: H(1 − a_j, e_j) in every copy
    if (diag[j] != 1)
      for (std::size_t c = 0; c < copies; ++c)
        out.push_back(HouseholderFactor{1 - diag[j], unit(D, c * d + j)});
  // π = (i₁ j₁) ∘ (i₂ j₂) ∘ ⋯: peel (i π(i)) from the left until π = id; applied in reverse.
  std::vector<std::size_t> pi = pi0;
  std::vector<std::pair<std::size_t, std::size_t>> peeled;
  for (std::size_t i = 0; i < d; ++i)
    while (pi[i] != i) {
      const std::size_t j = pi[i];
      peeled.emplace_back(i, j);
      for (std::size_t& x : pi) x = x == i ? j : (x == j ? i : x);  // π ← (i j) ∘ π
    }
  if (!peeled.empty() && copies == 1)
    throw std::invalid_argument(
        "factor_unit_monomial: a permutation part needs 2 copies (the key (e_i − e_j)/√2 is "
        "irrational)");
  for (std::size_t t = peeled.size(); t-- > 0;) {
    Vector k(D, Rational(0));
    for (std::size_t c = 0; c < copies; ++c) {
      k[c * d + peeled[t].first] = Rational(1, 2);
      k[c * d + peeled[t].second] = Rational(-1, 2);
    }
    out.push_back(HouseholderFactor{Rational(2), std::move(k)});
  }
  return out;
}

std::optional<std::string> unit_key_obstruction(const Wfa& a) {
  for (std::size_t s = 0; s < a.transition.size(); ++s) {
    const Matrix<Rational>& m = a.transition[s];
    if (monomial_split(transpose(m))) continue;
    const std::string sym = "M_'" + a.alphabet.symbol(s) + "'";
    // ‖M‖₂² = the largest eigenvalue of MᵀM (symmetric PSD: all roots real, ≥ 0).
    const RationalPoly p = charpoly(mul(Q, transpose(m), m));
    const std::vector<RealRoot> roots = real_roots(p);
    const RealRoot& top = roots.back();
    if (top.lo > 1 || (top.exact() && top.lo > 1) ||
        count_distinct_roots(p, Rational(1), cauchy_bound(p)) > 0) {
      RealRoot r = top;
      r.multiplicity = 1;
      return "impossible: ‖" + sym + "‖₂² = σ_max² " + (r.exact() ? "= " : "∈ ") + to_string(r) +
             " > 1, and every product of I − βkkᵀ with ‖k‖ = 1, β ∈ (0, 2] (restricted to an "
             "invariant subspace too) has spectral norm ≤ 1";
    }
    return "not covered: " + sym +
           " is a contraction (‖·‖₂ ≤ 1) but not monomial (one "
           "nonzero per row and column, entries in [−1, 1]); over R it factors through the SVD, "
           "over Q with unit keys this construction does not search";
  }
  return std::nullopt;
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
std::optional<Construction> wfa_to_deltanet_unit(const Wfa& a) {
  if (unit_key_obstruction(a)) return std::nullopt;
  const std::size_t d = a.states(), sigma_count = a.alphabet.size();
  std::size_t copies = 1;
  for (const Matrix<Rational>& m : a.transition)
    if (monomial_needs_permutation(transpose(m))) copies = 2;
  const std::size_t D = d * copies;
  std::vector<std::vector<HouseholderFactor>> fs;
  std::size_t K = 1;
  for (const Matrix<Rational>& m : a.transition) {
    fs.push_back(factor_unit_monomial(transpose(m), copies));
    K = std::max(K, fs.back().size());
  }
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

Construction wfa_to_lrnn(const Wfa& a, WfaFamily family, WfaKeys keys) {
  check_wfa(a);
  if (keys == WfaKeys::unit) {
    if (family != WfaFamily::deltanet)
      throw std::invalid_argument("wfa_to_lrnn: unit keys need the deltanet family");
    if (std::optional<Construction> c = wfa_to_deltanet_unit(a)) return std::move(*c);
    Construction c = wfa_to_lrnn(a, family, WfaKeys::any);
    c.claims.push_back(
        {"unit-key factorization (β ∈ (0,2], ‖k‖ = 1)", "exists", *unit_key_obstruction(a), false});
    c.notes.push_back("--beta-range unit: no unit-key model (" + *unit_key_obstruction(a) +
                      "); the model checked is the β-any construction");
    return c;
  }
  const std::size_t d = a.states(), sigma_count = a.alphabet.size();
  Construction c;
  c.name = "wfa-" + to_string(family);
  c.target = wfa_target(a);

  if (family == WfaFamily::general) {
    c.model = general_model(a);
    c.encode = [](const std::vector<std::size_t>& w) { return w; };
    c.embedding = identity_embedding(sigma_count);
    c.input_forms = c.embedding;
    c.claims.push_back(state_size_claim(a, c.model));
    c.claims.push_back(steps_claim(c, 1, false, "steps per symbol"));
    return c;
  }

  // Factor every A_σ = M_σᵀ; K = the longest factor list (at least 1).
  std::vector<std::vector<ElementaryFactor>> elementary;
  std::vector<std::vector<HouseholderFactor>> householder;
  std::size_t K = 1;
  for (const Matrix<Rational>& m : a.transition) {
    if (family == WfaFamily::dplr) {
      elementary.push_back(factor_elementary(transpose(m)));
      K = std::max(K, elementary.back().size());
    } else {
      householder.push_back(factor_householder(transpose(m)));
      K = std::max(K, householder.back().size());
    }
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
                  const Wfa a = load_wfa(v.input());
                  const std::string& family = v.text("--family");
                  const bool unit = v.text("--beta-range") == "unit";
                  if (unit && family != "deltanet")
                    throw InputError("--beta-range",
                                     "unit applies to --family deltanet only, not " + family);
                  return family == "pd" ? dwfa_to_pd(a)
                                        : wfa_to_lrnn(a, parse_wfa_family(family).value(),
                                                      unit ? WfaKeys::unit : WfaKeys::any);
                }});
}

}  // namespace rnncc
