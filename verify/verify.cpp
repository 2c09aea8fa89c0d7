#include "verify/verify.hpp"

#include <algorithm>
#include <chrono>
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
#include "verify/certificate.hpp"
#include "verify/check_circuit.hpp"
#include "verify/device_check.hpp"
#include "verify/equivalence.hpp"
#include "verify/minimize.hpp"

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

  const Construction& c_;
  const VerifyOptions& o_;
  std::optional<ModP> mod_;
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

// One run of verify(): the construction, the options, the report being written and the first
// failing string found. Each checking method is one member function, and verify() is the script
// that calls them in order; a method that finds a failing string hands it to record(), later
// methods skip once one is found, and shrink() minimizes it. A new method is one more member
// function (reading c_ and o_, writing report_.checked / notes, calling record()) and one more
// line in verify().
class Verification {
 public:
  Verification(const Construction& c, const VerifyOptions& o)
      : c_(c), o_(o), checker_(c, o), sigma_(c.target.alphabet), S_(sigma_.size()) {
    report_.construction = c.name;
    report_.claims = c.claims;
  }

  // prove: decide X ≡ f for every length where both are linear (docs/constructions.md,
  // "Proving for every length"). f = from_wfa(target.automaton); X = from_model(model) read
  // through encode's input map (input_map_from_encode, period encode_period), restricted to
  // the compared output (out_row, out_col); over F_p when the construction has a modulus.
  // Every symbol boundary of every string is compared, so a refutation is the shortest,
  // llex-least string whose last output differs (earlier prefixes agree): the same string the
  // exhaustive method finds first. A fixed-length target instead has the exhaustive method
  // enumerate its whole (finite) domain, which is a proof when it completes (domain_proof).
  void prove() {
    if (!o_.prove) return;
    if (c_.target.fixed_length) {
      const double total = count_strings(S_, *c_.target.fixed_length);
      force_domain_ = total <= static_cast<double>(o_.exhaustive_cap);
      if (!force_domain_)
        report_.notes.push_back(
            fmt::format("no proof: the finite domain has {:.0f} strings, over the cap of {}", total,
                        o_.exhaustive_cap));
      return;
    }
    if (!c_.target.automaton) return;
    if (c_.target.promise) {
      report_.notes.push_back("no proof: f is claimed under a promise only");
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    LinearRepresentation f, x;
    bool certifiable = false;
    try {
      f = from_wfa(*c_.target.automaton);
      const LinearRepresentation full = from_model(c_.model);
      const std::size_t cols = output_cols(c_.model.layers.back().layer);
      x = select_outputs(full, {c_.out_row * cols + c_.out_col});
      const InputMapSpec map =
          input_map_from_encode(c_.target.alphabet.symbols(), c_.encode, c_.encode_period);
      // X reads f's symbols one token each, in the same order: no input map to compose, and
      // then (one LRNN layer, one output) the certificate checker can recompute X's states.
      bool identity = map.prefix.empty() && map.control.states == 1 &&
                      c_.model.alphabet.symbols() == c_.target.alphabet.symbols();
      for (std::size_t s = 0; identity && s < S_; ++s)
        identity = map.tokens[0][s] == std::vector<std::size_t>{s};
      certifiable = identity && full.outputs == 1 && c_.model.layers.size() == 1 &&
                    std::holds_alternative<LrnnLayer>(c_.model.layers[0].layer);
      if (!identity) x = through_input_map(x, map);
      if (c_.modulus) f.modulus = x.modulus = *c_.modulus;
    } catch (const NotLinearError& e) {
      report_.notes.push_back(std::string("no proof: X is not linear in its state (") + e.what() +
                              "); tested only");
      return;
    } catch (const std::invalid_argument& e) {
      report_.notes.push_back(std::string("no proof: encode is not a sequential input map (") +
                              e.what() + "); tested only");
      return;
    }
    EquivalenceParams params;
    params.modulus = c_.modulus;
    params.certificate = o_.certificate && certifiable;
    const EquivalenceResult r = decide_equivalence(f, x, params);
    Proof p;
    p.proved = r.equivalent;
    p.scope = "every length";
    p.method = r.method;
    p.field = r.modulus ? "F_" + std::to_string(*r.modulus) : r.field;
    p.basis_size = r.basis_size;
    p.dim_f = r.dim_f;
    p.dim_x = r.dim_g;
    if (o_.timing)
      p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o_.certificate && !certifiable)
      p.no_certificate =
          "the certificate checker recomputes one LRNN layer with one output reading f's "
          "symbols one token each; this model " +
          std::string(c_.model.layers.size() != 1
                          ? "has " + std::to_string(c_.model.layers.size()) + " layers"
                          : "reads its input through an input map or "
                            "has several outputs");
    else if (o_.certificate && !r.equivalent)
      p.no_certificate = "refuted: a counterexample, not a certificate";
    else if (o_.certificate) {
      const SubjectFile fa{"f: the target WFA of " + c_.name, *c_.target.automaton};
      const SubjectFile xm{"X: the model of " + c_.name, c_.model};
      p.certificate_json = equivalence_certificate(r, fa, xm).dump(1) + "\n";
    }
    if (!r.equivalent) {
      const EquivalenceCounterexample& ce = *r.counterexample;
      failing_ = {ce.input, "proof"};
      failing_mismatch_ = Mismatch{ce.expected.at(0), ce.got.at(0), "model"};
    }
    report_.proof = std::move(p);
  }

