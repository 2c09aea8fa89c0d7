// The morphism form of an equivalence certificate (docs/formats.md, "Equivalence certificates"),
// checked independently of the decider: like verify/check_certificate.cpp it shares no code with
// verify/equivalence.*, verify/linear_representation.* or algebra/linear_basis.hpp (nor with
// algebra/multimodular.hpp's matrix kernel) — it builds each model's matrices from the file and
// does its own modular arithmetic.
//
// What it proves. The certificate gives P (rows = dimension of h_from, columns = that of h_to).
// With α, M_σ the vector and step of each model (h(uσ) = h(u)·M_σ, h(ε) = α) and Γ_σ its readout
// after the step (y(uσ) = h(u)·M_σ·Γ_σ), the checker confirms exactly
//   α_from·P = α_to,   M^from_σ·P = P·M^to_σ,   M^from_σ·Γ^from_σ = P·M^to_σ·Γ^to_σ   (every σ).
// By induction h_to(u) = h_from(u)·P for every word u, so
//   y_to(uσ) = h_to(u)·M^to_σ·Γ^to_σ = h_from(u)·P·M^to_σ·Γ^to_σ = h_from(u)·M^from_σ·Γ^from_σ
// = y_from(uσ): the two agree on every nonempty word.
//
// How "exactly". Each side is a product of rational matrices; clearing denominators (each
// matrix by the lcm of its own) turns every identity into s_L·(X_1⋯X_a) = s_R·(Y_1⋯Y_b) over the
// integers. |entries of X_1⋯X_a| ≤ ‖X_1‖_∞⋯‖X_{a−1}‖_∞·max|X_a| (‖·‖_∞ the largest absolute row
// sum), so both sides are bounded by a B computed exactly; the checker compares them modulo
// primes q < 2^28 (its own list, from 2^28 down) until Π q > B_L + B_R. Then the difference,
// divisible by Π q and of absolute value ≤ B_L + B_R < Π q, is 0. Deterministic: no random
// choice anywhere.
#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/modp_ops.hpp"
#include "verify/check_certificate.hpp"
#include "verify/check_certificate_json.hpp"

namespace rnncc {
namespace {

// A rational matrix times the lcm of its denominators: integers, kept as int64 when all fit.
struct IntMat {
  std::size_t rows = 0, cols = 0;
  Integer den = 1;
  bool small = true;
  std::vector<std::int64_t> v;  // when small
  std::vector<Integer> big;     // otherwise

