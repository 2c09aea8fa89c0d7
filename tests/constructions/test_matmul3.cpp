// The iterated 3×3 matrix product by RWKV-7 overwrites [MJLLS26 Thm 5, as audited]
// (constructions/matmul3.hpp): the model against the exact product over Q and mod 29,
// exhaustively up to length 4 and on seeded random strings up to length 30; the structure of
// every token; the claims; and the flawed no-BOS schedule, whose shortest counterexample the
// test finds.
#include <catch2/catch.hpp>
#include <random>

#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/json_text.hpp"
#include "constructions/generators_file.hpp"
#include "constructions/matmul3.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

using Word = std::vector<std::size_t>;

// All strings over {0..sigma−1} of length exactly n, in lexicographic order.
std::vector<Word> all_strings(std::size_t sigma, std::size_t n) {
  std::vector<Word> out(1);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<Word> next;
    for (const Word& w : out)
      for (std::size_t s = 0; s < sigma; ++s) {
        next.push_back(w);
        next.back().push_back(s);
      }
    out = std::move(next);
  }
  return out;
}

std::vector<Word> random_strings(std::uint64_t seed, std::size_t count, std::size_t sigma,
                                 std::size_t max_len) {
  std::mt19937_64 rng(seed);
  std::vector<Word> out;
  for (std::size_t i = 0; i < count; ++i) {
    Word w(1 + rng() % max_len);
    for (auto& s : w) s = rng() % sigma;
    out.push_back(std::move(w));
  }
  return out;
}

// The compared output: entry [out_row][out_col] of the last layer at the last position.
template <Domain K>
typename K::Element model_output(const Construction& c, const K& k, const Word& w) {
  return evaluate(c.model, k, c.encode(w)).outputs().back()(c.out_row, c.out_col);
}

// True iff the model agrees with f on w: exactly, or modulo c.modulus when it is set.
//
// The exact runs use IntegerRing: every parameter of these models is an integer, so the run
// over Z is the run over Q (IntegerRing::from_rational throws on a non-integer parameter, so it
// cannot silently differ), and GMP integers cost about a seventh of GMP rationals per step
// (18×18 products of mpq_t dominate: ~1.5 ms per token over Q). The test "IntegerRing run =
// RationalField run" below checks the two agree on a sample.
bool agrees(const Construction& c, const Word& w) {
  const Rational f = c.target.value(w);
  if (c.modulus) {
    ModP F(*c.modulus);
    return F.equal(model_output(c, F, w), F.from_rational(f));
  }
  return Rational(model_output(c, IntegerRing{}, w)) == f;
}

std::string word_name(const Construction& c, const Word& w) {
  return w.empty() ? std::string("ε") : c.target.alphabet.join(w);
}

// The shortest string (lexicographically first among them) of length 1..max_len on which the
// model disagrees with f, if any.
std::optional<Word> shortest_failure(const Construction& c, std::size_t max_len) {
  for (std::size_t n = 1; n <= max_len; ++n)
    for (const Word& w : all_strings(c.target.alphabet.size(), n))
      if (!agrees(c, w)) return w;
  return std::nullopt;
}

Matrix<Rational> identity18() {
  Matrix<Rational> m(18, 18, Rational(0));
  for (std::size_t i = 0; i < 18; ++i) m(i, i) = 1;
  return m;
}

}  // namespace

TEST_CASE("matmul3: the default generators", "[constructions][matmul3]") {
  const auto gens = default_matmul3_generators();
  REQUIRE(gens.size() == 7);
  auto det = [](const Matrix3& a) {
    return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
           a[2] * (a[3] * a[7] - a[4] * a[6]);
  };
  CHECK(det(gens[0]) == 0);
  CHECK(det(gens[1]) == -1);
  for (std::size_t i = 2; i < 6; ++i) CHECK((det(gens[i]) != 0 && det(gens[i]) != -1));
  CHECK(gens[6] == Matrix3{1, 0, 0, 0, 1, 0, 0, 0, 1});
  for (std::size_t i = 0; i < 7; ++i)
    for (std::size_t j = 0; j < i; ++j) CHECK(gens[i] != gens[j]);
  // Pinned: the default alphabet must not drift (docs/constructions.md lists these).
  CHECK(gens[2] == Matrix3{0, -1, 1, -1, 0, -1, 1, 0, -1});
  CHECK(gens[3] == Matrix3{-1, -1, 0, -1, 1, 0, 1, -1, -1});
  const Construction c = matmul3({});
  CHECK(c.target.alphabet.symbols() ==
        std::vector<std::string>{"M0", "M1", "M2", "M3", "M4", "M5", "M6"});
}

