// Autoregressive generation (rnn/generate.hpp): a hand-built successor model, the incremental
// evaluator against the reference evaluator on every position of random stacks (LRNN of every
// family, attention of every exact kind, Elman), the checked-int64 path against rationals
// (including an overflow that falls back), and the model file's "generation" key.
#include <catch2/catch.hpp>

#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/generate.hpp"
#include "rnn/model_json.hpp"
#include "tests/random_models.hpp"

using namespace rnncc;

namespace {

// One general LRNN layer, d = |Σ|, A = 0, B_k = e_{succ(k)}, C = I: y_t = e_{succ(u_t)}.
// succ: a → b → c → a; "x" has B = 0, so y = 0 and the tie goes to the lowest index (a).
Model successor_model() {
  Model m;
  m.name = "successor";
  m.alphabet = Alphabet({"a", "b", "c", "x"}, "test");
  LrnnLayer l;
  l.family = Family::general;
  l.d = 4;
  l.features = 4;
  const std::size_t succ[] = {1, 2, 0};
  for (std::size_t k = 0; k < 4; ++k) {
    l.A.push_back(Matrix<Rational>(4, 4, Rational(0)));
    Matrix<Rational> B(4, 1, Rational(0));
    if (k < 3) B(succ[k], 0) = 1;
    l.B.push_back(B);
  }
  l.initial_state = Matrix<Rational>(4, 1, Rational(0));
  l.readout = Matrix<Rational>(4, 4, Rational(0));
  for (std::size_t i = 0; i < 4; ++i) l.readout(i, i) = 1;
  l.record.assign(4, NoParams{});
  m.layers.push_back({std::nullopt, l});
  return m;
}

std::vector<std::string> names(const Model& m, const std::vector<std::size_t>& ids) {
  std::vector<std::string> out;
  for (std::size_t id : ids) out.push_back(m.alphabet.symbol(id));
  return out;
}

// A random stack over |Σ| = 3: LRNN (a random family, m ∈ {1, 2}) → attention (random kind,
// tie, window, bias, residual) → Elman ReLU with |Σ| outputs.
Model random_stack(std::mt19937_64& rng, bool integer) {
  Model m;
  m.alphabet = Alphabet({"a", "b", "c"}, "test");
  const std::size_t S = 3;
  const Family fam = integer ? Family::general : test::all_families[rng() % 11];
  const std::size_t mm = 1 + rng() % 2;
  LrnnLayer l1 = test::random_layer(rng, fam, 2, mm, S);
  if (integer) test::integer_parameters(rng, l1, 2);
  m.layers.push_back({std::nullopt, l1});
  const std::size_t k2 = 2 * mm;
  AttentionLayer a;
  a.kind = integer || rng() % 2 ? AttentionKind::unique_hard : AttentionKind::averaging_hard;
  a.tie = rng() % 2 ? TieRule::rightmost : TieRule::leftmost;
  a.features = k2;
  a.query = {test::random_int_matrix(rng, 2, k2), test::random_int_matrix(rng, 2, 1)};
  a.key = {test::random_int_matrix(rng, 2, k2), test::random_int_matrix(rng, 2, 1)};
  a.value = {test::random_int_matrix(rng, 2, k2), test::random_int_matrix(rng, 2, 1)};
  a.position_bias = Rational(static_cast<long>(rng() % 3) - 1, integer ? 1 : 3);
  if (rng() % 3 == 0) a.window = 1 + rng() % 4;
  a.residual = rng() % 2;
  InputMap im1{test::random_int_matrix(rng, k2, 2 * mm), test::random_int_matrix(rng, k2, 1)};
  m.layers.push_back({im1, a});
  const std::size_t k3 = a.output_rows();
  ElmanLayer e;
  e.activation = rng() % 2 ? Activation::relu : Activation::sign;
  e.d = 3;
  e.features = 3;
  e.pre = {test::random_int_matrix(rng, 3, 3), test::random_int_matrix(rng, 3, 3),
           test::random_int_matrix(rng, 3, 1)};
  e.initial_state = test::random_int_matrix(rng, 3, 1);
  e.readout = test::random_int_matrix(rng, S, 3);
  e.readout_bias = test::random_int_matrix(rng, S, 1);
  InputMap im2{test::random_int_matrix(rng, 3, k3), test::random_int_matrix(rng, 3, 1)};
  m.layers.push_back({im2, e});
  return m;
}

}  // namespace

TEST_CASE("generate: the successor model, by hand", "[generate]") {
  const Model m = successor_model();
  GenerationRule none;
  // From "a": b c a b c a (cap 6).
  Generation g = generate(m, RationalField{}, {0}, 6, none);
  CHECK(names(m, g.tokens) == std::vector<std::string>{"b", "c", "a", "b", "c", "a"});
  CHECK(!g.stopped);
  // Stop on c: the stop token is emitted, then generation ends.
  GenerationRule stop_c{{2}};
  g = generate(m, RationalField{}, {0}, 6, stop_c);
  CHECK(names(m, g.tokens) == std::vector<std::string>{"b", "c"});
  CHECK(g.stopped);
  // Only the last prompt token matters here; "x" gives y = 0: ties go to the lowest index, a.
  g = generate(m, RationalField{}, {2, 3}, 2, none);
  CHECK(names(m, g.tokens) == std::vector<std::string>{"a", "b"});
  CHECK(generate(m, RationalField{}, {0}, 0, none).tokens.empty());
  // The plain twin agrees.
  const Generation p = generate_plain(m, RationalField{}, {2, 3}, 2, none);
  CHECK(p.tokens == std::vector<std::size_t>{0, 1});
}

