// Exhaustive checks of nonlinear and hybrid models by prefix sharing
// (verify/model_walk_check.hpp), differential: the shared walk on all cores == on one core == its
// plain twin (every string from scratch) == the reference (rnn/evaluate.hpp over Q on every
// string, against Target::value and Target::promise), on the recall and copy hybrids, their
// negative variants (the least counterexample the same everywhere), seeded random integer models
// of every layer kind the walk takes (dense LRNN with token-dependent readout, Elman ReLU and
// sign, unique-hard attention with window, tie, position bias and residual), slices, overflow,
// the tasks' definitions against Target::value, and the refusals.
#include <catch2/catch.hpp>

#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "constructions/graph_walk.hpp"
#include "constructions/retrieval.hpp"
#include "constructions/wfa.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "tests/support.hpp"
#include "verify/device_check.hpp"
#include "verify/model_walk_check.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

struct Reference {
  std::uint64_t mismatches = 0, skipped = 0;
  std::optional<std::vector<std::size_t>> first;
};

// Every string of [first, first + count) of Σ^n through evaluate() and f.
Reference reference(const Construction& c, std::size_t n, std::uint64_t first = 0,
                    std::uint64_t count = 0) {
  const RationalField Q;
  const std::size_t S = c.target.alphabet.size();
  std::uint64_t all = 1;
  for (std::size_t i = 0; i < n; ++i) all *= S;
  if (count == 0) count = all - first;
  Reference r;
  for (std::uint64_t k = first; k < first + count; ++k) {
    std::vector<std::size_t> w(n);
    std::uint64_t x = k;
    for (std::size_t i = n; i-- > 0; x /= S) w[i] = x % S;
    if (c.target.promise && !c.target.promise(w)) {
      ++r.skipped;
      continue;
    }
    const auto y = evaluate(c.model, Q, c.encode(w)).outputs().back()(c.out_row, c.out_col);
    if (y != c.target.value(w) && r.mismatches++ == 0) r.first = w;
  }
  return r;
}

ModelWalkOptions options(std::size_t n, bool plain = false, unsigned threads = 0) {
  ModelWalkOptions o;
  o.length = n;
  o.plain = plain;
  o.cpu_threads = threads;
  o.suffix_depth = 2;  // several tasks even at small lengths
  return o;
}

// Shared (all cores, one core) == plain twin == reference at lengths 1..max_n.
void require_all_agree(const Construction& c, std::size_t max_n) {
  std::string why;
  const auto s = model_walk_subject(c, &why);
  INFO(why);
  REQUIRE(s);
  for (std::size_t n = 1; n <= max_n; ++n) {
    INFO(c.name << " n = " << n);
    const DeviceCheckReport shared = model_walk_check(*s, options(n));
    const DeviceCheckReport one = model_walk_check(*s, options(n, false, 1));
    const DeviceCheckReport plain = model_walk_check(*s, options(n, true));
    const Reference ref = reference(c, n);
    REQUIRE(shared.exact);
    REQUIRE(shared.overflowed == 0);
    REQUIRE(shared.mismatches == ref.mismatches);
    REQUIRE(shared.skipped == ref.skipped);
    REQUIRE(shared.first_counterexample == ref.first);
    REQUIRE(one.mismatches == ref.mismatches);
    REQUIRE(one.first_counterexample == ref.first);
    REQUIRE(plain.mismatches == ref.mismatches);
    REQUIRE(plain.skipped == ref.skipped);
    REQUIRE(plain.first_counterexample == ref.first);
    // Prefix sharing does fewer steps than the plain twin (n steps a string) from n = 2 on.
    REQUIRE(plain.steps == shared.strings * n);
    if (n >= 2) REQUIRE(shared.steps < plain.steps);
  }
}

Matrix<Rational> ints(std::mt19937_64& rng, std::size_t r, std::size_t c, int lo, int hi) {
  Matrix<Rational> m(r, c);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j)
      m(i, j) =
          static_cast<long>(lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1)));
  return m;
}

