// Fuzz target: certificates through the independent checkers `rnncc check-certificate` calls
// (verify/check_certificate.hpp, verify/check_product_certificate.hpp), with a soundness
// oracle. Two kinds of input:
//
//   - a JSON text (first byte '{'): checked against a fixed pair, examples/binary_value_wfa.json
//     and examples/wfa_binary_value.att (the legacy seeds are certificates for this pair);
//   - a seed byte, a mode byte and a payload: against a random small pair drawn from the seed
//     (random_pair below: a WFA of 1–3 states and the same WFA in other coordinates, certified
//     by the forward basis over Q, over F_p or by a morphism; or a DFA and the same DFA with its
//     states renamed, certified by the product search), g perturbed in one weight for odd seeds
//     — so the certificate written for the unperturbed pair is usually for inequivalent models.
//     The payload, by mode: (0) a certificate text whose models' digests are replaced by the
//     pair's, so that mutations get past the digest check; (1) byte edits (offset, byte) of the
//     certificate the decider wrote for the unperturbed pair; (2) number edits (a leaf, a
//     delta) of it.
//
// A broken certificate is a list of problems. The oracle: whenever a checker calls a
// certificate valid, the decider (decide_equivalence, over the certificate's field) must find
// the two models equal; otherwise the checker accepted a false proof and the target aborts.
// Anything escaping the checkers is a finding too.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "rnn/json_cursor.hpp"
#include "tests/fuzz/fuzz_stats.hpp"
#include "verify/certificate.hpp"
#include "verify/check_certificate.hpp"
#include "verify/check_product_certificate.hpp"
#include "verify/product_certificate.hpp"
#include "verify/subject_file.hpp"

namespace {

using namespace rnncc;
using nlohmann::json;

constexpr std::string_view model_text = R"json({
  "format": "rnncc-model/1",
  "name": "binary-value-wfa",
  "description": "A WFA over Z whose value is the binary number a string spells (most significant bit first): state (v, 1), symbol b maps v to 2v + b.",
  "alphabet": ["0", "1"],
  "layers": [
    {
      "kind": "lrnn",
      "family": "general",
      "d": 2,
      "initial_state": ["0", "1"],
      "symbols": {
        "0": { "A": [["2", "0"], ["0", "1"]] },
        "1": { "A": [["2", "1"], ["0", "1"]] }
      },
      "readout": [["1", "0"]]
    }
  ],
  "accept": { "mode": "positive" }
}
)json";
constexpr std::string_view wfa_text =
    R"att(# Binary value: f(w) = the number w spells in binary, MSB first (f(1011) = 11); u carries 1, a 1-bit moves it to v, later bits double v.
u	u	0
u	u	1
u	v	1
v	v	0	2
v	v	1	2
v	1
)att";

// A small integer in -2..2 from the generator's raw output (portable: no distribution).
Rational small(std::mt19937_64& rng) {
  return Rational(static_cast<long>(rng() % 5) - 2);
}

Wfa empty_wfa(std::size_t n) {
  Wfa w;
  w.alphabet = Alphabet({"a", "b"}, "fuzz");
  w.initial.assign(n, Rational(0));
  w.final.assign(n, Rational(0));
  w.transition.assign(2, Matrix<Rational>(n, n, Rational(0)));
  return w;
}

// The pair of a seed, the certificate the decider writes for it, and the g to check against.
struct Pair {
  SubjectFile f, g, checked_g;
  std::string certificate;
};

