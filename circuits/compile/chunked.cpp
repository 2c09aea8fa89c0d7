// The chunked WY / UT-transform form of a DeltaNet layer, as practical delta-rule kernels run
// it (seed article 002; Yang et al., "Parallelizing Linear Transformers with the Delta Rule").
//
// Column form S_t = (I − β_t k_t k_tᵀ) S_{t−1} + β_t k_t v_tᵀ, i.e. S_t = S_{t−1} + k_t u_tᵀ with
// u_t = β_t (v_t − S_{t−1}ᵀ k_t). Within a chunk of C positions starting from S (rows of K, V
// are k_iᵀ, v_iᵀ):
//     T  = (I + StrictLower(diag(β) K Kᵀ))⁻¹        by forward substitution (no division:
//          T_ii = 1, T_ij = −Σ_{p=j}^{i−1} β_i (k_iᵀk_p) T_pj)
//     W  = T diag(β) K,    U = T diag(β) V,    U' = U − W S
//     S_i = S_{i−1} + k_i U'_iᵀ   (so S_C = S + Kᵀ U')
// and chunks are chained sequentially. On one-hot inputs this equals the recurrence; as a
// polynomial in x it differs (β_t, k_t, v_t are each linear in x_t, so A_t is cubic).
#include "algebra/error.hpp"
#include "circuits/compile/lrnn_parts.hpp"

namespace rnncc::detail {

std::vector<GMat> chunked_deltanet(LayerCompiler& lc, RegionRecorder& rec,
                                   std::uint32_t layer_index,
                                   const std::vector<std::vector<GateId>>& z, std::size_t chunk) {
  CircuitBuilder& b = lc.b;
  const LrnnLayer& layer = lc.layer;
  const std::size_t n = z.size(), d = layer.d, m = layer.m, K = layer.features;
  auto param = [&](auto&& get) {  // Σ_σ get(σ)·x[t,σ] for every position: per-token β, k, v
    return [&, get](std::size_t t) {
      std::vector<Rational> c(K);
      for (std::size_t k = 0; k < K; ++k) c[k] = get(std::get<DeltaParams>(layer.record[k]));
      return lc.lin(c, z[t]);
    };
  };
  std::vector<GMat> states(n);
  GMat S(d, m);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < m; ++j) S(i, j) = b.constant(layer.initial_state(i, j));

  for (std::size_t start = 0, c = 0; start < n; start += chunk, ++c) {
    const std::size_t C = std::min(chunk, n - start);
    rec.enter({.kind = RegionKind::chunk,
               .layer = layer_index,
               .level = static_cast<std::uint32_t>(start + 1),
               .target = static_cast<std::uint32_t>(c),
               .source = 0});
    std::vector<GateId> beta(C);
    GMat Kc(C, d), Vc(C, m);
    for (std::size_t i = 0; i < C; ++i) {
      const std::size_t t = start + i;
      beta[i] = param([](const DeltaParams& p) { return p.beta; })(t);
      for (std::size_t l = 0; l < d; ++l)
        Kc(i, l) = param([l](const DeltaParams& p) { return p.k[l]; })(t);
      for (std::size_t j = 0; j < m; ++j)
        Vc(i, j) = param([j](const DeltaParams& p) { return p.v[j]; })(t);
    }
    // L_ij = β_i k_iᵀ k_j (j < i); T by forward substitution.
    GMat T(C, C, b.constant(Rational(0)));
    std::vector<GateId> terms;
    GMat L(C, C);
    for (std::size_t i = 0; i < C; ++i)
      for (std::size_t j = 0; j < i; ++j) {
        terms.clear();
        for (std::size_t l = 0; l < d; ++l) terms.push_back(b.mul(Kc(i, l), Kc(j, l)));
        L(i, j) = b.mul(beta[i], b.sum(terms));
      }
    for (std::size_t i = 0; i < C; ++i) {
      T(i, i) = b.constant(Rational(1));
      for (std::size_t j = 0; j < i; ++j) {
        terms.clear();
        for (std::size_t p = j; p < i; ++p) terms.push_back(b.mul(L(i, p), T(p, j)));
        T(i, j) = b.neg(b.sum(terms));
      }
    }
    // W = T diag(β) K, U = T diag(β) V (rows), then U' = U − W S.
    GMat W(C, d), U(C, m);
    for (std::size_t i = 0; i < C; ++i) {
      for (std::size_t l = 0; l < d; ++l) {
        terms.clear();
        for (std::size_t p = 0; p <= i; ++p)
          terms.push_back(b.mul(T(i, p), b.mul(beta[p], Kc(p, l))));
        W(i, l) = b.sum(terms);
      }
      for (std::size_t j = 0; j < m; ++j) {
        terms.clear();
        for (std::size_t p = 0; p <= i; ++p)
          terms.push_back(b.mul(T(i, p), b.mul(beta[p], Vc(p, j))));
        U(i, j) = b.sum(terms);
      }
    }
    for (std::size_t i = 0; i < C; ++i) {
      for (std::size_t j = 0; j < m; ++j) {
        terms.clear();
        for (std::size_t l = 0; l < d; ++l) terms.push_back(b.mul(W(i, l), S.data()[l * m + j]));
        GateId u = b.sub(U(i, j), b.sum(terms));
        U(i, j) = u;
      }
    }
    GMat state = S;
    for (std::size_t i = 0; i < C; ++i) {
      GMat next(d, m);
      for (std::size_t l = 0; l < d; ++l)
        for (std::size_t j = 0; j < m; ++j)
          next(l, j) = b.add(state(l, j), b.mul(Kc(i, l), U(i, j)));
      state = std::move(next);
      states[start + i] = state;
    }
    S = state;
  }
  return states;
}

}  // namespace rnncc::detail