// A random integer model over `alphabet`: a general LRNN (dense A per symbol, maybe a
// token-dependent readout), an Elman layer (ReLU or sign), a unique-hard attention layer (random
// tie, window, position bias, residual), each above layer 1 through a random input map; the
// compared output is entry 0 of the last layer.
Model random_integer_model(std::mt19937_64& rng, const Alphabet& alphabet) {
  Model m;
  m.name = "random integer model";
  m.alphabet = alphabet;
  const std::size_t S = alphabet.size();
  const std::size_t d1 = 2 + rng() % 2, cols = 1 + rng() % 2, r1 = 2;
  LayerFrame f;
  f.d = d1;
  f.m = cols;
  f.features = S;
  f.initial_state = ints(rng, d1, cols, -1, 1);
  f.readout = ints(rng, r1, d1, -1, 1);
  f.readout_bias = ints(rng, r1, cols, -1, 1);
  if (rng() % 2)
    for (std::size_t i = 0; i < S; ++i) f.readout_feature.push_back(ints(rng, r1, d1, -1, 1));
  std::vector<AffineStep> steps;
  for (std::size_t i = 0; i < S; ++i)
    steps.push_back({ints(rng, d1, d1, -1, 1), ints(rng, d1, cols, -2, 2)});
  m.layers.push_back({std::nullopt, make_general(f, steps)});
  const std::size_t y1 = r1 * cols;

  ElmanLayer e;
  e.activation = rng() % 2 ? Activation::relu : Activation::sign;
  e.d = 3;
  e.features = 3;
  e.pre = {ints(rng, 3, 3, -1, 1), ints(rng, 3, 3, -2, 2), ints(rng, 3, 1, -1, 1)};
  e.initial_state = ints(rng, 3, 1, 0, 1);
  e.readout = ints(rng, 2, 3, -2, 2);
  e.readout_bias = ints(rng, 2, 1, -1, 1);
  check_layer(e);
  m.layers.push_back({InputMap{ints(rng, 3, y1, -1, 1), ints(rng, 3, 1, -1, 1)}, e});

  AttentionLayer a;
  a.kind = AttentionKind::unique_hard;
  a.tie = rng() % 2 ? TieRule::rightmost : TieRule::leftmost;
  a.features = 3;
  a.query = {ints(rng, 2, 3, -2, 2), ints(rng, 2, 1, -1, 1)};
  a.key = {ints(rng, 2, 3, -2, 2), ints(rng, 2, 1, -1, 1)};
  a.value = {ints(rng, 1, 3, -2, 2), ints(rng, 1, 1, -1, 1)};
  a.position_bias = static_cast<long>(rng() % 3) - 1;
  if (rng() % 2) a.window = 1 + rng() % 3;
  a.residual = rng() % 2;
  check_layer(a);
  m.layers.push_back({InputMap{ints(rng, 3, 2, -1, 1), ints(rng, 3, 1, -1, 1)}, a});
  return m;
}

}  // namespace

TEST_CASE("model walk: the recall and copy hybrids hold, as the reference says", "[model_walk]") {
  require_all_agree(associative_recall({}), 5);
  AssocRecallOptions one;
  one.keys = 1;
  one.values = 1;
  require_all_agree(associative_recall(one), 8);
  require_all_agree(selective_copy({}), 5);
  SelectiveCopyOptions sc;
  sc.data_symbols = 1;
  sc.max_distance = 2;
  require_all_agree(selective_copy(sc), 8);
}