  // domain_proof: the exhaustive method enumerated a fixed-length target's whole domain (on the
  // CPU, or on the GPU with every agreement proved exact): X computes f on all of it.
  void domain_proof() {
    if (!force_domain_ || !domain_complete_) return;
    Proof p;
    p.proved = !failing_;
    p.scope = "the finite domain (length " + std::to_string(*c_.target.fixed_length) + ")";
    p.method = "exhaustive over the finite domain";
    const auto it = report_.checked.find(gpu_ ? "exhaustive (gpu)" : "exhaustive");
    p.strings = it == report_.checked.end() ? 0 : it->second;
    if (o_.certificate)
      p.no_certificate = "a finite domain is proved by enumeration, which has no certificate";
    report_.proof = std::move(p);
  }

  // minimal_state_size: for a model linear in its state with per-step readouts (one LRNN
  // layer), the claim "state size d vs minimal d_min": d_min is the dimension of the
  // Schützenberger reduction of X's representation (verify/minimize.hpp), the Hankel rank of
  // the function X computes on its own tokens (≤ d + 1: the homogenizing coordinate).
  // Informational: the relation d_min ≤ d + 1 always holds.
  void minimal_state_size() {
    try {
      const LinearRepresentation rep = from_model(c_.model);
      if (rep.readout.empty()) return;    // a product with a finite control
      const std::size_t d = rep.dim - 1;  // from_lrnn_layer: [vec(S), 1]
      const MinimizeResult m = minimize(rep, c_.name);
      report_.claims.push_back(
          {"state size d vs minimal d_min (Hankel rank)", "d = " + std::to_string(d),
           "d_min = " + std::to_string(m.reduced.dim), m.reduced.dim <= d + 1});
    } catch (const InputError&) {  // NotLinearError and kin: no such claim
    } catch (const DomainError&) {
    }
  }

  // gpu (--device gpu): whether the GPU takes the exhaustive and random methods — it needs a
  // device and the construction's check circuit (verify/device_check.hpp); else a note says why
  // and the CPU runs them.
  void choose_device() {
    if (!o_.gpu) return;
    const gpu::DeviceInfo dev = gpu::probe();
    std::string why;
    const std::size_t n0 = c_.target.fixed_length ? *c_.target.fixed_length : 1;
    if (!dev.available)
      why = dev.why_not;
    else if (!build_check_circuit(c_, n0, &why))
      why = "no check circuit: " + why;
    gpu_ = why.empty();
    if (!gpu_) report_.notes.push_back("--device gpu: " + why + "; the CPU ran the checks instead");
  }

