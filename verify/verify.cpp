#include "verify/verify.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/eval/evaluate.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/run_report.hpp"
#include "verify/check_circuit.hpp"
#include "verify/device_check.hpp"

namespace rnncc {

namespace {

constexpr std::uint64_t kIdentityPrime = 2305843009213693951ull;  // 2^61 − 1

// One verdict on one string: empty when f, X and (if compiled) X's circuit agree.
struct Mismatch {
  std::string expected, got, disagreeing;
};

class Checker {
 public:
  Checker(const Construction& c, const VerifyOptions& o) : c_(c), o_(o) {
    if (c.modulus) mod_.emplace(*c.modulus);
    // Three-way needs X's arithmetic circuit: LRNN stacks (compile_lrnn), one Elman layer
    // (compile_nonlinear_sequential), LRNN layers under one hard-attention layer
    // (compile_attention_arith) — compile_model's arith routes; softmax has no exact circuit.
    TargetOptions t;
    try {
      (void)compiler_name(c.model, t);
      const auto* a = std::get_if<AttentionLayer>(&c.model.layers.back().layer);
      compilable_ = !a || a->kind != AttentionKind::softmax;
    } catch (const InputError&) {
      compilable_ = false;
    }
  }

  bool compilable() const { return compilable_; }

  // f(w) vs X(encode(w)) [vs X's circuit]. Returns the mismatch, if any.
  std::optional<Mismatch> check(const std::vector<std::size_t>& w, bool three_way) {
    const Rational expected = c_.target.value(w);
    const std::vector<std::size_t> x = c_.encode(w);
    if (x.empty())
      throw std::logic_error("verify: the encoding of a string is empty; X has no output for it");
    if (mod_) return check_in(*mod_, expected, x, three_way);
    return check_in(RationalField{}, expected, x, three_way);
  }

  std::size_t circuits_compiled() const { return circuits_rational_.size() + circuits_mod_.size(); }

 private:
  template <Domain K>
  std::optional<Mismatch> check_in(const K& k, const Rational& expected_q,
                                   const std::vector<std::size_t>& x, bool three_way) {
    const auto want = k.from_rational(expected_q);
    const auto trace = evaluate(c_.model, k, x);
    const auto& got = trace.outputs().back()(c_.out_row, c_.out_col);
    const std::string expected_text = c_.modulus
                                          ? k.to_string(want) + " (= " + to_string(expected_q) +
                                                " mod " + std::to_string(*c_.modulus) + ")"
                                          : to_string(expected_q);
    if (!k.equal(want, got)) return Mismatch{expected_text, k.to_string(got), "model"};
    if (three_way && compilable_ && !x.empty() && x.size() <= o_.three_way_max_tokens) {
      const Circuit& circ =
          circuit_for(x.size(), std::is_same_v<K, ModP>);  // exact circuits serve Z and Q
      std::vector<typename K::Element> in(x.size() * c_.model.alphabet.size(), k.zero());
      for (std::size_t t = 0; t < x.size(); ++t) in[t * c_.model.alphabet.size() + x[t]] = k.one();
      const auto out = evaluate(circ, k, std::span<const typename K::Element>(in));
      const std::size_t cols = output_cols(c_.model.layers.back().layer);
      const auto& y = out.at(c_.out_row * cols + c_.out_col);
      if (!k.equal(y, got))
        return Mismatch{k.to_string(got) + " (model)", k.to_string(y), "circuit"};
    }
    return std::nullopt;
  }

  const Circuit& circuit_for(std::size_t n, bool mod) {  // one per length (Z and Q share one)
    auto& cache = mod ? circuits_mod_ : circuits_rational_;
    auto it = cache.find(n);
    if (it == cache.end()) {
      TargetOptions o;  // arith, exact
      o.compile.acceptance = false;
      o.compile.scan = ScanKind::sklansky;
      it = cache.emplace(n, compile_model(c_.model, n, o).circuit).first;
    }
    return it->second;
  }

  static bool integral(const Model& m) {
    auto whole = [](const Matrix<Rational>& a) {
      return std::all_of(a.data().begin(), a.data().end(),
                         [](const Rational& q) { return denominator(q) == 1; });
    };
    for (const StackLayer& sl : m.layers) {
      const auto* l = std::get_if<LrnnLayer>(&sl.layer);
      if (!l || !whole(l->initial_state) || !whole(l->readout) || !whole(l->readout_bias))
        return false;
      if (sl.input && (!whole(sl.input->weights) || !whole(sl.input->bias))) return false;
      for (const auto& a : l->A)
        if (!whole(a)) return false;
      for (const auto& b : l->B)
        if (!whole(b)) return false;
      for (const auto& ck : l->readout_feature)
        if (!whole(ck)) return false;
    }
    return true;
  }