TEST_CASE("matmul3: a two-matrix product by hand", "[constructions][matmul3]") {
  // M2 = [[0,−1,1],[−1,0,−1],[1,0,−1]], M3 = [[−1,−1,0],[−1,1,0],[1,−1,−1]]:
  // M2·M3 = [[2,−2,−1],[0,2,1],[−2,0,1]] (row 0 = −row1(M3) + row2(M3) = (1,−1,0)+(1,−1,−1)),
  // M3·M2 row 0 = −row0(M2) − row1(M2) = (0,1,−1) + (1,0,1) = (1,1,0).
  const Construction c = matmul3({});
  RationalField Q;
  const Word w = {2, 3};
  CHECK(c.target.value(w) == 2);
  CHECK(c.target.value({3, 2}) == 1);
  const Word tokens = c.encode(w);
  REQUIRE(tokens.size() == 1 + 2 * 9);
  CHECK(c.model.alphabet.symbol(tokens[0]) == "BOS");
  // Matrix 1 (odd) reads buffer 0; token p writes (p/3, p mod 3) and carries column p mod 3.
  CHECK(c.model.alphabet.symbol(tokens[1]) == "p0:0-+:odd");    // column 0 of M2
  CHECK(c.model.alphabet.symbol(tokens[5]) == "p4:-00:odd");    // column 1 of M2
  CHECK(c.model.alphabet.symbol(tokens[18]) == "p8:00-:even");  // column 2 of M3
  const auto trace = evaluate(c.model, Q, tokens);
  const auto& S = trace.layers[0].states.back();
  const std::vector<int> m2 = {0, -1, 1, -1, 0, -1, 1, 0, -1};
  const std::vector<int> m2m3 = {2, -2, -1, 0, 2, 1, -2, 0, 1};
  for (std::size_t i = 0; i < 9; ++i) {
    CHECK(S(i, 0) == m2m3[i]);    // matrix 2 (even) wrote buffer 0
    CHECK(S(9 + i, 0) == m2[i]);  // matrix 1 wrote buffer 1: I·M2
  }
  // y_t = (product of the completed matrices)[0][0] at every position.
  const auto& y = trace.outputs();
  CHECK(y[0](0, 0) == 1);  // BOS: I
  for (std::size_t t = 1; t <= 8; ++t) CHECK(y[t](0, 0) == 1);
  for (std::size_t t = 9; t <= 17; ++t) CHECK(y[t](0, 0) == 0);  // M2[0][0]
  CHECK(y[18](0, 0) == 2);
  CHECK(model_output(c, ModP(29), w) == 2);
  CHECK(model_output(c, ModP(29), Word{3, 3}) == 2);  // (M3²)[0][0] = 1 + 1 + 0 = 2
}

// Each of f's strings up to length 4 (7⁴ = 2401 of length 4), over Z and mod 29; split into
// test cases so that ctest can run them side by side.
void check_exhaustive(std::optional<std::uint64_t> modulus) {
  Matmul3Options o;
  o.modulus = modulus;
  const Construction c = matmul3(o);
  REQUIRE(c.modulus == modulus);
  std::size_t checked = 0;
  for (std::size_t n = 0; n <= 4; ++n)
    for (const Word& w : all_strings(c.target.alphabet.size(), n)) {
      INFO(word_name(c, w));
      REQUIRE(agrees(c, w));
      ++checked;
    }
  CHECK(checked == 1 + 7 + 49 + 343 + 2401);
}

TEST_CASE("matmul3: model = product over Z on all strings up to length 4",
          "[constructions][matmul3]") {
  check_exhaustive(std::nullopt);
}