  // exhaustive: every string of length 1..L (a fixed-length domain: every string of that
  // length), in (length, lex) order, so the first failure is already minimal. The model has
  // outputs at positions 1..n only, hence non-empty strings (ε only as the fixed-length domain
  // of a constant formula). InputError when the strings exceed the (CPU or GPU) cap.
  void exhaustive() {
    if ((!o_.exhaustive && !force_domain_) || failing_) return;
    const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
    const std::size_t hi = c_.target.fixed_length ? *c_.target.fixed_length : *o_.exhaustive;
    double total = 0;
    for (std::size_t n = lo; n <= hi; ++n) total += count_strings(S_, n);
    const double cap =
        gpu_ ? static_cast<double>(o_.gpu_exhaustive_cap) : static_cast<double>(o_.exhaustive_cap);
    if (total > cap)
      throw InputError(
          "--exhaustive",
          fmt::format("{:.0f} strings (|Σ| = {}, lengths {}..{}) exceed the {}cap of {:.0f}", total,
                      S_, lo, hi, gpu_ ? "GPU " : "", cap));
    if (gpu_) {
      std::uint64_t count = 0;
      DeviceSummary summary;
      for (std::size_t n = lo; n <= hi && !failing_; ++n) {
        DeviceCheckOptions d;
        d.length = n;
        d.threads = o_.gpu_threads;
        count += on_device(d, "exhaustive (gpu)", summary);
      }
      summarize("exhaustive (gpu)", summary);
      report_.checked["exhaustive (gpu)"] = count;
      report_.tested_lengths["exhaustive (gpu)"] = lengths(lo, hi);
      domain_complete_ = summary.all_exact && !summary.modulus;
      return;
    }
    std::size_t count = 0;
    for (std::size_t n = lo; n <= hi && !failing_; ++n)
      for_each_string(S_, n, [&](const std::vector<std::size_t>& w) {
        count += in_domain(w);
        return record(w, "exhaustive", o_.three_way);
      });
    report_.checked["exhaustive"] = count;
    report_.tested_lengths["exhaustive"] = lengths(lo, hi);
    domain_complete_ = true;
  }

  // random: `random` seeded strings, lengths uniform in 1..max with a third of them at the
  // maximum (on the GPU: `random` strings at every length 1..max).
  void random() {
    const std::size_t wanted = report_.proof && report_.proof->proved && o_.random_after_proof
                                   ? std::min(o_.random, *o_.random_after_proof)
                                   : o_.random;
    if (wanted == 0 || failing_) return;
    const std::size_t lo_n = c_.target.fixed_length ? *c_.target.fixed_length : 1;
    report_.tested_lengths[gpu_ ? "random (gpu)" : "random"] =
        lengths(lo_n, c_.target.fixed_length ? lo_n : o_.max_random_length);
    if (gpu_) {
      std::uint64_t count = 0;
      DeviceSummary summary;
      const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
      const std::size_t hi =
          c_.target.fixed_length ? *c_.target.fixed_length : o_.max_random_length;
      for (std::size_t n = lo; n <= hi && !failing_; ++n) {
        DeviceCheckOptions d;
        d.length = n;
        d.exhaustive = false;
        d.random = wanted;
        d.seed = o_.seed * 0x9E3779B97F4A7C15ull + n;
        d.threads = o_.gpu_threads;
        count += on_device(d, "random (gpu)", summary);
      }
      summarize("random (gpu)", summary);
      report_.checked["random (gpu)"] = count;
      return;
    }
    std::mt19937_64 rng(o_.seed);
    std::size_t count = 0;
    for (std::size_t i = 0; i < wanted && !failing_; ++i) {
      std::size_t n = c_.target.fixed_length ? *c_.target.fixed_length
                      : (i % 3 == 2)         ? o_.max_random_length
                                     : 1 + rng() % std::max<std::size_t>(1, o_.max_random_length);
      std::vector<std::size_t> w(n);
      for (auto& s : w) s = rng() % S_;
      count += in_domain(w);
      record(w, "random", o_.three_way);
    }
    report_.checked["random"] = count;
  }