  Integer at(std::size_t i) const { return small ? Integer(v[i]) : big[i]; }
  Integer abs_at(std::size_t i) const {
    Integer x = at(i);
    return x < 0 ? Integer(-x) : x;
  }
};

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

IntMat to_int(const Matrix<Rational>& m) {
  IntMat out;
  out.rows = m.rows(), out.cols = m.cols();
  // Fast path: every numerator and denominator a machine word, the lcm below 2^62.
  const auto& data = m.data();
  std::int64_t den = 1;
  bool words = true;
  for (const Rational& x : data) {
    const auto* q = x.backend().data();
    if (mpq_sgn(q) == 0) continue;
    if (!mpz_fits_slong_p(mpq_numref(q)) || !mpz_fits_slong_p(mpq_denref(q))) {
      words = false;
      break;
    }
    const std::int64_t d = mpz_get_si(mpq_denref(q));
    const i128 l = static_cast<i128>(den) / std::gcd(den, d) * d;
    if (l >= (i128{1} << 62)) {
      words = false;
      break;
    }
    den = static_cast<std::int64_t>(l);
  }
  if (words) {
    out.v.assign(data.size(), 0);
    for (std::size_t i = 0; i < data.size() && words; ++i) {
      const auto* q = data[i].backend().data();
      if (mpq_sgn(q) == 0) continue;
      const i128 v =
          static_cast<i128>(mpz_get_si(mpq_numref(q))) * (den / mpz_get_si(mpq_denref(q)));
      if (v >= (i128{1} << 62) || v <= -(i128{1} << 62)) words = false;
      out.v[i] = static_cast<std::int64_t>(v);
    }
    if (words) {
      out.den = den;
      return out;
    }
    out.v.clear();
  }
  Integer big_den = 1;
  for (const Rational& x : data)
    if (x != 0) big_den = boost::multiprecision::lcm(big_den, denominator(x));
  out.den = big_den;
  out.small = false;
  out.big.reserve(data.size());
  for (const Rational& x : data)
    out.big.push_back(x == 0 ? Integer(0) : numerator(x) * (big_den / denominator(x)));
  return out;
}

Integer from_i128(i128 x) {
  const bool neg = x < 0;
  const u128 u = neg ? static_cast<u128>(-x) : static_cast<u128>(x);
  Integer v = Integer(static_cast<std::uint64_t>(u >> 64)) << 64;
  v += Integer(static_cast<std::uint64_t>(u));
  return neg ? Integer(-v) : v;
}

// Largest absolute row sum, and largest absolute entry.
Integer row_norm(const IntMat& m) {
  Integer best = 0;
  for (std::size_t i = 0; i < m.rows; ++i) {
    if (m.small) {  // |entries| < 2^62 and at most 2^32 columns: no overflow in 128 bits
      i128 s = 0;
      for (std::size_t j = 0; j < m.cols; ++j) {
        const std::int64_t x = m.v[i * m.cols + j];
        s += x < 0 ? -static_cast<i128>(x) : x;
      }
      best = std::max(best, from_i128(s));
      continue;
    }
    Integer s = 0;
    for (std::size_t j = 0; j < m.cols; ++j) s += m.abs_at(i * m.cols + j);
    best = std::max(best, s);
  }
  return best;
}
Integer max_entry(const IntMat& m) {
  if (m.small) {
    std::int64_t best = 0;
    for (std::int64_t x : m.v) best = std::max(best, x < 0 ? -x : x);
    return Integer(best);
  }
  Integer best = 0;
  for (std::size_t i = 0; i < m.rows * m.cols; ++i) best = std::max(best, m.abs_at(i));
  return best;
}

using Res = std::vector<std::uint32_t>;  // residues, row-major

Res residues(const IntMat& m, std::uint32_t q) {
  Res out(m.rows * m.cols);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (m.small) {
      std::int64_t r = m.v[i] % static_cast<std::int64_t>(q);
      out[i] = static_cast<std::uint32_t>(r < 0 ? r + q : r);
    } else {
      Integer r = m.big[i] % q;
      out[i] = static_cast<std::uint32_t>(r < 0 ? r + q : r);
    }
  }
  return out;
}

// Row i of C = A·B mod q (A: m×k, B: k×n), q < 2^28: products < 2^56, so 255 of them fit in
// 64 bits before a reduction.
__attribute__((target_clones("avx512f", "avx2", "default"))) void row_times(
    const std::uint32_t* a, std::size_t k, const std::uint32_t* B, std::size_t n, std::uint32_t q,
    std::uint64_t* acc, std::uint32_t* out) {
  std::fill(acc, acc + n, 0);
  unsigned pending = 0;
  for (std::size_t t = 0; t < k; ++t) {
    const std::uint64_t x = a[t];
    if (x == 0) continue;
    const std::uint32_t* b = B + t * n;
    for (std::size_t j = 0; j < n; ++j) acc[j] += x * b[j];
    if (++pending == 255) {
      for (std::size_t j = 0; j < n; ++j) acc[j] %= q;
      pending = 0;
    }
  }
  for (std::size_t j = 0; j < n; ++j) out[j] = static_cast<std::uint32_t>(acc[j] % q);
}

Res times(const Res& A, std::size_t m, std::size_t k, const Res& B, std::size_t n,
          std::uint32_t q) {
  Res C(m * n);
  auto rows = [&](std::size_t i0, std::size_t i1) {
    std::vector<std::uint64_t> acc(n);
    for (std::size_t i = i0; i < i1; ++i)
      row_times(&A[i * k], k, B.data(), n, q, acc.data(), &C[i * n]);
  };
  if (m * k * n < (std::size_t{1} << 24) || m < 2) {
    rows(0, m);
  } else {
    std::thread other(rows, m / 2, m);
    rows(0, m / 2);
    other.join();
  }
  return C;
}

// One model as the checker reads it: α, M_σ, Γ_σ (rational, from the file; a WFA's M_σ are
// its own matrices, not copies).
struct Linear {
  Matrix<Rational> alpha;                  // 1×D
  std::vector<Matrix<Rational>> owned, G;  // a layer's M_σ; Γ_σ (D×r)
  std::vector<const Matrix<Rational>*> M;  // D×D
};

Linear linear_of(const SubjectFile& s) {
  Linear x;
  if (const auto* a = std::get_if<Wfa>(&s.content)) {
    const std::size_t D = a->states();
    x.alpha = Matrix<Rational>(1, D, Rational(0));
    Matrix<Rational> beta(D, 1, Rational(0));
    for (std::size_t i = 0; i < D; ++i) x.alpha(0, i) = a->initial[i], beta(i, 0) = a->final[i];
    for (const auto& t : a->transition) x.M.push_back(&t), x.G.push_back(beta);
    return x;
  }
  const Model& model = std::get<Model>(s.content);
  const auto* l =
      model.layers.size() == 1 ? std::get_if<LrnnLayer>(&model.layers[0].layer) : nullptr;
  if (!l) throw std::runtime_error(s.path + ": the checker reads WFAs and one-layer LRNN models");
  // h = [vec_row(S), 1]: coordinate k·m + j is S[k][j], the last one is 1.
  const std::size_t d = l->d, m = l->m, D = d * m + 1, r = l->readout.rows();
  x.alpha = Matrix<Rational>(1, D, Rational(0));
  for (std::size_t k = 0; k < d; ++k)
    for (std::size_t j = 0; j < m; ++j) x.alpha(0, k * m + j) = l->initial_state(k, j);
  x.alpha(0, D - 1) = 1;
  for (std::size_t a = 0; a < l->A.size(); ++a) {
    // S' = A S + B: S'[i][j] = Σ_k A[i][k]·S[k][j] + B[i][j].
    Matrix<Rational> M(D, D, Rational(0));
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < m; ++j) {
        for (std::size_t k = 0; k < d; ++k) M(k * m + j, i * m + j) = l->A[a](i, k);
        M(D - 1, i * m + j) = l->B[a](i, j);
      }
    M(D - 1, D - 1) = 1;
    // y[i·m + j] = Σ_k (C + C_a)[i][k]·S'[k][j] + c₀[i][j].
    Matrix<Rational> G(D, r * m, Rational(0));
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < m; ++j) {
        for (std::size_t k = 0; k < d; ++k) {
          Rational c = l->readout(i, k);
          if (!l->readout_feature.empty()) c += l->readout_feature[a](i, k);
          G(k * m + j, i * m + j) = c;
        }
        if (!l->readout_bias.empty()) G(D - 1, i * m + j) = l->readout_bias(i, j);
      }
    x.owned.push_back(std::move(M));
    x.G.push_back(std::move(G));
  }
  for (const auto& M : x.owned) x.M.push_back(&M);
  return x;
}