Pair random_pair(unsigned seed) {
  std::mt19937_64 rng(seed);
  const unsigned kind = seed % 4;
  Pair p;
  if (kind < 3) {  // a WFA and the same WFA in coordinates P = I + (upper triangle)
    const std::size_t n = 1 + rng() % 3;
    Wfa f = empty_wfa(n);
    for (std::size_t i = 0; i < n; ++i) {
      f.initial[i] = small(rng);
      f.final[i] = small(rng);
      for (auto& m : f.transition)
        for (std::size_t j = 0; j < n; ++j) m(i, j) = small(rng);
    }
    Matrix<Rational> P(n, n, Rational(0)), Q(n, n, Rational(0));
    for (std::size_t i = 0; i < n; ++i) {
      P(i, i) = 1;
      for (std::size_t j = i + 1; j < n; ++j) P(i, j) = small(rng);
    }
    for (std::size_t c = 0; c < n; ++c)  // Q = P⁻¹, back substitution
      for (std::size_t i = n; i-- > 0;) {
        Rational x = i == c ? Rational(1) : Rational(0);
        for (std::size_t j = i + 1; j < n; ++j) x -= P(i, j) * Q(j, c);
        Q(i, c) = x;
      }
    Wfa g = empty_wfa(n);
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < n; ++i) {
        g.initial[j] += f.initial[i] * P(i, j);
        g.final[j] += Q(j, i) * f.final[i];
      }
    for (std::size_t s = 0; s < 2; ++s)  // g.M = Q·f.M·P
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
          for (std::size_t a = 0; a < n; ++a)
            for (std::size_t b = 0; b < n; ++b)
              g.transition[s](i, j) += Q(i, a) * f.transition[s](a, b) * P(b, j);
    p.f = {"f.json", f};
    p.g = {"g.json", g};
    EquivalenceParams params;
    params.method =
        kind == 2 ? EquivalenceParams::Method::multimodular : EquivalenceParams::Method::exact;
    if (kind == 1) params.modulus = 5;
    const EquivalenceResult r =
        decide_equivalence(subject_representation(p.f), subject_representation(p.g), params);
    p.certificate = r.equivalent ? equivalence_certificate(r, p.f, p.g).dump(1) : "";
  } else {  // a DFA and the same DFA with its states renamed
    const std::size_t n = 2 + rng() % 4;
    std::vector<std::size_t> perm(n);
    for (std::size_t i = 0; i < n; ++i) perm[i] = (i + 1 + seed / 4) % n;  // a rotation
    Wfa f = empty_wfa(n), g = empty_wfa(n);
    f.initial[0] = 1, g.initial[perm[0]] = 1;
    for (std::size_t q = 0; q < n; ++q) {
      const Rational out(static_cast<long>(rng() % 2));
      f.final[q] = out, g.final[perm[q]] = out;
      for (std::size_t s = 0; s < 2; ++s) {
        const std::size_t to = rng() % n;
        f.transition[s](q, to) = 1, g.transition[s](perm[q], perm[to]) = 1;
      }
    }
    p.f = {"f.att", f};
    p.g = {"g.att", g};
    p.certificate =
        product_certificate(finite_machine(p.f.content), finite_machine(p.g.content), p.f, p.g)
            .dump(1);
  }
  p.checked_g = p.g;
  if (seed % 2 == 1) {  // perturb one weight of g
    Wfa& w = std::get<Wfa>(p.checked_g.content);
    const std::size_t n = w.states(), at = rng() % (n * n * 2 + n);
    if (at < n)
      w.final[at] += 1;
    else
      w.transition[(at - n) / (n * n)]((at - n) % (n * n) / n, (at - n) % n) += 1;
  }
  return p;
}

// The pair's digests in place of the certificate's, when it parses and names two models.
std::string with_digests(const std::string& text, const Pair& p) {
  try {
    json c = parse_json(text, "fuzz");
    if (c.is_object() && c.contains("models") && c["models"].is_array() &&
        c["models"].size() == 2 && c["models"][0].is_object() && c["models"][1].is_object()) {
      c["models"][0]["digest"] = subject_digest(p.f);
      c["models"][1]["digest"] = subject_digest(p.checked_g);
      return c.dump();
    }
  } catch (const InputError&) {
  }
  return text;
}