  // The strings exhaustive and random skipped because they lie outside the target's promise.
  void count_skipped() {
    if (outside_promise_ > 0) report_.checked["skipped (outside the promise)"] = outside_promise_;
  }

  // three-way: every string the methods above checked was also run through X's compiled
  // arithmetic circuit (Checker::check); this reports how many lengths were compiled, or why
  // none could be.
  void three_way() {
    if (report_.proof && !report_.proof->proved && !report_.proof->field.empty())
      return;  // refuted by the decision: no string was run
    if (o_.three_way && !checker_.compilable())
      report_.notes.push_back(
          "three-way agreement skipped: no arithmetic circuit for this model (compile_model's "
          "arith routes: LRNN stacks, one Elman layer, LRNN layers under one hard-attention "
          "layer)");
    else if (o_.three_way)
      report_.checked["three-way (lengths compiled)"] = checker_.circuits_compiled();
  }

  // identity: polynomial identity testing over F_p, p = 2^61 − 1, of f's circuit against X's
  // compiled circuit for n = 1..identity_max_length, at `identity_rounds` random points of the
  // variety Σ_σ x[t,σ] = 1 (every t). Applies when X reads one token per symbol (an embedding),
  // f is a circuit and X is one LRNN layer with a token-independent readout, so both circuits are
  // affine in each position's indicators. Error ≤ Σ_n (deg_n/p)^K (Schwartz–Zippel). A differing
  // point sends the search to the strings of that length.
  void identity() {
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
    const ModP F(kIdentityPrime);
    std::mt19937_64 rng(o_.seed ^ 0x5DEECE66Dull);
    double bound = 0;
    std::size_t points = 0;
    for (std::size_t n = 1; n <= o_.identity_max_length && !failing_; ++n) {
      const Circuit fc = c_.target.circuit(n);
      CompileOptions co;
      co.acceptance = false;
      co.scan = ScanKind::brent_kung;
      const std::vector<InputSource> emb = c_.embedding(n);
      const Circuit xc = compile_lrnn(c_.model, emb.size() / c_.model.alphabet.size(), co).circuit;
      const std::size_t cols = output_cols(c_.model.layers.back().layer);
      const std::uint32_t deg = std::max(degree(fc), degree(xc));
      for (std::size_t round = 0; round < o_.identity_rounds; ++round) {
        std::vector<std::uint64_t> u(fc.inputs().size());
        for (std::size_t t = 0; t < n; ++t) {  // a random point with Σ_σ u[t,σ] = 1
          std::uint64_t rest = 0;
          for (std::size_t s = 1; s < S_; ++s) {
            u[t * S_ + s] = rng() % kIdentityPrime;
            rest = F.add(rest, u[t * S_ + s]);
          }
          u[t * S_] = F.sub(F.one(), rest);
        }
        std::vector<std::uint64_t> v;
        for (const InputSource& src : emb) {
          std::uint64_t x = F.from_rational(src.constant);
          for (std::uint32_t var : src.variables) x = F.add(x, u[var]);
          v.push_back(x);
        }
        const auto fy = evaluate(fc, F, std::span<const std::uint64_t>(u)).at(0);
        const auto xy =
            evaluate(xc, F, std::span<const std::uint64_t>(v)).at(c_.out_row * cols + c_.out_col);
        ++points;
        if (fy != xy) {
          report_.notes.push_back(
              fmt::format("identity test: the circuits differ at a random point for n = {} "
                          "(f = {}, X = {} mod p); searching for a string",
                          n, fy, xy));
          // Polynomials that differ on the variety differ on some one-hot input of length n.
          for_each_string(S_, n, [&](const std::vector<std::size_t>& w) {
            return record(w, "identity", false);
          });
          break;
        }
      }
      bound += std::pow(static_cast<double>(deg) / static_cast<double>(kIdentityPrime),
                        static_cast<double>(o_.identity_rounds));
    }
    report_.checked["identity (points)"] = points;
    report_.tested_lengths["identity (points)"] = lengths(1, o_.identity_max_length);
    if (!failing_)
      report_.error_bound =
          fmt::format("{:.3g} (Schwartz–Zippel, p = 2^61 − 1, {} rounds, lengths 1..{})", bound,
                      o_.identity_rounds, o_.identity_max_length);
  }

