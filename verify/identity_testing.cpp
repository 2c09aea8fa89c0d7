// The identity-testing method of verify (Verification::identity): polynomial identity testing
// over F_p with its error bound, and the witness search when the circuits differ.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "algebra/modp_ops.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/eval/evaluate.hpp"
#include "verify/verification.hpp"

namespace rnncc::verify_internal {

namespace {

// Identity testing draws its prime uniformly from the primes in [2^61, 2^62) (ModP takes
// p < 2^62). There are more than N = 3.8·10^16 of them: by Rosser–Schoenfeld,
// x/ln x < π(x) < 1.25506·x/ln x for x ≥ 17, so π(2^62) − π(2^61) > 2^62/ln 2^62 −
// 1.25506·2^61/ln 2^61 = 2^61·(2/(62 ln 2) − 1.25506/(61 ln 2)) ≈ 3.886·10^16.
constexpr double kPrimesInRange = 3.8e16;
constexpr unsigned kPrimeBits = 61;  // every prime of the range exceeds 2^61

// A prime drawn uniformly from [2^61, 2^62): odd candidates until one is prime (modp::is_prime
// is deterministic for 64-bit inputs).
std::uint64_t random_identity_prime(std::mt19937_64& rng) {
  while (true) {
    const std::uint64_t candidate = (std::uint64_t{1} << 61) | (rng() >> 3) | 1u;
    if (modp::is_prime(candidate)) return candidate;
  }
}

// Per gate, an upper bound on the degree in each position's block of variables (saturating at
// 2: identity testing only asks whether some output has degree > 1 in some block). `blocks[i]`
// lists the blocks input i depends on (affinely). Boolean and test gates count as degree 2.
std::uint8_t max_block_degree(const Circuit& c, const std::vector<std::vector<std::size_t>>& blocks,
                              std::size_t n) {
  std::vector<std::uint8_t> deg(c.size() * n, 0);
  auto at = [&](GateId g) { return deg.data() + static_cast<std::size_t>(g) * n; };
  for (GateId id = 0; id < c.size(); ++id) {
    std::uint8_t* out = at(id);
    const auto ops = c.operands(id);
    switch (c.kind(id)) {
      case GateKind::constant:
        break;
      case GateKind::input:
        for (std::size_t b : blocks.at(c.input_index(id))) out[b] = 1;
        break;
      case GateKind::add:
      case GateKind::sub:
      case GateKind::neg:
      case GateKind::sum:
        for (GateId o : ops)
          for (std::size_t b = 0; b < n; ++b) out[b] = std::max(out[b], at(o)[b]);
        break;
      case GateKind::mul:
      case GateKind::product:
        for (GateId o : ops)
          for (std::size_t b = 0; b < n; ++b)
            out[b] = static_cast<std::uint8_t>(std::min(2, out[b] + at(o)[b]));
        break;
      default:
        for (std::size_t b = 0; b < n; ++b) out[b] = 2;
    }
  }
  std::uint8_t worst = 0;
  for (GateId o : c.outputs())
    for (std::size_t b = 0; b < n; ++b) worst = std::max(worst, at(o)[b]);
  return worst;
}

// log₂ of an integer bound: (num, den) with den·v ∈ Z and |den·v| ≤ num for the value v of a
// gate on every input within the input bounds. Sums: den = Π den_i, num = Σ num_i·Π_{j≠i} den_j;
// products: both multiply. Kept as log₂ (−∞ for num = 0).
struct HeightBound {
  double log_num = -std::numeric_limits<double>::infinity();
  double log_den = 0;
};

double log2_sum(double a, double b) {  // log₂(2^a + 2^b), rounded up a little
  if (a < b) std::swap(a, b);
  if (b == -std::numeric_limits<double>::infinity()) return a;
  return a + std::log2(1 + std::exp2(b - a)) + 1e-9;
}

HeightBound height_of(const Rational& q) {
  HeightBound h;
  const std::size_t num_bits = bit_length(numerator(q));
  if (num_bits > 0) h.log_num = static_cast<double>(num_bits);
  h.log_den = static_cast<double>(bit_length(denominator(q)));
  return h;
}

// The bound at the circuit's output `out` (an index into outputs()).
HeightBound output_height(const Circuit& c, const std::vector<HeightBound>& inputs,
                          std::size_t out) {
  std::vector<HeightBound> h(c.size());
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    HeightBound& g = h[id];
    switch (c.kind(id)) {
      case GateKind::constant:
        g = height_of(c.constant(id));
        break;
      case GateKind::input:
        g = inputs.at(c.input_index(id));
        break;
      case GateKind::add:
      case GateKind::sub:
      case GateKind::neg:
      case GateKind::sum: {
        for (GateId o : ops) g.log_den += h[o].log_den;
        for (GateId o : ops)
          g.log_num = log2_sum(g.log_num, h[o].log_num + g.log_den - h[o].log_den);
        break;
      }
      case GateKind::mul:
      case GateKind::product:
        g.log_num = 0;
        for (GateId o : ops) {
          g.log_num += h[o].log_num;
          g.log_den += h[o].log_den;
        }
        break;
      default:  // boolean and test gates take the values 0 and 1
        g.log_num = 0;
        g.log_den = 0;
    }
  }
  return h[c.outputs().at(out)];
}

}  // namespace

