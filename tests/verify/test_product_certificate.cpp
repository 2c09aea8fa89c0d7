// Promise-restricted product search (verify/promise_search.hpp) on the graph walk, and the
// certificates of product searches, promise searches and input maps with their independent
// checkers (verify/product_certificate.hpp, verify/check_product_certificate.hpp): valid ones
// accepted, every tampered field rejected (issue 24, items 6 and 7a).
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "algebra/exact.hpp"
#include "constructions/dwfa_pd.hpp"
#include "constructions/graph_walk.hpp"
#include "constructions/matmul3.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/evaluate.hpp"
#include "tests/support.hpp"
#include "verify/check_product_certificate.hpp"
#include "verify/finite_equivalence.hpp"
#include "verify/product_certificate.hpp"
#include "verify/promise_search.hpp"
#include "verify/verify.hpp"

using namespace rnncc;
using json = nlohmann::json;

namespace {

// Every target string of length n over S symbols.
std::vector<std::vector<std::size_t>> all_strings(std::size_t S, std::size_t n) {
  std::vector<std::vector<std::size_t>> out{{}};
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& u : out)
      for (std::size_t s = 0; s < S; ++s) {
        auto w = u;
        w.push_back(s);
        next.push_back(std::move(w));
      }
    out = std::move(next);
  }
  return out;
}

std::optional<std::size_t> run_grammar(const EncodingGrammar& g,
                                       const std::vector<std::size_t>& x) {
  std::size_t q = g.start;
  for (std::size_t t : x) {
    if (!g.next[q][t]) return std::nullopt;
    q = *g.next[q][t];
  }
  return q;
}

// The plain twin of a refutation: over every instance within the promise, the encodings on
// which X's last output differs from f, the least in (length, llex) order.
std::optional<std::vector<std::size_t>> least_failing_encoding(const Construction& c) {
  std::optional<std::vector<std::size_t>> best;
  for (const auto& w : all_strings(c.target.alphabet.size(), *c.target.fixed_length)) {
    if (!c.target.promise(w)) continue;
    const std::vector<std::size_t> x = c.encode(w);
    const Rational y = evaluate(c.model, RationalField{}, x).outputs().back()(0, 0);
    if (y == c.target.value(w)) continue;
    if (!best || x.size() < best->size() || (x.size() == best->size() && x < *best)) best = x;
  }
  return best;
}

json parsed(const nlohmann::ordered_json& j) {
  return json::parse(j.dump());
}

}  // namespace

TEST_CASE("graph walk: the encoding grammar accepts exactly the encodings, with f",
          "[promise][graph-walk]") {
  for (std::size_t V : {3, 4})
    for (GraphWalkVariant variant : {GraphWalkVariant::ever, GraphWalkVariant::final_with_promise,
                                     GraphWalkVariant::final_no_promise}) {
      const Construction c = graph_walk(V, variant);
      REQUIRE(c.grammar);
      const EncodingGrammar& g = *c.grammar;
      // Every instance within the promise: its encoding is accepted with f(w).
      std::set<std::vector<std::size_t>> encodings;
      for (const auto& w : all_strings(V + 1, V + 1)) {
        if (!c.target.promise(w)) continue;
        const std::vector<std::size_t> x = c.encode(w);
        const auto q = run_grammar(g, x);
        REQUIRE(q);
        REQUIRE(g.value[*q]);
        CHECK(*g.value[*q] == c.target.value(w));
        CHECK(c.encode(g.decode(x)) == x);
        encodings.insert(x);
      }
      // Every string the grammar accepts is one of them (the grammar is acyclic: enumerate).
      std::size_t accepted = 0;
      std::vector<std::pair<std::size_t, std::vector<std::size_t>>> stack{{g.start, {}}};
      while (!stack.empty()) {
        auto [q, x] = stack.back();
        stack.pop_back();
        REQUIRE(x.size() < 8 * V);  // no cycles
        if (g.value[q]) {
          ++accepted;
          CHECK(encodings.count(x));
        }
        for (std::size_t t = 0; t < g.next[q].size(); ++t)
          if (g.next[q][t]) {
            auto y = x;
            y.push_back(t);
            stack.push_back({*g.next[q][t], y});
          }
      }
      CHECK(accepted == encodings.size());
    }
}

