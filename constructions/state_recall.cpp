#include "constructions/state_recall.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "constructions/registry.hpp"
#include "rnn/families.hpp"

namespace rnncc {

namespace {

constexpr std::size_t kRegisters = 5;
constexpr std::size_t kD = 2 * kRegisters + 2;  // two label copies, last bit, constant
constexpr std::size_t kBitRow = 2 * kRegisters, kOneRow = kBitRow + 1;
constexpr std::size_t kMarkers = 2;                    // ids: 0, 1 bits; 2..6 markers a..e
constexpr std::size_t kSwaps = kMarkers + kRegisters;  // ids 7..16 transpositions

// Token ids of the target (and model) alphabet.
bool is_bit(std::size_t s) {
  return s < kMarkers;
}
bool is_marker(std::size_t s) {
  return s >= kMarkers && s < kSwaps;
}
bool is_swap(std::size_t s) {
  return s >= kSwaps;
}

std::vector<std::pair<std::size_t, std::size_t>> swap_pairs() {  // 0-based registers
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t a = 0; a < kRegisters; ++a)
    for (std::size_t b = a + 1; b < kRegisters; ++b) out.push_back({a, b});
  return out;
}

std::vector<std::string> symbols() {
  std::vector<std::string> out = {"0", "1"};
  for (std::size_t i = 0; i < kRegisters; ++i) out.push_back(std::string(1, char('a' + i)));
  for (auto [a, b] : swap_pairs())
    out.push_back("(" + std::to_string(a + 1) + std::to_string(b + 1) + ")");
  return out;
}

// f(w) = x_{q_1}, q_1 = p_{π⁻¹(1)} (state_recall.hpp), computed directly: the registers'
// dereferenced bits (−1: no bit) from the bits-and-markers subsequence, then the swaps.
Rational recall(const std::vector<std::size_t>& w) {
  const auto pairs = swap_pairs();
  std::array<int, kRegisters> deref;
  deref.fill(-1);
  int last_bit = -1;
  for (std::size_t s : w) {
    if (s >= kSwaps + pairs.size()) throw InputError("state-recall", "symbol id out of range");
    if (is_bit(s)) last_bit = static_cast<int>(s);
    if (is_marker(s)) deref[s - kMarkers] = last_bit;
  }
  std::array<std::size_t, kRegisters> slot;  // slot[i] = the register whose content is in i
  for (std::size_t i = 0; i < kRegisters; ++i) slot[i] = i;
  for (std::size_t s : w)
    if (is_swap(s)) std::swap(slot[pairs[s - kSwaps].first], slot[pairs[s - kSwaps].second]);
  return Rational(deref[slot[0]] == 1 ? 1 : 0);
}

Vector unit(std::size_t i) {
  Vector v(kD, Rational(0));
  v[i] = 1;
  return v;
}

LrnnLayer gdn_layer(std::size_t features) {
  const auto pairs = swap_pairs();
  LayerFrame frame;
  frame.d = kD;
  frame.m = 2;
  frame.features = features;
  frame.initial_state = Matrix<Rational>(kD, 2, Rational(0));
  for (std::size_t i = 0; i < kRegisters; ++i)
    for (std::size_t copy : {std::size_t{0}, kRegisters}) {
      const Rational label(static_cast<long>(i + 1));
      frame.initial_state(copy + i, 0) = label;
      frame.initial_state(copy + i, 1) = label * label;
    }
  frame.initial_state(kOneRow, 0) = 1;
  constexpr std::size_t rows = 5;
  frame.readout = Matrix<Rational>(rows, kD, Rational(0));
  frame.readout(0, 0) = 1;  // slot 1: (j, j²)
  std::vector<DeltaStep> steps;
  const Vector gate{Rational(1)};
  for (std::size_t s = 0; s < features; ++s) {
    Matrix<Rational> read(rows, kD, Rational(0));
    if (is_bit(s)) {
      steps.push_back({gate, Rational(1), unit(kBitRow), {Rational(static_cast<long>(s)), 0}});
      read(4, kOneRow) = 1;
    } else if (is_marker(s)) {
      steps.push_back({gate, Rational(2), Vector(kD, Rational(0)), {0, 0}});
      const Rational i(static_cast<long>(s - kMarkers + 1));
      read(1, kBitRow) = 1;
      read(2, kOneRow) = i;
      read(3, kOneRow) = i * i;
    } else {
      const auto [a, b] = pairs[s - kSwaps];
      Vector k(kD, Rational(0));
      const Rational half(1, 2);
      k[a] = k[kRegisters + a] = half;
      k[b] = k[kRegisters + b] = -half;
      steps.push_back({gate, Rational(2), k, {0, 0}});
      read(4, kOneRow) = 1;
    }
    frame.readout_feature.push_back(std::move(read));
  }
  return make_delta(Family::gated_deltanet, std::move(frame), std::move(steps),
                    BetaRange::half_open_0_2);
}

// z = (j, j², x·[marker], i, i², [default]) from vec_row(y), y 5×2.
InputMap input_map() {
  InputMap m;
  m.weights = Matrix<Rational>(6, 10, Rational(0));
  const std::array<std::size_t, 6> pick = {0, 1, 2, 4, 6, 8};
  for (std::size_t r = 0; r < pick.size(); ++r) m.weights(r, pick[r]) = 1;
  return m;
}

AttentionLayer attention() {
  AttentionLayer a;
  a.kind = AttentionKind::unique_hard;
  a.tie = TieRule::rightmost;
  a.features = 6;
  a.query = {Matrix<Rational>(3, 6, Rational(0)), Matrix<Rational>(3, 1, Rational(0))};
  a.query.weights(0, 0) = 1;  // j
  a.query.weights(1, 1) = 1;  // j²
  a.query.bias(2, 0) = 1;     // 1
  a.key = {Matrix<Rational>(3, 6, Rational(0)), Matrix<Rational>(3, 1, Rational(0))};
  a.key.weights(0, 3) = 2;                // 2i
  a.key.weights(1, 5) = 1;                // [default]
  a.key.weights(2, 4) = -1;               // −i²
  a.key.weights(2, 5) = Rational(-1, 2);  // −[default]/2
  a.value = {Matrix<Rational>(1, 6, Rational(0)), Matrix<Rational>(1, 1, Rational(0))};
  a.value.weights(0, 2) = 1;  // x·[marker]
  check_layer(a);
  return a;
}

Rational largest(const Matrix<Rational>& m, Rational so_far) {
  for (const Rational& q : m.data()) so_far = std::max(so_far, Rational(abs(q)));
  return so_far;
}

}  // namespace

