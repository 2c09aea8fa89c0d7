// Exhaustive checks by prefix sharing (verify/prefix_check.hpp), differential: the shared walk
// on all cores == its plain twin (every string from scratch) == the check-circuit path
// (verify/device_check.hpp on the CPU twin of the device program), on small lengths, for the
// WFA families, a 3-symbol alphabet, a construction mod 29, a planted bug (the least
// counterexample the same everywhere and the CPU engine's), slices, and the refusals.
#include <catch2/catch.hpp>

#include "algebra/error.hpp"
#include "constructions/graph_walk.hpp"
#include "constructions/matmul3.hpp"
#include "constructions/wfa.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "tests/support.hpp"
#include "verify/device_check.hpp"
#include "verify/prefix_check.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

// "ab" counted with weight 2, "ca" with weight −1/2, over {a, b, c}: rational entries.
constexpr const char* kThreeSymbols =
    "0 0 a\n0 0 b\n0 0 c\n0 1 a\n1 2 b 2\n0 3 c\n3 2 a -1/2\n2 2 a\n2 2 b\n2 2 c\n2 1\n";

PrefixCheckOptions options(std::size_t n, bool plain = false, unsigned threads = 0) {
  PrefixCheckOptions o;
  o.length = n;
  o.plain = plain;
  o.cpu_threads = threads;
  o.suffix_depth = 3;  // several tasks even at small lengths
  return o;
}

DeviceCheckOptions circuit_options(std::size_t n) {
  DeviceCheckOptions o;
  o.length = n;
  o.device = CheckDevice::cpu;
  o.prefix_sharing = false;
  return o;
}

// Shared == plain twin == check circuit at lengths 1..max_n (counts and least counterexample).
void require_all_agree(const Construction& c, std::size_t max_n) {
  const auto s = prefix_subject(c);
  REQUIRE(s);
  for (std::size_t n = 1; n <= max_n; ++n) {
    INFO(c.name << " n = " << n);
    const DeviceCheckReport shared = prefix_check(*s, options(n));
    const DeviceCheckReport one = prefix_check(*s, options(n, false, 1));
    const DeviceCheckReport plain = prefix_check(*s, options(n, true));
    const DeviceCheckReport circuit = device_check(c, circuit_options(n));
    REQUIRE(shared.exact);
    REQUIRE(shared.strings == circuit.strings);
    REQUIRE(shared.mismatches == plain.mismatches);
    REQUIRE(shared.mismatches == one.mismatches);
    REQUIRE(shared.mismatches == circuit.mismatches);
    REQUIRE(shared.first_counterexample == plain.first_counterexample);
    REQUIRE(shared.first_counterexample == one.first_counterexample);
    REQUIRE(shared.first_counterexample == circuit.first_counterexample);
    REQUIRE(shared.primes == plain.primes);
  }
}

Construction broken(WfaFamily family) {
  Construction c = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), family);
  auto& layer = std::get<LrnnLayer>(c.model.layers[0].layer);
  layer.A[layer.features - 1](0, 0) += 1;
  return c;
}

}  // namespace

TEST_CASE("prefix sharing == plain twin == check circuit on the WFA families", "[verify][prefix]") {
  for (const char* file : {"wfa_count_ab.att", "wfa_binary_value.att"})
    for (WfaFamily fam : {WfaFamily::general, WfaFamily::dplr, WfaFamily::deltanet}) {
      const Construction c = wfa_to_lrnn(load_wfa(test::example(file)), fam);
      const auto s = prefix_subject(c);
      REQUIRE(s);
      INFO(file << " " << to_string(fam) << " d_X = " << s->dim_x << " d_f = " << s->dim_f);
      require_all_agree(c, 9);
      const DeviceCheckReport r = prefix_check(*s, options(9));
      REQUIRE(r.mismatches == 0);
      REQUIRE(r.strings == 512);
    }
}

TEST_CASE("prefix sharing on a 3-symbol alphabet with rational weights", "[verify][prefix]") {
  const Wfa a = parse_wfa_att(kThreeSymbols, "three");
  for (WfaFamily fam : {WfaFamily::general, WfaFamily::dplr, WfaFamily::deltanet}) {
    const Construction c = wfa_to_lrnn(a, fam);
    require_all_agree(c, 6);
    const DeviceCheckReport r = prefix_check(*prefix_subject(c), options(6));
    REQUIRE(r.strings == 729);
    REQUIRE(r.mismatches == 0);
  }
}

TEST_CASE("prefix sharing finds the planted bug's least counterexample",
          "[verify][prefix][negative]") {
  for (WfaFamily fam : {WfaFamily::general, WfaFamily::dplr, WfaFamily::deltanet}) {
    const Construction c = broken(fam);
    require_all_agree(c, 7);
    const auto s = prefix_subject(c);
    std::optional<std::vector<std::size_t>> first;
    for (std::size_t n = 1; n <= 7 && !first; ++n)
      first = prefix_check(*s, options(n)).first_counterexample;
    REQUIRE(first);
    VerifyOptions vo;
    vo.exhaustive = 7;
    vo.random = 0;
    const VerifyReport v = verify(c, vo);
    REQUIRE(v.counterexample);
    REQUIRE(v.counterexample->input == *first);
  }
}