TEST_CASE("graph walk: proved on every valid encoding, V = 2..6, refuted where it is wrong",
          "[promise][graph-walk]") {
  for (std::size_t V = 2; V <= 6; ++V) {  // 7..9: docs/constructions.md, by the CLI
    const Construction c = graph_walk(V, GraphWalkVariant::ever);
    const PromiseSearchResult r = promise_search(c.model, 0, *c.grammar, false);
    CHECK(r.proved);
    CHECK(r.configurations <= r.pairs);
    // Unrestricted, the configurations are infinite: "s<V>" read again and again.
    if (V == 3) {
      FiniteMachineParams cap;
      cap.max_states = 2000;
      CHECK_THROWS_AS(finite_machine(c.model, cap), NotFiniteError);
    }
  }
  CHECK(promise_search(graph_walk(5, GraphWalkVariant::final_with_promise).model, 0,
                       *graph_walk(5, GraphWalkVariant::final_with_promise).grammar, false)
            .proved);
  // The final test without the promise is wrong: the shortest failing encoding is
  // s1 e12 (a..d) e23 (a..d) t2a t2b (s = 1, t = 2, edges 1 → 2 → 3), the plain twin's too.
  const Construction bad = graph_walk(3, GraphWalkVariant::final_no_promise);
  const PromiseSearchResult rb = promise_search(bad.model, 0, *bad.grammar, false);
  REQUIRE_FALSE(rb.proved);
  CHECK(bad.model.alphabet.join(*rb.counterexample) ==
        "s1 e12a e12b e12c e12d e23a e23b e23c e23d t2a t2b");
  CHECK(*rb.counterexample == *least_failing_encoding(bad));
  CHECK(rb.expected == 1);
  CHECK(rb.got == 0);
}

TEST_CASE("graph walk: one weight changed is refuted on the shortest valid encoding",
          "[promise][graph-walk]") {
  // Each broken model (one weight of W or U changed) that is wrong on some instance is refuted,
  // on the least failing encoding the exhaustive twin finds; one that is still right is proved.
  const Construction good = graph_walk(3, GraphWalkVariant::ever);
  std::size_t refuted = 0, proved = 0;
  const ElmanLayer& l0 = std::get<ElmanLayer>(good.model.layers[0].layer);
  for (std::size_t i = 0; i < l0.d; ++i)
    for (std::size_t j : {i, (i + 1) % l0.d, (i + 5) % l0.d, l0.d + i % 4}) {
      Construction c = good;
      ElmanLayer& l = std::get<ElmanLayer>(c.model.layers[0].layer);
      Rational& w = j < l.d ? l.pre.W(i, j) : l.pre.U(i, j - l.d);
      w += 1;
      const auto twin = least_failing_encoding(c);
      PromiseSearchResult r;
      try {
        r = promise_search(c.model, 0, *c.grammar, false);
      } catch (const InputError&) {
        continue;  // the configurations grew past the cap: no verdict either way
      }
      REQUIRE(r.proved == !twin.has_value());
      if (twin) {
        CHECK(*r.counterexample == *twin);
        ++refuted;
      } else {
        ++proved;
      }
    }
  CHECK(refuted >= 10);
  // verify reports the refutation with the instance and the failing encoding.
  Construction c = good;
  // z2 = 1 − q2 only: "S = T" becomes "S ≥ T", so the flag rises once the walk passes t.
  std::get<ElmanLayer>(c.model.layers[0].layer).pre.W(9, 7) = 0;
  VerifyOptions o;
  o.random = 0;
  o.three_way = false;
  o.seed = 1;
  const VerifyReport rep = verify(c, o);
  CHECK_FALSE(rep.holds);
  REQUIRE(rep.proof);
  CHECK_FALSE(rep.proof->proved);
  REQUIRE(rep.counterexample);
  CHECK(rep.counterexample->found_by == "proof");
}

