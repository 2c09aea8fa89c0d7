#include "constructions/position_router.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "algebra/error.hpp"
#include "constructions/registry.hpp"
#include "rnn/families.hpp"
#include "rnn/json_cursor.hpp"

namespace rnncc {

namespace {

using Mat = Matrix<Rational>;

Mat identity_matrix(std::size_t n) {
  Mat m(n, n, Rational(0));
  for (std::size_t i = 0; i < n; ++i) m(i, i) = 1;
  return m;
}

Mat multiply(const Mat& a, const Mat& b) {
  Mat c(a.rows(), b.cols(), Rational(0));
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t l = 0; l < a.cols(); ++l) {
      if (a(i, l) == 0) continue;
      for (std::size_t j = 0; j < b.cols(); ++j) c(i, j) += a(i, l) * b(l, j);
    }
  return c;
}

Mat power(Mat a, std::uint64_t k) {
  Mat r = identity_matrix(a.rows());
  for (; k > 0; k >>= 1) {
    if (k & 1) r = multiply(r, a);
    if (k > 1) a = multiply(a, a);
  }
  return r;
}

bool is_identity(const Mat& a) {
  return a == identity_matrix(a.rows());
}

std::string text_2x2(const Mat& a) {
  return "[[" + to_string(a(0, 0)) + ", " + to_string(a(0, 1)) + "], [" + to_string(a(1, 0)) +
         ", " + to_string(a(1, 1)) + "]]";
}

Mat m2(Rational a, Rational b, Rational c, Rational d) {
  Mat m(2, 2, Rational(0));
  m(0, 0) = std::move(a);
  m(0, 1) = std::move(b);
  m(1, 0) = std::move(c);
  m(1, 1) = std::move(d);
  return m;
}

// The reflection across the line at angle φ with cos 2φ = c, sin 2φ = s.
Mat reflection(const Rational& c, const Rational& s) {
  return m2(c, s, s, -c);
}

// One block's product G = M_k ⋯ M_1 (M_1 applied first).
Mat block_product(const std::vector<Mat>& block) {
  Mat g = identity_matrix(2);
  for (const Mat& m : block) g = multiply(m, g);
  return g;
}

Mat parse_matrix(const JsonCursor& cur) {
  const auto& v = cur.value();
  if (!v.is_array() || v.size() != 2) cur.fail("a 2×2 matrix [[a, b], [c, d]]");
  Mat m(2, 2, Rational(0));
  for (std::size_t i = 0; i < 2; ++i) {
    const JsonCursor row = cur[i];
    if (!row.value().is_array() || row.value().size() != 2)
      row.fail("a row of 2 entries (the matrix must be 2×2)");
    for (std::size_t j = 0; j < 2; ++j) {
      const JsonCursor e = row[j];
      m(i, j) = rational_from_json(e.value(), e.where());
    }
  }
  return m;
}

std::vector<Mat> parse_block(const JsonCursor& cur) {
  if (!cur.value().is_array() || cur.value().empty()) cur.fail("a non-empty array of 2×2 matrices");
  if (cur.value().size() > 64) cur.error("at most 64 matrices a block");
  std::vector<Mat> block;
  for (std::size_t i = 0; i < cur.value().size(); ++i) block.push_back(parse_matrix(cur[i]));
  return block;
}

// Prime-power factors of n (1404 → 4, 27, 13).
std::vector<std::uint64_t> prime_powers(std::uint64_t n) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t p = 2; p <= n / p; ++p)
    if (n % p == 0) {
      std::uint64_t q = 1;
      while (n % p == 0) q *= p, n /= p;
      out.push_back(q);
    }
  if (n > 1) out.push_back(n);
  return out;
}

std::vector<std::uint64_t> prime_factors(std::uint64_t n) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t p = 2; p <= n / p; ++p)
    if (n % p == 0) {
      out.push_back(p);
      while (n % p == 0) n /= p;
    }
  if (n > 1) out.push_back(n);
  return out;
}

// ---- polynomials over Q (coefficients from x⁰ up, no trailing zeros) ----

Polynomial trimmed(Polynomial p) {
  while (!p.empty() && p.back() == 0) p.pop_back();
  return p;
}

std::size_t degree(const Polynomial& p) {
  return p.empty() ? 0 : p.size() - 1;
}

