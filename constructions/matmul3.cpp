#include "constructions/matmul3.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "constructions/generators_file.hpp"
#include "constructions/registry.hpp"
#include "rnn/families.hpp"

namespace rnncc {

namespace {

using Gen = Matrix3;  // row-major 3×3 over Q
using Column = std::array<Rational, 3>;

constexpr std::size_t kBuffer = 9;       // coordinates per buffer
constexpr std::size_t kD = 2 * kBuffer;  // state dimension
constexpr std::size_t kSteps = 9;        // overwrites (tokens) per matrix

// Input forms (construction.hpp) of a schedule that reads an optional BOS token, then kSteps
// tokens per matrix: X's indicator of token τ at position [bos] + kSteps·i + p is
// Σ_g [token(i, p, g) = τ]·x[i, g] (generators sharing a token share the indicator), and BOS
// is the constant one-hot of bos_id.
template <class TokenOf>
std::vector<InputSource> step_input_forms(std::size_t n, std::size_t features, bool bos,
                                          std::size_t bos_id, std::size_t generators,
                                          TokenOf&& token_of) {
  std::vector<InputSource> out(((bos ? 1 : 0) + n * kSteps) * features);
  std::size_t base = 0;
  if (bos) {
    out[bos_id].constant = 1;
    base = features;
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t p = 0; p < kSteps; ++p, base += features)
      for (std::size_t g = 0; g < generators; ++g)
        out[base + token_of(i, p, g)].variables.push_back(
            static_cast<std::uint32_t>(i * generators + g));
  return out;
}

// Coordinate of entry (r, k) of the matrix in buffer b.
std::size_t coord(std::size_t b, std::size_t r, std::size_t k) {
  return kBuffer * b + 3 * r + k;
}

int det3(const std::array<int, 9>& a) {
  return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
         a[2] * (a[3] * a[7] - a[4] * a[6]);
}

Column column(const Gen& g, std::size_t s) {
  return {g[s], g[3 + s], g[6 + s]};
}

bool ternary(const Rational& x) {
  return x == 0 || x == 1 || x == -1;
}

// "+0-" when every entry is −1, 0 or 1 (the paper's alphabet), else "[2;1/2;-3]".
std::string column_name(const Column& c) {
  std::string out;
  if (std::all_of(c.begin(), c.end(), ternary)) {
    for (const Rational& x : c) out += x > 0 ? '+' : x < 0 ? '-' : '0';
    return out;
  }
  for (const Rational& x : c) out += (out.empty() ? "[" : ";") + to_string(x);
  return out + "]";
}

// The parity of the matrix index i (1-based): q = 0 for odd i (reads buffer 0, writes 1).
const char* parity_name(std::size_t q) {
  return q == 0 ? "odd" : "even";
}

// One overwrite token of the Σ × [9] × parity alphabet.
struct Token {
  std::size_t p;  // sub-position 0..8: writes entry (p / 3, p mod 3) of P·A
  Column col;     // column p mod 3 of A
  std::size_t q;  // 0: active buffer 0 (odd matrix index), 1: active buffer 1
  bool operator<(const Token& o) const { return std::tie(p, col, q) < std::tie(o.p, o.col, o.q); }
  std::string name() const {
    return "p" + std::to_string(p) + ":" + column_name(col) + ":" + parity_name(q);
  }
};

std::vector<Gen> checked_generators(const Matmul3Options& o) {
  std::vector<Gen> gens = o.generators.empty() ? default_matmul3_generators() : o.generators;
  if (gens.size() > max_generators)
    throw InputError("matmul3", std::to_string(gens.size()) + " generators; at most " +
                                    std::to_string(max_generators) +
                                    " (the model has up to 18 symbols per generator)");
  // Mod p every entry must have a value: p may not divide a denominator (the model's parameters
  // are the entries, and F_p's image of a/b is a·b⁻¹).
  if (o.modulus && *o.modulus >= 2)
    for (std::size_t g = 0; g < gens.size(); ++g)
      for (std::size_t e = 0; e < 9; ++e)
        if (denominator(gens[g][e]) % Integer(*o.modulus) == 0)
          throw InputError("--modulus",
                           std::to_string(*o.modulus) + " divides the denominator of generator M" +
                               std::to_string(g) + " entry [" + std::to_string(e / 3) + "][" +
                               std::to_string(e % 3) + "] = " + to_string(gens[g][e]) +
                               ", which has no value mod " + std::to_string(*o.modulus) +
                               "; choose a prime that divides no denominator");
  return gens;
}

std::vector<std::string> generator_names(std::size_t n) {
  std::vector<std::string> names;
  for (std::size_t g = 0; g < n; ++g) names.push_back("M" + std::to_string(g));
  return names;
}

// f(w) = (M_{w₁}⋯M_{w_n})[0][0] over Q: only row 0 of the product is needed, v ← v·M.
Target make_target(const std::vector<Gen>& gens) {
  Target t;
  t.alphabet = Alphabet(generator_names(gens.size()), "matmul3");
  t.value = [gens](const std::vector<std::size_t>& w) {
    std::array<Rational, 3> v = {Rational(1), Rational(0), Rational(0)};
    for (std::size_t id : w) {
      if (id >= gens.size())
        throw InputError("matmul3", "symbol id " + std::to_string(id) + " is out of range");
      const Gen& m = gens[id];
      std::array<Rational, 3> next;
      for (std::size_t s = 0; s < 3; ++s) next[s] = v[0] * m[s] + v[1] * m[3 + s] + v[2] * m[6 + s];
      v = next;
    }
    return v[0];
  };
  // The same row-vector product as a circuit in the one-hot inputs x[t,σ]:
  // M_t[k][s] = Σ_σ x[t,σ]·M_σ[k][s], entries ±1 become ± the input, others c·x.
  const std::size_t sigma = gens.size();
  t.circuit = [gens, sigma](std::size_t n) {
    CircuitBuilder b;
    std::array<GateId, 3> v = {b.constant(1), b.constant(0), b.constant(0)};
    for (std::size_t pos = 0; pos < n; ++pos) {
      std::vector<GateId> x;
      for (std::size_t s = 0; s < sigma; ++s)
        x.push_back(b.input("x[" + std::to_string(pos + 1) + ",M" + std::to_string(s) + "]"));
      std::array<GateId, 9> m;
      for (std::size_t e = 0; e < 9; ++e) {
        std::vector<GateId> terms;
        for (std::size_t s = 0; s < sigma; ++s)
          if (gens[s][e] == 1)
            terms.push_back(x[s]);
          else if (gens[s][e] == -1)
            terms.push_back(b.neg(x[s]));
          else if (gens[s][e] != 0)
            terms.push_back(b.mul(b.constant(gens[s][e]), x[s]));
        m[e] = terms.empty() ? b.constant(0) : b.sum(terms);
      }
      std::array<GateId, 3> next;
      for (std::size_t s = 0; s < 3; ++s) {
        std::array<GateId, 3> terms = {b.mul(v[0], m[s]), b.mul(v[1], m[3 + s]),
                                       b.mul(v[2], m[6 + s])};
        next[s] = b.sum(terms);
      }
      v = next;
    }
    return b.finish({v[0]}, {"f"});
  };
  // f as a 3-state WFA (row-vector convention): α = e₀, (M_σ)[k][s] = generator σ's entry
  // (k, s), β = e₀, so α·M_{w₁}⋯M_{w_n}·β = (M_{w₁}⋯M_{w_n})[0][0] = value(w).
  Wfa a;
  a.alphabet = t.alphabet;
  a.state_names = {"0", "1", "2"};
  a.initial = {Rational(1), Rational(0), Rational(0)};
  a.final = a.initial;
  for (const Gen& m : gens) {
    Matrix<Rational> M(3, 3, Rational(0));
    for (std::size_t e = 0; e < 9; ++e) M(e / 3, e % 3) = m[e];
    a.transition.push_back(std::move(M));
  }
  t.automaton = std::move(a);
  return t;
}

// The overwrite tokens: column col at sub-position p exists iff col is column p mod 3 of some
// generator (so the layer has at most 18·|G| overwrite features, 120 for the defaults, instead
// of 486 for all 27 columns; the reference evaluator's cost per step grows with the count).
std::vector<Token> overwrite_tokens(const std::vector<Gen>& gens) {
  std::vector<Token> tokens;
  for (std::size_t q = 0; q < 2; ++q)
    for (std::size_t p = 0; p < kSteps; ++p) {
      std::vector<Column> cols;
      for (const Gen& g : gens) cols.push_back(column(g, p % 3));
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
      for (const Column& c : cols) tokens.push_back({p, c, q});
    }
  return tokens;
}

Matrix<Rational> unit_row(std::size_t i) {
  Matrix<Rational> m(1, kD, Rational(0));
  m(0, i) = 1;
  return m;
}

// The overwrite layer over `tokens` (feature f = tokens[f], then BOS last when init_on_bos).
LrnnLayer overwrite_layer(const std::vector<Token>& tokens, bool init_on_bos) {
  LayerFrame frame;
  frame.d = kD;
  frame.m = 1;
  frame.features = tokens.size() + (init_on_bos ? 1 : 0);
  frame.initial_state = Matrix<Rational>(kD, 1, Rational(0));  // both buffers "uninitialized"
  frame.readout = Matrix<Rational>(1, kD, Rational(0));        // C = 0: all in C_σ
  std::vector<Rwkv7Step> steps;
  for (const Token& t : tokens) {
    const std::size_t active = t.q, inactive = 1 - t.q;
    const std::size_t r = t.p / 3, s = t.p % 3;
    const std::size_t j = coord(inactive, r, s);
    Rwkv7Step step{Vector(kD, Rational(1)), Vector(kD, Rational(0)), Vector(kD, Rational(0)),
                   Matrix<Rational>(kD, 1, Rational(0))};
    // (P·A)[r][s] = Σ_k P[r][k]·A[k][s]: c = Σ_k A[k][s]·e_{active(r,k)}, so c_j = 0.
    Vector c(kD, Rational(0));
    for (std::size_t k = 0; k < 3; ++k) c[coord(active, r, k)] = t.col[k];
    if (!init_on_bos && t.p == 0 && t.q == 0) {
      // The printed schedule's initialization on the first data token: buffer 0 ← vec(I), then
      // x_j ← ⟨c, vec(I)⟩ = A[0][0] (row 0 of I picks A[0][s], s = 0). As one affine map:
      // w = 0 on buffer 0 and on j, B = vec(I) + A[0][0]·e_j.
      for (std::size_t k = 0; k < 3; ++k) step.B(coord(active, k, k), 0) = 1;
      for (std::size_t i = 0; i < kBuffer; ++i) step.w[coord(active, 0, 0) + i] = 0;
      step.w[j] = 0;
      step.B(j, 0) = t.col[0];
    } else {
      // A = diag(w) + a bᵀ = I + e_j (c − e_j)ᵀ = I − e_j e_jᵀ + e_j cᵀ.
      step.a[j] = 1;
      step.b = c;
      step.b[j] -= 1;
    }
    steps.push_back(std::move(step));
    // p < 8: the product so far, in the active buffer; p = 8: the product just completed.
    frame.readout_feature.push_back(unit_row(coord(t.p + 1 < kSteps ? active : inactive, 0, 0)));
  }
  if (init_on_bos) {
    // BOS: A = diag(0) + 0·0ᵀ = 0, B = vec(I) in buffer 0; reads P[0][0] = 1.
    Rwkv7Step bos{Vector(kD, Rational(0)), Vector(kD, Rational(0)), Vector(kD, Rational(0)),
                  Matrix<Rational>(kD, 1, Rational(0))};
    for (std::size_t k = 0; k < 3; ++k) bos.B(coord(0, k, k), 0) = 1;
    steps.push_back(std::move(bos));
    frame.readout_feature.push_back(unit_row(coord(0, 0, 0)));
  }
  return make_rwkv7(std::move(frame), std::move(steps));
}

// Rank over Q by Gaussian elimination.
std::size_t rank(Matrix<Rational> m) {
  std::size_t found = 0;  // pivots so far; rows [0, found) are the echelon part
  for (std::size_t col = 0; col < m.cols() && found < m.rows(); ++col) {
    std::size_t pivot = found;
    while (pivot < m.rows() && m(pivot, col) == 0) ++pivot;
    if (pivot == m.rows()) continue;
    for (std::size_t j = 0; j < m.cols(); ++j) std::swap(m(found, j), m(pivot, j));
    for (std::size_t i = found + 1; i < m.rows(); ++i) {
      if (m(i, col) == 0) continue;
      const Rational f = m(i, col) / m(found, col);
      for (std::size_t j = col; j < m.cols(); ++j) m(i, j) -= f * m(found, j);
    }
    ++found;
  }
  return found;
}

// Maxima of rank(A − I) and rank(A − diag(A)), and the number with B ≠ 0, over the features
// in [0, count) (the non-BOS tokens; BOS is last).
struct Measured {
  std::size_t rank_minus_identity = 0, rank_off_diagonal = 0, nonzero_b = 0;
};
Measured measure_overwrites(const LrnnLayer& layer, std::size_t count) {
  Measured out;
  for (std::size_t f = 0; f < count; ++f) {
    Matrix<Rational> minus_identity = layer.A[f], off_diagonal = layer.A[f];
    for (std::size_t i = 0; i < layer.d; ++i) {
      minus_identity(i, i) -= 1;
      off_diagonal(i, i) = 0;
    }
    out.rank_minus_identity = std::max(out.rank_minus_identity, rank(minus_identity));
    out.rank_off_diagonal = std::max(out.rank_off_diagonal, rank(off_diagonal));
    if (std::any_of(layer.B[f].data().begin(), layer.B[f].data().end(),
                    [](const Rational& x) { return x != 0; }))
      ++out.nonzero_b;
  }
  return out;
}

// Claims shared by both models; `encode` and the overwrite layer are measured.
void add_common_claims(Construction& c, const LrnnLayer& upper, std::size_t non_bos,
                       std::size_t generators, bool init_on_bos) {
  const std::size_t empty = c.encode({}).size();
  std::size_t low = SIZE_MAX, high = 0;  // encode's tokens per matrix, over the generators
  for (std::size_t g = 0; g < generators; ++g) {
    low = std::min(low, c.encode({g}).size() - empty);
    high = std::max(high, c.encode({g}).size() - empty);
  }
  const Measured m = measure_overwrites(upper, non_bos);
  c.claims.push_back(
      claim_equal("state dimension d of the overwrite layer (two 9-buffers, no "
                  "constant coordinate)",
                  Integer(kD), Integer(upper.d)));
  c.claims.push_back(
      {"tokens per matrix", "= " + std::to_string(kSteps),
       low == high ? std::to_string(low) : std::to_string(low) + ".." + std::to_string(high),
       low == kSteps && high == kSteps});
  c.claims.push_back(claim_equal("BOS tokens", Integer(init_on_bos ? 1 : 0), Integer(empty)));
  // Measured on every non-BOS token: in the flawed variant the initializing tokens are not
  // identity + rank one, and these claims fail (as the printed schedule's would).
  c.claims.push_back(claim_at_most("max rank(A_σ − I) over non-BOS tokens", Integer(1),
                                   Integer(m.rank_minus_identity)));
  c.claims.push_back(claim_at_most("max rank(A_σ − diag(A_σ)) over non-BOS tokens (DPLR)",
                                   Integer(1), Integer(m.rank_off_diagonal)));
  c.claims.push_back(claim_equal("non-BOS tokens with B_σ ≠ 0", Integer(0), Integer(m.nonzero_b)));
}

}  // namespace

std::vector<Matrix3> default_matmul3_generators() {
  using Small = std::array<int, 9>;
  const Small identity = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::mt19937_64 rng(3612);  // the arXiv number of [MJLLS26]
  std::vector<Small> gens;
  for (std::size_t i = 0; i < 6; ++i)
    for (;;) {
      Small m;
      for (int& x : m) x = static_cast<int>(rng() % 3) - 1;
      const int d = det3(m);
      const bool wanted = i == 0 ? d == 0 && m != Small{} : i == 1 ? d == -1 : d != 0 && d != -1;
      if (wanted && m != identity && std::find(gens.begin(), gens.end(), m) == gens.end()) {
        gens.push_back(m);
        break;
      }
    }
  gens.push_back(identity);
  std::vector<Matrix3> out;
  for (const Small& m : gens) {
    Matrix3 q;
    for (std::size_t e = 0; e < 9; ++e) q[e] = m[e];
    out.push_back(std::move(q));
  }
  return out;
}

Construction matmul3(const Matmul3Options& options) {
  const std::vector<Gen> gens = checked_generators(options);
  const std::vector<Token> tokens = overwrite_tokens(gens);
  const bool bos = options.init_on_bos;

  Construction c;
  c.name = bos ? "matmul3" : "matmul3-no-bos";
  c.target = make_target(gens);
  c.encode_period = 2;  // token names carry the parity of the matrix index
  c.modulus = options.modulus;
  c.out_row = 0;
  c.out_col = 0;

  std::vector<std::string> names;
  for (const Token& t : tokens) names.push_back(t.name());
  if (bos) names.push_back("BOS");
  c.model.name = c.name;
  c.model.description =
      bos ? "iterated 3x3 matrix product by RWKV-7 overwrites [MJLLS26 Thm 5, as audited]: "
            "BOS sets buffer 0 to vec(I); 9 tokens per matrix write vec(P·A) into the other "
            "buffer; y = P[0][0]"
          : "the printed schedule without BOS: every sub-position-0 token of an odd matrix "
            "resets buffer 0 to vec(I) (wrong from length 3 on)";
  c.model.alphabet = Alphabet(names, "matmul3");
  c.model.layers.push_back({std::nullopt, overwrite_layer(tokens, bos)});
  c.model.accept = Acceptance{Acceptance::Mode::positive, 0, 0};

  std::map<Token, std::size_t> id;
  for (std::size_t f = 0; f < tokens.size(); ++f) id[tokens[f]] = f;
  const std::size_t bos_id = tokens.size();
  c.encode = [gens, id, bos, bos_id](const std::vector<std::size_t>& w) {
    std::vector<std::size_t> out;
    if (bos) out.push_back(bos_id);
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (w[i] >= gens.size())
        throw InputError("matmul3", "symbol id " + std::to_string(w[i]) + " is out of range");
      for (std::size_t p = 0; p < kSteps; ++p)
        out.push_back(id.at(Token{p, column(gens[w[i]], p % 3), i % 2}));
    }
    return out;
  };
  // Input forms (construction.hpp): position 1 is BOS (the constant one-hot of BOS); position
  // 1 + 9(i−1) + p + [bos] holds the token of (p, column p mod 3 of M_{w_i}, parity of i), so
  // X's indicator of token τ there is Σ_σ [token(σ) = τ]·x[i,σ] — a sum of several
  // variables where generators share a column, still exact on one-hot inputs.
  const std::size_t features = c.model.alphabet.size();
  c.input_forms = [gens, id, bos, bos_id, features](std::size_t n) {
    return step_input_forms(n, features, bos, bos_id, gens.size(),
                            [&](std::size_t i, std::size_t p, std::size_t g) {
                              return id.at(Token{p, column(gens[g], p % 3), i % 2});
                            });
  };