TEST_CASE("matmul3: model = product mod 29 on all strings up to length 4",
          "[constructions][matmul3]") {
  check_exhaustive(29);
}

TEST_CASE("matmul3: model = product on 200 random strings up to length 30 over Z and mod 29",
          "[constructions][matmul3]") {
  for (std::optional<std::uint64_t> modulus : {std::optional<std::uint64_t>{}, {29}}) {
    Matmul3Options o;
    o.modulus = modulus;
    const Construction c = matmul3(o);
    INFO((modulus ? "mod 29" : "over Z"));
    for (const Word& w : random_strings(2603, 200, c.target.alphabet.size(), 30)) {
      INFO(word_name(c, w));
      REQUIRE(agrees(c, w));
    }
  }
}

TEST_CASE("matmul3: the IntegerRing run = the RationalField run = f over Q",
          "[constructions][matmul3]") {
  for (bool stacked : {false, true}) {
    const Construction c = stacked ? matmul3_stacked({}) : matmul3({});
    std::vector<Word> sample;
    for (std::size_t n = 0; n <= (stacked ? 1 : 2); ++n)
      for (const Word& w : all_strings(7, n)) sample.push_back(w);
    for (const Word& w : random_strings(2605, stacked ? 2 : 10, 7, stacked ? 10 : 30))
      sample.push_back(w);
    for (const Word& w : sample) {
      INFO((stacked ? "stacked " : "") << word_name(c, w));
      const Rational q = model_output(c, RationalField{}, w);
      REQUIRE(q == c.target.value(w));
      REQUIRE(q == Rational(model_output(c, IntegerRing{}, w)));
    }
  }
}

TEST_CASE("matmul3: exact values exceed 29 so the mod-29 run wraps", "[constructions][matmul3]") {
  // Guards against a test that passes trivially: the exact values grow, and some exceed 29.
  const Construction c = matmul3({});
  Integer largest = 0;
  for (const Word& w : random_strings(2603, 200, 7, 30)) {
    const Rational f = c.target.value(w);
    largest = std::max(largest, Integer(boost::multiprecision::abs(numerator(f))));
  }
  CHECK(largest > 29);
}

TEST_CASE("matmul3: every overwrite token is I − e_j e_jᵀ + e_j cᵀ with c_j = 0",
          "[constructions][matmul3]") {
  const Construction c = matmul3({});
  const LrnnLayer& l = std::get<LrnnLayer>(c.model.layers.at(0).layer);
  REQUIRE(l.family == Family::rwkv7);
  REQUIRE(l.d == 18);
  const std::size_t bos = *c.model.alphabet.find("BOS");
  for (std::size_t f = 0; f < l.features; ++f) {
    INFO("token " << c.model.alphabet.symbol(f));
    if (f == bos) {  // A = 0, B = vec(I) in buffer 0
      CHECK(l.A[f] == Matrix<Rational>(18, 18, Rational(0)));
      for (std::size_t i = 0; i < 18; ++i)
        CHECK(l.B[f](i, 0) == Rational(i == 0 || i == 4 || i == 8 ? 1 : 0));
      continue;
    }
    // j: the one row where A differs from I.
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < 18; ++i)
      for (std::size_t k = 0; k < 18; ++k)
        if (l.A[f](i, k) != (i == k ? 1 : 0)) {
          rows.push_back(i);
          break;
        }
    REQUIRE(rows.size() == 1);
    const std::size_t j = rows[0];
    Vector cvec(18);
    for (std::size_t k = 0; k < 18; ++k) cvec[k] = l.A[f](j, k);
    CHECK(cvec[j] == 0);  // c_j = 0
    // A = I − e_j e_jᵀ + e_j cᵀ, rebuilt from j and c.
    Matrix<Rational> rebuilt = identity18();
    rebuilt(j, j) -= 1;
    for (std::size_t k = 0; k < 18; ++k) rebuilt(j, k) += cvec[k];
    CHECK(l.A[f] == rebuilt);
    CHECK(l.B[f] == Matrix<Rational>(18, 1, Rational(0)));
    // The RWKV-7 parameters: w = 1, a = e_j, b = c − e_j (sign convention of diag(w) + a bᵀ).
    const auto& p = std::get<Rwkv7Params>(l.record[f]);
    for (std::size_t k = 0; k < 18; ++k) {
      CHECK(p.w[k] == 1);
      CHECK(p.a[k] == (k == j ? 1 : 0));
      CHECK(p.b[k] == cvec[k] - (k == j ? 1 : 0));
    }
    // Reads one buffer, writes the other; the parity in the name says which.
    const std::string& name = c.model.alphabet.symbol(f);
    const std::size_t written = name.ends_with(":odd") ? 1 : 0;
    CHECK(j / 9 == written);
    for (std::size_t k = 0; k < 18; ++k)
      if (cvec[k] != 0) CHECK(k / 9 == 1 - written);
    // The sub-position p writes entry (p/3, p mod 3).
    CHECK(j % 9 == static_cast<std::size_t>(name[1] - '0'));
  }
}