TEST_CASE("model walk: negative variants fail at the reference's least counterexample",
          "[model_walk]") {
  AssocRecallOptions leftmost;
  leftmost.tie = TieRule::leftmost;
  AssocRecallOptions narrow;
  narrow.window = 2;
  AssocRecallOptions lrnn_only;
  lrnn_only.attention = false;
  SelectiveCopyOptions copy_narrow;
  copy_narrow.window = 1;
  for (const Construction& c : {associative_recall(leftmost), associative_recall(narrow),
                                associative_recall(lrnn_only), selective_copy(copy_narrow)}) {
    INFO(c.name);
    const auto s = model_walk_subject(c);
    REQUIRE(s);
    bool failed = false;
    for (std::size_t n = 1; n <= 5; ++n) {
      const DeviceCheckReport r = model_walk_check(*s, options(n));
      const Reference ref = reference(c, n);
      REQUIRE(r.mismatches == ref.mismatches);
      REQUIRE(r.first_counterexample == ref.first);
      failed = failed || r.mismatches > 0;
    }
    REQUIRE(failed);  // a check that cannot fail proves nothing
  }
}

TEST_CASE("model walk: random integer models of every layer kind == evaluate()", "[model_walk]") {
  std::mt19937_64 rng(20261204);
  AssocRecallOptions one;
  one.keys = 1;
  one.values = 1;  // |Σ| = 3
  for (int trial = 0; trial < 12; ++trial) {
    INFO("trial " << trial);
    const Construction spec = trial % 2 ? associative_recall(one) : selective_copy({});
    const Construction c =
        with_model(spec, random_integer_model(rng, spec.model.alphabet), "random");
    const auto s = model_walk_subject(c);
    REQUIRE(s);
    const std::size_t n = trial % 2 ? 7 : 5;
    const DeviceCheckReport shared = model_walk_check(*s, options(n));
    const DeviceCheckReport plain = model_walk_check(*s, options(n, true));
    const Reference ref = reference(c, n);
    REQUIRE(shared.overflowed == 0);
    REQUIRE(shared.mismatches == ref.mismatches);
    REQUIRE(shared.skipped == ref.skipped);
    REQUIRE(shared.first_counterexample == ref.first);
    REQUIRE(plain.mismatches == ref.mismatches);
    REQUIRE(plain.first_counterexample == ref.first);
    // Output for output: every layer's y_t of the walk's frames == evaluate()'s, on random
    // strings (a wrong step that still mismatches f on the same strings fails here).
    const RationalField Q;
    mwalk::Tables t = s->tables;
    t.P = s->parameters.data();
    for (int i = 0; i < 40; ++i) {
      const std::size_t len = 1 + rng() % 12;
      std::vector<std::size_t> w(len);
      for (auto& x : w) x = rng() % t.symbols;
      t.length = static_cast<std::uint32_t>(len);
      std::vector<std::int64_t> stack((len + 1) * t.frame_words);
      mwalk::initial_frame(t, stack.data());
      const auto trace = evaluate(c.model, Q, w);
      for (std::size_t p = 1; p <= len; ++p) {
        REQUIRE(mwalk::step(t, stack.data(), static_cast<std::uint32_t>(p),
                            static_cast<std::uint32_t>(w[p - 1])));
        for (std::size_t l = 0; l < c.model.layers.size(); ++l) {
          const auto& y = trace.layers[l].outputs[p - 1];
          REQUIRE(y.data().size() == t.layer[l].out);
          for (std::size_t j = 0; j < y.data().size(); ++j)
            REQUIRE(Rational(stack[p * t.frame_words + t.layer[l].out_at + j]) == y.data()[j]);
        }
      }
    }
  }
}

