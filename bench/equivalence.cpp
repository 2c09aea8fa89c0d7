// Equivalence decider benchmark (issue 13): matmul3 (121 tokens, d = 18, over Z and mod 29)
// against its target f(w) = (M_{w₁}⋯M_{w_n})[0][0], the construction's 3-state automaton;
// and a random WFA pair (d = 64, 16 symbols, equal by a random change of basis) exactly over Q.
// Prints a table and writes JSON (argv[1], default equivalence.json). Goals: ≤ 1 s, ≤ 10 s.
#include <chrono>
#include <fstream>
#include <iostream>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algebra/exact.hpp"
#include "algebra/matrix.hpp"
#include "constructions/matmul3.hpp"
#include "verify/equivalence.hpp"

using namespace rnncc;

namespace {

Rational small(std::mt19937_64& rng) {
  return Rational(static_cast<long>(rng() % 5) - 2);
}

}  // namespace

int main(int argc, char** argv) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  fmt::print("{:<34} {:>6} {:>6} {:>8} {:>10} {:>9} {:>6}\n", "case", "d_f", "d_g", "basis",
             "seconds", "max bits", "proved");
  auto report = [&](const std::string& name, const EquivalenceResult& r, double build) {
    fmt::print("{:<34} {:>6} {:>6} {:>8} {:>10.3f} {:>9} {:>6}\n", name, r.dim_f, r.dim_g,
               r.basis_size, r.seconds, r.max_bits, r.equivalent ? "yes" : "no");
    out.push_back({{"case", name},
                   {"dim_f", r.dim_f},
                   {"dim_g", r.dim_g},
                   {"basis_size", r.basis_size},
                   {"seconds", r.seconds},
                   {"build_seconds", build},
                   {"max_bits", r.max_bits},
                   {"max_bits_vectors", r.max_bits_vectors},
                   {"proved", r.equivalent}});
  };
  for (std::optional<std::uint64_t> p :
       {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(29)}) {
    const auto t0 = std::chrono::steady_clock::now();
    Matmul3Options opt;
    opt.modulus = p;
    const Construction c = matmul3(opt);
    const LinearRepresentation model = through_input_map(
        from_model(c.model), input_map_from_encode(c.target.alphabet.symbols(), c.encode, 2));
    // f as the construction states it: the 3-state iterated-product automaton.
    const LinearRepresentation target = from_wfa(*c.target.automaton);
    const double build =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report(p ? "matmul3 vs target, mod 29" : "matmul3 vs target, over Z (Q)",
           decide_equivalence(target, model, {p}), build);
  }
  {
    std::mt19937_64 rng(64);
    const std::size_t d = 64, S = 16;
    LinearRepresentation f;
    for (std::size_t s = 0; s < S; ++s) f.symbols.push_back(fmt::format("s{}", s));
    f.dim = d;
    for (std::size_t i = 0; i < d; ++i) f.initial.push_back(small(rng));
    for (std::size_t s = 0; s < S; ++s) {
      Matrix<Rational> m(d, d, Rational(0)), o(d, 1, Rational(0));
      for (std::size_t i = 0; i < d; ++i) {
        for (std::size_t j = 0; j < d; ++j)
          if (rng() % 8 == 0) m(i, j) = small(rng);
        o(i, 0) = small(rng);
      }
      f.transition.push_back(m);
      f.output.push_back(o);
    }
    // g = f under P = I + N (N strictly upper triangular with a few ±1): P⁻¹ = Σ (−N)^k.
    Matrix<Rational> P(d, d, Rational(0)), Pi(d, d, Rational(0));
    for (std::size_t i = 0; i < d; ++i) P(i, i) = 1;
    for (std::size_t i = 0; i + 1 < d; ++i) P(i, i + 1) = (rng() % 2) ? 1 : -1;
    // P is bidiagonal: P⁻¹(i, j) = Π_{k=i}^{j−1} (−P(k, k+1)) for j ≥ i.
    for (std::size_t i = 0; i < d; ++i) {
      Rational x = 1;
      for (std::size_t j = i; j < d; ++j) {
        Pi(i, j) = x;
        if (j + 1 < d) x *= -P(j, j + 1);
      }
    }
    const RationalField Q;
    auto mul = [&](const Matrix<Rational>& a, const Matrix<Rational>& b) {
      return rnncc::mul(Q, a, b);
    };
    LinearRepresentation g = f;
    Matrix<Rational> alpha(1, d);
    for (std::size_t i = 0; i < d; ++i) alpha(0, i) = f.initial[i];
    g.initial = mul(alpha, P).data();
    for (std::size_t s = 0; s < S; ++s) {
      g.transition[s] = mul(mul(Pi, f.transition[s]), P);
      g.output[s] = mul(Pi, f.output[s]);
    }
    report("random WFA d=64, |Σ|=16, over Q", decide_equivalence(f, g, {std::nullopt, false}), 0);
    report("  … with certificate coefficients", decide_equivalence(f, g), 0);
  }
  const std::string path = argc > 1 ? argv[1] : "equivalence.json";
  std::ofstream(path) << out.dump(2) << "\n";
  std::cout << "wrote " << path << "\n";
}
