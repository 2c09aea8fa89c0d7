#include "rnn/generate.hpp"

#include <algorithm>
#include <bit>
#include <variant>

#include "algebra/error.hpp"
#include "algebra/saturating.hpp"
#include "rnn/checked_int64.hpp"

namespace rnncc {

void check_prompt(const Model& model, const std::vector<std::size_t>& prompt) {
  if (prompt.empty()) throw InputError("prompt", "generation needs a non-empty prompt");
  for (std::size_t i = 0; i < prompt.size(); ++i)
    if (prompt[i] >= model.alphabet.size())
      throw InputError("prompt", "token " + std::to_string(i + 1) + " has id " +
                                     std::to_string(prompt[i]) + ", outside the alphabet");
}

namespace {

// What the engine measures while it steps (rnn/evaluate.hpp, "Meters"): the work in
// estimate_incremental_work's units, and the least and greatest of the values a step shows
// (the largest |value| is the larger of −low and high).
template <Domain K>
struct GenerationMeter {
  K k;
  typename K::Element low = k.zero(), high = k.zero();
  std::uint64_t units = 0;
  void work(std::uint64_t, std::uint64_t incremental) { units += incremental; }
  void size(const typename K::Element& x) {
    if (high < x)
      high = x;
    else if (x < low)
      low = x;
  }
  Rational largest() const { return std::max(-k.to_rational(low), k.to_rational(high)); }
};

// The layers the engine runs: LRNN, Elman, and attention but softmax (InputError otherwise).
void check_incremental(const Model& model) {
  for (std::size_t li = 0; li < model.layers.size(); ++li) {
    const Layer& l = model.layers[li].layer;
    const std::string where = "layer " + std::to_string(li);
    if (const auto* a = std::get_if<AttentionLayer>(&l); a && a->kind == AttentionKind::softmax)
      throw InputError(where,
                       "softmax attention has no exact semantics; generation here is "
                       "exact (exp of a nonzero rational is irrational)");
    if (std::holds_alternative<LstmLayer>(l))
      throw InputError(where, "the incremental evaluator has no " + layer_kind(l) +
                                  " layers; use the plain evaluator");
  }
}

// The incremental evaluator on numbers K (exact rationals, or checked 64-bit integers): every
// layer's state after the positions fed, stepped by the reference semantics (step_stack).
template <Domain K>
struct Engine {
  K k;
  StackParams<K> params;
  std::vector<LayerState<K>> states;
  GenerationMeter<K> meter{k};
  Matrix<typename K::Element> last;  // the last layer's output at the last position
  std::vector<std::optional<std::size_t>> attended;
  std::size_t t = 0;  // positions fed

  Engine(const Model& model, bool use_index)
      : params(prepare_stack(model, k, use_index)), states(initial_states(params)) {}

  void feed(std::size_t token) {
    last = step_stack(params, k, states, token, meter, t + 1);
    attended.assign(states.size(), std::nullopt);
    for (std::size_t li = 0; li < states.size(); ++li)
      if (const auto* a = std::get_if<detail::AttentionParams<K>>(&params.layers[li].params);
          a && a->layer->kind == AttentionKind::unique_hard)
        attended[li] = states[li].memory.attended.front();
    ++t;
  }
};

}  // namespace

struct IncrementalModel::Impl {
  Model model;
  IncrementalOptions options;
  std::variant<Engine<RationalField>, Engine<CheckedInt64>> engine;
  std::uint64_t replayed_work = 0;     // work of an engine given up after an overflow
  std::vector<std::uint32_t> history;  // the tokens fed, for a replay on rationals

