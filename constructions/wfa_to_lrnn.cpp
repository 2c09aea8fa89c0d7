// WFA → LRNN in the general, DPLR and DeltaNet families (theorems and claims in the header).
#include "constructions/wfa_to_lrnn.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "algebra/charpoly.hpp"
#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/memory.hpp"
#include "algebra/real_roots.hpp"
#include "algebra/saturating.hpp"
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

namespace {

// The factor list of L_p ⋯ L_1 · A · R_1 ⋯ R_q = Δ (below): R_1⁻¹, …, R_q⁻¹, Δ (left out when
// it is I), L_p⁻¹, …, L_1⁻¹, each transvection inverted by negating c.
std::vector<ElementaryFactor> factors_in_application_order(
    const std::vector<ElementaryFactor>& left, const std::vector<ElementaryFactor>& right,
    Vector delta) {
  std::vector<ElementaryFactor> out;
  out.reserve(left.size() + right.size() + 1);
  for (const ElementaryFactor& r : right) out.push_back(transvection(r.i, r.j, -r.c));
  if (!std::all_of(delta.begin(), delta.end(), [](const Rational& x) { return x == 1; })) {
    ElementaryFactor f;
    f.diag = std::move(delta);
    out.push_back(std::move(f));
  }
  for (std::size_t l = left.size(); l-- > 0;)
    out.push_back(transvection(left[l].i, left[l].j, -left[l].c));
  return out;
}

// W for the sparse elimination: each row's nonzero entries by column, and each column's nonzero
// rows, kept in step by add().
class SparseSquare {
 public:
  // W = a, or aᵀ when `transposed` (without a dense copy of it).
  explicit SparseSquare(std::size_t d) : rows_(d), cols_(d) {}  // W = 0
  explicit SparseSquare(const Matrix<Rational>& a, bool transposed = false)
      : rows_(a.rows()), cols_(a.cols()) {
    for (std::size_t i = 0; i < a.rows(); ++i)
      for (std::size_t j = 0; j < a.cols(); ++j)
        if (a(i, j) != 0) {
          const std::size_t r = transposed ? j : i, c = transposed ? i : j;
          rows_[r].emplace(c, a(i, j));
          cols_[c].insert(r);
        }
  }
  std::size_t size() const { return rows_.size(); }
  Rational at(std::size_t i, std::size_t j) const {
    const auto it = rows_[i].find(j);
    return it == rows_[i].end() ? Rational(0) : it->second;
  }
  // W(i, j) += x.
  void add(std::size_t i, std::size_t j, const Rational& x) {
    if (x == 0) return;
    auto [it, inserted] = rows_[i].try_emplace(j, x);
    if (inserted) {
      cols_[j].insert(i);
    } else if ((it->second += x) == 0) {
      rows_[i].erase(it);
      cols_[j].erase(i);
    }
  }
  // row_i += c·row_j (i ≠ j): only row i changes.
  void row_add(std::size_t i, std::size_t j, const Rational& c) {
    for (const auto& [col, v] : rows_[j]) add(i, col, c * v);
  }
  // col_j += c·col_i (i ≠ j): only column j changes; column i's rows are read first.
  void col_add(std::size_t i, std::size_t j, const Rational& c) {
    const std::vector<std::size_t> rows(cols_[i].begin(), cols_[i].end());
    for (std::size_t r : rows) add(r, j, c * rows_[r].at(i));
  }
  // Rows > k with a nonzero in column `col`, ascending.
  std::vector<std::size_t> rows_below(std::size_t col, std::size_t k) const {
    return {cols_[col].upper_bound(k), cols_[col].end()};
  }
  // Columns > k with a nonzero in row `row`, ascending.
  std::vector<std::size_t> cols_right(std::size_t row, std::size_t k) const {
    std::vector<std::size_t> out;
    for (auto it = rows_[row].upper_bound(k); it != rows_[row].end(); ++it)
      out.push_back(it->first);
    return out;
  }
  // The least column j > k with a nonzero in some row ≥ k.
  std::optional<std::size_t> first_column_from(std::size_t k) const {
    for (std::size_t j = k + 1; j < cols_.size(); ++j)
      if (cols_[j].lower_bound(k) != cols_[j].end()) return j;
    return std::nullopt;
  }

 private:
  std::vector<std::map<std::size_t, Rational>> rows_;
  std::vector<std::set<std::size_t>> cols_;
};

}  // namespace