TEST_CASE("generate: diagnostics", "[generate]") {
  const Model m = successor_model();
  CHECK_THROWS_WITH(generate(m, RationalField{}, {}, 3, {}),
                    "prompt: generation needs a non-empty prompt");
  CHECK_THROWS_WITH(generate(m, RationalField{}, {7}, 3, {}),
                    "prompt: token 1 has id 7, outside the alphabet");
  Model wide = m;
  std::get<LrnnLayer>(wide.layers[0].layer).readout = Matrix<Rational>(2, 4, Rational(0));
  CHECK_THROWS_WITH(generate(wide, RationalField{}, {0}, 3, {}),
                    "generation: the last layer outputs 2×1, but generation needs 4×1 (one "
                    "score per alphabet symbol)");
  CHECK_THROWS_WITH(generate_plain(wide, RationalField{}, {0}, 3, {}),
                    "generation: the last layer outputs 2×1, but generation needs 4×1 (one "
                    "score per alphabet symbol)");
}

TEST_CASE("generate: incremental = reference evaluator at every position (random stacks)",
          "[generate]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const bool integer = trial % 2 == 0;
    const Model m = random_stack(rng, integer);
    IncrementalOptions rat;
    rat.integer_fast_path = false;
    IncrementalModel fast(m), slow(m, rat);
    std::vector<std::size_t> seq;
    for (int t = 0; t < 12; ++t) {
      const std::size_t u = rng() % 3;
      seq.push_back(u);
      fast.feed(u);
      slow.feed(u);
      const Trace<RationalField> ref = evaluate(m, RationalField{}, seq);
      INFO("trial " << trial << ", position " << t + 1);
      REQUIRE(fast.output() == ref.outputs().back());
      REQUIRE(slow.output() == ref.outputs().back());
      // The attention picks the same position (unique-hard).
      const auto& att = ref.layers[1].attended.back();
      if (std::get<AttentionLayer>(m.layers[1].layer).kind == AttentionKind::unique_hard) {
        REQUIRE(fast.attended()[1] == std::optional<std::size_t>(att.front()));
      }
    }
    CHECK(fast.on_integers() == integer);
    CHECK(!slow.on_integers());
    CHECK(fast.largest() == slow.largest());
    // Generation: plain twin and incremental agree token for token.
    const Generation a = generate(m, RationalField{}, {0, 1}, 10, {});
    const Generation b = generate_plain(m, RationalField{}, {0, 1}, 10, {});
    REQUIRE(a.tokens == b.tokens);
  }
}

// A second LRNN layer reads its input map's z_t, which is not one-hot, so A(z_t) = Σ z_k A_k is
// formed (the first layer's one-hot shortcut does not apply): the incremental evaluator against
// the reference evaluator at every position, on checked int64 (until a value overflows and it
// replays on rationals) and on rationals, every family on top for rational models.
TEST_CASE("generate: an LRNN over an input map, incremental = reference evaluator", "[generate]") {
  std::mt19937_64 rng(13);
  int stayed = 0;  // integer trials that ended on int64
  for (int trial = 0; trial < 24; ++trial) {
    const bool integer = trial % 2 == 0;
    Model m = random_stack(rng, integer);
    m.layers.resize(1);
    const std::size_t mm = std::get<LrnnLayer>(m.layers[0].layer).m;
    LrnnLayer up = test::random_layer(
        rng, integer ? Family::general : test::all_families[rng() % 11], 2, 1, 3);
    if (integer) test::integer_parameters(rng, up, 3);
    m.layers.push_back(
        {InputMap{test::random_int_matrix(rng, 3, 2 * mm), test::random_int_matrix(rng, 3, 1)},
         std::move(up)});
    IncrementalOptions rat;
    rat.integer_fast_path = false;
    IncrementalModel fast(m), slow(m, rat);
    std::vector<std::size_t> seq;
    for (int t = 0; t < 8; ++t) {
      seq.push_back(rng() % 3);
      fast.feed(seq.back());
      slow.feed(seq.back());
      const Trace<RationalField> ref = evaluate(m, RationalField{}, seq);
      INFO("trial " << trial << ", position " << t + 1);
      REQUIRE(fast.output() == ref.outputs().back());
      REQUIRE(slow.output() == ref.outputs().back());
    }
    if (!integer) CHECK(!fast.on_integers());
    stayed += fast.on_integers();
    CHECK(!slow.on_integers());
    CHECK(fast.largest() == slow.largest());
  }
  CHECK(stayed > 0);
}