// a = q·b + r with deg r < deg b; b nonzero.
std::pair<Polynomial, Polynomial> divmod(Polynomial a, const Polynomial& b) {
  a = trimmed(std::move(a));
  if (b.empty()) throw std::logic_error("polynomial division by zero");
  if (a.size() < b.size()) return {{}, a};
  Polynomial q(a.size() - b.size() + 1, Rational(0));
  for (std::size_t i = a.size(); i >= b.size(); --i) {
    const std::size_t top = i - 1;
    if (a[top] == 0) continue;
    const Rational f = a[top] / b.back();
    const std::size_t shift = top - (b.size() - 1);
    q[shift] = f;
    for (std::size_t j = 0; j < b.size(); ++j) a[shift + j] -= f * b[j];
  }
  a.resize(b.size() - 1);
  return {trimmed(std::move(q)), trimmed(std::move(a))};
}

Polynomial mul_mod(const Polynomial& a, const Polynomial& b, const Polynomial& mu) {
  if (a.empty() || b.empty()) return {};
  Polynomial c(a.size() + b.size() - 1, Rational(0));
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != 0)
      for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += a[i] * b[j];
  return divmod(std::move(c), mu).second;
}

// x^P ≡ 1 (mod μ), μ monic: μ divides x^P − 1, i.e. G^P·s = s when μ = μ_s.
bool x_power_is_one(std::uint64_t P, const Polynomial& mu) {
  if (degree(mu) == 0) return true;  // μ = 1 divides everything
  Polynomial result = divmod({Rational(1)}, mu).second, base = divmod({0, 1}, mu).second;
  for (std::uint64_t k = P; k > 0; k >>= 1) {
    if (k & 1) result = mul_mod(result, base, mu);
    if (k > 1) base = mul_mod(base, base, mu);
  }
  return result == Polynomial{Rational(1)};
}

std::uint64_t euler_phi(std::uint64_t n) {
  std::uint64_t r = n;
  for (std::uint64_t p = 2; p <= n / p; ++p)
    if (n % p == 0) {
      while (n % p == 0) n /= p;
      r -= r / p;
    }
  if (n > 1) r -= r / n;
  return r;
}

constexpr std::uint64_t kMaxPermutationCoordinates = 512;

// What the router is built of: per block, the matrices (tokens) of one position, all of the
// block's size; the period of each block's product, measured.
struct Plan {
  std::vector<std::vector<Mat>> blocks;
  std::vector<Mat> products;                         // G_b, one position in block b
  std::vector<std::optional<std::uint64_t>> orders;  // nullopt: infinite
  bool orders_known = false;  // the orders are those of permutations (orbit_period may use them)
  std::vector<std::string> notes;
};

Plan reflection_plan(const RouterSpec& spec) {
  Plan p;
  p.blocks = spec.blocks;
  for (std::size_t b = 0; b < spec.blocks.size(); ++b) {
    const Mat g = block_product(spec.blocks[b]);
    const auto order = order_2x2(g);
    p.products.push_back(g);
    p.orders.push_back(order);
    std::string kinds;
    for (const Mat& m : spec.blocks[b]) kinds += (kinds.empty() ? "" : ", ") + classify_2x2(m);
    p.notes.push_back(
        "block " + std::to_string(b + 1) + ": " + kinds + "; product G = " + text_2x2(g) + " (" +
        classify_2x2(g) + ", trace " + to_string(g(0, 0) + g(1, 1)) + "), order " +
        (order ? std::to_string(*order) : "infinite (G^k ≠ I for k = 1, 2, 3, 4, 6)"));
  }
  p.notes.push_back(
      "a 2×2 rational matrix of finite order has order 1, 2, 3, 4 or 6 (its minimal polynomial "
      "is a product of cyclotomic polynomials Φ_d of total degree ≤ 2, and φ(d) ≤ 2 only for "
      "d = 1, 2, 3, 4, 6): a router of 2×2 rational blocks has period 1, 2, 3, 4, 6, 12 or "
      "none (docs/errata.md)");
  return p;
}