  // shrinking: the first failing string becomes the shortest, then lexicographically least,
  // failing string — exactly, by enumeration in that order, when the search space is under
  // shrink_cap (exhaustive failures are minimal already); greedily otherwise (delete symbols,
  // then lower them, while it still fails; the report says "locally minimal") — and is reported
  // with X's state trace on its encoding.
  void shrink() {
    if (!failing_) return;
    auto [w, method] = *failing_;
    Counterexample ce;
    ce.found_by = method;
    const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
    double space = 0;
    for (std::size_t n = lo; n <= w.size(); ++n) space += count_strings(S_, n);
    // exhaustive: (length, lex) order; proof: the decider's shortest, llex-least string
    const bool minimal_already = method.rfind("exhaustive", 0) == 0 || method == "proof";
    if (!minimal_already && space <= static_cast<double>(o_.shrink_cap)) {
      bool found = false;
      for (std::size_t n = lo; n <= w.size() && !found; ++n)
        found = for_each_string(S_, n, [&](const std::vector<std::size_t>& cand) {
          if (in_domain(cand) && checker_.check(cand, false)) {
            w = cand;
            return true;
          }
          return false;
        });
    } else if (!minimal_already) {
      ce.minimal = false;
      bool progress = true;
      while (progress) {
        progress = false;
        for (std::size_t i = 0; i < w.size() && w.size() > 1 && !c_.target.fixed_length; ++i) {
          auto cand = w;
          cand.erase(cand.begin() + static_cast<long>(i));
          if (in_domain(cand) && checker_.check(cand, false)) {
            w = cand;
            progress = true;
            break;
          }
        }
        for (std::size_t i = 0; i < w.size() && !progress; ++i)
          for (std::size_t s = 0; s < w[i] && !progress; ++s) {
            auto cand = w;
            cand[i] = s;
            if (in_domain(cand) && checker_.check(cand, false)) {
              w = cand;
              progress = true;
            }
          }
      }
    }
    const auto m = checker_.check(w, true).value_or(*failing_mismatch_);
    ce.input = w;
    ce.input_text = join(sigma_, w);
    ce.expected = m.expected;
    ce.got = m.got;
    ce.disagreeing = m.disagreeing;
    ce.trace = trace_of(w);
    ce.position = w.size();
    report_.counterexample = std::move(ce);
  }

  // claims: the verdict — holds when no method found a counterexample and every claim the
  // construction makes was measured ok.
  VerifyReport verdict() {
    report_.holds =
        !report_.counterexample && std::all_of(report_.claims.begin(), report_.claims.end(),
                                               [](const Claim& cl) { return cl.ok; });
    return std::move(report_);
  }

 private:
  // GPU runs, one per length, summarized in one note per method.
  struct DeviceSummary {
    std::size_t lo = 0, hi = 0;
    std::uint64_t strings = 0, mismatches = 0;
    std::size_t max_primes = 0, float_proofs = 0, runs = 0;
    bool all_exact = true;
    double max_log2_bound = -INFINITY, work_seconds = 0, work = 0;
    std::string device;
    std::optional<std::uint64_t> modulus;
  };

