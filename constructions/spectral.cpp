// Spectral claims of delta-rule layers (see the header).
#include "constructions/spectral.hpp"

#include <algorithm>
#include <optional>
#include <variant>

namespace rnncc {

namespace {

bool is_delta(Family f) {
  return f == Family::deltanet || f == Family::gated_deltanet || f == Family::kda;
}

std::string token_name(const std::vector<std::string>& names, std::size_t f) {
  return f < names.size() ? names[f] : "#" + std::to_string(f);
}

Rational norm2(const Vector& v) {
  Rational s(0);
  for (const Rational& x : v) s += x * x;
  return s;
}

bool is_zero(const Vector& v) {
  return std::all_of(v.begin(), v.end(), [](const Rational& x) { return x == 0; });
}

Rational max_abs_row_sum(const Matrix<Rational>& a, bool transpose_it) {
  Rational best(0);
  for (std::size_t i = 0; i < a.rows(); ++i) {
    Rational s(0);
    for (std::size_t j = 0; j < a.cols(); ++j) s += abs(transpose_it ? a(j, i) : a(i, j));
    best = std::max(best, s);
  }
  return best;
}

// Eigenvalues of one spectrum inside [−1, 1]: std::nullopt, or the witness outside.
std::optional<std::string> outside_unit_interval(const MatrixSpectrum& s) {
  for (const RealRoot& r : s.real_roots)
    if (r.lo < -1 || r.hi > 1) return "λ = " + to_string(r);
  if (s.complex_pairs > 0 && s.radius_bound > 1)
    return std::to_string(s.complex_pairs) + " complex pair(s), |λ| ≤ " +
           to_string(s.radius_bound) + " not decided ≤ 1";
  return std::nullopt;
}

std::vector<std::string> names_of(const Model& m, std::size_t layer_index, const LrnnLayer& l) {
  std::vector<std::string> out;
  if (layer_index == 0 && m.alphabet.size() == l.features) out = m.alphabet.symbols();
  return out;
}

}  // namespace

MatrixSpectrum spectrum(const Matrix<Rational>& a) {
  MatrixSpectrum s;
  s.charpoly = charpoly(a);
  const std::size_t n = a.rows();
  if (n == 0) return s;
  s.real_roots = real_roots(s.charpoly);
  s.complex_pairs = (n - real_root_count(s.real_roots)) / 2;
  if (s.complex_pairs == 0) {
    Rational r(0);
    for (const RealRoot& x : s.real_roots) r = std::max({r, abs(x.lo), abs(x.hi)});
    s.radius_bound = r;
  } else {
    s.radius_bound =
        std::min({cauchy_bound(s.charpoly), max_abs_row_sum(a, false), max_abs_row_sum(a, true)});
  }
  return s;
}

std::vector<Claim> delta_properties(const LrnnLayer& layer, const std::vector<std::string>& names) {
  std::optional<Rational> lo, hi;
  std::optional<std::string> out_of_declared, out_of_0_2, not_unit;
  std::size_t nonzero = 0, zero = 0, not_unit_count = 0;
  for (std::size_t f = 0; f < layer.record.size(); ++f) {
    const auto* p = std::get_if<DeltaParams>(&layer.record[f]);
    if (!p) continue;
    const std::string tok = token_name(names, f);
    if (is_zero(p->k)) {
      ++zero;
      continue;  // A = I whatever β: an identity sub-step
    }
    ++nonzero;
    if (!lo || p->beta < *lo) lo = p->beta;
    if (!hi || p->beta > *hi) hi = p->beta;
    if (!out_of_declared && !contains(layer.beta_range, p->beta))
      out_of_declared = "β = " + to_string(p->beta) + " at " + tok;
    if (!out_of_0_2 && !(p->beta > 0 && p->beta <= 2))
      out_of_0_2 = "β = " + to_string(p->beta) + " at " + tok;
    const Rational n2 = norm2(p->k);
    if (n2 != 1) {
      ++not_unit_count;
      if (!not_unit) not_unit = "‖k‖² = " + to_string(n2) + " at " + tok;
    }
  }
  const std::string used =
      lo ? "[" + to_string(*lo) + ", " + to_string(*hi) + "]" : "none (every key is 0)";
  const std::string over = " over " + std::to_string(nonzero) + " keyed tokens";
  std::vector<Claim> out;
  out.push_back({"β in the layer's declared range", to_string(layer.beta_range),
                 out_of_declared ? *out_of_declared : used + over, !out_of_declared});
  out.push_back({"β ∈ (0, 2]", "(0,2]",
                 out_of_0_2 ? "β ∈ " + used + ", " + *out_of_0_2 : "β ∈ " + used + over,
                 !out_of_0_2});
  std::string keys = not_unit ? std::to_string(not_unit_count) + " of " + std::to_string(nonzero) +
                                    " keys not unit, " + *not_unit
                              : "all " + std::to_string(nonzero) + " nonzero keys";
  if (zero > 0) keys += "; " + std::to_string(zero) + " identity tokens with k = 0";
  out.push_back({"keys unit (‖k‖² = 1)", "‖k‖² = 1", keys, !not_unit});
  // Eigenvalues: one spectrum per distinct A.
  std::optional<std::string> outside;
  Rational lo_eig(1), hi_eig(-1);
  std::vector<const Matrix<Rational>*> seen;
  for (std::size_t f = 0; f < layer.A.size() && !outside; ++f) {
    if (std::any_of(seen.begin(), seen.end(), [&](const auto* m) { return *m == layer.A[f]; }))
      continue;
    seen.push_back(&layer.A[f]);
    const MatrixSpectrum s = spectrum(layer.A[f]);
    if (auto w = outside_unit_interval(s)) outside = *w + " at " + token_name(names, f);
    for (const RealRoot& r : s.real_roots) {
      lo_eig = std::min(lo_eig, r.lo);
      hi_eig = std::max(hi_eig, r.hi);
    }
  }
  out.push_back(
      {"eigenvalues in [−1, 1]", "[-1,1]",
       outside ? *outside : "all in [" + to_string(lo_eig) + ", " + to_string(hi_eig) + "]",
       !outside});
  return out;
}

std::vector<LayerSpectrum> spectral_report(const Model& m) {
  std::vector<LayerSpectrum> out;
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const auto* l = std::get_if<LrnnLayer>(&m.layers[i].layer);
    if (!l || !is_delta(l->family)) continue;
    const std::vector<std::string> names = names_of(m, i, *l);
    LayerSpectrum ls;
    ls.layer = i;
    ls.family = to_string(l->family);
    ls.d = l->d;
    ls.tokens = l->A.size();
    ls.properties = delta_properties(*l, names);
    // One spectrum per distinct A (computed once), merged by characteristic polynomial.
    std::vector<std::size_t> first;  // feature of each distinct A
    std::vector<std::size_t> slot;   // its entry in ls.spectra
    for (std::size_t f = 0; f < l->A.size(); ++f) {
      std::size_t s = 0;
      while (s < first.size() && !(l->A[first[s]] == l->A[f])) ++s;
      if (s == first.size()) {
        first.push_back(f);
        MatrixSpectrum sp = spectrum(l->A[f]);
        std::size_t e = 0;
        while (e < ls.spectra.size() && ls.spectra[e].charpoly != sp.charpoly) ++e;
        if (e == ls.spectra.size()) ls.spectra.push_back(std::move(sp));
        slot.push_back(e);
      }
      ls.spectra[slot[s]].tokens.push_back(token_name(names, f));
    }
    out.push_back(std::move(ls));
  }
  return out;
}

}  // namespace rnncc