TEST_CASE("matmul3: claims hold on the built model", "[constructions][matmul3]") {
  for (std::optional<std::uint64_t> modulus : {std::optional<std::uint64_t>{}, {29}}) {
    Matmul3Options o;
    o.modulus = modulus;
    const Construction c = matmul3(o);
    REQUIRE(c.claims.size() >= 8);
    for (const Claim& cl : c.claims) {
      INFO(cl.name << ": claimed " << cl.claimed << ", measured " << cl.measured);
      CHECK(cl.ok);
    }
    CHECK(c.embedding == nullptr);  // several tokens per symbol: no identity-test embedding
  }
  const Construction c = matmul3({});
  CHECK(c.model.alphabet.size() == 121);  // 2 parities × 3 × (7 + 7 + 6 distinct columns) + BOS
}

TEST_CASE("matmul3: the target circuit computes f", "[constructions][matmul3]") {
  const Construction c = matmul3({});
  RationalField Q;
  for (const Word& w : random_strings(7, 30, 7, 8)) {
    const Circuit circuit = c.target.circuit(w.size());
    std::vector<Rational> x(w.size() * 7, Rational(0));
    for (std::size_t t = 0; t < w.size(); ++t) x[t * 7 + w[t]] = 1;
    CHECK(evaluate(circuit, Q, std::span<const Rational>(x)).at(0) == c.target.value(w));
  }
}

TEST_CASE("matmul3: without BOS (the printed schedule) it is wrong from length 3",
          "[constructions][matmul3]") {
  // The flawed variant initializes on the first data token: every "p0:<col>:odd" token sets
  // buffer 0 to vec(I). A token's map cannot know its absolute position, so the same reset
  // fires at sub-position 0 of matrices 3, 5, …, discarding the product M_{w₁}M_{w₂} held
  // there: the model computes (M_{w_i}⋯M_{w_n})[0][0], i the last odd index ≤ n. Lengths 1
  // and 2 are right (the reset fires only at the start), length 3 is the first that can fail.
  Matmul3Options o;
  o.init_on_bos = false;
  const Construction broken = matmul3(o);
  CHECK(broken.encode({}).empty());
  const std::optional<Word> w = shortest_failure(broken, 4);
  REQUIRE(w.has_value());
  CHECK(w->size() == 3);
  INFO("shortest counterexample " << word_name(broken, *w));
  // The first in lexicographic order, by hand: rows 0 of M0 and M1 are e₀ᵀ, so every string
  // M0 M0 x, M0 M1 x agrees; M0 M2 M0 is the first that does not:
  // (M0·M2·M0)[0][0] = (row 0 of M2)·(column 0 of M0) = (0,−1,1)·(1,−1,1) = 2, while the
  // model, having reset at the third factor, outputs M0[0][0] = 1.
  CHECK(*w == Word{0, 2, 0});
  CHECK(broken.target.value(*w) == 2);
  RationalField Q;
  CHECK(model_output(broken, Q, *w) == 1);
  const Rational got = model_output(broken, Q, *w);
  CHECK(got != broken.target.value(*w));
  CHECK(got == broken.target.value({(*w)[2]}));  // only the third factor survived
  // The mechanism on every string up to length 3 and on random longer ones.
  std::vector<Word> sample = random_strings(2606, 30, 7, 12);
  for (std::size_t n = 1; n <= 3; ++n)
    for (const Word& v : all_strings(7, n)) sample.push_back(v);
  for (const Word& v : sample) {
    INFO(word_name(broken, v));
    const std::size_t last_odd = (v.size() - 1) / 2 * 2;  // 0-based index of the last odd factor
    REQUIRE(Rational(model_output(broken, IntegerRing{}, v)) ==
            broken.target.value(Word(v.begin() + static_cast<std::ptrdiff_t>(last_odd), v.end())));
  }
  // The claims measure the flaw too: the initializing tokens "p0:<col>:odd" (one per distinct
  // column 0 of a generator: 7) clear 10 coordinates (buffer 0 and the written one) and add
  // vec(I), so they are not identity + rank one.
  for (const Claim& cl : broken.claims) {
    INFO(cl.name << ": claimed " << cl.claimed << ", measured " << cl.measured);
    if (cl.name.starts_with("max rank(A_σ − I)")) {
      CHECK(!cl.ok);
      CHECK(cl.measured == "10");
    } else if (cl.name.starts_with("non-BOS tokens with B_σ ≠ 0")) {
      CHECK(!cl.ok);
      CHECK(cl.measured == "7");
    } else {
      CHECK(cl.ok);  // rank(A − diag A) stays ≤ 1: A is diagonal there
    }
  }
  // The same flaw mod 29.
  o.modulus = 29;
  const std::optional<Word> wp = shortest_failure(matmul3(o), 3);
  REQUIRE(wp.has_value());
  CHECK(wp->size() == 3);
}

