#include "verify/prefix_check.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/modp_ops.hpp"
#include "algebra/multimodular.hpp"
#include "algebra/task_pool.hpp"
#include "verify/compared_output.hpp"
#include "verify/cuda/prefix_gpu.hpp"
#include "verify/prefix_walk.hpp"

namespace rnncc {

namespace {

Integer den_lcm(const Integer& acc, const Rational& r) {
  return lcm(acc, Integer(boost::multiprecision::denominator(r)));
}

// r mod p (p ∤ den r), plain residue.
std::uint32_t residue(const Rational& r, std::uint32_t p) {
  Integer n = Integer(boost::multiprecision::numerator(r)) % p;
  if (n < 0) n += p;
  const Integer d = Integer(boost::multiprecision::denominator(r)) % p;
  const std::uint64_t dinv = modp::inv(d.convert_to<std::uint64_t>(), p);
  return static_cast<std::uint32_t>(n.convert_to<std::uint64_t>() * dinv % p);
}

// The exactness plan for one length (prefix_check.hpp): D, B, N = ⌈B·D⌉, the primes.
struct Plan {
  std::vector<std::uint32_t> primes;
  double log2_bound = -INFINITY;  // log2 N
  std::optional<std::string> why_not;
};

Plan make_plan(const PrefixSubject& s, std::size_t L) {
  Plan plan;
  const LinearRepresentation& g = s.g;
  const std::size_t d = g.dim, S = g.symbols.size();
  if (d > prefix::kMaxDim) {
    plan.why_not = fmt::format("dimension {} over {}", d, prefix::kMaxDim);
    return plan;
  }
  if (L > prefix::kMaxLength) {
    plan.why_not = fmt::format("length {} over {}", L, prefix::kMaxLength);
    return plan;
  }
  if (s.modulus) {
    const std::uint64_t q = *s.modulus;
    if (q < 3 || q >= (std::uint64_t{1} << 31) || !modp::is_prime(q))
      plan.why_not =
          fmt::format("the construction computes mod {}, not an odd prime below 2^31", q);
    else
      plan.primes = {static_cast<std::uint32_t>(q)};
    return plan;
  }
  Integer da = 1, dm = 1, dO = 1;
  for (const Rational& a : g.initial) da = den_lcm(da, a);
  for (std::size_t c = 0; c < S; ++c) {
    for (std::size_t i = 0; i < d; ++i) {
      for (std::size_t j = 0; j < d; ++j) dm = den_lcm(dm, g.transition[c](i, j));
      dO = den_lcm(dO, g.output[c](i, 0));
    }
  }
  Integer D = da * dO;
  for (std::size_t j = 1; j < L; ++j) D *= dm;
  // u_j = max_σ u_{j−1}·|M_σ| entrywise; B = max_σ u_{L−1}·|O_σ|.
  std::vector<Rational> u(d);
  for (std::size_t i = 0; i < d; ++i) u[i] = abs(g.initial[i]);
  for (std::size_t j = 1; j < L; ++j) {
    std::vector<Rational> next(d, Rational(0));
    for (std::size_t c = 0; c < S; ++c)
      for (std::size_t b = 0; b < d; ++b) {
        Rational acc = 0;
        for (std::size_t a = 0; a < d; ++a)
          if (u[a] != 0) acc += u[a] * abs(g.transition[c](a, b));
        next[b] = std::max(next[b], acc);
      }
    u = std::move(next);
  }
  Rational B = 0;
  for (std::size_t c = 0; c < S; ++c) {
    Rational acc = 0;
    for (std::size_t a = 0; a < d; ++a) acc += u[a] * abs(g.output[c](a, 0));
    B = std::max(B, acc);
  }
  const Integer N = ceil(B * Rational(D));
  plan.log2_bound = log2_of(N);
  const std::vector<Integer> dens = {da, dm, dO};
  const std::vector<std::uint32_t> candidates = lucky_primes(64, dens);
  std::size_t k = 1;
  if (N > 0) k = std::max<std::size_t>(1, primes_for_bits(log2_of(N) + 1, candidates));
  for (;; ++k) {  // the exact test 2N < P (primes_for_bits works from a float estimate)
    Integer P = 1;
    for (std::size_t i = 0; i < k && i < candidates.size(); ++i) P *= candidates[i];
    if (2 * N < P || k >= candidates.size()) break;
  }
  if (k > prefix::kMaxPrimes) {
    plan.why_not = fmt::format("the bound 2^{:.1f} needs {} primes, over {}", plan.log2_bound, k,
                               prefix::kMaxPrimes);
    return plan;
  }
  plan.primes.assign(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(k));
  return plan;
}

// Residue tables in Montgomery form.
struct HostTables {
  std::vector<std::uint32_t> alpha, M, O;
  prefix::Tables t;
};

HostTables make_tables(const LinearRepresentation& g, const std::vector<std::uint32_t>& primes,
                       std::size_t L) {
  HostTables h;
  const std::size_t d = g.dim, S = g.symbols.size(), k = primes.size();
  h.alpha.resize(k * d);
  h.M.resize(k * S * d * d);
  h.O.resize(k * S * d);
  for (std::size_t i = 0; i < k; ++i) {
    const mont31::Field f = mont31::make_field(primes[i]);
    h.t.field[i] = f;
    auto mont = [&](const Rational& r) { return mont31::to_mont(residue(r, primes[i]), f); };
    for (std::size_t a = 0; a < d; ++a) h.alpha[i * d + a] = mont(g.initial[a]);
    for (std::size_t c = 0; c < S; ++c)
      for (std::size_t a = 0; a < d; ++a) {
        h.O[(i * S + c) * d + a] = mont(g.output[c](a, 0));
        for (std::size_t b = 0; b < d; ++b)
          h.M[((i * S + c) * d + a) * d + b] = mont(g.transition[c](a, b));
      }
  }
  h.t.symbols = static_cast<std::uint32_t>(S);
  h.t.dim = static_cast<std::uint32_t>(d);
  h.t.primes = static_cast<std::uint32_t>(k);
  h.t.length = static_cast<std::uint32_t>(L);
  h.t.alpha = h.alpha.data();
  h.t.M = h.M.data();
  h.t.O = h.O.data();
  return h;
}

// All cores: the range in tasks of |Σ|^s aligned strings, handed out by an atomic counter
// (algebra/task_pool.hpp).
prefix::WalkResult walk_cpu(const prefix::Tables& t, std::uint64_t first, std::uint64_t count,
                            std::uint64_t chunk, unsigned threads) {
  const std::uint64_t end = first + count;
  const std::uint64_t first_chunk = first / chunk, last_chunk = (end - 1) / chunk;
  struct Worker {
    std::vector<std::uint32_t> stack, digits;
    prefix::WalkResult r;
  };
  const auto workers = run_tasks(
      last_chunk - first_chunk + 1, threads,
      [&] {
        const std::size_t words = static_cast<std::size_t>(t.length) * t.primes * t.dim;
        return Worker{std::vector<std::uint32_t>(words), std::vector<std::uint32_t>(t.length), {}};
      },
      [&](Worker& w, std::uint64_t k) {
        const std::uint64_t lo = std::max(first, (first_chunk + k) * chunk);
        const std::uint64_t hi = std::min(end, (first_chunk + k + 1) * chunk);
        const prefix::WalkResult part =
            prefix::walk(t, lo, hi - lo, w.stack.data(), w.digits.data());
        if (part.mismatches) w.r.first = std::min(w.r.first, part.first);
        w.r.mismatches += part.mismatches;
        w.r.steps += part.steps;
      });
  prefix::WalkResult all;
  for (const auto& w : workers) {
    all.mismatches += w.r.mismatches;
    all.steps += w.r.steps;
    all.first = std::min(all.first, w.r.first);
  }
  return all;
}

}  // namespace

std::optional<PrefixSubject> prefix_subject(const Construction& c, std::string* why) {
  auto no = [&](const std::string& reason) -> std::optional<PrefixSubject> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (!c.target.automaton) return no("f has no automaton");
  if (c.target.promise) return no("f is claimed under a promise only");
  if (c.target.fixed_length) return no("f has a fixed length");
  LinearRepresentation f, x;
  try {
    f = from_wfa(*c.target.automaton);
    if (f.symbols != c.target.alphabet.symbols())
      return no("the automaton's alphabet differs from f's");
    x = compared_output(c).x;
  } catch (const NotLinearError& e) {
    return no(std::string("X is not linear in its state (") + e.what() + ")");
  } catch (const std::invalid_argument& e) {
    return no(std::string("encode is not a sequential input map (") + e.what() + ")");
  } catch (const std::out_of_range& e) {
    return no(std::string("the compared output is not in X's representation (") + e.what() + ")");
  }
  PrefixSubject s;
  s.modulus = c.modulus;
  s.dim_x = x.dim;
  s.dim_f = f.dim;
  LinearRepresentation& g = s.g;
  g.symbols = f.symbols;
  g.dim = x.dim + f.dim;
  g.outputs = 1;
  g.initial = x.initial;
  g.initial.insert(g.initial.end(), f.initial.begin(), f.initial.end());
  for (std::size_t c2 = 0; c2 < f.symbols.size(); ++c2) {
    Matrix<Rational> M(g.dim, g.dim, Rational(0)), O(g.dim, 1, Rational(0));
    for (std::size_t a = 0; a < x.dim; ++a) {
      for (std::size_t b = 0; b < x.dim; ++b) M(a, b) = x.transition[c2](a, b);
      O(a, 0) = x.output[c2](a, 0);
    }
    for (std::size_t a = 0; a < f.dim; ++a) {
      for (std::size_t b = 0; b < f.dim; ++b) M(x.dim + a, x.dim + b) = f.transition[c2](a, b);
      O(x.dim + a, 0) = -f.output[c2](a, 0);
    }
    g.transition.push_back(std::move(M));
    g.output.push_back(std::move(O));
  }
  g.modulus = c.modulus;
  return s;
}

std::optional<std::string> prefix_not_applicable(const PrefixSubject& s, std::size_t length,
                                                 CheckDevice device) {
  if (length == 0) return std::string("X has no output at length 0");
  const Plan plan = make_plan(s, length);
  if (plan.why_not) return plan.why_not;
  if (device == CheckDevice::gpu &&
      !prefix::gpu_fits(static_cast<std::uint32_t>(s.g.dim),
                        static_cast<std::uint32_t>(plan.primes.size()),
                        static_cast<std::uint32_t>(s.g.symbols.size())))
    return fmt::format("dimension {} with {} primes is over the GPU kernels'", s.g.dim,
                       plan.primes.size());
  return std::nullopt;
}

DeviceCheckReport prefix_check(const PrefixSubject& s, const PrefixCheckOptions& o) {
  const std::size_t L = o.length;
  const std::uint64_t S = s.g.symbols.size();
  if (L == 0) throw InputError("--exhaustive", "X has no output at length 0");
  const std::uint64_t count = slice_of_strings(S, L, o.first, o.count);
  const Plan plan = make_plan(s, L);
  if (plan.why_not)
    throw InputError("--exhaustive", "prefix sharing does not apply: " + *plan.why_not);
  HostTables h = make_tables(s.g, plan.primes, L);

  // Strings per task (CPU) or thread (GPU): |Σ|^s, s ≤ L − 1.
  std::uint32_t sd = o.suffix_depth;
  if (sd == 0) sd = o.device == CheckDevice::gpu ? 12 : 16;
  sd = static_cast<std::uint32_t>(std::min<std::size_t>(sd, L - 1));
  std::uint64_t chunk = 1;
  for (std::uint32_t j = 0; j < sd; ++j) chunk *= S;

  DeviceCheckReport rep;
  rep.strings = count;
  rep.primes = plan.primes;
  rep.modulus = s.modulus;
  rep.exact = true;
  rep.float_proof = false;
  rep.log2_bound = plan.log2_bound;
  rep.runs = 1;
  rep.gates = h.t.dim;
  const auto t0 = std::chrono::steady_clock::now();
  prefix::WalkResult r;
  if (o.device == CheckDevice::gpu) {
    const prefix::GpuRun g = prefix::walk_gpu(h.t, o.first, count, chunk, o.gpu_threads);
    r = g.result;
    rep.device = g.device;
    rep.kernel_seconds = g.kernel_seconds;
  } else if (o.plain) {
    std::vector<std::uint32_t> stack(L * h.t.primes * h.t.dim), digits(L);
    r = prefix::walk_plain(h.t, o.first, count, stack.data(), digits.data());
    rep.device = "cpu (plain twin, per string from scratch)";
  } else {
    const unsigned th =
        o.cpu_threads ? o.cpu_threads : std::max(1u, std::thread::hardware_concurrency());
    r = walk_cpu(h.t, o.first, count, chunk, th);
    rep.device = fmt::format("cpu ({} thread{})", th, th == 1 ? "" : "s");
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rep.mismatches = r.mismatches;
  if (r.mismatches) {
    std::vector<std::size_t> w(L);
    std::vector<std::uint32_t> dg(L);
    prefix::digits_of(r.first, static_cast<std::uint32_t>(S), static_cast<std::uint32_t>(L),
                      dg.data());
    for (std::size_t t = 0; t < L; ++t) w[t] = dg[t];
    rep.first_counterexample = w;
  }
  // Work: Montgomery multiply-adds (mat-vecs d² each, one d-term dot product per string).
  const double d = h.t.dim, k = h.t.primes;
  const double steps = static_cast<double>(r.steps);
  const double work = (steps * d * d + static_cast<double>(count) * d) * k;
  const double t = o.device == CheckDevice::gpu ? rep.kernel_seconds : rep.seconds;
  rep.gate_evaluations_per_second = t > 0 ? work / t : 0;
  return rep;
}

}  // namespace rnncc
