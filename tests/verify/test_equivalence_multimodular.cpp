// The multimodular path of the equivalence decider (verify/equivalence.hpp) against its plain
// twins: the modmat kernel against the triple loop, the layered forward basis modulo p against
// the word-at-a-time decider over F_p, the whole decision against the exact decider over Q on
// seeded random pairs (equal by a change of basis, perturbed, unrelated, differing on one long
// word by a product of the primes it uses); and the morphism certificate against its checker,
// every number of it changed in turn.
#include <catch2/catch.hpp>
#include <random>

#include <nlohmann/json.hpp>

#include "algebra/multimodular.hpp"
#include "tests/support.hpp"
#include "verify/certificate.hpp"
#include "verify/check_certificate.hpp"
#include "verify/equivalence.hpp"

using namespace rnncc;

namespace {

Wfa random_wfa(std::mt19937_64& rng, std::size_t d, std::size_t sigma, bool rational) {
  Wfa a;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < sigma; ++i) names.push_back(std::string(1, char('a' + i)));
  a.alphabet = Alphabet(names, "test");
  auto w = [&] {
    if (rng() % 2) return Rational(0);
    return rational ? test::small_rational(rng) : Rational(long(rng() % 5) - 2);
  };
  for (std::size_t i = 0; i < d; ++i) {
    a.state_names.push_back(std::to_string(i));
    a.initial.push_back(w());
    a.final.push_back(w());
  }
  for (std::size_t s = 0; s < sigma; ++s) {
    Matrix<Rational> m(d, d, Rational(0));
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < d; ++j) m(i, j) = w();
    a.transition.push_back(m);
  }
  return a;
}

// g = f under P = E_1⋯E_t·Π (elementary operations I + c·e_i·e_jᵀ, then a permutation):
// α_g = α·P, M^g = P⁻¹·M·P, β_g = P⁻¹·β.
Wfa change_basis(const Wfa& f, std::mt19937_64& rng) {
  Wfa g = f;
  const std::size_t d = f.states();
  if (d < 2) return g;
  for (std::size_t t = 0; t < 2 * d; ++t) {
    const std::size_t i = rng() % d, j = (i + 1 + rng() % (d - 1)) % d;
    const Rational c = rng() % 2 ? Rational(1) : Rational(-1, 2);
    g.initial[j] += c * g.initial[i];
    g.final[i] -= c * g.final[j];
    for (auto& m : g.transition) {
      for (std::size_t r = 0; r < d; ++r) m(r, j) += c * m(r, i);
      for (std::size_t k = 0; k < d; ++k) m(i, k) -= c * m(j, k);
    }
  }
  std::vector<std::size_t> pi(d);
  for (std::size_t i = 0; i < d; ++i) pi[i] = i;
  std::shuffle(pi.begin(), pi.end(), rng);
  Wfa h = g;
  for (std::size_t a = 0; a < d; ++a) {
    h.initial[pi[a]] = g.initial[a];
    h.final[pi[a]] = g.final[a];
    for (std::size_t s = 0; s < g.transition.size(); ++s)
      for (std::size_t b = 0; b < d; ++b) h.transition[s](pi[a], pi[b]) = g.transition[s](a, b);
  }
  return h;
}

void same_decision(const EquivalenceResult& fast, const EquivalenceResult& plain) {
  REQUIRE(fast.equivalent == plain.equivalent);
  REQUIRE(fast.field == "Q");
  if (!plain.equivalent) {
    REQUIRE(fast.counterexample->input == plain.counterexample->input);
    REQUIRE(fast.counterexample->position == plain.counterexample->position);
    REQUIRE(fast.counterexample->expected == plain.counterexample->expected);
    REQUIRE(fast.counterexample->got == plain.counterexample->got);
  }
}

EquivalenceParams plain_params() {
  EquivalenceParams p;
  p.method = EquivalenceParams::Method::exact;
  return p;
}

// The multimodular path whatever the size (automatic picks it from d_f + d_g ≥ 100 on).
EquivalenceResult fast_decide(const LinearRepresentation& f, const LinearRepresentation& g) {
  EquivalenceParams p;
  p.method = EquivalenceParams::Method::multimodular;
  return decide_equivalence(f, g, p);
}