std::optional<RecallOrder> parse_recall_order(std::string_view text) {
  if (text == "bits-first") return RecallOrder::bits_first;
  if (text == "perm-first") return RecallOrder::perm_first;
  if (text == "as-given") return RecallOrder::as_given;
  return std::nullopt;
}

Construction state_recall(RecallOrder order) {
  const std::vector<std::string> names = symbols();
  Construction c;
  c.name = std::string("state-recall (") +
           (order == RecallOrder::bits_first   ? "bits first"
            : order == RecallOrder::perm_first ? "permutation first"
                                               : "as given") +
           ")";
  c.model.name = c.name;
  c.model.description =
      "state-based recall [OLMOH26 Def 2, Thm 1]: a Gated DeltaNet layer swaps register labels "
      "by Householder reflections (β = 2) and keeps the last bit; one unique-hard attention "
      "layer fetches the bit of the latest marker of the register now in slot 1";
  c.model.alphabet = Alphabet(names, "state-recall tokens");
  c.model.layers.push_back({std::nullopt, gdn_layer(names.size())});
  c.model.layers.push_back({input_map(), attention()});
  c.model.accept = Acceptance{Acceptance::Mode::positive, 0, 0};
  c.target.alphabet = Alphabet(names, "state-recall");
  c.target.value = recall;
  c.target.boolean_spec = {"state-recall", {{"order", static_cast<std::size_t>(order)}}};
  c.encode = [order](const std::vector<std::size_t>& w) {
    for (std::size_t s : w)
      if (s >= kSwaps + swap_pairs().size())
        throw InputError("state-recall", "symbol id " + std::to_string(s) + " is out of range");
    if (order == RecallOrder::as_given) return w;
    std::vector<std::size_t> out;
    const bool swaps_first = order == RecallOrder::perm_first;
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t s : w)
        if (is_swap(s) == (swaps_first == (pass == 0))) out.push_back(s);
    return out;
  };
  if (order == RecallOrder::as_given) {
    const std::size_t sigma = names.size();
    c.input_forms = [sigma](std::size_t n) {
      std::vector<InputSource> out(n * sigma);
      for (std::size_t i = 0; i < n * sigma; ++i)
        out[i].variables.push_back(static_cast<std::uint32_t>(i));
      return out;
    };
  }

  // Claims, measured on the built model.
  const LrnnLayer& gdn = std::get<LrnnLayer>(c.model.layers[0].layer);
  const AttentionLayer& att = std::get<AttentionLayer>(c.model.layers[1].layer);
  std::size_t attention_layers = 0;
  for (const StackLayer& l : c.model.layers)
    attention_layers += std::holds_alternative<AttentionLayer>(l.layer);
  std::size_t minus_one = 0, bad_norm = 0, bad_gate = 0;
  RationalField Q;
  Rational big = largest(gdn.initial_state, 0);
  big = largest(gdn.readout, big);
  for (std::size_t f = 0; f < gdn.features; ++f) {
    const auto& dp = std::get<DeltaParams>(gdn.record[f]);
    Matrix<Rational> k(kD, 1);
    Rational norm = 0;
    for (std::size_t i = 0; i < kD; ++i) {
      k(i, 0) = dp.k[i];
      norm += dp.k[i] * dp.k[i];
    }
    if (norm != 0 && norm != 1) ++bad_norm;
    if (norm != 0 && mul(Q, gdn.A[f], k) == scale(Q, Rational(-1), k)) ++minus_one;
    for (const Rational& a : dp.alpha) bad_gate += a != 1;
    big = largest(k, big);
    big = largest(gdn.readout_feature[f], big);
    for (const Rational& v : dp.v) big = std::max(big, Rational(abs(v)));
  }
  for (const LinearMap* m : {&att.query, &att.key, &att.value}) {
    big = largest(m->weights, big);
    big = largest(m->bias, big);
  }
  big = largest(c.model.layers[1].input->weights, big);
  c.claims.push_back({"GDN state d×m", "= 12×2",
                      std::to_string(gdn.d) + "×" + std::to_string(gdn.m),
                      gdn.d == 12 && gdn.m == 2});
  c.claims.push_back(
      claim_equal("layers", Integer(2), Integer(static_cast<long>(c.model.layers.size()))));
  c.claims.push_back(
      claim_equal("attention layers", Integer(1), Integer(static_cast<long>(attention_layers))));
  c.claims.push_back(claim_equal("tokens with eigenvalue −1 (the 10 transpositions)", Integer(10),
                                 Integer(static_cast<long>(minus_one))));
  c.claims.push_back(
      claim_equal("nonzero keys with ‖k‖² ≠ 1", Integer(0), Integer(static_cast<long>(bad_norm))));
  c.claims.push_back(claim_equal("gates α ≠ 1", Integer(0), Integer(static_cast<long>(bad_gate))));
  c.claims.push_back({"precision: largest |parameter| (O(1) bits, any length)", "≤ 25",
                      to_string(big), big <= 25});
  return c;
}

// ---- the `state-recall` kind (constructions/registry.hpp) ----

void register_state_recall(Registry& registry) {
  registry.add(
      {.name = "state-recall",
       .help = "state-based recall by a Gated DeltaNet layer + one attention layer [OLMOH26]",
       .options = {{.name = "--order",
                    .kind = OptionKind::choice,
                    .help = "bits-first, perm-first or as-given",
                    .default_value = "bits-first",
                    .allowed = {"bits-first", "perm-first", "as-given"}}},
       .build_from = [](const OptionValues& v) {
         return state_recall(parse_recall_order(v.text("--order")).value());
       }});
}

}  // namespace rnncc