  static std::string lengths(std::size_t lo, std::size_t hi) {
    return lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi);
  }

  bool in_domain(const std::vector<std::size_t>& w) const {
    return !c_.target.promise || c_.target.promise(w);
  }

  // Checks w (outside the promise: counted and skipped); the first failure is kept, with the
  // method that found it. Returns whether w fails.
  bool record(const std::vector<std::size_t>& w, const std::string& method, bool with_circuit) {
    if (!in_domain(w)) {
      ++outside_promise_;
      return false;
    }
    auto m = checker_.check(w, with_circuit);
    if (m && !failing_) {
      failing_ = {w, method};
      failing_mismatch_ = m;
    }
    return m.has_value();
  }

  // One device run; a string the GPU finds failing goes to the CPU checker, which confirms it.
  std::uint64_t on_device(const DeviceCheckOptions& d, const std::string& method,
                          DeviceSummary& s) {
    const DeviceCheckReport dr = device_check(c_, d);
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
    if (dr.first_counterexample && !record(*dr.first_counterexample, method, o_.three_way))
      report_.notes.push_back("the GPU reported a mismatch on " +
                              join(sigma_, *dr.first_counterexample) +
                              " that the CPU does not reproduce");
    return dr.strings;
  }

  void summarize(const std::string& method, const DeviceSummary& s) {
    const std::string exactness =
        s.modulus ? fmt::format("compared mod {}", *s.modulus)
        : s.all_exact
            ? fmt::format(
                  "every agreement proved exact ({} of {} lengths by the float bound alone, "
                  "the others with ≤ {} prime(s))",
                  s.float_proofs, s.runs, s.max_primes)
            : "NOT every agreement proved exact (the bound exceeds the primes)";
    report_.notes.push_back(fmt::format(
        "{}: lengths {}..{}, {} strings on {}, {} mismatching; max |X − f|·D ≤ 2^{:.1f}; {}; "
        "{:.3g} gate evaluations/s",
        method, s.lo, s.hi, s.strings, s.device, s.mismatches, s.max_log2_bound, exactness,
        s.work_seconds > 0 ? s.work / s.work_seconds : 0.0));
  }

  // X's state trace on encode(w), as `rnncc run --trace` prints it.
  std::string trace_of(const std::vector<std::size_t>& w) const {
    try {
      const std::vector<std::size_t> x = c_.encode(w);
      if (x.empty()) return {};
      PrecisionSpec p;
      if (c_.modulus) {
        p.kind = PrecisionSpec::Kind::mod;
        p.modulus = *c_.modulus;
      }
      RunReport run = run_model(c_.model, c_.model.alphabet.join(x), "counterexample", p);
      return format_text(c_.model, {run}, true);
    } catch (const std::exception& e) {
      return std::string("(no trace: ") + e.what() + ")";
    }
  }

  const Construction& c_;
  const VerifyOptions& o_;
  Checker checker_;
  const Alphabet& sigma_;
  const std::size_t S_;
  VerifyReport report_;
  bool gpu_ = false;              // choose_device: the GPU runs exhaustive and random
  bool force_domain_ = false;     // prove: exhaustive enumerates the finite domain by default
  bool domain_complete_ = false;  // exhaustive ran over its whole range (exactly)
  std::size_t outside_promise_ = 0;
  std::optional<std::pair<std::vector<std::size_t>, std::string>> failing_;  // (w, method)
  std::optional<Mismatch> failing_mismatch_;
};

}  // namespace

VerifyReport verify(const Construction& c, const VerifyOptions& o) {
  Verification v(c, o);
  v.prove();
  v.minimal_state_size();
  v.choose_device();
  v.exhaustive();
  v.domain_proof();
  v.random();
  v.count_skipped();
  v.three_way();
  v.identity();
  v.shrink();
  return v.verdict();
}