  const Construction& c_;
  const VerifyOptions& o_;
  std::optional<ModP> mod_;
  bool integral_ = false;
  bool compilable_ = false;
  std::map<std::size_t, Circuit> circuits_rational_, circuits_mod_;
};

// Strings of length n in lexicographic order of symbol ids: calls f until it returns true.
template <class F>
bool for_each_string(std::size_t sigma, std::size_t n, F&& f) {
  std::vector<std::size_t> w(n, 0);
  while (true) {
    if (f(w)) return true;
    std::size_t i = n;
    while (i > 0 && ++w[i - 1] == sigma) w[--i] = 0;
    if (i == 0) return false;
  }
}

double count_strings(std::size_t sigma, std::size_t n) {
  return std::pow(static_cast<double>(sigma), static_cast<double>(n));
}

std::string join(const Alphabet& a, const std::vector<std::size_t>& w) {
  return w.empty() ? "ε" : a.join(w);
}

}  // namespace

VerifyReport verify(const Construction& c, const VerifyOptions& o) {
  VerifyReport r;
  r.construction = c.name;
  r.claims = c.claims;
  Checker checker(c, o);
  const Alphabet& sigma = c.target.alphabet;
  const std::size_t S = sigma.size();
  std::optional<std::pair<std::vector<std::size_t>, std::string>> failing;  // (w, method)
  std::optional<Mismatch> failing_mismatch;

  std::size_t outside_promise = 0;
  auto in_domain = [&](const std::vector<std::size_t>& w) {
    return !c.target.promise || c.target.promise(w);
  };
  auto record = [&](const std::vector<std::size_t>& w, const std::string& method, bool three_way) {
    if (!in_domain(w)) {
      ++outside_promise;
      return false;
    }
    auto m = checker.check(w, three_way);
    if (m && !failing) {
      failing = {w, method};
      failing_mismatch = m;
    }
    return m.has_value();
  };

  // 0. --device gpu: can the GPU take the exhaustive and random methods?
  bool gpu = false;
  if (o.gpu) {
    const gpu::DeviceInfo dev = gpu::probe();
    std::string why;
    const std::size_t n0 = c.target.fixed_length ? *c.target.fixed_length : 1;
    if (!dev.available)
      why = dev.why_not;
    else if (!build_check_circuit(c, n0, &why))
      why = "no check circuit: " + why;
    gpu = why.empty();
    if (!gpu) r.notes.push_back("--device gpu: " + why + "; the CPU ran the checks instead");
  }
  // Device runs, one per length, summarized in one note per method; a failing string goes to
  // the CPU checker (which confirms it).
  struct DeviceSummary {
    std::size_t lo = 0, hi = 0;
    std::uint64_t strings = 0, mismatches = 0;
    std::size_t max_primes = 0, float_proofs = 0, runs = 0;
    bool all_exact = true;
    double max_log2_bound = -INFINITY, work_seconds = 0, work = 0;
    std::string device;
    std::optional<std::uint64_t> modulus;
  };
  auto on_device = [&](const DeviceCheckOptions& d, const std::string& method, DeviceSummary& s) {
    const DeviceCheckReport dr = device_check(c, d);
    if (s.runs++ == 0) s.lo = d.length;
    s.hi = d.length;
    s.device = dr.device;
    s.modulus = dr.modulus;
    s.strings += dr.strings;
    s.mismatches += dr.mismatches;
    s.max_primes = std::max(s.max_primes, dr.primes.size());
    s.float_proofs += dr.float_proof;
    s.all_exact = s.all_exact && dr.exact;
    s.max_log2_bound = std::max(s.max_log2_bound, dr.log2_bound);
    s.work_seconds += dr.kernel_seconds;
    s.work += dr.gate_evaluations_per_second * dr.kernel_seconds;
    if (dr.first_counterexample && !record(*dr.first_counterexample, method, o.three_way))
      r.notes.push_back("the GPU reported a mismatch on " + join(sigma, *dr.first_counterexample) +
                        " that the CPU does not reproduce");
    return dr.strings;
  };
  auto summarize = [&](const std::string& method, const DeviceSummary& s) {
    const std::string exactness =
        s.modulus ? fmt::format("compared mod {}", *s.modulus)
        : s.all_exact
            ? fmt::format(
                  "every agreement proved exact ({} of {} lengths by the float bound alone, "
                  "the others with ≤ {} prime(s))",
                  s.float_proofs, s.runs, s.max_primes)
            : "NOT every agreement proved exact (the bound exceeds the primes)";
    r.notes.push_back(fmt::format(
        "{}: lengths {}..{}, {} strings on {}, {} mismatching; max |X − f|·D ≤ 2^{:.1f}; {}; "
        "{:.3g} gate evaluations/s",
        method, s.lo, s.hi, s.strings, s.device, s.mismatches, s.max_log2_bound, exactness,
        s.work_seconds > 0 ? s.work / s.work_seconds : 0.0));
  };

  // 1. exhaustive, in (length, lex) order: the first failure is already minimal. The model has
  // outputs at positions 1..n only, so non-empty strings (ε only as the fixed-length domain of a
  // constant formula).
  const std::size_t ex_lo = c.target.fixed_length ? *c.target.fixed_length : 1;
  const std::size_t ex_hi =
      c.target.fixed_length ? *c.target.fixed_length : o.exhaustive.value_or(0);
  if (o.exhaustive) {
    double total = 0;
    for (std::size_t n = ex_lo; n <= ex_hi; ++n) total += count_strings(S, n);
    const double cap =
        gpu ? static_cast<double>(o.gpu_exhaustive_cap) : static_cast<double>(o.exhaustive_cap);
    if (total > cap)
      throw InputError(
          "--exhaustive",
          fmt::format("{:.0f} strings (|Σ| = {}, lengths {}..{}) exceed the {}cap of {:.0f}", total,
                      S, ex_lo, ex_hi, gpu ? "GPU " : "", cap));
  }
  if (o.exhaustive && gpu) {
    std::uint64_t count = 0;
    DeviceSummary summary;
    for (std::size_t n = ex_lo; n <= ex_hi && !failing; ++n) {
      DeviceCheckOptions d;
      d.length = n;
      d.threads = o.gpu_threads;
      count += on_device(d, "exhaustive (gpu)", summary);
    }
    summarize("exhaustive (gpu)", summary);
    r.checked["exhaustive (gpu)"] = count;
  } else if (o.exhaustive) {
    const std::size_t lo = ex_lo, hi = ex_hi;
    std::size_t count = 0;
    for (std::size_t n = lo; n <= hi && !failing; ++n)
      for_each_string(S, n, [&](const std::vector<std::size_t>& w) {
        count += in_domain(w);
        return record(w, "exhaustive", o.three_way);
      });
    r.checked["exhaustive"] = count;
  }

  // 2. random strings: lengths uniform in 1..max, with a third of them at the maximum (on the
  // GPU: `random` strings at every length).
  if (o.random > 0 && !failing && gpu) {
    std::uint64_t count = 0;
    DeviceSummary summary;
    const std::size_t lo = c.target.fixed_length ? *c.target.fixed_length : 1;
    const std::size_t hi = c.target.fixed_length ? *c.target.fixed_length : o.max_random_length;
    for (std::size_t n = lo; n <= hi && !failing; ++n) {
      DeviceCheckOptions d;
      d.length = n;
      d.exhaustive = false;
      d.random = o.random;
      d.seed = o.seed * 0x9E3779B97F4A7C15ull + n;
      d.threads = o.gpu_threads;
      count += on_device(d, "random (gpu)", summary);
    }
    summarize("random (gpu)", summary);
    r.checked["random (gpu)"] = count;
  } else if (o.random > 0 && !failing) {
    std::mt19937_64 rng(o.seed);
    std::size_t count = 0;
    for (std::size_t i = 0; i < o.random && !failing; ++i) {
      std::size_t n = c.target.fixed_length ? *c.target.fixed_length
                      : (i % 3 == 2)        ? o.max_random_length
                                     : 1 + rng() % std::max<std::size_t>(1, o.max_random_length);
      std::vector<std::size_t> w(n);
      for (auto& s : w) s = rng() % S;
      count += in_domain(w);
      record(w, "random", o.three_way);
    }
    r.checked["random"] = count;
  }
  if (outside_promise > 0) r.checked["skipped (outside the promise)"] = outside_promise;
  if (o.three_way && !checker.compilable())
    r.notes.push_back(
        "three-way agreement skipped: no arithmetic circuit for this model (compile_model's arith "
        "routes: LRNN stacks, one Elman layer, LRNN layers under one hard-attention layer)");
  else if (o.three_way)
    r.checked["three-way (lengths compiled)"] = checker.circuits_compiled();

  // 3. identity testing over F_p on the variety Σ_σ x[t,σ] = 1.
  if (o.identity_rounds > 0 && !failing) {
    const bool single_lrnn = c.model.layers.size() == 1 &&
                             std::holds_alternative<LrnnLayer>(c.model.layers[0].layer) &&
                             std::get<LrnnLayer>(c.model.layers[0].layer).readout_feature.empty();
    if (!c.embedding || !c.target.circuit || !single_lrnn || c.modulus) {
      r.notes.push_back(
          "identity test not applicable: it needs X to read one token per symbol (an embedding), f "
          "as a circuit, and "
          "a single LRNN layer with a token-independent readout, so that both circuits are affine "
          "in each position's "
          "indicators");
    } else {
      const ModP F(kIdentityPrime);
      std::mt19937_64 rng(o.seed ^ 0x5DEECE66Dull);
      double bound = 0;
      std::size_t points = 0;
      for (std::size_t n = 1; n <= o.identity_max_length && !failing; ++n) {
        const Circuit fc = c.target.circuit(n);
        CompileOptions co;
        co.acceptance = false;
        co.scan = ScanKind::brent_kung;
        const std::vector<InputSource> emb = c.embedding(n);
        const Circuit xc = compile_lrnn(c.model, emb.size() / c.model.alphabet.size(), co).circuit;
        const std::size_t cols = output_cols(c.model.layers.back().layer);
        const std::uint32_t deg = std::max(degree(fc), degree(xc));
        for (std::size_t round = 0; round < o.identity_rounds; ++round) {
          std::vector<std::uint64_t> u(fc.inputs().size());
          for (std::size_t t = 0; t < n; ++t) {  // a random point with Σ_σ u[t,σ] = 1
            std::uint64_t rest = 0;
            for (std::size_t s = 1; s < S; ++s) {
              u[t * S + s] = rng() % kIdentityPrime;
              rest = F.add(rest, u[t * S + s]);
            }
            u[t * S] = F.sub(F.one(), rest);
          }
          std::vector<std::uint64_t> v;
          for (const InputSource& src : emb) {
            std::uint64_t x = F.from_rational(src.constant);
            for (std::uint32_t var : src.variables) x = F.add(x, u[var]);
            v.push_back(x);
          }
          const auto fy = evaluate(fc, F, std::span<const std::uint64_t>(u)).at(0);
          const auto xy =
              evaluate(xc, F, std::span<const std::uint64_t>(v)).at(c.out_row * cols + c.out_col);
          ++points;
          if (fy != xy) {
            r.notes.push_back(
                fmt::format("identity test: the circuits differ at a random point for n = {} "
                            "(f = {}, X = {} mod p); searching for a string",
                            n, fy, xy));
            // Polynomials that differ on the variety differ on some one-hot input of length n.
            for_each_string(S, n, [&](const std::vector<std::size_t>& w) {
              return record(w, "identity", false);
            });
            break;
          }
        }
        bound += std::pow(static_cast<double>(deg) / static_cast<double>(kIdentityPrime),
                          static_cast<double>(o.identity_rounds));
      }
      r.checked["identity (points)"] = points;
      if (!failing)
        r.error_bound =
            fmt::format("{:.3g} (Schwartz–Zippel, p = 2^61 − 1, {} rounds, lengths 1..{})", bound,
                        o.identity_rounds, o.identity_max_length);
    }
  }

  // Shrink: the shortest, then lexicographically least, failing string.
  if (failing) {
    auto [w, method] = *failing;
    Counterexample ce;
    ce.found_by = method;
    const std::size_t lo = c.target.fixed_length ? *c.target.fixed_length : 1;
    double space = 0;
    for (std::size_t n = lo; n <= w.size(); ++n) space += count_strings(S, n);
    const bool minimal_already = method.rfind("exhaustive", 0) == 0;  // (length, lex) order
    if (!minimal_already && space <= static_cast<double>(o.shrink_cap)) {
      bool found = false;
      for (std::size_t n = lo; n <= w.size() && !found; ++n)
        found = for_each_string(S, n, [&](const std::vector<std::size_t>& cand) {
          if (in_domain(cand) && checker.check(cand, false)) {
            w = cand;
            return true;
          }
          return false;
        });
    } else if (!minimal_already) {
      // Greedy: delete symbols, then lower them, while the string still fails.
      ce.minimal = false;
      bool progress = true;
      while (progress) {
        progress = false;
        for (std::size_t i = 0; i < w.size() && w.size() > 1 && !c.target.fixed_length; ++i) {
          auto cand = w;
          cand.erase(cand.begin() + static_cast<long>(i));
          if (in_domain(cand) && checker.check(cand, false)) {
            w = cand;
            progress = true;
            break;
          }
        }
        for (std::size_t i = 0; i < w.size() && !progress; ++i)
          for (std::size_t s = 0; s < w[i] && !progress; ++s) {
            auto cand = w;
            cand[i] = s;
            if (in_domain(cand) && checker.check(cand, false)) {
              w = cand;
              progress = true;
            }
          }
      }
    }
    const auto m = checker.check(w, true).value_or(*failing_mismatch);
    ce.input = w;
    ce.input_text = join(sigma, w);
    ce.expected = m.expected;
    ce.got = m.got;
    ce.disagreeing = m.disagreeing;
    try {
      const std::vector<std::size_t> x = c.encode(w);
      if (!x.empty()) {
        PrecisionSpec p;
        if (c.modulus) {
          p.kind = PrecisionSpec::Kind::mod;
          p.modulus = *c.modulus;
        }
        RunReport run = run_model(c.model, c.model.alphabet.join(x), "counterexample", p);
        ce.trace = format_text(c.model, {run}, true);
      }
    } catch (const std::exception& e) {
      ce.trace = std::string("(no trace: ") + e.what() + ")";
    }
    r.counterexample = std::move(ce);
  }
  r.holds = !r.counterexample &&
            std::all_of(r.claims.begin(), r.claims.end(), [](const Claim& cl) { return cl.ok; });
  return r;
}

nlohmann::ordered_json to_json(const VerifyReport& r) {
  using json = nlohmann::ordered_json;
  json j;
  j["construction"] = r.construction;
  j["holds"] = r.holds;
  j["checked"] = json::object();
  for (const auto& [k, v] : r.checked) j["checked"][k] = v;
  if (r.counterexample) {
    const Counterexample& c = *r.counterexample;
    j["counterexample"] = {{"input", c.input_text},  {"expected", c.expected},
                           {"got", c.got},           {"disagreeing", c.disagreeing},
                           {"found_by", c.found_by}, {"minimal", c.minimal},
                           {"trace", c.trace}};
  } else {
    j["counterexample"] = nullptr;
  }
  j["claims"] = json::array();
  for (const Claim& cl : r.claims)
    j["claims"].push_back(
        {{"name", cl.name}, {"claimed", cl.claimed}, {"measured", cl.measured}, {"ok", cl.ok}});
  j["error_bound"] = r.error_bound ? json(*r.error_bound) : json(nullptr);
  j["notes"] = r.notes;
  return j;
}

std::string format_text(const VerifyReport& r) {
  std::string out = fmt::format("{}: {}\n", r.construction, r.holds ? "HOLDS" : "FAILS");
  for (const auto& [k, v] : r.checked) out += fmt::format("  checked {:<28} {}\n", k, v);
  if (r.error_bound) out += fmt::format("  identity error bound          {}\n", *r.error_bound);
  for (const Claim& cl : r.claims)
    out += fmt::format("  claim {:<40} claimed {:<14} measured {:<14} {}\n", cl.name, cl.claimed,
                       cl.measured, cl.ok ? "ok" : "FAILS");
  if (r.counterexample) {
    const Counterexample& c = *r.counterexample;
    out += fmt::format("  counterexample ({}{}, found by {} search): {}\n",
                       c.minimal ? "minimal" : "locally minimal",
                       c.disagreeing == "circuit" ? ", compiled circuit vs model" : "", c.found_by,
                       c.input_text);
    out += fmt::format("    expected {}\n    got      {}\n", c.expected, c.got);
    if (!c.trace.empty()) {
      out += "    trace of the model on the encoded input:\n";
      std::size_t start = 0;
      while (start < c.trace.size()) {
        std::size_t end = c.trace.find('\n', start);
        if (end == std::string::npos) end = c.trace.size();
        out += "      " + c.trace.substr(start, end - start) + "\n";
        start = end + 1;
      }
    }
  }
  for (const std::string& n : r.notes) out += "  note: " + n + "\n";
  return out;
}

}  // namespace rnncc