TEST_CASE("matmul3: bad generators are input errors", "[constructions][matmul3]") {
  // Any rational entry is a generator now; what is refused: a modulus dividing a denominator
  // (no value mod p) and more than max_generators matrices.
  Matmul3Options o;
  o.generators = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {1, 0, 0, 0, Rational(2, 29), 0, 0, 0, 1}};
  CHECK_NOTHROW(matmul3(o));
  o.modulus = 29;
  CHECK_THROWS_AS(matmul3(o), InputError);
  CHECK_THROWS_WITH(matmul3(o), Catch::Contains("29 divides the denominator of generator M1 entry "
                                                "[1][1] = 2/29, which has no value mod 29"));
  CHECK_THROWS_AS(matmul3_stacked(o), InputError);
  o.modulus = 31;
  CHECK_NOTHROW(matmul3(o));
  o.modulus.reset();
  o.generators.assign(max_generators + 1, Matrix3{1, 0, 0, 0, 1, 0, 0, 0, 1});
  CHECK_THROWS_WITH(matmul3(o), Catch::Contains("257 generators; at most 256"));
  CHECK_THROWS_AS(matmul3_stacked(o), InputError);
}

TEST_CASE("matmul3: custom generators and a hand product", "[constructions][matmul3]") {
  // A = [[1,1,0],[0,1,0],[0,0,1]], B = [[1,0,0],[1,1,0],[0,0,−1]]:
  // AB = [[2,1,0],[1,1,0],[0,0,−1]], BA = [[1,1,0],[1,2,0],[0,0,−1]], (AB)² [0][0] = 4+1 = 5.
  Matmul3Options o;
  o.generators = {{1, 1, 0, 0, 1, 0, 0, 0, 1}, {1, 0, 0, 1, 1, 0, 0, 0, -1}};
  const Construction c = matmul3(o);
  RationalField Q;
  CHECK(c.target.value({0, 1}) == 2);
  CHECK(c.target.value({1, 0}) == 1);
  CHECK(c.target.value({0, 1, 0, 1}) == 5);
  for (const Word& w : {Word{0, 1}, Word{1, 0}, Word{0, 1, 0, 1}, Word{}})
    CHECK(model_output(c, Q, w) == c.target.value(w));
}

