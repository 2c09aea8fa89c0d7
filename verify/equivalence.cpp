#include "verify/equivalence.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>

#include "algebra/linear_basis.hpp"
#include "algebra/multimodular.hpp"
#include "verify/equivalence_multimodular.hpp"

namespace rnncc {
namespace {

using equivalence_internal::decide_multimodular;

std::optional<std::uint64_t> pick_modulus(const LinearRepresentation& f,
                                          const LinearRepresentation& g,
                                          const EquivalenceParams& p) {
  if (p.modulus) return p.modulus;
  if (f.modulus != g.modulus) {
    if (f.modulus && g.modulus)
      throw InputError("", "the models are read modulo different primes: " +
                               std::to_string(*f.modulus) + " vs " + std::to_string(*g.modulus));
    return f.modulus ? f.modulus : g.modulus;
  }
  return f.modulus;
}

template <class F>
typename F::Element convert(const F& field, const Rational& q) {
  try {
    return field.from_rational(q);
  } catch (const std::domain_error& e) {
    throw DomainError(e.what());
  }
}

template <class F>
EquivalenceResult decide(const F& field, const LinearRepresentation& f,
                         const LinearRepresentation& g, bool track) {
  using E = typename F::Element;
  using Vec = std::vector<E>;
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t df = f.dim, dg = g.dim, n = df + dg, r = f.outputs, S = f.symbols.size();
  EquivalenceResult res;
  res.field = field.name();
  res.dim_f = df;
  res.dim_g = dg;
  // Difference automaton, stored sparsely per row of M_σ (models are sparse).
  std::vector<std::vector<std::vector<std::pair<std::size_t, E>>>> M(
      S, std::vector<std::vector<std::pair<std::size_t, E>>>(n));
  std::vector<std::vector<Vec>> Of(S), Og(S);  // [σ][row] → r values
  for (std::size_t s = 0; s < S; ++s) {
    for (std::size_t i = 0; i < df; ++i)
      for (std::size_t j = 0; j < df; ++j)
        if (f.transition[s](i, j) != 0)
          M[s][i].emplace_back(j, convert(field, f.transition[s](i, j)));
    for (std::size_t i = 0; i < dg; ++i)
      for (std::size_t j = 0; j < dg; ++j)
        if (g.transition[s](i, j) != 0)
          M[s][df + i].emplace_back(df + j, convert(field, g.transition[s](i, j)));
    Of[s].assign(df, Vec(r, field.zero()));
    Og[s].assign(dg, Vec(r, field.zero()));
    for (std::size_t i = 0; i < df; ++i)
      for (std::size_t j = 0; j < r; ++j) Of[s][i][j] = convert(field, f.output[s](i, j));
    for (std::size_t i = 0; i < dg; ++i)
      for (std::size_t j = 0; j < r; ++j) Og[s][i][j] = convert(field, g.output[s](i, j));
  }
  auto outputs = [&](const Vec& v, std::size_t s, Vec& yf, Vec& yg) {
    yf.assign(r, field.zero());
    yg.assign(r, field.zero());
    for (std::size_t i = 0; i < df; ++i)
      if (!field.is_zero(v[i]))
        for (std::size_t j = 0; j < r; ++j) yf[j] = field.add(yf[j], field.mul(v[i], Of[s][i][j]));
    for (std::size_t i = 0; i < dg; ++i)
      if (!field.is_zero(v[df + i]))
        for (std::size_t j = 0; j < r; ++j)
          yg[j] = field.add(yg[j], field.mul(v[df + i], Og[s][i][j]));
  };
  auto strings = [&](const Vec& y) {
    std::vector<std::string> out;
    for (const E& x : y) out.push_back(field.to_string(x));
    return out;
  };
  auto differ = [&](const Vec& a, const Vec& b) {
    for (std::size_t j = 0; j < a.size(); ++j)
      if (!field.is_zero(field.sub(a[j], b[j]))) return true;
    return false;
  };
  auto finish = [&](EchelonBasis<F>& basis) {
    res.basis_size = basis.size();
    res.max_bits = basis.max_bits_working();
    res.max_bits_vectors = basis.max_bits_inserted();
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };

  EchelonBasis<F> basis(field, n, track);
  if (f.empty && g.empty) {
    Vec ef, eg;
    for (const Rational& x : *f.empty) ef.push_back(convert(field, x));
    for (const Rational& x : *g.empty) eg.push_back(convert(field, x));
    res.candidates = 1;
    if (differ(ef, eg)) {
      res.counterexample = EquivalenceCounterexample{{}, 0, strings(ef), strings(eg)};
      finish(basis);
      return res;
    }
    res.empty_value = strings(ef);
  }
  Vec alpha(n, field.zero());
  for (std::size_t i = 0; i < df; ++i) alpha[i] = convert(field, f.initial[i]);
  for (std::size_t i = 0; i < dg; ++i) alpha[df + i] = convert(field, g.initial[i]);
  bool zero = true;
  for (const E& x : alpha) zero = zero && field.is_zero(x);
  if (!zero) {  // v(ε) = 0 spans nothing: every output is 0 on both sides
    basis.insert(alpha);
    res.basis_words.push_back({});
  }
  std::vector<std::vector<std::vector<E>>> coeffs;  // [i][σ], padded at the end
  Vec yf, yg;
  for (std::size_t i = 0; i < res.basis_words.size(); ++i) {
    const Vec v = basis.vector(i);
    coeffs.emplace_back();
    res.values.emplace_back();
    for (std::size_t s = 0; s < S; ++s) {
      outputs(v, s, yf, yg);
      if (differ(yf, yg)) {
        std::vector<std::size_t> w = res.basis_words[i];
        w.push_back(s);
        res.counterexample = EquivalenceCounterexample{w, w.size(), strings(yf), strings(yg)};
        res.candidates += 1;
        res.values.clear();
        finish(basis);
        return res;
      }
      res.values[i].push_back(strings(yf));
      Vec next(n, field.zero());
      for (std::size_t a = 0; a < n; ++a) {
        if (field.is_zero(v[a])) continue;
        for (const auto& [b, x] : M[s][a]) next[b] = field.add(next[b], field.mul(v[a], x));
      }
      ++res.candidates;
      if (auto c = basis.insert(next)) {
        coeffs[i].push_back(std::move(*c));
      } else {
        std::vector<std::size_t> w = res.basis_words[i];
        w.push_back(s);
        res.basis_words.push_back(std::move(w));
        Vec unit(track ? basis.size() : 0, field.zero());
        if (track) unit.back() = field.one();
        coeffs[i].push_back(std::move(unit));
      }
    }
  }
  res.equivalent = true;
  const std::size_t k = res.basis_words.size();
  for (auto& per_symbol : coeffs) {
    if (!track) break;
    res.coefficients.emplace_back();
    for (auto& c : per_symbol) {
      c.resize(k, field.zero());
      res.coefficients.back().push_back(strings(c));
    }
  }
  finish(basis);
  return res;
}

}  // namespace

void check_same_interface(const std::vector<std::string>& symbols_f, std::size_t outputs_f,
                          const std::vector<std::string>& symbols_g, std::size_t outputs_g) {
  if (symbols_f != symbols_g) {
    auto list = [](const std::vector<std::string>& s) {
      std::string out;
      for (const std::string& x : s) out += (out.empty() ? "" : " ") + x;
      return "{" + out + "}";
    };
    throw InputError("", "the alphabets differ: " + list(symbols_f) + " vs " + list(symbols_g) +
                             " (same symbols in the same order needed)");
  }
  if (outputs_f != outputs_g)
    throw InputError("", "the output dimensions differ: " + std::to_string(outputs_f) + " vs " +
                             std::to_string(outputs_g));
}

EquivalenceResult decide_equivalence(const LinearRepresentation& f, const LinearRepresentation& g,
                                     const EquivalenceParams& params) {
  check_same_interface(f.symbols, f.outputs, g.symbols, g.outputs);
  const std::optional<std::uint64_t> p = pick_modulus(f, g, params);
  if (p) {
    if (!modp::is_prime(*p) || *p >= (std::uint64_t{1} << modp::max_modulus_bits))
      throw InputError("", "the modulus " + std::to_string(*p) + " is not a prime below 2^62");
    EquivalenceResult r = decide(FpField{*p}, f, g, params.certificate);
    r.modulus = p;
    return r;
  }
  const bool fast = uses_multimodular(f.dim, g.dim, false, params);
  if (fast)
    if (std::optional<EquivalenceResult> r = decide_multimodular(f, g)) return std::move(*r);
  if (params.max_exact_work) {
    // (d_f + d_g)³·|Σ|, saturating: the forward basis over Q (the header's cost).
    const long double n = static_cast<long double>(f.dim + g.dim);
    const long double work = n * n * n * static_cast<long double>(f.symbols.size());
    if (work > static_cast<long double>(*params.max_exact_work))
      throw InputError(
          "--max-work",
          std::string(fast ? "the multimodular path could not conclude (no morphism either "
                             "way, or entries past its primes) and "
                           : "") +
              "the exact forward basis over Q would take about " +
              std::to_string(static_cast<unsigned long long>(std::min(work, 1.8e19L))) +
              " field operations (dimension " + std::to_string(f.dim + g.dim) +
              ", |Σ| = " + std::to_string(f.symbols.size()) + "), more than the limit of " +
              std::to_string(*params.max_exact_work) + " (raise --max-work to run it anyway)");
  }
  return decide(QField{}, f, g, params.certificate);
}

bool uses_multimodular(std::size_t dim_f, std::size_t dim_g, bool modulus,
                       const EquivalenceParams& params) {
  using M = EquivalenceParams::Method;
  if (modulus || params.modulus) return false;
  return params.method == M::multimodular ||
         (params.method == M::automatic && dim_f + dim_g >= kMultimodularFromDimension);
}

std::optional<EquivalenceCounterexample> exhaustive_counterexample(
    const LinearRepresentation& f, const LinearRepresentation& g, std::size_t max_length,
    std::optional<std::uint64_t> modulus) {
  check_same_interface(f.symbols, f.outputs, g.symbols, g.outputs);
  auto reduce = [&](const std::vector<Rational>& y) {
    std::vector<std::string> out;
    for (const Rational& x : y)
      out.push_back(modulus ? std::to_string(FpField{*modulus}.from_rational(x)) : to_string(x));
    return out;
  };
  if (f.empty && g.empty && reduce(*f.empty) != reduce(*g.empty))
    return EquivalenceCounterexample{{}, 0, reduce(*f.empty), reduce(*g.empty)};
  std::vector<std::vector<std::size_t>> layer{{}};
  for (std::size_t len = 1; len <= max_length; ++len) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& u : layer)
      for (std::size_t s = 0; s < f.symbols.size(); ++s) {
        std::vector<std::size_t> w = u;
        w.push_back(s);
        const auto yf = reduce(evaluate_prefixes(f, w).back());
        const auto yg = reduce(evaluate_prefixes(g, w).back());
        if (yf != yg) return EquivalenceCounterexample{w, w.size(), yf, yg};
        next.push_back(std::move(w));
      }
    layer = std::move(next);
  }
  return std::nullopt;
}

}  // namespace rnncc