TEST_CASE("prefix sharing compares a construction mod 29 modulo 29", "[verify][prefix]") {
  Matmul3Options mo;
  mo.modulus = 29;
  const Construction c = matmul3(mo);
  const auto s = prefix_subject(c);
  REQUIRE(s);
  require_all_agree(c, 3);
  const DeviceCheckReport r = prefix_check(*s, options(3));
  REQUIRE(r.modulus == std::optional<std::uint64_t>(29));
  REQUIRE(r.primes == std::vector<std::uint32_t>{29});
  REQUIRE(r.strings == 343);
  REQUIRE(r.mismatches == 0);
  mo.init_on_bos = false;  // the flawed schedule
  const Construction bad = matmul3(mo);
  require_all_agree(bad, 3);
  REQUIRE(prefix_check(*prefix_subject(bad), options(3)).mismatches > 0);
}

TEST_CASE("prefix sharing on slices equals the whole range cut", "[verify][prefix]") {
  const Construction c = broken(WfaFamily::dplr);
  const auto s = prefix_subject(c);
  const DeviceCheckReport all = prefix_check(*s, options(10));
  REQUIRE(all.mismatches > 0);
  std::uint64_t sum = 0;
  std::optional<std::vector<std::size_t>> first;
  for (std::uint64_t lo = 0; lo < 1024; lo += 100) {
    PrefixCheckOptions o = options(10);
    o.first = lo;
    o.count = 100;
    const DeviceCheckReport part = prefix_check(*s, o);
    PrefixCheckOptions op = o;
    op.plain = true;
    const DeviceCheckReport twin = prefix_check(*s, op);
    REQUIRE(part.mismatches == twin.mismatches);
    REQUIRE(part.first_counterexample == twin.first_counterexample);
    REQUIRE(part.strings == std::min<std::uint64_t>(100, 1024 - lo));
    sum += part.mismatches;
    if (!first) first = part.first_counterexample;
  }
  REQUIRE(sum == all.mismatches);
  REQUIRE(first == all.first_counterexample);
}

TEST_CASE("prefix sharing at length 1 and the refusals", "[verify][prefix][errors]") {
  const Construction c = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::dplr);
  const auto s = prefix_subject(c);
  REQUIRE(s);
  const DeviceCheckReport one = prefix_check(*s, options(1));
  REQUIRE(one.strings == 2);
  REQUIRE(one.mismatches == 0);
  // Length 0: X has no output at t = 0.
  REQUIRE(prefix_not_applicable(*s, 0));
  REQUIRE_THROWS_WITH(prefix_check(*s, options(0)), Catch::Contains("length 0"));
  PrefixCheckOptions o = options(4);
  o.first = 16;
  REQUIRE_THROWS_WITH(prefix_check(*s, o), Catch::Contains("past the last string"));
  REQUIRE_THROWS_WITH(prefix_check(*s, options(70)), Catch::Contains("2^62"));
  // Not linear / a promise: no subject, with the reason.
  std::string why;
  REQUIRE_FALSE(prefix_subject(graph_walk(3, GraphWalkVariant::final_with_promise), &why));
  REQUIRE_FALSE(why.empty());
}

TEST_CASE("the static bound sizes the primes", "[verify][prefix]") {
  // binary value: f(w) = Σ w_i 2^(n−i) reaches 2^40 at n = 40: more than one 31-bit prime.
  const Construction c =
      wfa_to_lrnn(load_wfa(test::example("wfa_binary_value.att")), WfaFamily::general);
  const auto s = prefix_subject(c);
  PrefixCheckOptions o = options(40);
  o.count = 5000;
  const DeviceCheckReport r = prefix_check(*s, o);
  REQUIRE(r.exact);
  REQUIRE(r.log2_bound > 40);
  REQUIRE(r.primes.size() >= 2);
  REQUIRE(r.mismatches == 0);
  const Construction d = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::dplr);
  const auto sd = prefix_subject(d);
  for (std::size_t n : {32u, 40u}) {
    PrefixCheckOptions od = options(n);
    od.count = 1000;
    const DeviceCheckReport rd = prefix_check(*sd, od);
    INFO("count_ab dplr n = " << n << ": d = " << sd->g.dim << " (" << sd->dim_x << " + "
                              << sd->dim_f << "), log2 N = " << rd.log2_bound << ", primes "
                              << rd.primes.size());
    REQUIRE(rd.exact);
    REQUIRE(rd.mismatches == 0);
    REQUIRE(rd.primes.size() == 1);  // N ≤ 2^7: the headline needs one prime
  }
}

TEST_CASE("verify's CPU exhaustive method takes prefix sharing where no circuit runs per string",
          "[verify][prefix]") {
  for (bool bug : {false, true}) {
    const Construction c =
        bug ? broken(WfaFamily::dplr)
            : wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::dplr);
    VerifyOptions vo;
    vo.exhaustive = 9;
    vo.random = 0;
    vo.prove = false;
    const VerifyReport per_string = verify(c, vo);
    vo.three_way = false;  // no circuit per string: every length by prefix sharing
    const VerifyReport shared = verify(c, vo);
    INFO("bug " << bug);
    REQUIRE(shared.holds == per_string.holds);
    REQUIRE(shared.checked.at("exhaustive") == per_string.checked.at("exhaustive"));
    REQUIRE(shared.counterexample.has_value() == per_string.counterexample.has_value());
    if (bug) REQUIRE(shared.counterexample->input == per_string.counterexample->input);
    bool noted = false;
    for (const auto& n : shared.notes) noted |= n.find(kPrefixMethod) != std::string::npos;
    REQUIRE(noted);
  }
}