TEST_CASE("matmul3 stacked: a counter layer supplies the sub-position",
          "[constructions][matmul3]") {
  for (std::optional<std::uint64_t> modulus : {std::optional<std::uint64_t>{}, {29}}) {
    Matmul3Options o;
    o.modulus = modulus;
    const Construction c = matmul3_stacked(o);
    INFO((modulus ? "mod 29" : "over Q"));
    REQUIRE(c.model.layers.size() == 2);
    for (const Claim& cl : c.claims) {
      INFO(cl.name << ": claimed " << cl.claimed << ", measured " << cl.measured);
      CHECK(cl.ok);
    }
    // The model reads only column tokens (and BOS): no sub-position in the input.
    for (const std::string& s : c.model.alphabet.symbols())
      CHECK((s == "BOS" || (s.starts_with("c:") && s.size() == 5)));
    for (std::size_t n = 0; n <= 2; ++n)
      for (const Word& w : all_strings(7, n)) {
        INFO(word_name(c, w));
        REQUIRE(agrees(c, w));
      }
    for (const Word& w : random_strings(2604, 20, 7, 12)) {
      INFO(word_name(c, w));
      REQUIRE(agrees(c, w));
    }
  }
  Matmul3Options o;
  o.init_on_bos = false;
  const std::optional<Word> w = shortest_failure(matmul3_stacked(o), 3);
  REQUIRE(w.has_value());
  CHECK(w->size() == 3);
}

// ---- generator files and open generators (issue 16, item 4) ----

namespace {

// The exact product M_{w₁}⋯M_{w_n} by plain 3×3 matrix multiplication (an oracle independent
// of the construction's row-vector target).
Matrix<Rational> product(const std::vector<Matrix3>& gens, const Word& w) {
  Matrix<Rational> p(3, 3, Rational(0));
  for (std::size_t i = 0; i < 3; ++i) p(i, i) = 1;
  for (std::size_t id : w) {
    Matrix<Rational> next(3, 3, Rational(0));
    for (std::size_t r = 0; r < 3; ++r)
      for (std::size_t s = 0; s < 3; ++s)
        for (std::size_t k = 0; k < 3; ++k) next(r, s) += p(r, k) * gens[id][3 * k + s];
    p = std::move(next);
  }
  return p;
}

// Two constructions are the same: alphabets, model file, encodings and f on `words`.
void check_same_construction(const Construction& a, const Construction& b,
                             const std::vector<Word>& words) {
  CHECK(a.name == b.name);
  CHECK(a.target.alphabet.symbols() == b.target.alphabet.symbols());
  CHECK(a.model.alphabet.symbols() == b.model.alphabet.symbols());
  CHECK(json_text(model_to_json(a.model), 0) == json_text(model_to_json(b.model), 0));
  CHECK(a.claims.size() == b.claims.size());
  for (const Word& w : words) {
    CHECK(a.encode(w) == b.encode(w));
    CHECK(a.target.value(w) == b.target.value(w));
  }
}

std::string gens_json(const std::string& matrices) {
  return R"({"format": "rnncc-generators", "matrices": )" + matrices + "}";
}

}  // namespace

TEST_CASE("generators file: the defaults from a file = the built-in path",
          "[constructions][matmul3]") {
  const std::vector<Matrix3> defaults = default_matmul3_generators();
  const std::string text = generators_to_json(defaults);
  const std::vector<Matrix3> read = parse_generators(text, "defaults.json");
  REQUIRE(read == defaults);
  const std::vector<Word> words = random_strings(16, 30, 7, 6);
  for (bool stacked : {false, true})
    for (bool bos : {true, false}) {
      INFO((stacked ? "stacked" : "one layer") << (bos ? "" : ", no BOS"));
      Matmul3Options builtin, from_file;
      builtin.init_on_bos = from_file.init_on_bos = bos;
      from_file.generators = read;
      from_file.modulus = builtin.modulus = 29;
      check_same_construction(stacked ? matmul3_stacked(builtin) : matmul3(builtin),
                              stacked ? matmul3_stacked(from_file) : matmul3(from_file), words);
    }
  // Integers as JSON numbers or strings, and "-0", "2/2", "0.5" read as the same rationals.
  const auto a = parse_generators(
      gens_json(R"([[[1, 0, "-0"], ["2/2", -1, 0], ["0.5", 0, "1/2"]]])"), "a.json");
  const auto b = parse_generators(
      gens_json(R"([[["1", "0", 0], [1, "-1", "0"], ["1/2", "0", "0.5"]]])"), "b.json");
  CHECK(a == b);
  CHECK(a[0][6] == Rational(1, 2));
}