// Exact elimination with transvections only. Invariant before step k: rows and columns < k
// of W are zero except the diagonal. Step k makes W(k,k) ≠ 0 (≤ 2 transvections, only when
// the trailing block is nonzero; never at k = d−1, where a zero 1×1 block ends the loop),
// then clears column k below and row k right of the pivot (≤ 2(d−1−k) transvections). In all
//     L_p ⋯ L_1 · A · R_1 ⋯ R_q = Δ
// with ≤ 2(d−1) + d(d−1) = (d−1)(d+2) transvections L, R, so
//     A = L_1⁻¹ ⋯ L_p⁻¹ · Δ · R_q⁻¹ ⋯ R_1⁻¹,     (I + c e_i e_jᵀ)⁻¹ = I − c e_i e_jᵀ,
// whose application order (rightmost first) is R_1⁻¹, …, R_q⁻¹, Δ, L_p⁻¹, …, L_1⁻¹.
std::vector<ElementaryFactor> factor_elementary_plain(const Matrix<Rational>& a) {
  if (a.rows() != a.cols())
    throw std::invalid_argument("factor_elementary_plain: expected a square matrix, got " +
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
  Vector delta;
  for (std::size_t x = 0; x < d; ++x) delta.push_back(w(x, x));
  return factors_in_application_order(left, right, std::move(delta));
}

// The same elimination on a sparse W (factor_elementary_plain is its dense twin, and the tests
// require the two factor lists to be equal): every choice is the dense one — the first row below
// the pivot, the least borrowed column, rows and columns cleared in increasing order — but each
// transvection touches only the nonzero entries of one row or column, and the searches read the
// column and row sets. A chain WFA's matrix (one nonzero a row) costs O(d log d), not O(d²)
// work per factor; dense input costs what the plain twin does.
namespace {

std::vector<ElementaryFactor> factor_sparse(SparseSquare w) {
  const std::size_t d = w.size();
  std::vector<ElementaryFactor> left, right;
  auto row_op = [&](std::size_t i, std::size_t j, const Rational& c) {
    w.row_add(i, j, c);
    left.push_back(transvection(i, j, c));
  };
  auto col_op = [&](std::size_t i, std::size_t j, const Rational& c) {
    w.col_add(i, j, c);
    right.push_back(transvection(i, j, c));
  };
  for (std::size_t k = 0; k < d; ++k) {
    if (w.at(k, k) == 0) {
      std::vector<std::size_t> below = w.rows_below(k, k);
      if (below.empty()) {
        const std::optional<std::size_t> s = w.first_column_from(k);
        if (!s) break;
        col_op(*s, k, Rational(1));
        if (w.at(k, k) == 0) below = w.rows_below(k, k);
      }
      if (w.at(k, k) == 0) row_op(k, below.front(), Rational(1));
    }
    const Rational pivot = w.at(k, k);
    for (std::size_t i : w.rows_below(k, k)) row_op(i, k, -w.at(i, k) / pivot);
    for (std::size_t j : w.cols_right(k, k)) col_op(k, j, -w.at(k, j) / pivot);
  }
  Vector delta;
  for (std::size_t x = 0; x < d; ++x) delta.push_back(w.at(x, x));
  return factors_in_application_order(left, right, std::move(delta));
}

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

std::vector<ElementaryFactor> factor_elementary(const Matrix<Rational>& a) {
  if (a.rows() != a.cols())
    throw std::invalid_argument("factor_elementary: expected a square matrix, got " +
                                shape_string(a));
  return factor_sparse(SparseSquare(a));
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

std::size_t householder_factor_count(const std::vector<ElementaryFactor>& elementary) {
  std::size_t n = 0;
  for (const ElementaryFactor& f : elementary)
    n += f.kind == ElementaryFactor::Kind::transvection
             ? 3
             : static_cast<std::size_t>(std::count_if(f.diag.begin(), f.diag.end(),
                                                      [](const Rational& x) { return x != 1; }));
  return n;
}

std::vector<HouseholderFactor> factor_householder(const Matrix<Rational>& a) {
  return householder_factors(factor_elementary(a), a.rows());
}

std::vector<HouseholderFactor> householder_factors(const std::vector<ElementaryFactor>& elementary,
                                                   std::size_t d) {
  std::vector<HouseholderFactor> out;
  for (const ElementaryFactor& f : elementary) {
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

std::size_t unit_monomial_factor_count(const Matrix<Rational>& a, std::size_t copies) {
  const auto split = monomial_split(a);
  if (!split) throw std::invalid_argument("unit_monomial_factor_count: not a monomial contraction");
  const auto& [diag, pi] = *split;
  // copies per entry a_j ≠ 1, and d − (cycles of π) transpositions.
  std::size_t n = 0, cycles = 0;
  for (const Rational& x : diag) n += (x != 1) * copies;
  std::vector<bool> seen(pi.size(), false);
  for (std::size_t i = 0; i < pi.size(); ++i) {
    if (seen[i]) continue;
    ++cycles;
    for (std::size_t j = i; !seen[j]; j = pi[j]) seen[j] = true;
  }
  return n + (pi.size() - cycles);
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