// Identity testing at one length: f's circuit and X's compiled circuit, X's inputs as linear
// forms in f's (the embedding), over F_p.
struct Verification::IdentityProbe {
  Circuit f, x;
  std::vector<InputSource> embedding;
  ModP F;
  std::size_t out = 0;  // X's output compared
  // (f, X) at the point u of f's inputs, when they differ.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> differs(
      const std::vector<std::uint64_t>& u) const {
    std::vector<std::uint64_t> v;
    v.reserve(embedding.size());
    for (const InputSource& src : embedding) {
      std::uint64_t value = F.from_rational(src.constant);
      for (std::uint32_t var : src.variables) value = F.add(value, u[var]);
      v.push_back(value);
    }
    const auto fy = evaluate(f, F, std::span<const std::uint64_t>(u)).at(0);
    const auto xy = evaluate(x, F, std::span<const std::uint64_t>(v)).at(out);
    if (fy == xy) return std::nullopt;
    return std::pair{fy, xy};
  }
};

// identity: polynomial identity testing over F_p, p a prime drawn from [2^61, 2^62) by the
// seed, of f's circuit against X's compiled circuit (dense structure: A(x) = Σ_σ x_σ A_σ) for
// n = 1..identity_max_length, at `identity_rounds` random points of the variety
// Σ_σ x[t,σ] = 1 (every t). Applies when X reads one token per symbol (an embedding), f is a
// circuit and X is one LRNN layer with a token-independent readout — and only where both
// circuits are checked to have degree ≤ 1 in every position's block of inputs; otherwise it
// is declined with a note. A length that passes adds (deg_n/p)^K (Schwartz–Zippel over the
// points) + ⌊b_n/61⌋/N (the chance that the random prime divides the nonzero numerator of some
// X(w) − f(w), of at most b_n bits) to the error bound; a length that fails adds nothing, and
// no bound is printed once one fails. A differing point proves X ≠ f on some string of that
// length: the witness is found by fixing positions one by one (witness()).
void Verification::identity() {
  if (o_.identity_rounds == 0 || failing_) return;
  const bool single_lrnn = c_.model.layers.size() == 1 &&
                           std::holds_alternative<LrnnLayer>(c_.model.layers[0].layer) &&
                           std::get<LrnnLayer>(c_.model.layers[0].layer).readout_feature.empty();
  if (!c_.embedding || !c_.target.circuit || !single_lrnn || c_.modulus) {
    report_.notes.push_back(
        "identity test not applicable: it needs X to read one token per symbol (an embedding), "
        "f as a circuit, and a single LRNN layer with a token-independent readout, so that both "
        "circuits are affine in each position's indicators");
    return;
  }
  std::mt19937_64 rng(seed_ ^ 0x5DEECE66Dull);
  IdentityScope scope;
  scope.prime = random_identity_prime(rng);
  scope.rounds = o_.identity_rounds;
  const ModP F(scope.prime);
  const double p = static_cast<double>(scope.prime);
  double bound = 0;
  std::size_t points = 0;
  bool failed = false;
  ProgressTask task(progress(), "identity test", o_.identity_max_length, "lengths");
  for (std::size_t n = 1; n <= o_.identity_max_length && !failing_ && !failed; ++n) {
    task.set(n - 1);
    IdentityProbe probe{c_.target.circuit(n), {}, c_.embedding(n), F, 0};
    CompileOptions co;
    co.acceptance = false;
    co.scan = ScanKind::brent_kung;
    co.structure = Structure::dense;  // A(x) = Σ_σ x_σ A_σ: affine in the block (PD's P·D is not)
    probe.x = compile_lrnn(c_.model, probe.embedding.size() / c_.model.alphabet.size(), co).circuit;
    probe.out = c_.out_row * output_cols(c_.model.layers.back().layer) + c_.out_col;
    std::vector<std::vector<std::size_t>> f_blocks(probe.f.inputs().size()), x_blocks;
    for (std::size_t i = 0; i < f_blocks.size(); ++i) f_blocks[i] = {i / S_};
    std::vector<HeightBound> x_inputs;
    for (const InputSource& src : probe.embedding) {
      auto& blocks = x_blocks.emplace_back();
      for (std::uint32_t v : src.variables) blocks.push_back(v / S_);
      HeightBound h = height_of(src.constant);  // |constant + Σ vars| on one-hot inputs
      h.log_num =
          log2_sum(h.log_num, std::log2(static_cast<double>(src.variables.size())) + h.log_den);
      x_inputs.push_back(h);
    }
    if (max_block_degree(probe.f, f_blocks, n) > 1 || max_block_degree(probe.x, x_blocks, n) > 1) {
      report_.notes.push_back(fmt::format(
          "identity test declined from n = {}: a circuit has degree > 1 in one position's block "
          "of inputs, so agreeing on the variety Σ_σ x[t,σ] = 1 is not the same as agreeing on "
          "one-hot inputs (the argument of docs/constructions.md, \"Identity testing\")",
          n));
      break;
    }
    std::optional<std::pair<std::uint64_t, std::uint64_t>> differing;
    try {
      for (std::size_t round = 0; round < o_.identity_rounds && !differing; ++round) {
        ++points;
        differing = probe.differs(random_point(rng, F, n, {}));
      }
    } catch (const DomainError& e) {
      report_.notes.push_back(fmt::format("identity test: length {} skipped: {}", n, e.what()));
      continue;
    }
    if (!differing) {
      const HeightBound hf =
          output_height(probe.f, std::vector<HeightBound>(f_blocks.size(), HeightBound{0, 0}), 0);
      const HeightBound hx = output_height(probe.x, x_inputs, probe.out);
      // |den_x·den_f·(X − f)| ≤ num_x·den_f + num_f·den_x: the bits b_n of an integer the prime
      // must divide for X(w) ≢ f(w) to vanish mod p.
      const double bits = log2_sum(hx.log_num + hf.log_den, hf.log_num + hx.log_den);
      bound += std::pow(static_cast<double>(std::max(degree(probe.f), degree(probe.x))) / p,
                        static_cast<double>(o_.identity_rounds)) +
               std::floor(std::max(bits, 0.0) / kPrimeBits) / kPrimesInRange;
      scope.lengths_passed.push_back(n);
      continue;
    }
    failed = true;
    report_.notes.push_back(fmt::format(
        "identity test: the circuits differ at a random point for n = {} (f = {}, X = {} mod "
        "p), so X ≠ f on some string of length {}; searching for it",
        n, differing->first, differing->second, n));
    witness(probe, rng, n, points);
  }
  report_.checked["identity (points)"] = points;
  if (!scope.lengths_passed.empty())
    covered("identity", scope.lengths_passed.front(), scope.lengths_passed.back());
  if (!failed && !failing_ && !scope.lengths_passed.empty())
    report_.error_bound = fmt::format(
        "{:.3g} (Schwartz–Zippel over {} random points per length and the random prime p = {} "
        "from [2^61, 2^62), lengths {}..{})",
        bound, o_.identity_rounds, scope.prime, scope.lengths_passed.front(),
        scope.lengths_passed.back());
  if (report_.error_bound && report_.seed_given)
    report_.notes.push_back(
        "the seed was given (--seed): the identity error bound is a probability over random "
        "choices that the seed fixes, so it does not apply to a model chosen by someone who "
        "knows the seed (without --seed the seed is drawn from std::random_device)");
  report_.identity = std::move(scope);
}