  const LrnnLayer& layer = std::get<LrnnLayer>(c.model.layers[0].layer);
  add_common_claims(c, layer, tokens.size(), gens.size(), bos);
  c.claims.push_back(claim_equal("layers", Integer(1), Integer(c.model.layers.size())));
  // Entries in {−1, 0, 1} (the paper's alphabet): at most the 27 possible columns per
  // sub-position; otherwise at most one column per generator and sub-position.
  if (std::all_of(gens.begin(), gens.end(),
                  [](const Gen& g) { return std::all_of(g.begin(), g.end(), ternary); }))
    c.claims.push_back(claim_at_most("alphabet size (BOS + Σ×[9]×parity over the 27 columns)",
                                     Integer(9 * 27 * 2 + 1), Integer(c.model.alphabet.size())));
  else
    c.claims.push_back(claim_at_most("alphabet size (BOS + ≤ 9×2 tokens per generator)",
                                     Integer(18 * gens.size() + 1),
                                     Integer(c.model.alphabet.size())));
  return c;
}

Construction matmul3_stacked(const Matmul3Options& options) {
  const std::vector<Gen> gens = checked_generators(options);
  const std::vector<Token> tokens = overwrite_tokens(gens);
  const bool bos = options.init_on_bos;

  // The input alphabet: the distinct columns of the generators, then BOS.
  std::vector<Column> cols;
  for (const Gen& g : gens)
    for (std::size_t s = 0; s < 3; ++s) cols.push_back(column(g, s));
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  std::map<Column, std::size_t> col_id;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    col_id[cols[i]] = i;
    names.push_back("c:" + column_name(cols[i]));
  }
  if (bos) names.push_back("BOS");
  const std::size_t in_bos = cols.size();

  std::map<Token, std::size_t> feature;
  for (std::size_t f = 0; f < tokens.size(); ++f) feature[tokens[f]] = f;
  const std::size_t features = tokens.size() + (bos ? 1 : 0), up_bos = tokens.size();

  // Layer 1: the counter q = (number of data tokens − 1) mod 18, one-hot e_q; q = 9·parity + p.
  const std::size_t period = 2 * kSteps;
  LayerFrame lower;
  lower.d = period;
  lower.m = 1;
  lower.features = names.size();
  lower.initial_state = Matrix<Rational>(period, 1, Rational(0));
  lower.initial_state(period - 1, 0) = 1;  // "position −1" (also what BOS sets)
  lower.readout = Matrix<Rational>(features, period, Rational(0));
  std::vector<PdStep> steps;
  std::vector<std::size_t> shift(period), fixed(period);
  for (std::size_t q = 0; q < period; ++q) {
    shift[q] = (q + 1) % period;  // P e_q = e_{q+1}
    fixed[q] = q;
  }
  for (std::size_t i = 0; i < cols.size(); ++i) {
    steps.push_back({shift, Vector(period, Rational(1)), Matrix<Rational>(period, 1, Rational(0))});
    // C_col e_q = the one-hot of the upper feature (q mod 9, col, q div 9) when that feature
    // exists (col is column q mod 3 of a generator: always so on encode's strings), else 0.
    Matrix<Rational> read(features, period, Rational(0));
    for (std::size_t q = 0; q < period; ++q) {
      const auto it = feature.find(Token{q % kSteps, cols[i], q / kSteps});
      if (it != feature.end()) read(it->second, q) = 1;
    }
    lower.readout_feature.push_back(std::move(read));
  }
  if (bos) {
    Matrix<Rational> reset(period, 1, Rational(0));
    reset(period - 1, 0) = 1;
    steps.push_back({fixed, Vector(period, Rational(0)), reset});  // A = 0, S ← e_17
    Matrix<Rational> read(features, period, Rational(0));
    for (std::size_t q = 0; q < period; ++q) read(up_bos, q) = 1;  // the BOS feature, any q
    lower.readout_feature.push_back(std::move(read));
  }

  Construction c;
  c.name = bos ? "matmul3-stacked" : "matmul3-stacked-no-bos";
  c.target = make_target(gens);
  c.modulus = options.modulus;
  c.model.name = c.name;
  c.model.description =
      "iterated 3x3 matrix product: a mod-18 position counter (pd) supplies sub-position and "
      "parity to the RWKV-7 overwrite layer [MJLLS26 Thm 5, as audited]";
  c.model.alphabet = Alphabet(names, "matmul3-stacked");
  c.model.layers.push_back({std::nullopt, make_pd(std::move(lower), std::move(steps), true)});
  Matrix<Rational> pass(features, features, Rational(0));
  for (std::size_t f = 0; f < features; ++f) pass(f, f) = 1;
  c.model.layers.push_back({InputMap{pass, Matrix<Rational>()}, overwrite_layer(tokens, bos)});
  c.model.accept = Acceptance{Acceptance::Mode::positive, 0, 0};

  c.encode = [gens, col_id, bos, in_bos](const std::vector<std::size_t>& w) {
    std::vector<std::size_t> out;
    if (bos) out.push_back(in_bos);
    for (std::size_t id : w) {
      if (id >= gens.size())
        throw InputError("matmul3", "symbol id " + std::to_string(id) + " is out of range");
      for (std::size_t p = 0; p < kSteps; ++p) out.push_back(col_id.at(column(gens[id], p % 3)));
    }
    return out;
  };
  // Input forms: BOS constant, then column p mod 3 of M_{w_i} at position 1 + 9(i−1) + p [+1].
  const std::size_t inputs = names.size();
  c.input_forms = [gens, col_id, bos, in_bos, inputs](std::size_t n) {
    return step_input_forms(n, inputs, bos, in_bos, gens.size(),
                            [&](std::size_t, std::size_t p, std::size_t g) {
                              return col_id.at(column(gens[g], p % 3));
                            });
  };

  const LrnnLayer& upper = std::get<LrnnLayer>(c.model.layers[1].layer);
  add_common_claims(c, upper, tokens.size(), gens.size(), bos);
  c.claims.push_back(claim_equal("layers", Integer(2), Integer(c.model.layers.size())));
  const LrnnLayer& counter = std::get<LrnnLayer>(c.model.layers[0].layer);
  c.claims.push_back(
      claim_equal("counter state dimension (positions mod 18 = 9 sub-positions × parity)",
                  Integer(period), Integer(counter.d)));
  std::size_t non_permutation = 0;  // data tokens whose counter map is not a permutation
  for (std::size_t i = 0; i < cols.size(); ++i) {
    const auto& pd = std::get<PdParams>(counter.record[i]);
    if (!pd.permutation ||
        std::any_of(pd.diag.begin(), pd.diag.end(), [](const Rational& x) { return x != 1; }))
      ++non_permutation;
  }
  c.claims.push_back(claim_equal("counter maps of data tokens that are not permutations",
                                 Integer(0), Integer(non_permutation)));
  return c;
}

