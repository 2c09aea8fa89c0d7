// How the certificate checkers read JSON (verify/check_certificate_json.hpp; issue 25, item 4):
// the linear reader gives the same document as the quadratic callback parser it replaced, on
// seeded valid certificates of every form; members a format does not define are refused by
// their JSON pointer at the top level and in nested objects; text that is not JSON is located.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include <nlohmann/json.hpp>

#include "rnn/json_cursor.hpp"
#include "tests/support.hpp"
#include "verify/certificate.hpp"
#include "verify/check_certificate.hpp"
#include "verify/check_certificate_json.hpp"
#include "verify/check_product_certificate.hpp"
#include "verify/product_certificate.hpp"

using namespace rnncc;
using nlohmann::json;

namespace {

std::string source_file(const std::string& path) {
  return std::string(RNNCC_SOURCE_DIR) + "/" + path;
}

// The reader the checkers used before: nlohmann's callback parser with a depth limit, which
// rescans the parent container after every closed object (quadratic in an array of objects).
struct TooDeep {};
json old_parse(std::string_view text) {
  return json::parse(text.begin(), text.end(), [](int depth, json::parse_event_t event, auto&) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= 64)
      throw TooDeep{};
    return true;
  });
}

Rational small(std::mt19937_64& rng) {
  return test::small_rational(rng);
}

// A random WFA over {a, b} with n states and small rational weights.
Wfa random_wfa(std::mt19937_64& rng, std::size_t n) {
  Wfa w;
  w.alphabet = Alphabet({"a", "b"}, "test");
  for (std::size_t i = 0; i < n; ++i) {
    w.initial.push_back(small(rng));
    w.final.push_back(small(rng));
  }
  for (int s = 0; s < 2; ++s) {
    Matrix<Rational> m(n, n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) m(i, j) = small(rng);
    w.transition.push_back(m);
  }
  return w;
}

// g = f in other coordinates: α·P, P⁻¹·M_σ·P, P⁻¹·β with P = I + (a strictly upper triangular
// matrix), so P⁻¹ is exact and f ≡ g.
Wfa conjugate(std::mt19937_64& rng, const Wfa& f) {
  const std::size_t n = f.states();
  Matrix<Rational> P(n, n, Rational(0));
  for (std::size_t i = 0; i < n; ++i) {
    P(i, i) = 1;
    for (std::size_t j = i + 1; j < n; ++j) P(i, j) = small(rng);
  }
  // P⁻¹ by back substitution, column by column.
  Matrix<Rational> Q(n, n, Rational(0));
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t i = n; i-- > 0;) {
      Rational x = i == c ? Rational(1) : Rational(0);
      for (std::size_t j = i + 1; j < n; ++j) x -= P(i, j) * Q(j, c);
      Q(i, c) = x;
    }
  auto mul = [n](const Matrix<Rational>& A, const Matrix<Rational>& B) {
    Matrix<Rational> C(n, n, Rational(0));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < n; ++k)
        for (std::size_t j = 0; j < n; ++j) C(i, j) += A(i, k) * B(k, j);
    return C;
  };
  Wfa g = f;
  for (std::size_t j = 0; j < n; ++j) {
    g.initial[j] = 0, g.final[j] = 0;
    for (std::size_t i = 0; i < n; ++i) {
      g.initial[j] += f.initial[i] * P(i, j);
      g.final[j] += Q(j, i) * f.final[i];
    }
  }
  for (std::size_t s = 0; s < f.transition.size(); ++s)
    g.transition[s] = mul(mul(Q, f.transition[s]), P);
  return g;
}