TEST_CASE("model walk: slices add up to the whole", "[model_walk]") {
  AssocRecallOptions narrow;
  narrow.window = 2;
  const Construction c = associative_recall(narrow);
  const auto s = model_walk_subject(c);
  REQUIRE(s);
  const std::size_t n = 6;
  const DeviceCheckReport whole = model_walk_check(*s, options(n));
  std::uint64_t mism = 0, skipped = 0, strings = 0;
  std::optional<std::vector<std::size_t>> first;
  const std::uint64_t all = whole.strings, step = 4099;  // not aligned to |Σ|^s
  for (std::uint64_t f = 0; f < all; f += step) {
    ModelWalkOptions o = options(n);
    o.first = f;
    o.count = step;
    const DeviceCheckReport part = model_walk_check(*s, o);
    const Reference ref = reference(c, n, f, std::min(step, all - f));
    REQUIRE(part.mismatches == ref.mismatches);
    REQUIRE(part.first_counterexample == ref.first);
    mism += part.mismatches;
    skipped += part.skipped;
    strings += part.strings;
    if (!first && part.first_counterexample) first = part.first_counterexample;
  }
  REQUIRE(strings == all);
  REQUIRE(mism == whole.mismatches);
  REQUIRE(skipped == whole.skipped);
  REQUIRE(first == whole.first_counterexample);
}

TEST_CASE("model walk: the suffix depth is the device's choice, and the steps follow it",
          "[model_walk]") {
  // |Σ|^s ≈ 2^16 strings a CPU task, 2^10 a GPU thread, s ≤ L − 1; an asked depth wins.
  REQUIRE(model_walk_suffix_depth(6, 7, CheckDevice::cpu) == 6);  // ⌊16·ln 2 / ln 6⌋ = 6
  REQUIRE(model_walk_suffix_depth(6, 7, CheckDevice::gpu) == 3);  // ⌊10·ln 2 / ln 6⌋ = 3
  REQUIRE(model_walk_suffix_depth(3, 40, CheckDevice::cpu) == 10);
  REQUIRE(model_walk_suffix_depth(3, 40, CheckDevice::gpu) == 6);
  REQUIRE(model_walk_suffix_depth(2, 40, CheckDevice::gpu) == 10);
  REQUIRE(model_walk_suffix_depth(6, 3, CheckDevice::gpu, 5) == 2);
  REQUIRE(model_walk_suffix_depth(6, 30, CheckDevice::cpu, 5) == 5);
  REQUIRE(model_walk_suffix_depth(1000, 9, CheckDevice::cpu) == 1);  // at least 1

  // Hand count, |Σ| = 3, L = 2, s = 1: three tasks of three strings; each task's first string
  // takes 2 steps, the next two 1 each (only position 2 changes): 3·(2 + 1 + 1) = 12.
  AssocRecallOptions one;
  one.keys = 1;
  one.values = 1;
  const auto s = model_walk_subject(associative_recall(one));
  REQUIRE(s);
  REQUIRE(s->tables.symbols == 3);
  ModelWalkOptions o;
  o.length = 2;
  o.suffix_depth = 1;
  REQUIRE(model_walk_check(*s, o).steps == 12);
  // L = 7: s = 6 counts fewer steps than s = 3, and the count at a given s does not depend on
  // the threads.
  o.length = 7;
  o.suffix_depth = 6;
  const std::uint64_t deep = model_walk_check(*s, o).steps;
  o.suffix_depth = 3;
  const std::uint64_t shallow = model_walk_check(*s, o).steps;
  o.cpu_threads = 1;
  REQUIRE(model_walk_check(*s, o).steps == shallow);
  REQUIRE(deep < shallow);
  // Σ^7 as 3 tasks of 3^6 strings: 7 steps for the first, then (3 − 1)·3^(6−j) increments that
  // change the j lowest digits (j steps each): 7 + Σ_{j=1..6} 2·3^(6−j)·j.
  std::uint64_t per_task = 7;
  for (std::uint64_t j = 1, power = 243; j <= 6; ++j, power /= 3) per_task += 2 * power * j;
  REQUIRE(deep == 3 * per_task);
}