  // Integer models run on checked int64 (a mean needs division: not with averaging attention),
  // the others on rationals. Attention layers point into `model`, the member.
  std::variant<Engine<RationalField>, Engine<CheckedInt64>> make() const {
    check_incremental(model);
    bool averaging = false;
    for (const StackLayer& sl : model.layers)
      if (const auto* a = std::get_if<AttentionLayer>(&sl.layer))
        averaging = averaging || a->kind == AttentionKind::averaging_hard;
    if (options.integer_fast_path && !averaging) {
      try {
        return Engine<CheckedInt64>(model, options.attention_index);
      } catch (const DomainError&) {  // a parameter that is not an integer of 64 bits
      }
    }
    return Engine<RationalField>(model, options.attention_index);
  }
  Impl(const Model& m, const IncrementalOptions& o) : model(m), options(o), engine(make()) {}
};

IncrementalModel::IncrementalModel(const Model& model, const IncrementalOptions& options)
    : impl_(std::make_unique<Impl>(model, options)) {}
IncrementalModel::~IncrementalModel() = default;
IncrementalModel::IncrementalModel(IncrementalModel&&) noexcept = default;
IncrementalModel& IncrementalModel::operator=(IncrementalModel&&) noexcept = default;

void IncrementalModel::feed(std::size_t token) {
  if (token >= impl_->model.alphabet.size())
    throw InputError("generation",
                     "token id " + std::to_string(token) + " is outside the alphabet");
  impl_->history.push_back(static_cast<std::uint32_t>(token));
  try {
    std::visit([&](auto& e) { e.feed(token); }, impl_->engine);
  } catch (const Int64Overflow&) {
    // Exactness first: replay every token on rationals.
    impl_->replayed_work +=
        std::visit([](const auto& old) { return old.meter.units; }, impl_->engine);
    Engine<RationalField> e(impl_->model, impl_->options.attention_index);
    for (std::uint32_t u : impl_->history) e.feed(u);
    impl_->engine = std::move(e);
  }
}

std::size_t IncrementalModel::positions() const {
  return std::visit([](const auto& e) { return e.t; }, impl_->engine);
}

Matrix<Rational> IncrementalModel::output() const {
  return std::visit(
      [](const auto& e) { return map(e.last, [&](const auto& x) { return e.k.to_rational(x); }); },
      impl_->engine);
}

std::size_t IncrementalModel::next_token() const {
  return std::visit(
      [&](const auto& e) -> std::size_t {
        if (e.last.rows() != e.params.symbols || e.last.cols() != 1)
          return rnncc::next_token(RationalField{}, output(), e.params.symbols);  // throws
        std::size_t best = 0;
        for (std::size_t i = 1; i < e.last.rows(); ++i)
          if (e.last(best, 0) < e.last(i, 0)) best = i;
        return best;
      },
      impl_->engine);
}

std::vector<std::optional<std::size_t>> IncrementalModel::attended() const {
  return std::visit([](const auto& e) { return e.attended; }, impl_->engine);
}

Rational IncrementalModel::largest() const {
  return std::visit([](const auto& e) { return e.meter.largest(); }, impl_->engine);
}

std::uint64_t IncrementalModel::work() const {
  return saturating_add(impl_->replayed_work,
                        std::visit([](const auto& e) { return e.meter.units; }, impl_->engine));
}

namespace {

std::uint64_t nonzeros(const Matrix<Rational>& m) {
  std::uint64_t n = 0;
  for (const Rational& x : m.data()) n += x != 0;
  return n;
}

// Σ_{p=1}^{P} min(p, w): the positions brute-force attention scores over P positions.
std::uint64_t visible_sum(std::uint64_t P, std::optional<std::size_t> window) {
  auto triangle = [](std::uint64_t n) {
    return saturating_mul(n % 2 == 0 ? n / 2 : n, n % 2 == 0 ? n + 1 : (n + 1) / 2);
  };
  if (!window || *window >= P) return triangle(P);
  const std::uint64_t w = *window;
  return saturating_add(triangle(w), saturating_mul(P - w, w));
}

}  // namespace

std::uint64_t estimate_incremental_work(const Model& model, std::uint64_t positions,
                                        const IncrementalOptions& options) {
  std::uint64_t per_position = 0, total = 0;  // linear terms; attention's own sum in total
  auto add = [&](std::uint64_t x) { per_position = saturating_add(per_position, x); };
  for (std::size_t li = 0; li < model.layers.size(); ++li) {
    const StackLayer& sl = model.layers[li];
    if (sl.input) add(nonzeros(sl.input->weights));
    const bool one_hot = li == 0 && !sl.input;  // one feature a position
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
      std::uint64_t features = 0;
      for (std::size_t f = 0; f < l->features; ++f) {
        std::uint64_t c =
            saturating_add(saturating_mul(nonzeros(l->A[f]), l->m), nonzeros(l->B[f]));
        if (!l->readout_feature.empty())
          c = saturating_add(c, saturating_mul(nonzeros(l->readout_feature[f]), l->m));
        features = one_hot ? std::max(features, c) : saturating_add(features, c);
      }
      add(features);
      add(saturating_mul(l->d, l->m));                  // see(S)
      add(saturating_mul(nonzeros(l->readout), l->m));  // C·S
      add(saturating_mul(l->readout.rows(), l->m));     // see(y)
    } else if (const auto* e = std::get_if<ElmanLayer>(&sl.layer)) {
      add(nonzeros(e->pre.W) + nonzeros(e->pre.U) + e->d + nonzeros(e->readout) +
          e->readout.rows());
    } else if (const auto* a = std::get_if<AttentionLayer>(&sl.layer)) {
      const std::uint64_t h = a->key_size(), r = a->value_size();
      add(nonzeros(a->query.weights) + nonzeros(a->key.weights) + nonzeros(a->value.weights) +
          2 * h + r + (a->residual ? a->features : 0) + r);
      const bool indexed = options.attention_index && a->kind == AttentionKind::unique_hard &&
                           !a->window && a->position_bias == 0 && h == 2;
      if (indexed) {  // lookups and four scores a position
        add(2 * (static_cast<std::uint64_t>(std::bit_width(positions)) + 1) + 4 * (h + 2) + 1);
      } else {
        std::uint64_t score = h + 2;
        if (a->kind == AttentionKind::averaging_hard) score += r;  // every visible one may tie
        total = saturating_add(total, saturating_mul(score, visible_sum(positions, a->window)));
      }
    } else {
      add(0);  // LSTM: the incremental evaluator refuses it (InputError)
    }
  }
  return saturating_add(total, saturating_mul(per_position, positions));
}

bool IncrementalModel::on_integers() const {
  return std::holds_alternative<Engine<CheckedInt64>>(impl_->engine);
}

bool IncrementalModel::indexed() const {
  return std::visit(
      [](const auto& e) {
        for (const auto& l : e.params.layers)
          if (const auto* a = std::get_if<3>(&l.params); a && a->indexed) return true;
        return false;
      },
      impl_->engine);
}

Generation generate(const Model& model, const RationalField&,
                    const std::vector<std::size_t>& prompt, std::size_t max_new_tokens,
                    const GenerationRule& rule, const IncrementalOptions& options) {
  check_prompt(model, prompt);
  IncrementalModel im(model, options);
  for (std::size_t u : prompt) im.feed(u);
  Generation g;
  while (g.tokens.size() < max_new_tokens) {
    const std::size_t next = im.next_token();
    g.tokens.push_back(next);
    if (rule.stops_on(next)) {
      g.stopped = true;
      break;
    }
    im.feed(next);
  }
  g.largest = im.largest();
  return g;
}

}  // namespace rnncc