TEST_CASE("matmul3: two permutation matrices, every string up to length 4 by hand",
          "[constructions][matmul3]") {
  // M0 = the 3-cycle 0→1→2→0, M1 = the transposition (0 1), as permutation matrices with row i
  // holding its 1 at column π(i). Then (M_{w₁}⋯M_{w_n})[0][0] = 1 iff the composite map
  // i ↦ π_{w_n}(…π_{w₁}(i)) fixes 0 — computed here on indices, not matrices.
  const std::array<std::array<std::size_t, 3>, 2> perm = {{{1, 2, 0}, {1, 0, 2}}};
  const std::vector<Matrix3> gens = parse_generators(
      gens_json(R"([[[0,1,0],[0,0,1],[1,0,0]], [["0","1","0"],["1","0","0"],["0","0","1"]]])"),
      "perm.json");
  for (std::size_t g = 0; g < 2; ++g)
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) CHECK(gens[g][3 * i + j] == (j == perm[g][i] ? 1 : 0));
  Matmul3Options o;
  o.generators = gens;
  for (bool stacked : {false, true}) {
    const Construction c = stacked ? matmul3_stacked(o) : matmul3(o);
    for (const Claim& cl : c.claims) {
      INFO(cl.name << ": claimed " << cl.claimed << ", measured " << cl.measured);
      CHECK(cl.ok);
    }
    std::size_t checked = 0, ones = 0;
    for (std::size_t n = 0; n <= 4; ++n)
      for (const Word& w : all_strings(2, n)) {
        std::size_t x = 0;
        for (std::size_t id : w) x = perm[id][x];
        const int hand = x == 0 ? 1 : 0;
        INFO((stacked ? "stacked " : "") << word_name(c, w));
        REQUIRE(c.target.value(w) == hand);
        REQUIRE(Rational(model_output(c, IntegerRing{}, w)) == hand);
        ++checked;
        ones += static_cast<std::size_t>(hand);
      }
    CHECK(checked == 31);
    CHECK(ones == 11);  // 11 of the 31 words fix 0 (ε, M0³, M1², …), counted by hand
  }
}

TEST_CASE("matmul3: rational generators are exact over Q and mod p", "[constructions][matmul3]") {
  // D = diag(1/2, 1, 2), R = [[1, 1, 0], [0, 1, 0], [−3/4, 0, 1]].
  const std::vector<Matrix3> gens = parse_generators(
      gens_json(R"([[["1/2",0,0],[0,1,0],[0,0,2]], [[1,1,0],[0,1,0],["-3/4",0,1]]])"), "rat.json");
  Matmul3Options o;
  o.generators = gens;
  const Construction c = matmul3(o);
  // By hand: f(D) = 1/2, f(R) = 1, f(D R) = 1/2, f(R D) = 1/2, f(D D D) = 1/8,
  // f(R R) = 1 + 0·… = (R²)[0][0] = 1·1 + 1·0 + 0·(−3/4) = 1; f(R D R) = row0(R D)·col0(R) =
  // (1/2, 1, 0)·(1, 0, −3/4) = 1/2.
  CHECK(c.target.value({0}) == Rational(1, 2));
  CHECK(c.target.value({0, 1}) == Rational(1, 2));
  CHECK(c.target.value({0, 0, 0}) == Rational(1, 8));
  CHECK(c.target.value({1, 0, 1}) == Rational(1, 2));
  CHECK(c.model.alphabet.find("p6:[1/2;0;0]:odd").has_value());
  CHECK(c.model.alphabet.find("p0:[1;0;-3/4]:even").has_value());
  RationalField Q;
  ModP F(31);
  Matmul3Options mod = o;
  mod.modulus = 31;
  const Construction cp = matmul3(mod);
  for (std::size_t n = 0; n <= 3; ++n)
    for (const Word& w : all_strings(2, n)) {
      INFO(word_name(c, w));
      const Rational want = product(gens, w)(0, 0);
      REQUIRE(c.target.value(w) == want);
      REQUIRE(model_output(c, Q, w) == want);
      REQUIRE(F.equal(model_output(cp, F, w), F.from_rational(want)));
    }
  // The stacked variant on the same rational generators.
  const Construction s = matmul3_stacked(o);
  for (const Word& w : random_strings(5, 6, 2, 4)) {
    INFO("stacked " << word_name(s, w));
    REQUIRE(model_output(s, Q, w) == product(gens, w)(0, 0));
  }
  for (const Claim& cl : s.claims) {
    INFO(cl.name);
    CHECK(cl.ok);
  }
}