TEST_CASE("model walk: the tasks' definitions are Target::value and Target::promise",
          "[model_walk]") {
  std::mt19937_64 rng(7);
  std::vector<Construction> cs;
  for (std::size_t k = 1; k <= 3; ++k)
    for (std::size_t v = 1; v <= 3; ++v) {
      AssocRecallOptions o;
      o.keys = k;
      o.values = v;
      o.span = 2 + rng() % 6;
      cs.push_back(associative_recall(o));
    }
  for (std::size_t K = 1; K <= 3; ++K)
    for (std::size_t N = 1; N <= 4; ++N) {
      SelectiveCopyOptions o;
      o.data_symbols = K;
      o.max_distance = N;
      cs.push_back(selective_copy(o));
    }
  for (const Construction& c : cs) {
    const auto s = model_walk_subject(c);
    REQUIRE(s);
    std::size_t inside = 0;
    for (int i = 0; i < 400; ++i) {
      const std::size_t n = 1 + rng() % 24;
      std::vector<std::size_t> w(n);
      std::vector<std::uint32_t> digits(n);
      for (std::size_t j = 0; j < n; ++j)
        digits[j] = static_cast<std::uint32_t>(w[j] = rng() % c.target.alphabet.size());
      std::int64_t f = 0;
      const bool in = mwalk::spec_value(s->tables, digits.data(), static_cast<std::uint32_t>(n), f);
      INFO(c.name << " " << c.target.alphabet.join(w));
      REQUIRE(in == c.target.promise(w));
      if (in) {
        ++inside;
        REQUIRE(Rational(f) == c.target.value(w));
      }
    }
    REQUIRE(inside > 0);
  }
}

TEST_CASE("model walk: values past 64 bits are counted, not compared", "[model_walk]") {
  // Layer 1 of the copy model with its t counter's decay set to 2^40: t₂ = 2^40 + 1, whose
  // square (layer 2's t²) leaves 64 bits at the second position.
  Construction c = selective_copy({});
  auto& l = std::get<LrnnLayer>(c.model.layers[0].layer);
  for (auto& A : l.A) A(0, 0) = Rational(Integer(1) << 40);
  const auto s = model_walk_subject(c);
  REQUIRE(s);
  const DeviceCheckReport one = model_walk_check(*s, options(1));
  REQUIRE(one.overflowed == 0);
  REQUIRE(one.exact);
  const DeviceCheckReport r = model_walk_check(*s, options(4));
  REQUIRE(r.overflowed == r.strings);  // every string of length 4 squares t₂ = 2^40 + 1
  REQUIRE_FALSE(r.exact);
  REQUIRE(r.mismatches == 0);
  REQUIRE(r.first_overflow == std::vector<std::size_t>(4, 0));
  const DeviceCheckReport plain = model_walk_check(*s, options(4, true));
  REQUIRE(plain.overflowed == r.overflowed);
}

TEST_CASE("model walk: refusals say why", "[model_walk]") {
  std::string why;
  // A rational parameter.
  Construction half = selective_copy({});
  std::get<LrnnLayer>(half.model.layers[0].layer).B[0](0, 0) = Rational(1, 2);
  REQUIRE_FALSE(model_walk_subject(half, &why));
  REQUIRE_THAT(why, Catch::Contains("non-integer entry 1/2"));
  // Averaging attention divides.
  Construction avg = associative_recall({});
  std::get<AttentionLayer>(avg.model.layers.back().layer).kind = AttentionKind::averaging_hard;
  REQUIRE_FALSE(model_walk_subject(avg, &why));
  REQUIRE_THAT(why, Catch::Contains("averaging_hard"));
  // No task the walk defines: the graph walk (encode is not the identity either), a WFA.
  REQUIRE_FALSE(model_walk_subject(graph_walk(3, GraphWalkVariant::ever), &why));
  REQUIRE_FALSE(why.empty());
  // Length 0 and past the walk's stack.
  const auto s = model_walk_subject(associative_recall({}));
  REQUIRE(s);
  REQUIRE(model_walk_not_applicable(*s, 0));
  REQUIRE(model_walk_not_applicable(*s, mwalk::kMaxLength + 1));
  REQUIRE_FALSE(model_walk_not_applicable(*s, mwalk::kMaxLength));
  test::expect_input_error([&] { model_walk_check(*s, options(0)); }, "--exhaustive", "length 0");
  ModelWalkOptions past = options(3);
  past.first = 216;  // 6^3
  test::expect_input_error([&] { model_walk_check(*s, past); }, "--first", "past the last");
}