// A point of f's inputs for length n: position t < |prefix| one-hot at prefix[t], the others
// uniform on Σ_σ u[t,σ] = 1 (free coordinates uniform in F_p, by rejection).
std::vector<std::uint64_t> Verification::random_point(
    std::mt19937_64& rng, const ModP& F, std::size_t n,
    const std::vector<std::size_t>& prefix) const {
  std::vector<std::uint64_t> u(n * S_, 0);
  for (std::size_t t = 0; t < n; ++t) {
    if (t < prefix.size()) {
      u[t * S_ + prefix[t]] = 1;
      continue;
    }
    std::uint64_t rest = 0;
    for (std::size_t s = 1; s < S_; ++s) {
      std::uint64_t r = rng() >> 2;
      while (r >= F.modulus()) r = rng() >> 2;
      u[t * S_ + s] = r;
      rest = F.add(rest, r);
    }
    u[t * S_] = F.sub(F.one(), rest);
  }
  return u;
}

// The circuits differ at a point of length n, so (both affine per block) X ≠ f on a string of
// length n. Fix positions one at a time: with w₁..w_{t−1} fixed, the difference restricted to
// the variety is Σ_σ u[t,σ]·D(w₁..w_{t−1}, e_σ, …), so some σ keeps it nonzero; the least σ
// that differs at a random point is taken (n·|Σ| points in all). A string that fails is
// recorded (and shrunk later). If this finds none, the strings of length n are enumerated —
// within exhaustive_cap; beyond it the verdict fails with a note and no witness.
void Verification::witness(const IdentityProbe& probe, std::mt19937_64& rng, std::size_t n,
                           std::size_t& points) {
  std::vector<std::size_t> w;
  for (std::size_t t = 0; t < n; ++t) {
    std::optional<std::size_t> next;
    for (std::size_t s = 0; s < S_ && !next; ++s) {
      std::vector<std::size_t> prefix = w;
      prefix.push_back(s);
      ++points;
      if (probe.differs(random_point(rng, probe.F, n, prefix))) next = s;
    }
    if (!next) break;
    w.push_back(*next);
  }
  if (w.size() == n && record(w, "identity", false)) return;
  const double strings = count_strings(S_, n);
  if (strings <= static_cast<double>(o_.exhaustive_cap)) {
    std::size_t enumerated = 0;
    const bool found = for_each_string(S_, n, [&](const std::vector<std::size_t>& cand) {
      ++enumerated;
      return record(cand, "identity", false);
    });
    report_.checked["identity (strings enumerated)"] = enumerated;
    if (!found)
      report_.notes.push_back(fmt::format(
          "identity test inconclusive at n = {}: the circuits differ but no string of length {} "
          "does, so X's compiled circuit disagrees with X's evaluator or f's circuit with f "
          "(please report)",
          n, n));
    return;
  }
  refuted_ = true;
  report_.notes.push_back(fmt::format(
      "X ≠ f on some string of length {} (identity testing: the circuits, both affine per "
      "block, differ at a point), but the witness search found none and the {:.0f} strings of "
      "that length exceed the cap of {}",
      n, strings, o_.exhaustive_cap));
}

}  // namespace rnncc::verify_internal