// s_L·(L_1⋯L_a) = s_R·(R_1⋯R_b), all integer matrices.
struct Identity {
  std::string what;
  Integer sl, sr;
  std::vector<const IntMat*> left, right;
};

Integer chain_bound(const std::vector<const IntMat*>& c) {
  Integer b = max_entry(*c.back());
  for (std::size_t i = 0; i + 1 < c.size(); ++i) b *= row_norm(*c[i]);
  return b;
}

// The product mod q, right to left (the chains here end in a narrow matrix or are two long);
// residues are computed once per matrix and prime (cache).
Res chain_mod(const std::vector<const IntMat*>& c, std::uint32_t q,
              std::map<const IntMat*, Res>& cache) {
  auto res = [&](const IntMat* m) -> const Res& {
    auto it = cache.find(m);
    if (it == cache.end()) it = cache.emplace(m, residues(*m, q)).first;
    return it->second;
  };
  Res acc = res(c.back());
  const std::size_t cols = c.back()->cols;
  for (std::size_t i = c.size() - 1; i-- > 0;)
    acc = times(res(c[i]), c[i]->rows, c[i]->cols, acc, cols, q);
  return acc;
}

}  // namespace

// Called by check_certificate for a certificate with "morphism"; throws std::runtime_error for a
// malformed one, and adds a problem for every identity that fails.
void check_morphism_certificate(const SubjectFile& f, const SubjectFile& g, const nlohmann::json& c,
                                std::vector<std::string>& problems) {
  auto fail = [&](const std::string& what) {
    if (problems.size() < 20) problems.push_back(what);
  };
  if (c.at("field") != "Q") throw std::runtime_error("/field: a morphism certificate is over Q");
  if (c.contains("basis")) throw std::runtime_error("/basis: a morphism certificate has none");
  const nlohmann::json& mj = c.at("morphism");
  check_members(mj, "/morphism", {"from", "denominator", "rows"});
  const std::string from = mj.at("from").get<std::string>();
  if (from != "f" && from != "g")
    throw std::runtime_error("/morphism/from: expected \"f\" or \"g\"");
  const Linear lf = linear_of(from == "f" ? f : g), lt = linear_of(from == "f" ? g : f);
  const std::size_t rows = lf.alpha.cols(), cols = lt.alpha.cols();
  if (lf.M.size() != lt.M.size()) throw std::runtime_error("/alphabet: the models differ");
  auto integer = [](const nlohmann::json& x, const std::string& where) {
    std::optional<Rational> v =
        x.is_string() ? try_parse_rational(x.get<std::string>()) : std::nullopt;
    if (!v || denominator(*v) != 1)
      throw std::runtime_error(where + ": expected an integer as a string");
    return numerator(*v);
  };
  const Integer den = integer(mj.at("denominator"), "/morphism/denominator");
  if (den <= 0) throw std::runtime_error("/morphism/denominator: expected a positive integer");
  const nlohmann::json& rj = mj.at("rows");
  if (!rj.is_array() || rj.size() != rows)
    throw std::runtime_error("/morphism/rows: expected " + std::to_string(rows) + " rows");
  Matrix<Rational> P(rows, cols, Rational(0));
  for (std::size_t i = 0; i < rows; ++i) {
    const std::string where = "/morphism/rows/" + std::to_string(i);
    if (!rj[i].is_array()) throw std::runtime_error(where + ": expected [column, value] pairs");
    std::size_t last = 0;
    for (std::size_t e = 0; e < rj[i].size(); ++e) {
      const nlohmann::json& pair = rj[i][e];
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_unsigned())
        throw std::runtime_error(where + "/" + std::to_string(e) + ": expected [column, value]");
      const std::size_t j = pair[0].get<std::size_t>();
      if (j >= cols || (e > 0 && j <= last))
        throw std::runtime_error(where + "/" + std::to_string(e) +
                                 ": columns must increase and stay below " + std::to_string(cols));
      last = j;
      P(i, j) = Rational(integer(pair[1], where + "/" + std::to_string(e) + "/1"), den);
    }
  }
  // Integer forms.
  const IntMat Pi = to_int(P), af = to_int(lf.alpha), at = to_int(lt.alpha);
  std::vector<IntMat> Mf, Mt, Gf, Gt;
  for (std::size_t s = 0; s < lf.M.size(); ++s) {
    Mf.push_back(to_int(*lf.M[s]));
    Mt.push_back(to_int(*lt.M[s]));
    Gf.push_back(to_int(lf.G[s]));
    Gt.push_back(to_int(lt.G[s]));
  }
  std::vector<Identity> ids;
  ids.push_back({"α_from·P = α_to", at.den, af.den * Pi.den, {&af, &Pi}, {&at}});
  for (std::size_t s = 0; s < Mf.size(); ++s) {
    const std::string sym = std::to_string(s);
    ids.push_back({"M_from·P = P·M_to (symbol " + sym + ")",
                   Mt[s].den,
                   Mf[s].den,
                   {&Mf[s], &Pi},
                   {&Pi, &Mt[s]}});
    ids.push_back({"M_from·Γ_from = P·M_to·Γ_to (symbol " + sym + ")",
                   Pi.den * Mt[s].den * Gt[s].den,
                   Mf[s].den * Gf[s].den,
                   {&Mf[s], &Gf[s]},
                   {&Pi, &Mt[s], &Gt[s]}});
  }
  Integer bound = 0;
  for (const Identity& id : ids)
    bound = std::max(bound, id.sl * chain_bound(id.left) + id.sr * chain_bound(id.right));
  Integer prod = 1;
  std::vector<char> failed(ids.size(), 0);
  for (std::uint32_t q = (1u << 28) - 1; prod <= bound; q -= 2) {
    if (!modp::is_prime(q)) continue;
    prod *= q;
    std::map<const IntMat*, Res> cache;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (failed[i]) continue;
      const Identity& id = ids[i];
      const Res L = chain_mod(id.left, q, cache), R = chain_mod(id.right, q, cache);
      const std::uint64_t sl = static_cast<std::uint64_t>(id.sl % q),
                          sr = static_cast<std::uint64_t>(id.sr % q);
      for (std::size_t e = 0; e < L.size(); ++e)
        if (L[e] * sl % q != R[e] * sr % q) {
          failed[i] = 1;
          fail("/morphism: " + id.what + " does not hold");
          break;
        }
    }
  }
}

}  // namespace rnncc