TEST_CASE("promise certificate: valid accepted, tampered rejected", "[promise][certificate]") {
  const Construction c = graph_walk(3, GraphWalkVariant::ever);
  const SubjectFile x{"gw3.json", c.model};
  const PromiseSearchResult r = promise_search(c.model, 0, *c.grammar, true);
  REQUIRE(r.proved);
  const json cert = parsed(promise_certificate(r, *c.grammar, x, 0));
  const ProductCertificateCheck ok = check_promise_certificate(x, cert.dump());
  INFO((ok.problems.empty() ? std::string() : ok.problems.front()));
  REQUIRE(ok.ok);
  CHECK(ok.established.find("36 strings") != std::string::npos);  // V(V − 1)·V! encodings
  auto rejected = [&](const json& t, const std::string& why) {
    const ProductCertificateCheck k = check_promise_certificate(x, t.dump());
    CHECK_FALSE(k.ok);
    bool named = false;
    for (const std::string& p : k.problems) named = named || p.find(why) != std::string::npos;
    INFO(why);
    CHECK(named);
    return k;
  };
  {  // a dropped configuration: the pair is gone, its predecessors point past the end
    json t = cert;
    t["pairs"].erase(t["pairs"].size() - 1);
    rejected(t, "expected an index below");
  }
  {  // a changed successor
    json t = cert;
    auto& e = t["pairs"][1]["next"][0][1];
    e = e.get<std::size_t>() == 0 ? 1 : 0;
    rejected(t, "does not lead to pair");
  }
  {  // a changed output
    json t = cert;
    for (auto& p : t["pairs"])
      for (auto& e : p["next"])
        if (e[2] == "0") {
          e[2] = "1";
          goto changed;
        }
  changed:
    rejected(t, "is not the stated value");
  }
  {  // a changed value of the grammar: the model disagrees at that encoding
    json t = cert;
    for (auto& v : t["grammar"]["value"])
      if (v == "1") {
        v = "0";
        break;
      }
    rejected(t, "a valid encoding ends here with value 0");
  }
  {  // a transition left out: not closed
    json t = cert;
    t["pairs"][0]["next"].erase(0);
    rejected(t, "the set is not closed");
  }
  {  // a changed start state
    json t = cert;
    t["pairs"][0]["state"][0] = "1";
    rejected(t, "not (the grammar's start, the model's start)");
  }
  {  // another model's file
    Model other = c.model;
    std::get<ElmanLayer>(other.layers[0].layer).pre.W(0, 0) = 2;
    const ProductCertificateCheck k = check_promise_certificate({"other.json", other}, cert.dump());
    CHECK_FALSE(k.ok);
    CHECK(k.other_models);
  }
  {  // not JSON
    const ProductCertificateCheck k = check_promise_certificate(x, "{\"format\":");
    CHECK(k.not_json);
  }
}

TEST_CASE("product certificate: valid accepted, tampered rejected", "[finite][certificate]") {
  const Wfa mod3 = load_wfa(test::example("dwfa_mod3.att"));
  const SubjectFile a{"mod3.att", mod3}, b{"pd.json", dwfa_to_pd(mod3).model};
  for (const SubjectFile* g : {&a, &b}) {
    const FiniteMachine mf = finite_machine(a.content), mg = finite_machine(g->content);
    REQUIRE(decide_finite_equivalence(mf, mg).equivalent);
    const json cert = parsed(product_certificate(mf, mg, a, *g));
    CHECK(cert.contains("empty_word") == (g == &a));
    const ProductCertificateCheck ok = check_product_certificate(a, *g, cert.dump());
    INFO((ok.problems.empty() ? std::string() : ok.problems.front()));
    REQUIRE(ok.ok);
    auto rejected = [&](const json& t, const std::string& why) {
      const ProductCertificateCheck k = check_product_certificate(a, *g, t.dump());
      CHECK_FALSE(k.ok);
      bool named = false;
      for (const std::string& p : k.problems) named = named || p.find(why) != std::string::npos;
      INFO(why);
      CHECK(named);
    };
    json t = cert;
    t["pairs"].erase(t["pairs"].size() - 1);
    rejected(t, "expected an index below");
    t = cert;
    t["pairs"][0]["next"][0] = cert["pairs"][0]["next"][1];
    rejected(t, "does not give pair");
    t = cert;
    t["pairs"][0]["outputs"][0][0] = "7";
    rejected(t, "is not the stated value");
    t = cert;
    t["pairs"][0]["f"][0] = "5";
    rejected(t, "not the pair of start states");
    // Every number of every pair's states is checked.
    for (std::size_t i = 0; i < cert["pairs"].size(); ++i)
      for (const char* side : {"f", "g"})
        for (std::size_t k = 0; k < cert["pairs"][i][side].size(); ++k) {
          t = cert;
          t["pairs"][i][side][k] = "1/3";
          CHECK_FALSE(check_product_certificate(a, *g, t.dump()).ok);
        }
    // Another model's file.
    Wfa other = mod3;
    other.final[0] = 5;
    const ProductCertificateCheck k = check_product_certificate({"x.att", other}, *g, cert.dump());
    CHECK(k.other_models);
  }
}