nlohmann::ordered_json to_json(const VerifyReport& r) {
  using json = nlohmann::ordered_json;
  json j;
  j["construction"] = r.construction;
  j["holds"] = r.holds;
  // What was established (verdict_text in words): proved for every length (or the finite
  // domain), else only tested.
  const Proof* p = r.proof ? &*r.proof : nullptr;
  j["proved"] = p && p->proved;
  j["method"] = p ? json(p->method) : json(nullptr);
  j["basis_size"] = p && p->basis_size ? json(*p->basis_size) : json(nullptr);
  j["certificate"] = p && p->certificate ? json(*p->certificate) : json(nullptr);
  if (p) {
    j["proof"] = {{"proved", p->proved}, {"scope", p->scope}, {"method", p->method}};
    if (!p->field.empty()) {
      j["proof"]["field"] = p->field;
      j["proof"]["dimensions"] = {p->dim_f, p->dim_x};
    } else {
      j["proof"]["strings"] = p->strings;
    }
    if (p->seconds) j["proof"]["seconds"] = *p->seconds;
    if (p->no_certificate) j["proof"]["no_certificate"] = *p->no_certificate;
  } else {
    j["proof"] = nullptr;
  }
  j["tested_lengths"] = json::object();
  for (const auto& [k, v] : r.tested_lengths) j["tested_lengths"][k] = v;
  j["checked"] = json::object();
  for (const auto& [k, v] : r.checked) j["checked"][k] = v;
  if (r.counterexample) {
    const Counterexample& c = *r.counterexample;
    j["counterexample"] = {{"input", c.input_text},        {"position", c.position},
                           {"expected", c.expected},       {"got", c.got},
                           {"disagreeing", c.disagreeing}, {"found_by", c.found_by},
                           {"minimal", c.minimal},         {"trace", c.trace}};
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

std::string verdict_text(const VerifyReport& r) {
  const bool claims_ok =
      std::all_of(r.claims.begin(), r.claims.end(), [](const Claim& cl) { return cl.ok; });
  std::string what;
  if (r.proof && r.proof->field.empty()) {  // a finite domain, enumerated
    const Proof& p = *r.proof;
    what = fmt::format("{}: {} ({}, {} strings)", p.proved ? "proved" : "refuted", p.scope,
                       p.method, p.strings);
  } else if (r.proof) {
    const Proof& p = *r.proof;
    const std::string detail = fmt::format(
        "{} over {}, basis size {} of at most {}{}", p.method, p.field, p.basis_size.value_or(0),
        p.dim_f + p.dim_x, p.seconds ? fmt::format(", {:.3f} s", *p.seconds) : std::string());
    what = p.proved
               ? "proved: " + p.scope + " (" + detail + ")"
               : "refuted: " + p.scope + " decided, shortest counterexample below (" + detail + ")";
  } else {
    std::string methods;
    for (const auto& [k, v] : r.checked) {
      if (k.rfind("skipped", 0) == 0) continue;
      const auto len = r.tested_lengths.find(k);
      methods += (methods.empty() ? "" : ", ") + k + " " + std::to_string(v) +
                 (len != r.tested_lengths.end() ? " (lengths " + len->second + ")" : "");
    }
    what = "tested: " + (methods.empty() ? std::string("nothing") : methods) +
           "; not proved for every length";
  }
  return fmt::format("{}: {}{} — {}", r.construction, r.holds ? "HOLDS" : "FAILS",
                     !claims_ok ? " (a claim fails)" : "", what);
}

std::string format_text(const VerifyReport& r) {
  std::string out = verdict_text(r) + "\n";
  if (r.proof && r.proof->certificate)
    out += fmt::format("  certificate {}\n", *r.proof->certificate);
  if (r.proof && r.proof->no_certificate)
    out += fmt::format("  no certificate: {}\n", *r.proof->no_certificate);
  for (const auto& [k, v] : r.checked) out += fmt::format("  checked {:<28} {}\n", k, v);
  if (r.error_bound) out += fmt::format("  identity error bound          {}\n", *r.error_bound);
  for (const Claim& cl : r.claims)
    out += fmt::format("  claim {:<40} claimed {:<14} measured {:<14} {}\n", cl.name, cl.claimed,
                       cl.measured, cl.ok ? "ok" : "FAILS");
  if (r.counterexample) {
    const Counterexample& c = *r.counterexample;
    out += fmt::format(
        "  counterexample ({}{}, found by {}): {}\n", c.minimal ? "minimal" : "locally minimal",
        c.disagreeing == "circuit" ? ", compiled circuit vs model" : "",
        c.found_by == "proof" ? "the every-length decision" : c.found_by + " search", c.input_text);
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