// Number edits: per two bytes, a numeric leaf (by index) shifted by the second byte − 128.
std::string number_edits(const std::string& text, std::string_view edits) {
  json c = json::parse(text);
  const json flat = c.flatten();
  std::vector<std::string> leaves;
  for (const auto& [key, value] : flat.items())
    if (value.is_number_unsigned() ||
        (value.is_string() && try_parse_rational(value.get<std::string>())))
      leaves.push_back(key);
  if (leaves.empty()) return text;
  for (std::size_t i = 0; i + 1 < edits.size(); i += 2) {
    const json::json_pointer ptr(leaves[static_cast<unsigned char>(edits[i]) % leaves.size()]);
    const long delta = static_cast<long>(static_cast<unsigned char>(edits[i + 1])) - 128;
    json& v = c[ptr];
    if (v.is_number_unsigned())
      v = static_cast<std::uint64_t>(static_cast<long>(v.get<std::uint64_t>()) + delta);
    else
      v = to_string(*try_parse_rational(v.get<std::string>()) + Rational(delta, 1 + (delta & 3)));
  }
  return c.dump();
}

// The oracle: a valid certificate is a proof, so the decider must agree (over F_p: modulo p).
void check_soundness(const SubjectFile& f, const SubjectFile& g, const std::string& field,
                     std::optional<std::uint64_t> modulus) {
  EquivalenceParams params;
  params.method = EquivalenceParams::Method::exact;
  if (field == "F_p") params.modulus = modulus;
  const EquivalenceResult r =
      decide_equivalence(subject_representation(f), subject_representation(g), params);
  if (!r.equivalent) {
    std::fprintf(stderr, "unsound: a certificate was accepted for %s and %s, which differ (%s)\n",
                 f.path.c_str(), g.path.c_str(), field.c_str());
    std::abort();
  }
}

void check(const SubjectFile& f, const SubjectFile& g, const std::string& text) {
  const std::string format = certificate_format(text);
  if (format == "rnncc-product-certificate/1") {
    const ProductCertificateCheck c = check_product_certificate(f, g, text);
    if (c.ok) {
      fuzz::stats().accept();
      check_soundness(f, g, "Q", std::nullopt);
    }
    return;
  }
  const CertificateCheck c = check_certificate(f, g, text);
  if (c.ok) {
    fuzz::stats().accept();
    check_soundness(f, g, c.field, c.modulus);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rnncc::fuzz::stats().input();
  if (size > 0 && data[0] == '{') {  // a certificate for the fixed pair
    static const SubjectFile f = parse_subject_file(model_text, "examples/binary_value_wfa.json");
    static const SubjectFile g = parse_subject_file(wfa_text, "examples/wfa_binary_value.att");
    const std::string text(reinterpret_cast<const char*>(data), size);
    check(f, g, text);
    (void)check_certificate(g, g, text);
    return 0;
  }
  if (size < 2) return 0;
  // The pair of each seed, decided once (the multimodular decider takes about 30 ms a call
  // under the sanitizers, most of it setting up its primes).
  static std::map<unsigned, Pair> pairs;
  auto it = pairs.find(data[0]);
  if (it == pairs.end()) it = pairs.emplace(data[0], random_pair(data[0])).first;
  const Pair& p = it->second;
  const std::string_view payload(reinterpret_cast<const char*>(data) + 2, size - 2);
  std::string text;
  switch (data[1] % 3) {
    case 0:
      text = with_digests(std::string(payload), p);
      break;
    case 1:
      text = p.certificate;
      for (std::size_t i = 0; i + 2 < payload.size() && !text.empty(); i += 3)
        text[(static_cast<unsigned char>(payload[i]) * 256u +
              static_cast<unsigned char>(payload[i + 1])) %
             text.size()] = payload[i + 2];
      text = with_digests(text, p);
      break;
    default:
      if (p.certificate.empty()) return 0;
      text = with_digests(number_edits(p.certificate, payload), p);
      break;
  }
  check(p.f, p.checked_g, text);
  return 0;
}