// A random DFA as a WFA over {a, b}: 0/1 deterministic transitions, start 0, outputs in {0, 1};
// and the same DFA with its states renamed by a random permutation (state 0 stays first).
std::pair<Wfa, Wfa> random_dfa_pair(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin() + 1, perm.end(), rng);
  Wfa f, g;
  for (Wfa* w : {&f, &g}) {
    w->alphabet = Alphabet({"a", "b"}, "test");
    w->initial.assign(n, Rational(0));
    w->final.assign(n, Rational(0));
    w->initial[0] = 1;
    w->transition.assign(2, Matrix<Rational>(n, n, Rational(0)));
  }
  for (std::size_t q = 0; q < n; ++q) {
    const Rational out(static_cast<long>(rng() % 2));
    f.final[q] = out;
    g.final[perm[q]] = out;
    for (std::size_t s = 0; s < 2; ++s) {
      const std::size_t to = rng() % n;
      f.transition[s](q, to) = 1;
      g.transition[s](perm[q], perm[to]) = 1;
    }
  }
  return {f, g};
}

// Both readers on `text`: the same document, and the same "format" as certificate_format.
void same_reading(const std::string& text) {
  const json before = old_parse(text), after = parse_certificate_json(text);
  REQUIRE(before == after);
  REQUIRE(certificate_format(text) == before["format"].get<std::string>());
  // Every proper prefix is refused by both as not JSON (sampled: 16 cut points).
  for (std::size_t k = 1; k <= 16; ++k) {
    const std::string cut = text.substr(0, text.size() * k / 17);
    CHECK_THROWS_AS(old_parse(cut), json::parse_error);
    CHECK_THROWS_AS(parse_certificate_json(cut), CertificateNotJson);
  }
}

}  // namespace

TEST_CASE("certificate reader: the linear reader reads what the callback parser read",
          "[certificate][differential]") {
  std::mt19937_64 rng(2025);
  std::size_t basis = 0, morphism = 0, product = 0;
  for (int trial = 0; trial < 24; ++trial) {
    // Equivalence certificates: the forward basis over Q and over F_p, and the morphism form.
    const Wfa f = random_wfa(rng, 1 + rng() % 3);
    const SubjectFile a{"f.json", f}, b{"g.json", conjugate(rng, f)};
    for (int form = 0; form < 3; ++form) {
      EquivalenceParams p;
      p.method =
          form == 2 ? EquivalenceParams::Method::multimodular : EquivalenceParams::Method::exact;
      if (form == 1) p.modulus = 1000003;
      const EquivalenceResult r =
          decide_equivalence(subject_representation(a), subject_representation(b), p);
      REQUIRE(r.equivalent);
      const std::string text = equivalence_certificate(r, a, b).dump(trial % 2 ? 1 : -1);
      same_reading(text);
      const CertificateCheck c = check_certificate(a, b, text);
      INFO(text);
      REQUIRE(c.problems.empty());
      REQUIRE(c.ok);
      (parse_certificate_json(text).contains("morphism") ? morphism : basis)++;
    }
    // Product certificates of two DFAs equal up to renaming.
    const auto [df, dg] = random_dfa_pair(rng, 2 + rng() % 6);
    const SubjectFile x{"x.json", df}, y{"y.json", dg};
    const std::string text =
        product_certificate(finite_machine(x.content), finite_machine(y.content), x, y).dump();
    same_reading(text);
    const ProductCertificateCheck c = check_product_certificate(x, y, text);
    INFO(text);
    REQUIRE(c.problems.empty());
    ++product;
  }
  CHECK(basis == 48);
  CHECK(morphism > 0);
  CHECK(product == 24);
}

TEST_CASE("certificate reader: machine states stepped from the BFS parent equal the replay",
          "[certificate][differential]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const auto [df, dg] = random_dfa_pair(rng, 2 + rng() % 10);
    const SubjectFile x{"x.json", df};
    const FiniteMachine m = finite_machine(x.content);
    REQUIRE(machine_states(m, x) == machine_states_by_replay(m, x));
  }
  const SubjectFile tent = load_subject_file(source_file("tests/cli/models/tent_101.json"));
  const FiniteMachine m = finite_machine(tent.content);
  REQUIRE(m.states() == 51);
  REQUIRE(machine_states(m, tent) == machine_states_by_replay(m, tent));
}

namespace {

// The problems of checking `cert` after `edit`.
template <class Edit>
std::vector<std::string> problems_after(const SubjectFile& f, const SubjectFile& g, json cert,
                                        Edit edit) {
  edit(cert);
  return check_certificate(f, g, cert.dump()).problems;
}

}  // namespace