TEST_CASE("diagnostic: generator files", "[constructions][matmul3]") {
  auto error_of = [](const std::string& text) {
    return test::input_error_of([&] { parse_generators(text, "gens.json"); }).what;
  };
  const std::string I = R"([[1,0,0],[0,1,0],[0,0,1]])";
  CHECK_THAT(
      error_of(gens_json("[" + I + "," + I + R"(,[[1,0,0],[0,1],[0,0,1]]])")),
      Catch::Contains("gens.json: /matrices/2/1") && Catch::Contains("expected 3 entries, got 2"));
  CHECK_THAT(error_of(gens_json(R"([[[1,0,0],[0,1,0]]])")),
             Catch::Contains("/matrices/0") && Catch::Contains("expected 3 rows, got 2"));
  CHECK_THAT(error_of(gens_json(R"([[1,0,0]])")),
             Catch::Contains("/matrices/0/0") && Catch::Contains("expected a row"));
  CHECK_THAT(error_of(gens_json(R"([5])")),
             Catch::Contains("/matrices/0") && Catch::Contains("expected a 3×3 matrix"));
  CHECK_THAT(error_of(gens_json(R"([[[1,0,0],[0,"x",0],[0,0,1]]])")),
             Catch::Contains("/matrices/0/1/1") && Catch::Contains("expected a rational"));
  CHECK_THAT(error_of(gens_json(R"([[[1,0,0],[0,0.5,0],[0,0,1]]])")),
             Catch::Contains("/matrices/0/1/1") && Catch::Contains("exact rational"));
  CHECK_THAT(error_of(gens_json(R"([[[1,0,0],[0,true,0],[0,0,1]]])")),
             Catch::Contains("/matrices/0/1/1"));
  CHECK_THAT(error_of(gens_json(R"([[[1,0,0],[0,1,0],[0,0,"3/0"]]])")),
             Catch::Contains("/matrices/0/2/2") && Catch::Contains("zero denominator in \"3/0\""));
  CHECK_THAT(error_of(gens_json("[]")),
             Catch::Contains("gens.json: /matrices") && Catch::Contains("at least one matrix"));
  std::string many = "[" + I;
  for (std::size_t i = 0; i < max_generators; ++i) many += "," + I;
  CHECK_THAT(error_of(gens_json(many + "]")),
             Catch::Contains("/matrices") && Catch::Contains("at most 256 matrices, got 257"));
  CHECK_NOTHROW(parse_generators(gens_json(many.substr(0, many.size() - I.size() - 1) + "]"), "x"));
  CHECK_THAT(error_of(R"({"format": "rnncc-model", "matrices": []})"),
             Catch::Contains("/format") && Catch::Contains("\"rnncc-generators\""));
  CHECK_THAT(error_of(R"({"matrices": []})"), Catch::Contains("member \"format\""));
  CHECK_THAT(error_of(R"({"format": "rnncc-generators"})"), Catch::Contains("member \"matrices\""));
  CHECK_THAT(error_of(R"({"format": "rnncc-generators", "matrices": [], "extra": 1})"),
             Catch::Contains("/extra") && Catch::Contains("unknown member"));
  CHECK_THAT(error_of("[1, 2]"), Catch::Contains("expected an object"));
  CHECK_THAT(error_of("{\"format\": "), Catch::Contains("gens.json:1:"));
  CHECK_THROWS_AS(load_generators("/nonexistent/gens.json"), InputError);
}