TEST_CASE("model walk: verify --exhaustive on the CPU takes it where no circuit runs",
          "[model_walk]") {
  auto walked = [](const VerifyReport& r) {
    for (const auto& n : r.notes)
      if (n.find(kModelWalkMethod) != std::string::npos) return true;
    return false;
  };
  VerifyOptions o;
  o.random = 0;
  o.exhaustive = 6;
  o.three_way = false;  // no per-string circuit: the walk takes every length
  o.prove = false;
  o.seed = 1;
  VerifyOptions per_string = o;  // three-way on: per-string circuits, no walk
  per_string.three_way = true;
  // Holds: the same counts as string by string.
  const Construction good = associative_recall({});
  const VerifyReport a = verify(good, o), b = verify(good, per_string);
  REQUIRE(walked(a));
  REQUIRE_FALSE(walked(b));
  REQUIRE(a.holds);
  REQUIRE(b.holds);
  REQUIRE(a.checked.at("exhaustive") == b.checked.at("exhaustive"));
  REQUIRE(a.checked.at("skipped (outside the promise)") ==
          b.checked.at("skipped (outside the promise)"));
  // Fails: the same least counterexample.
  AssocRecallOptions narrow;
  narrow.window = 2;
  const Construction bad = associative_recall(narrow);
  const VerifyReport c = verify(bad, o), d = verify(bad, per_string);
  REQUIRE(walked(c));
  REQUIRE_FALSE(c.holds);
  REQUIRE_FALSE(d.holds);
  REQUIRE(c.counterexample->input == d.counterexample->input);
}

TEST_CASE("model walk: device_check on the CPU walks a hybrid model", "[model_walk]") {
  AssocRecallOptions narrow;
  narrow.window = 2;
  const Construction c = associative_recall(narrow);
  DeviceCheckOptions o;
  o.length = 5;
  o.device = CheckDevice::cpu;
  const DeviceCheckReport r = device_check(c, o);
  REQUIRE(r.method == kModelWalkMethod);
  const Reference ref = reference(c, 5);
  REQUIRE(r.mismatches == ref.mismatches);
  REQUIRE(r.mismatches > 0);
  REQUIRE(r.skipped == ref.skipped);
  REQUIRE(r.first_counterexample == ref.first);
}

TEST_CASE("model walk: its lengths count against their own cap, not the per-string one",
          "[model_walk][diagnostics]") {
  AssocRecallOptions small;
  small.keys = 1;
  small.values = 1;  // |Σ| = 3: 9 840 strings of length 1..8
  const Construction c = associative_recall(small);
  VerifyOptions o;
  o.random = 0;
  o.exhaustive = 8;
  o.prove = false;
  o.seed = 1;
  o.exhaustive_cap = 100;
  o.shared_exhaustive_cap = 100'000;
  // String by string (three-way): every length counts against exhaustive_cap.
  test::expect_input_error([&] { verify(c, o); }, "--exhaustive",
                           "9840 strings (|Σ| = 3, lengths 1..8) exceed the cap of 100");
  // The model walk at every length: within shared_exhaustive_cap, so it runs.
  o.three_way = false;
  const VerifyReport r = verify(c, o);
  CHECK(r.holds);
  CHECK(r.checked.at("exhaustive") + r.checked.at("skipped (outside the promise)") == 9840);
  o.shared_exhaustive_cap = 9839;
  test::expect_input_error([&] { verify(c, o); }, "--exhaustive",
                           "9840 strings by prefix sharing or the model walk (|Σ| = 3, lengths "
                           "1..8) exceed their cap of 9839");
}