// f = Σ_k c_k·[x = w_k]: one path of states per word (block diagonal), final weight c_k.
Wfa words_wfa(const std::vector<std::vector<std::size_t>>& words, const std::vector<Rational>& c,
              std::size_t sigma) {
  Wfa a;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < sigma; ++i) names.push_back(std::string(1, char('a' + i)));
  a.alphabet = Alphabet(names, "test");
  std::size_t d = 0;
  for (const auto& w : words) d += w.size() + 1;
  a.initial.assign(d, Rational(0));
  a.final.assign(d, Rational(0));
  a.transition.assign(sigma, Matrix<Rational>(d, d, Rational(0)));
  std::size_t base = 0;
  for (std::size_t k = 0; k < words.size(); ++k) {
    a.initial[base] = 1;
    for (std::size_t t = 0; t < words[k].size(); ++t)
      a.transition[words[k][t]](base + t, base + t + 1) = 1;
    a.final[base + words[k].size()] = c[k];
    base += words[k].size() + 1;
  }
  for (std::size_t i = 0; i < d; ++i) a.state_names.push_back(std::to_string(i));
  return a;
}

}  // namespace

TEST_CASE("modmat kernel: C + A·B mod p equals the plain triple loop") {
  std::mt19937_64 rng(11);
  for (std::uint32_t p : {2u, 3u, 65521u, 8388593u, primes_below_2_24(1)[0]}) {
    for (int round = 0; round < 12; ++round) {
      const std::size_t m = 1 + rng() % 40, n = 1 + rng() % 40, k = 1 + rng() % 300;
      const std::size_t lda = k + rng() % 3, ldb = n + rng() % 3, ldc = n + rng() % 3;
      std::vector<double> A(m * lda), B(k * ldb), C(m * ldc);
      for (auto* v : {&A, &B, &C})
        for (double& x : *v) x = static_cast<double>(rng() % p);
      std::vector<double> D = C;
      modmat_muladd(p, m, n, k, A.data(), lda, B.data(), ldb, C.data(), ldc);
      modmat_muladd_plain(p, m, n, k, A.data(), lda, B.data(), ldb, D.data(), ldc);
      REQUIRE(C == D);
    }
  }
  // Large enough for two threads.
  const std::uint32_t p = primes_below_2_24(1)[0];
  const std::size_t m = 300, n = 260, k = 700;
  std::vector<double> A(m * k), B(k * n), C(m * n, 0.0), D(m * n, 0.0);
  for (auto* v : {&A, &B})
    for (double& x : *v) x = static_cast<double>(rng() % p);
  modmat_muladd(p, m, n, k, A.data(), k, B.data(), n, C.data(), n);
  modmat_muladd_plain(p, m, n, k, A.data(), k, B.data(), n, D.data(), n);
  REQUIRE(C == D);
  REQUIRE_THROWS_AS(modmat_muladd(1u << 24, 1, 1, 1, A.data(), 1, B.data(), 1, C.data(), 1),
                    std::invalid_argument);
}

TEST_CASE("layered forward basis mod p: the same basis words and counterexample as over F_p") {
  std::mt19937_64 rng(12);
  int compared = 0;
  for (int round = 0; round < 80; ++round) {
    const std::size_t sigma = 2 + rng() % 2;
    const Wfa fa = random_wfa(rng, 1 + rng() % 5, sigma, round % 2);
    const Wfa ga = round % 3 ? change_basis(fa, rng) : random_wfa(rng, 1 + rng() % 4, sigma, false);
    LinearRepresentation f = from_wfa(fa), g = from_wfa(ga);
    if (round % 3 == 1) g.transition[rng() % sigma](0, 0) += 1;
    f.empty.reset();
    g.empty.reset();
    for (std::uint32_t p : {5u, 101u, primes_below_2_24(1)[0]}) {
      EquivalenceResult layered;
      try {
        layered = forward_basis_layered_mod_p(f, g, p);
      } catch (const std::invalid_argument&) {
        continue;  // p divides a denominator
      }
      const EquivalenceResult word = decide_equivalence(f, g, {p, false});
      REQUIRE(layered.equivalent == word.equivalent);
      // (With a counterexample the word-at-a-time decider may have inserted a few candidates
      // of the failing layer before its failing check; the layers check outputs first.)
      if (word.equivalent) REQUIRE(layered.basis_words == word.basis_words);
      if (!word.equivalent) REQUIRE(layered.counterexample->input == word.counterexample->input);
      ++compared;
    }
  }
  REQUIRE(compared >= 150);
}