TEST_CASE("input-map certificate: matmul3 and DPLR sub-steps, checked by composing the map",
          "[certificate][input-map]") {
  std::vector<Construction> cs;
  Matmul3Options mo;  // over Z the check takes minutes (big numbers): the CLI docs show it
  mo.modulus = 29;
  cs.push_back(matmul3(mo));
  cs.push_back(wfa_to_lrnn(load_wfa(test::example("dwfa_mod3.att")), WfaFamily::dplr));
  for (const Construction& c : cs) {
    VerifyOptions o;
    o.random = 0;
    o.three_way = false;
    o.seed = 1;
    o.certificate = true;
    const VerifyReport r = verify(c, o);
    REQUIRE(r.proof);
    REQUIRE(r.proof->proved);
    INFO(c.name << (r.proof->no_certificate ? *r.proof->no_certificate : std::string()));
    REQUIRE_FALSE(r.proof->certificate_json.empty());
    const json cert = json::parse(r.proof->certificate_json);
    REQUIRE(cert["format"] == "rnncc-input-map-certificate/1");
    const SubjectFile x{"x.json", c.model};
    const ProductCertificateCheck ok = check_input_map_certificate(std::nullopt, x, cert.dump());
    INFO((ok.problems.empty() ? std::string() : ok.problems.front()));
    REQUIRE(ok.ok);
    // The specification as a file: the same WFA passes, another is refused by digest.
    CHECK(
        check_input_map_certificate(SubjectFile{"f.json", *c.target.automaton}, x, cert.dump()).ok);
    Wfa other = *c.target.automaton;
    other.final[0] += 1;
    CHECK(check_input_map_certificate(SubjectFile{"g.json", other}, x, cert.dump()).other_models);
    // Coefficients changed (one per sampled basis word), and an output: rejected.
    const std::size_t k = cert["basis"].size(), S = cert["alphabet"].size();
    for (std::size_t i : {std::size_t{0}, std::size_t{1} % k, k / 2, k - 1}) {
      json t = cert;
      t["basis"][i]["next"][i % S][(7 * i) % k] = cert.contains("modulus") ? "3" : "1/7";
      if (t == cert) continue;
      CHECK_FALSE(check_input_map_certificate(std::nullopt, x, t.dump()).ok);
    }
    json t = cert;
    t["basis"][0]["outputs"][0][0] = "2";
    CHECK_FALSE(check_input_map_certificate(std::nullopt, x, t.dump()).ok);
    // A changed map: one token of one symbol's word, and the prefix.
    t = cert;
    auto& word = t["map"]["tokens"][0][0];
    word[0] = t["map"]["tokens"][0][t["map"]["tokens"][0].size() - 1][0];
    if (t != cert) CHECK_FALSE(check_input_map_certificate(std::nullopt, x, t.dump()).ok);
    t = cert;
    t["map"]["tokens"][0][0].push_back(t["map"]["tokens"][0][0][0]);
    CHECK_FALSE(check_input_map_certificate(std::nullopt, x, t.dump()).ok);
  }
}