TEST_CASE("certificate reader: unknown members are refused by their JSON pointer",
          "[certificate][untrusted]") {
  const SubjectFile m = load_subject_file(test::example("binary_value_wfa.json"));
  const SubjectFile a = load_subject_file(test::example("wfa_binary_value.wfa.json"));
  EquivalenceParams exact;
  exact.method = EquivalenceParams::Method::exact;
  const json cert = json::parse(
      equivalence_certificate(
          decide_equivalence(subject_representation(m), subject_representation(a), exact), m, a)
          .dump());
  REQUIRE(check_certificate(m, a, cert.dump()).ok);
  const std::string top =
      "(expected one of: format, models, field, alphabet, outputs, modulus, empty_word, basis, "
      "morphism)";
  CHECK(problems_after(m, a, cert, [](json& c) { c["comment"] = "x"; }) ==
        std::vector<std::string>{"/comment: unknown member \"comment\" " + top});
  // A pointer's special characters are escaped (RFC 6901).
  CHECK(problems_after(m, a, cert, [](json& c) { c["a/b~c"] = 1; }) ==
        std::vector<std::string>{"/a~1b~0c: unknown member \"a/b~c\" " + top});
  CHECK(problems_after(m, a, cert, [](json& c) { c["models"][1]["hash"] = "x"; }) ==
        std::vector<std::string>{
            "/models/1/hash: unknown member \"hash\" (expected one of: digest, file)"});
  CHECK(problems_after(m, a, cert, [](json& c) { c["basis"][1]["nxt"] = json::array(); }) ==
        std::vector<std::string>{
            "/basis/1/nxt: unknown member \"nxt\" (expected one of: word, next, outputs)"});
  CHECK(problems_after(m, a, cert, [](json& c) { c["basis"][0].erase("outputs"); }) ==
        std::vector<std::string>{"/basis/0: expected a member \"outputs\""});
  CHECK(problems_after(m, a, cert, [](json& c) { c["models"][0] = 3; }) ==
        std::vector<std::string>{"/models/0: expected an object, got the number 3"});
  CHECK(problems_after(m, a, cert, [](json& c) { c["morphism"] = json::object(); }) ==
        std::vector<std::string>{"/: expected one of the members \"basis\" and \"morphism\""});
  // The morphism form: its own members.
  EquivalenceParams mm;
  mm.method = EquivalenceParams::Method::multimodular;
  json morph = json::parse(
      equivalence_certificate(
          decide_equivalence(subject_representation(m), subject_representation(a), mm), m, a)
          .dump());
  REQUIRE(morph.contains("morphism"));
  REQUIRE(check_certificate(m, a, morph.dump()).ok);
  CHECK(problems_after(m, a, morph, [](json& c) { c["morphism"]["columns"] = 2; }) ==
        std::vector<std::string>{"/morphism/columns: unknown member \"columns\" (expected one "
                                 "of: from, denominator, rows)"});
  // Two WFAs: the ε value.
  const SubjectFile w = load_subject_file(test::example("wfa_binary_value.att"));
  const json ww = json::parse(
      equivalence_certificate(
          decide_equivalence(subject_representation(w), subject_representation(a), exact), w, a)
          .dump());
  REQUIRE(check_certificate(w, a, ww.dump()).ok);
  CHECK(problems_after(w, a, ww, [](json& c) { c["empty_word"]["exact"] = true; }) ==
        std::vector<std::string>{
            "/empty_word/exact: unknown member \"exact\" (expected one of: value)"});
  // A member given twice: refused where the reader meets it (nlohmann kept the last one).
  std::string text = cert.dump();
  text.insert(text.find("\"field\""), "\"field\":\"F_p\",");
  const CertificateCheck twice = check_certificate(m, a, text);
  CHECK_FALSE(twice.not_json);
  CHECK(twice.problems == std::vector<std::string>{"/field: duplicate member \"field\""});
}