TEST_CASE("multimodular decision equals the exact decider on seeded random pairs") {
  std::mt19937_64 rng(13);
  int proved_by_morphism = 0, refuted = 0;
  for (int round = 0; round < 60; ++round) {
    const std::size_t sigma = 2 + rng() % 2, d = 1 + rng() % 7;
    const Wfa fa = random_wfa(rng, d, sigma, round % 2);
    const LinearRepresentation f = from_wfa(fa);
    LinearRepresentation g = from_wfa(change_basis(fa, rng));
    switch (round % 4) {
      case 1:  // a tiny perturbation of one weight
        g.transition[rng() % sigma](rng() % d, rng() % d) +=
            Rational(Integer(1), boost::multiprecision::pow(Integer(10), 12));
        break;
      case 2:  // unrelated
        g = from_wfa(random_wfa(rng, 1 + rng() % 5, sigma, false));
        break;
      default:
        break;
    }
    const EquivalenceResult fast = fast_decide(f, g),
                            plain = decide_equivalence(f, g, plain_params());
    same_decision(fast, plain);
    proved_by_morphism += fast.equivalent && fast.morphism.has_value();
    refuted += !fast.equivalent;
  }
  REQUIRE(proved_by_morphism >= 10);
  REQUIRE(refuted >= 15);
}

TEST_CASE("one long word: a difference divisible by the first primes is still the shortest") {
  // f and g differ on w1 (length 12) by p0·p1 — zero modulo the first two primes the decider
  // uses — and on w2 (length 14) by 1. The run modulo p0 finds w2; the shortest over Q is w1.
  const std::vector<std::uint32_t> ps = primes_below_2_24(2);
  const Rational big = Rational(Integer(ps[0]) * ps[1]);
  const std::vector<std::size_t> w1{0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1},
      w2{1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1};
  const LinearRepresentation f = from_wfa(words_wfa({w1, w2}, {Rational(3), Rational(5)}, 2));
  const LinearRepresentation g = from_wfa(words_wfa({w1, w2}, {Rational(3) + big, Rational(6)}, 2));
  const EquivalenceResult fast = fast_decide(f, g),
                          plain = decide_equivalence(f, g, plain_params());
  same_decision(fast, plain);
  REQUIRE(fast.counterexample->input == w1);
  REQUIRE(fast.primes.size() >= 3);  // p0 found w2; more primes were needed
  // Only the long word differs, by 2^61 − 1: found, and proved shortest.
  const LinearRepresentation h = from_wfa(
      words_wfa({w1, w2}, {Rational(3), Rational(5) + Rational((Integer(1) << 61) - 1)}, 2));
  same_decision(fast_decide(f, h), decide_equivalence(f, h, plain_params()));
  REQUIRE(fast_decide(f, h).counterexample->input == w2);
}

// f ⊕ (a state nothing reaches and nothing reads) against the same for g = f·P: neither side is
// reachable, so no morphism exists in either direction (4 + 4 states, 2 symbols).
static std::pair<LinearRepresentation, LinearRepresentation> no_morphism_pair() {
  std::mt19937_64 rng(14);
  Wfa fa = random_wfa(rng, 3, 2, false);
  fa.initial = {1, 0, 2};
  auto pad = [](Wfa a) {
    const std::size_t d = a.states();
    a.initial.push_back(0);
    a.final.push_back(0);
    a.state_names.push_back("pad");
    for (auto& m : a.transition) {
      Matrix<Rational> b(d + 1, d + 1, Rational(0));
      for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = 0; j < d; ++j) b(i, j) = m(i, j);
      b(d, d) = 1;
      m = b;
    }
    return a;
  };
  return {from_wfa(pad(fa)), from_wfa(pad(change_basis(fa, rng)))};
}

TEST_CASE("a pair with no morphism either way is decided by the exact forward basis") {
  const auto [f, g] = no_morphism_pair();
  const EquivalenceResult r = fast_decide(f, g);
  REQUIRE(r.equivalent);
  REQUIRE(!r.morphism);
  REQUIRE(r.method == "forward basis (Schützenberger–Tzeng)");
}