Plan permutation_plan(std::uint64_t period) {
  Plan p;
  std::vector<std::uint64_t> sizes = prime_powers(period);
  if (sizes.empty()) sizes.push_back(1);  // period 1: one fixed coordinate
  const std::uint64_t total = std::accumulate(sizes.begin(), sizes.end(), std::uint64_t{0});
  if (total > kMaxPermutationCoordinates)
    throw InputError("--period", "the corrected router of period " + std::to_string(period) +
                                     " needs " + std::to_string(total) +
                                     " coordinates (the sum of its prime-power factors), more "
                                     "than the limit of " +
                                     std::to_string(kMaxPermutationCoordinates));
  for (std::uint64_t m : sizes) {
    // The cycle (0 1 … m−1) as the transpositions (0 1), (1 2), …, (m−2 m−1) applied in order:
    // (i i+1) = I − 2vvᵀ, v = (e_i − e_{i+1})/√2.
    std::vector<Mat> block;
    for (std::uint64_t i = 0; i + 1 < m; ++i) {
      Mat t = identity_matrix(m);
      t(i, i) = 0;
      t(i + 1, i + 1) = 0;
      t(i, i + 1) = 1;
      t(i + 1, i) = 1;
      block.push_back(std::move(t));
    }
    if (block.empty()) block.push_back(identity_matrix(m));
    Mat g = identity_matrix(m);
    for (const Mat& t : block) g = multiply(t, g);
    const std::uint64_t order = permutation_order(g);
    p.products.push_back(g);
    p.orders.push_back(order);
    p.orders_known = true;
    p.notes.push_back(
        "block of " + std::to_string(m) + " coordinates: " + std::to_string(m > 1 ? m - 1 : 0) +
        " transposition reflections I − 2vvᵀ (v = (e_i − e_{i+1})/√2, vvᵀ "
        "rational), product a " +
        std::to_string(m) + "-cycle, order " + std::to_string(order) + " (exact powers)");
    p.blocks.push_back(std::move(block));
  }
  return p;
}

}  // namespace

Polynomial local_minimal_polynomial(const Matrix<Rational>& g, const Matrix<Rational>& s) {
  const std::size_t d = g.rows();
  if (g.cols() != d || s.rows() != d || s.cols() != 1)
    throw std::logic_error("local_minimal_polynomial: sizes do not match");
  // Echelon basis of s, Gs, …, G^{j−1}s: each reduced vector with its pivot and its expression
  // as a polynomial in G applied to s.
  struct Row {
    std::vector<Rational> v;
    std::size_t pivot;
    Polynomial combo;
  };
  std::vector<Row> basis;
  std::vector<Rational> v(d);
  for (std::size_t i = 0; i < d; ++i) v[i] = s(i, 0);
  for (std::size_t j = 0;; ++j) {
    std::vector<Rational> r = v;
    Polynomial combo(j + 1, Rational(0));
    combo[j] = 1;
    for (const Row& b : basis) {
      if (r[b.pivot] == 0) continue;
      const Rational f = r[b.pivot] / b.v[b.pivot];
      for (std::size_t i = 0; i < d; ++i)
        if (b.v[i] != 0) r[i] -= f * b.v[i];
      for (std::size_t i = 0; i < b.combo.size(); ++i) combo[i] -= f * b.combo[i];
    }
    const auto nz = std::find_if(r.begin(), r.end(), [](const Rational& x) { return x != 0; });
    if (nz == r.end()) return trimmed(std::move(combo));  // combo(G)·s = 0, monic of degree j
    const auto pivot = static_cast<std::size_t>(nz - r.begin());
    basis.push_back({std::move(r), pivot, std::move(combo)});
    std::vector<Rational> next(d, Rational(0));
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t l = 0; l < d; ++l)
        if (g(i, l) != 0 && v[l] != 0) next[i] += g(i, l) * v[l];
    v = std::move(next);
  }
}

Polynomial cyclotomic_polynomial(std::uint64_t d) {
  if (d == 0) throw std::logic_error("cyclotomic_polynomial: d = 0");
  static std::map<std::uint64_t, Polynomial> memo;
  static std::mutex memo_mutex;
  {
    const std::lock_guard lock(memo_mutex);
    if (auto it = memo.find(d); it != memo.end()) return it->second;
  }
  Polynomial p(d + 1, Rational(0));  // x^d − 1
  p[0] = -1;
  p[d] = 1;
  for (std::uint64_t e = 1; e < d; ++e)
    if (d % e == 0) p = divmod(std::move(p), cyclotomic_polynomial(e)).first;
  const std::lock_guard lock(memo_mutex);
  memo.emplace(d, p);
  return p;
}