TEST_CASE("generate: an int64 overflow replays on rationals", "[generate]") {
  // y_t = 10^6·y_{t−1}: 10^18 fits int64, 10^24 does not.
  Model m;
  m.alphabet = Alphabet({"a"}, "test");
  LrnnLayer l;
  l.family = Family::general;
  l.d = 1;
  l.features = 1;
  l.A = {Matrix<Rational>(1, 1, Rational(1000000))};
  l.B = {Matrix<Rational>(1, 1, Rational(0))};
  l.initial_state = Matrix<Rational>(1, 1, Rational(1));
  l.readout = Matrix<Rational>(1, 1, Rational(1));
  l.record.assign(1, NoParams{});
  m.layers.push_back({std::nullopt, l});
  IncrementalModel im(m);
  CHECK(im.on_integers());
  for (int t = 1; t <= 3; ++t) im.feed(0);
  CHECK(im.on_integers());
  CHECK(im.output()(0, 0) == Rational(Integer(1000000000000000000LL)));
  im.feed(0);
  CHECK(!im.on_integers());
  CHECK(im.output()(0, 0) == Rational(Integer(1000000000000000000LL) * 1000000));
  CHECK(im.positions() == 4);
}

TEST_CASE("generate: the attention index refuses keys off the parabola", "[generate]") {
  // The example attention model has key size 1: no index, brute force, same values.
  Model m = parse_model(R"({"format": "rnncc-model/1", "alphabet": ["a", "b"],
    "layers": [{"kind": "attention", "attention": "unique_hard", "tie": "rightmost",
      "query": {"weights": [["1", "1"], ["-1", "-1"]]},
      "key": {"weights": [["1", "2"], ["1", "3"]]},
      "value": {"weights": [["1", "0"]]}}]})",
                        "inline");
  IncrementalOptions o;
  o.attention_index = true;
  IncrementalModel im(m, o);
  CHECK(im.indexed());
  // Key of "a" = (1, 1) = (w, w²) with w = 1: fine. Key of "b" = (2, 3): not (w, w²).
  im.feed(0);
  CHECK_THROWS_AS(im.feed(1), InputError);
}

TEST_CASE("generate: model files carry the generation rule", "[generate]") {
  const Model m = successor_model();
  const GenerationRule rule{{2, 3}};
  const std::string text = generative_model_to_json(m, rule).dump(2);
  const GenerativeModel back = parse_generative_model(text, "g.json");
  REQUIRE(back.rule);
  CHECK(back.rule->stop == rule.stop);
  CHECK(model_to_json(back.model) == model_to_json(m));
  // Without the key: no rule.
  CHECK(!parse_generative_model(model_to_json(m).dump(), "m.json").rule);
  auto with = [&](const std::string& gen) {
    nlohmann::json j = nlohmann::json::parse(model_to_json(m).dump());
    j["generation"] = nlohmann::json::parse(gen);
    return j.dump();
  };
  CHECK_THROWS_WITH(parse_generative_model(with(R"({"stop": ["a", "z"]})"), "g.json"),
                    "g.json: /generation/stop/1: 'z' is not a symbol of the alphabet");
  CHECK_THROWS_WITH(parse_generative_model(with(R"({"rule": "sample"})"), "g.json"),
                    "g.json: /generation/rule: expected \"argmax\" (the only generation rule), "
                    "got the string \"sample\"");
  CHECK_THROWS_WITH(parse_generative_model(with(R"({"stops": []})"), "g.json"),
                    "g.json: /generation/stops: unknown member \"stops\" (expected one of: rule, "
                    "stop)");
  CHECK_THROWS_WITH(parse_generative_model(with(R"({"stop": "a"})"), "g.json"),
                    "g.json: /generation/stop: expected an array of alphabet symbols, got the "
                    "string \"a\"");
}

// estimate_incremental_work against the work the engine counts (IncrementalModel::work), on
// seeded random stacks (every LRNN family, both attention kinds, windows, input maps, Elman) and
// on the Turing-machine hybrid shape, over 1..400 positions: the estimate is an upper bound and
// within a factor of 2 (plus 64 operations a position for one-hot choices on tiny layers).
TEST_CASE("generate: the work estimate bounds the counted work within 2x", "[generate][work]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 24; ++trial) {
    const bool integer = trial % 2 == 0;
    const Model m = random_stack(rng, integer);
    for (const bool index : {false, true}) {
      IncrementalOptions o;
      o.integer_fast_path = integer;
      o.attention_index = index;
      for (const std::uint64_t positions : {1u, 7u, 60u, 400u}) {
        std::uint64_t counted = 0;
        try {
          IncrementalModel im(m, o);
          for (std::uint64_t t = 0; t < positions; ++t) im.feed(rng() % 3);
          if (integer && !im.on_integers()) continue;  // replayed: counted twice (header)
          counted = im.work();
        } catch (const InputError&) {  // the index's precondition on a random key
          continue;
        }
        const std::uint64_t estimate = estimate_incremental_work(m, positions, o);
        INFO("trial " << trial << ", index " << index << ", " << positions << " positions");
        CHECK(counted <= estimate);
        CHECK(estimate <= 2 * counted + 64 * positions);
      }
    }
  }
}