// ---- the `matmul3` kind (constructions/registry.hpp) ----

void register_matmul3(Registry& registry) {
  registry.add(
      {.name = "matmul3",
       .help = "iterated 3×3 matrix product by the RWKV-7 overwrite layer, against the product",
       .options = {{.name = "--modulus",
                    .kind = OptionKind::whole_number,
                    .help = "compute modulo this prime (e.g. 29)"},
                   {.name = "--no-bos",
                    .kind = OptionKind::flag,
                    .help = "the flawed schedule that initializes on the first data token"},
                   {.name = "--generators",
                    .kind = OptionKind::text,
                    .help = "3×3 matrices over Q from this file (JSON, docs/formats.md); "
                            "default: the 7 seeded ones"},
                   {.name = "--stacked",
                    .kind = OptionKind::flag,
                    .help = "two layers: a position counter supplies the sub-position and "
                            "parity; the input is the matrices' columns"}},
       .build_from = [](const OptionValues& v) {
         Matmul3Options o;
         o.modulus = v.optional_whole_number("--modulus");
         o.init_on_bos = !v.flag("--no-bos");
         if (v.given("--generators")) {
           if (v.text("--generators").empty())
             throw InputError("--generators", "expected a generators file");
           o.generators = load_generators(v.text("--generators"));
         }
         return v.flag("--stacked") ? matmul3_stacked(o) : matmul3(o);
       }});
}

}  // namespace rnncc