TEST_CASE("morphism certificate: checked, every changed number rejected") {
  std::mt19937_64 rng(15);
  int checked = 0;
  for (int round = 0; round < 6; ++round) {
    const Wfa fa = random_wfa(rng, 3 + round % 3, 2, round % 2);
    const SubjectFile f{"f.json", fa}, g{"g.json", change_basis(fa, rng)};
    const EquivalenceResult r = fast_decide(subject_representation(f), subject_representation(g));
    REQUIRE(r.equivalent);
    if (!r.morphism) continue;  // a random f need not be minimal
    const nlohmann::json cert = nlohmann::json::parse(equivalence_certificate(r, f, g).dump());
    REQUIRE(cert.contains("morphism"));
    REQUIRE(!cert.contains("basis"));
    const CertificateCheck ok = check_certificate(f, g, cert.dump());
    INFO((ok.problems.empty() ? "" : ok.problems[0]));
    REQUIRE(ok.ok);
    ++checked;
    // Every number: column indices, numerators, the denominator.
    const nlohmann::json flat = cert.flatten();
    std::size_t changed = 0;
    for (const auto& [key, value] : flat.items()) {
      if (key.rfind("/morphism/", 0) != 0 || key == "/morphism/from") continue;
      nlohmann::json t = flat;
      if (value.is_number())
        t[key] = value.get<std::uint64_t>() + 1;
      else
        t[key] = to_string(*try_parse_rational(value.get<std::string>()) + 1);
      INFO("tampered " + key);
      REQUIRE(!check_certificate(f, g, t.unflatten().dump()).ok);
      ++changed;
    }
    REQUIRE(changed >= 4);
    // The other direction, an F_p field, a basis next to it: refused.
    nlohmann::json t = cert;
    t["morphism"]["from"] = r.morphism->f_to_g ? "g" : "f";
    REQUIRE(!check_certificate(f, g, t.dump()).ok);
    t = cert;
    t["field"] = "F_p";
    t["modulus"] = 7;
    REQUIRE(!check_certificate(f, g, t.dump()).ok);
    t = cert;
    t["basis"] = nlohmann::json::array();
    REQUIRE(!check_certificate(f, g, t.dump()).ok);
    // Swapped models.
    REQUIRE(!check_certificate(g, f, cert.dump()).ok);
  }
  REQUIRE(checked >= 3);
}

TEST_CASE("morphism certificate of a one-layer LRNN model against its WFA") {
  const SubjectFile m = load_subject_file(test::example("binary_value_wfa.json"));
  const SubjectFile a = load_subject_file(test::example("wfa_binary_value.wfa.json"));
  for (bool swap : {false, true}) {
    const SubjectFile& f = swap ? a : m;
    const SubjectFile& g = swap ? m : a;
    const EquivalenceResult r = fast_decide(subject_representation(f), subject_representation(g));
    REQUIRE(r.equivalent);
    REQUIRE(r.morphism);
    const std::string cert = equivalence_certificate(r, f, g).dump();
    const CertificateCheck ok = check_certificate(f, g, cert);
    INFO((ok.problems.empty() ? "" : ok.problems[0]));
    REQUIRE(ok.ok);
  }
}

TEST_CASE("the exact fallback is bounded: max_exact_work refuses it, naming --max-work") {
  // The no-morphism pair above: the multimodular path cannot conclude and falls back.
  const auto [f, g] = no_morphism_pair();
  EquivalenceParams p;
  p.method = EquivalenceParams::Method::multimodular;
  // (4 + 4)³ · 2 = 1024 field operations: refused at 1023, decided at 1024.
  p.max_exact_work = 1023;
  // (clang 14 captures no structured binding: init-captures)
  const std::string m =
      test::input_error_of([&f = f, &g = g, &p] { (void)decide_equivalence(f, g, p); }).what;
  REQUIRE(m.find("--max-work") != std::string::npos);
  REQUIRE(m.find("multimodular path could not conclude") != std::string::npos);
  REQUIRE(m.find("about 1024 field operations") != std::string::npos);
  p.max_exact_work = 1024;
  REQUIRE(decide_equivalence(f, g, p).equivalent);
  // Which path a pair starts on.
  REQUIRE(uses_multimodular(50, 50, false));
  REQUIRE(!uses_multimodular(49, 50, false));
  REQUIRE(!uses_multimodular(500, 500, true));
  EquivalenceParams exact;
  exact.method = EquivalenceParams::Method::exact;
  REQUIRE(!uses_multimodular(500, 500, false, exact));
}