std::string polynomial_text(const Polynomial& p) {
  if (p.empty()) return "0";
  std::string out;
  for (std::size_t i = p.size(); i-- > 0;) {
    if (p[i] == 0) continue;
    const bool neg = p[i] < 0;
    const Rational mag = neg ? Rational(-p[i]) : p[i];
    if (out.empty())
      out += neg ? "-" : "";
    else
      out += neg ? " - " : " + ";
    const std::string x = i == 0 ? "" : i == 1 ? "x" : "x^" + std::to_string(i);
    if (i == 0 || mag != 1) out += to_string(mag) + (x.empty() ? "" : "*");
    out += x;
  }
  return out;
}

OrbitPeriod orbit_period(const Matrix<Rational>& g, const Matrix<Rational>& s,
                         std::optional<std::uint64_t> order) {
  OrbitPeriod out;
  out.polynomial = local_minimal_polynomial(g, s);
  const Polynomial& mu = out.polynomial;
  const std::size_t k = degree(mu);
  const std::string mu_text = polynomial_text(mu);
  std::uint64_t P = 1;
  if (k == 0) {
    out.period = 1;
    out.reason = "S₀ = 0";
    return out;
  }
  if (order) {
    // μ_s divides the minimal polynomial of G, which divides x^N − 1.
    if (!x_power_is_one(*order, mu))
      throw std::logic_error("orbit_period: μ_s does not divide x^N − 1 for the order N of G");
    P = *order;
    for (std::uint64_t p : prime_factors(*order))
      while (P % p == 0 && x_power_is_one(P / p, mu)) P /= p;
    out.reason = mu_text + " divides x^" + std::to_string(P) + " - 1 (G has order " +
                 std::to_string(*order) + ")";
  } else {
    if (k > 64) throw std::logic_error("orbit_period: μ_s of degree > 64 and G's order unknown");
    // Φ_d divides μ only if φ(d) ≤ deg μ, and φ(d) ≥ √(d/2), so d ≤ 2k².
    Polynomial rest = mu;
    std::string factors;
    for (std::uint64_t d = 1; d <= 2 * k * k && degree(rest) > 0; ++d) {
      if (euler_phi(d) > degree(rest)) continue;
      const Polynomial phi = cyclotomic_polynomial(d);
      auto [q, r] = divmod(rest, phi);
      if (!r.empty()) continue;
      if (divmod(q, phi).second.empty()) {
        out.reason = mu_text + " has the repeated factor Φ" + std::to_string(d) +
                     "² (x^P - 1 is squarefree)";
        return out;
      }
      rest = std::move(q);
      P = std::lcm(P, d);
      factors += (factors.empty() ? "" : "·") + ("Φ" + std::to_string(d));
    }
    if (degree(rest) > 0) {
      out.reason = mu_text + " has the factor " + polynomial_text(rest) +
                   ", no product of cyclotomic polynomials (a root that is no root of unity)";
      return out;
    }
    out.reason = mu_text + " = " + factors;
  }
  // Confirmed: x^P ≡ 1 and x^{P/p} ≢ 1 (mod μ_s) for every prime p | P.
  if (!x_power_is_one(P, mu)) throw std::logic_error("orbit_period: G^P·s ≠ s");
  for (std::uint64_t p : prime_factors(P))
    if (x_power_is_one(P / p, mu)) throw std::logic_error("orbit_period: a smaller period");
  out.period = P;
  return out;
}