TEST_CASE("certificate reader: product, promise and input-map certificates are strict too",
          "[certificate][untrusted]") {
  const auto [df, dg] = [] {
    std::mt19937_64 rng(3);
    return random_dfa_pair(rng, 4);
  }();
  const SubjectFile x{"x.json", df}, y{"y.json", dg};
  json cert = json::parse(
      product_certificate(finite_machine(x.content), finite_machine(y.content), x, y).dump());
  REQUIRE(check_product_certificate(x, y, cert.dump()).ok);
  auto problems = [&](auto edit) {
    json c = cert;
    edit(c);
    return check_product_certificate(x, y, c.dump()).problems;
  };
  CHECK(problems([](json& c) { c["proof"] = 1; }) ==
        std::vector<std::string>{"/proof: unknown member \"proof\" (expected one of: format, "
                                 "models, alphabet, outputs, pairs, empty_word)"});
  CHECK(problems([](json& c) { c["pairs"][2]["h"] = json::array(); }) ==
        std::vector<std::string>{
            "/pairs/2/h: unknown member \"h\" (expected one of: f, g, next, outputs)"});
  CHECK(problems([](json& c) { c["models"][0]["path"] = "x"; }) ==
        std::vector<std::string>{
            "/models/0/path: unknown member \"path\" (expected one of: digest, file)"});
  CHECK(problems([](json& c) { c["format"] = "rnncc-product-certificate/2"; }) ==
        std::vector<std::string>{"/format: expected \"rnncc-product-certificate/1\""});
  // The promise and input-map certificates checked in for the CLI goldens.
  const SubjectFile gw = load_subject_file(source_file("tests/cli/models/gw3.json"));
  const json promise =
      json::parse(read_text_file(source_file("tests/cli/models/gw3.cert.json"), "certificate"));
  REQUIRE(check_promise_certificate(gw, promise.dump()).ok);
  json p = promise;
  p["grammar"]["accepting"] = json::array();
  CHECK(check_promise_certificate(gw, p.dump()).problems ==
        std::vector<std::string>{"/grammar/accepting: unknown member \"accepting\" (expected one "
                                 "of: start, value, next)"});
  const SubjectFile dplr = load_subject_file(source_file("tests/cli/models/mod3_dplr.json"));
  const json map = json::parse(
      read_text_file(source_file("tests/cli/models/mod3_dplr.cert.json"), "certificate"));
  REQUIRE(check_input_map_certificate(std::nullopt, dplr, map.dump()).ok);
  json q = map;
  q["map"]["suffix"] = json::array();
  CHECK(check_input_map_certificate(std::nullopt, dplr, q.dump()).problems ==
        std::vector<std::string>{
            "/map/suffix: unknown member \"suffix\" (expected one of: prefix, period, tokens)"});
}

TEST_CASE("certificate reader: text that is not JSON is bad input, located",
          "[certificate][untrusted]") {
  const SubjectFile m = load_subject_file(test::example("binary_value_wfa.json"));
  const SubjectFile a = load_subject_file(test::example("wfa_binary_value.wfa.json"));
  const CertificateCheck c = check_certificate(m, a, "{\n  \"format\": [1,\n  }");
  CHECK(c.not_json);
  REQUIRE(c.problems.size() == 1);
  CHECK(c.problems[0].rfind("not a certificate: line 3, column 3: malformed JSON: ", 0) == 0);
  const ProductCertificateCheck p = check_product_certificate(m, a, "[1e400]");
  CHECK(p.not_json);
  REQUIRE(p.problems.size() == 1);
  CHECK(p.problems[0].rfind("not a certificate: line 1, column 2: malformed JSON: ", 0) == 0);
  // certificate_format reads no further than the member.
  CHECK(certificate_format("{\"format\": \"x\", \"pairs\": [") == "x");
  CHECK(certificate_format("{\"pairs\": [], \"format\": \"y\"}") == "y");
  CHECK(certificate_format("{\"format\": 3}").empty());
  CHECK(certificate_format("{\"a\": {\"format\": \"z\"}}").empty());
  CHECK(certificate_format("[\"format\", \"z\"]").empty());
  CHECK(certificate_format("").empty());
}