std::optional<std::uint64_t> orbit_period_by_iteration(const Matrix<Rational>& g,
                                                       const Matrix<Rational>& s,
                                                       std::uint64_t limit) {
  Mat v = s;
  for (std::uint64_t k = 1; k <= limit; ++k) {
    v = multiply(g, v);
    if (v == s) return k;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> order_2x2(const Matrix2& a) {
  if (a.rows() != 2 || a.cols() != 2) throw std::logic_error("order_2x2: not a 2×2 matrix");
  // The theorem: a finite order is one of these; the least k with A^k = I is the order.
  Mat p = identity_matrix(2);
  for (std::uint64_t k = 1; k <= 6; ++k) {
    p = multiply(p, a);
    if ((k <= 4 || k == 6) && is_identity(p)) return k;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> order_by_powers(const Matrix2& a, std::uint64_t limit) {
  Mat p = identity_matrix(a.rows());
  for (std::uint64_t k = 1; k <= limit; ++k) {
    p = multiply(p, a);
    if (is_identity(p)) return k;
  }
  return std::nullopt;
}

std::uint64_t permutation_order(const Matrix<Rational>& g) {
  const std::size_t n = g.rows();
  std::vector<std::size_t> image(n, n);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      if (g(i, j) == 1 && image[j] == n)
        image[j] = i;
      else if (g(i, j) != 0)
        throw std::logic_error("permutation_order: not a permutation matrix");
    }
  std::uint64_t order = 1;
  std::vector<bool> seen(n, false);
  for (std::size_t s = 0; s < n; ++s) {
    if (seen[s]) continue;
    if (image[s] == n) throw std::logic_error("permutation_order: not a permutation matrix");
    std::uint64_t len = 0;
    for (std::size_t x = s; !seen[x]; x = image[x]) seen[x] = true, ++len;
    order = std::lcm(order, len);
  }
  // Confirmed by exact powers: G^order = I, and no proper divisor order/p is.
  if (!is_identity(power(g, order))) throw std::logic_error("permutation_order: G^k ≠ I");
  for (std::uint64_t p : prime_factors(order))
    if (is_identity(power(g, order / p)))
      throw std::logic_error("permutation_order: a smaller power is I");
  return order;
}

std::string classify_2x2(const Matrix2& a) {
  const Mat at = m2(a(0, 0), a(1, 0), a(0, 1), a(1, 1));
  if (!is_identity(multiply(at, a))) return "general";
  const Rational det = a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0);
  return det == -1 ? "reflection" : "rotation";
}

RouterSpec parse_router_spec(std::string_view text, const std::string& source) {
  const nlohmann::json root = parse_json(text, source);
  const JsonCursor cur(root, source, "");
  RouterSpec spec;
  if (root.is_array()) {
    spec.blocks.push_back(parse_block(cur));
  } else if (root.is_object()) {
    for (const auto& [key, value] : root.items())
      if (key != "blocks" && key != "reflections" && key != "start")
        cur.child(key, value)
            .error("unknown member (expected \"blocks\", \"reflections\" or \"start\")");
    if (root.contains("blocks") == root.contains("reflections"))
      cur.error(
          "expected exactly one of \"blocks\" (a list of blocks) and \"reflections\" (one "
          "block)");
    if (root.contains("reflections")) {
      spec.blocks.push_back(parse_block(cur.child("reflections", root["reflections"])));
    } else {
      const JsonCursor blocks = cur.child("blocks", root["blocks"]);
      if (!blocks.value().is_array() || blocks.value().empty())
        blocks.fail("a non-empty array of blocks");
      if (blocks.value().size() > 64) blocks.error("at most 64 blocks");
      for (std::size_t b = 0; b < blocks.value().size(); ++b)
        spec.blocks.push_back(parse_block(blocks[b]));
    }
    if (root.contains("start")) {
      const JsonCursor start = cur.child("start", root["start"]);
      const std::size_t want = 2 * spec.blocks.size();
      if (!start.value().is_array() || start.value().size() != want)
        start.fail("the start state S₀: an array of " + std::to_string(want) +
                   " rationals (2 per block)");
      for (std::size_t i = 0; i < want; ++i)
        spec.start.push_back(rational_from_json(start[i].value(), start[i].where()));
    }
  } else {
    cur.fail("an object {\"blocks\": …} or {\"reflections\": …}, or an array of 2×2 matrices");
  }
  return spec;
}

RouterSpec default_router_spec() {
  const Mat ref0 = reflection(Rational(1), Rational(0));  // across the x-axis
  RouterSpec s;
  s.blocks.push_back({ref0, reflection(Rational(0), Rational(1))});           // Rot(90°): period 4
  s.blocks.push_back({ref0, reflection(Rational(40, 41), Rational(9, 41))});  // ≈ 2π/27
  s.blocks.push_back({ref0, reflection(Rational(15, 17), Rational(8, 17))});  // ≈ 2π/13
  return s;
}

Construction position_router(const RouterOptions& options) {
  if (options.period == 0) throw InputError("--period", "expected a period P ≥ 1, got 0");
  if (!options.permutation && options.spec.blocks.empty())
    throw InputError("--reflections", "expected at least one block of 2×2 matrices");
  const Plan plan =
      options.permutation ? permutation_plan(options.period) : reflection_plan(options.spec);
  const std::uint64_t P = options.period;

  // Block offsets and sizes; tokens per position K = the longest block.
  std::vector<std::size_t> offset, size;
  std::size_t d = 0, K = 1;
  for (const auto& block : plan.blocks) {
    offset.push_back(d);
    size.push_back(block.front().rows());
    d += block.front().rows();
    K = std::max(K, block.size());
  }

  LayerFrame frame;
  frame.d = d;
  frame.m = 1;
  frame.features = K;
  frame.initial_state = Mat(d, 1, Rational(0));
  frame.readout = Mat(1, d, Rational(0));
  const std::vector<Rational>& start =
      options.permutation ? std::vector<Rational>{} : options.spec.start;
  if (!start.empty() && start.size() != d)
    throw InputError("--reflections", "the start state has " + std::to_string(start.size()) +
                                          " entries, expected " + std::to_string(d) +
                                          " (2 per block)");
  for (std::size_t b = 0; b < plan.blocks.size(); ++b) {
    if (start.empty()) frame.initial_state(offset[b], 0) = 1;
    frame.readout(0, offset[b]) = 1;
  }
  for (std::size_t i = 0; i < start.size(); ++i) frame.initial_state(i, 0) = start[i];
  std::vector<AffineStep> steps;
  std::vector<std::string> tokens;
  for (std::size_t j = 0; j < K; ++j) {
    Mat A = identity_matrix(d);
    for (std::size_t b = 0; b < plan.blocks.size(); ++b)
      if (j < plan.blocks[b].size())
        for (std::size_t r = 0; r < size[b]; ++r)
          for (std::size_t s = 0; s < size[b]; ++s)
            A(offset[b] + r, offset[b] + s) = plan.blocks[b][j](r, s);
    steps.push_back({std::move(A), Mat(d, 1, Rational(0))});
    tokens.push_back("r" + std::to_string(j + 1));
  }

  // One position's map G = block-diag(G_b), for f and its automaton.
  Mat G = identity_matrix(d);
  for (const AffineStep& s : steps) G = multiply(s.A, G);

  Construction c;
  c.name = options.permutation ? "router-permutation" : "router";
  c.model.name = c.name;
  c.model.description =
      options.permutation
          ? "position router of period " + std::to_string(P) +
                ": cyclic shifts of prime-power sizes by transposition reflections (corrected)"
          : "position router from 2×2 rational reflections, claimed period " + std::to_string(P) +
                " [MJLLS26 Thm 5, DeltaNet version, as printed]";
  c.model.alphabet = Alphabet(tokens, "router");
  c.model.layers.push_back({std::nullopt, make_general(frame, std::move(steps))});
  c.model.accept = Acceptance{Acceptance::Mode::positive, 0, 0};

  c.target.alphabet = Alphabet({"t"}, "router");
  auto g = std::make_shared<const Mat>(G);
  auto init = std::make_shared<const Mat>(frame.initial_state);
  auto readout = std::make_shared<const Mat>(frame.readout);
  c.target.value = [g, init, readout](const std::vector<std::size_t>& w) {
    Mat s = *init;
    for (std::size_t i = 0; i < w.size(); ++i) s = multiply(*g, s);
    return multiply(*readout, s)(0, 0);
  };
  Wfa a;
  a.alphabet = c.target.alphabet;
  for (std::size_t i = 0; i < d; ++i) {
    a.state_names.push_back("x" + std::to_string(i + 1));
    a.initial.push_back(frame.readout(0, i));
    a.final.push_back(frame.initial_state(i, 0));
  }
  a.transition.push_back(G);  // α·G^n·β = C·G^n·S₀
  c.target.automaton = std::move(a);
  c.encode = [K](const std::vector<std::size_t>& w) {
    std::vector<std::size_t> out;
    for (std::size_t s : w) {
      if (s != 0) throw std::invalid_argument("router encode: symbol id out of range");
      for (std::size_t j = 0; j < K; ++j) out.push_back(j);
    }
    return out;
  };
  c.encode_period = 1;

  // The period claim: the orbit period of S₀, measured exactly per block (the header's
  // theorem), with the first position that breaks it.
  std::optional<std::uint64_t> period = 1;
  std::string periods;  // "1, 2" or "4, none, none"
  std::vector<std::string> orbit_notes;
  for (std::size_t b = 0; b < plan.blocks.size(); ++b) {
    Mat s0(size[b], 1, Rational(0));
    std::string start_text;
    for (std::size_t r = 0; r < size[b]; ++r) {
      s0(r, 0) = frame.initial_state(offset[b] + r, 0);
      start_text += (r ? ", " : "") + to_string(s0(r, 0));
    }
    const OrbitPeriod op = orbit_period(
        plan.products[b], s0, plan.orders_known ? plan.orders[b] : std::optional<std::uint64_t>{});
    periods += (periods.empty() ? "" : ", ") +
               (op.period ? std::to_string(*op.period) : std::string("none"));
    if (!op.period)
      period.reset();
    else if (period)
      period = std::lcm(*period, *op.period);
    orbit_notes.push_back("block " + std::to_string(b + 1) +
                          ": S₀ = " + (size[b] > 8 ? "e₁" : "(" + start_text + ")") +
                          ", local minimal polynomial " + op.reason + ", orbit period " +
                          (op.period ? std::to_string(*op.period) : "none"));
  }
  std::optional<std::uint64_t> order = 1;
  std::string orders;  // "4, infinite, infinite"
  for (const auto& o : plan.orders) {
    orders += (orders.empty() ? "" : ", ") + (o ? std::to_string(*o) : std::string("infinite"));
    if (!o)
      order.reset();
    else if (order)
      order = std::lcm(*order, *o);
  }
  std::string measured;
  if (!period) {
    measured = "none (orbit periods " + periods + "); first break: position " + std::to_string(P) +
               " differs from position 0";
  } else {
    measured = std::to_string(*period) + " (orbit periods " + periods + ")";
    if (*period < P)
      measured += "; first break: position " + std::to_string(*period) +
                  " repeats position 0 (positions 0 and " + std::to_string(*period) +
                  " are not told apart)";
    else if (*period > P)
      measured += "; first break: position " + std::to_string(P) + " differs from position 0";
  }
  c.claims.push_back({"period of the position states (least P ≥ 1 with G^P·S₀ = S₀)",
                      "= " + std::to_string(P), measured, period && *period == P});
  // The order of G, a separate claim: the period divides it (both measured exactly, by
  // different means: a consistency check).
  c.claims.push_back({"order of the one-position map G (lcm of the blocks' exact orders)",
                      "a multiple of the period",
                      (order ? std::to_string(*order) : std::string("infinite")) +
                          " (block orders " + orders + ")",
                      !order || (period && *order % *period == 0)});
  c.claims.push_back(claim_equal("tokens per position", Integer(static_cast<long>(K)),
                                 Integer(static_cast<long>(c.encode({0}).size()))));
  c.notes = plan.notes;
  c.notes.insert(c.notes.end(), orbit_notes.begin(), orbit_notes.end());
  return c;
}

// ---- the `router` kind (constructions/registry.hpp) ----

void register_position_router(Registry& registry) {
  registry.add(
      {.name = "router",
       .help = "position router from 2×2 rational reflections and its claimed period [MJLLS26 "
               "Thm 5, DeltaNet version]",
       .options = {{.name = "--reflections",
                    .kind = OptionKind::text,
                    .help = "JSON file or inline JSON: {\"blocks\": [[M, …], …]} or "
                            "{\"reflections\": [M, …]}, M = [[\"a/b\", …], …] (default: a "
                            "paper-like choice, docs/errata.md)"},
                   {.name = "--period",
                    .kind = OptionKind::whole_number,
                    .help = "the claimed period P ≥ 1",
                    .default_value = "1404"},
                   {.name = "--permutation",
                    .kind = OptionKind::flag,
                    .help = "the corrected router: cyclic shifts by transposition reflections"}},
       .build_from = [](const OptionValues& v) {
         RouterOptions o;
         o.period = v.whole_number("--period");
         o.permutation = v.flag("--permutation");
         if (v.given("--reflections")) {
           const std::string& arg = v.text("--reflections");
           const auto first = arg.find_first_not_of(" \t\r\n");
           if (first == std::string::npos)
             throw InputError("--reflections", "expected a JSON file or inline JSON");
           o.spec = arg[first] == '{' || arg[first] == '['
                        ? parse_router_spec(arg, "--reflections")
                        : parse_router_spec(read_text_file(arg, "reflections file"), arg);
         }
         return position_router(o);
       }});
}

}  // namespace rnncc
