#include "verify/finite_equivalence.hpp"

#include <chrono>
#include <deque>
#include <stdexcept>
#include <unordered_map>

#include "algebra/exact.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/reachable.hpp"

namespace rnncc {
namespace {

using QVec = std::vector<Rational>;

void refuse_attention(const Model& m) {
  if (m.layers.empty()) throw NotFiniteError("the model has no layers");
  for (std::size_t i = 0; i < m.layers.size(); ++i)
    if (std::holds_alternative<AttentionLayer>(m.layers[i].layer))
      throw NotFiniteError(
          "layer " + std::to_string(i) + " is " + layer_kind(m.layers[i].layer) +
          ", whose output at t reads every key and value so far, not a fixed-size state; the "
          "product search needs a model whose next state is a function of its state and input "
          "(LRNN, Elman, LSTM layers)");
}

std::vector<std::string> strings(const QVec& y) {
  std::vector<std::string> out;
  for (const Rational& x : y) out.push_back(to_string(x));
  return out;
}

std::string too_many(std::size_t cap, const std::string& what) {
  return what + " reaches more than " + std::to_string(cap) +
         " configurations, so its reachable set may be infinite (a counter); the product "
         "search needs finitely many. For models linear in their state use the linear "
         "decider (`rnncc equiv --method linear`); otherwise `rnncc verify`'s testing methods";
}

}  // namespace

std::vector<std::size_t> FiniteMachine::word(std::size_t q) const {
  std::vector<std::size_t> w;
  for (; q != 0; q = parent[q]) w.push_back(symbol[q]);
  return std::vector<std::size_t>(w.rbegin(), w.rend());
}

StackParams<RationalField> configuration_params(const Model& m) {
  refuse_attention(m);
  return prepare_stack(m, RationalField{});
}

std::vector<Rational> flatten(const Configuration& c) {
  std::vector<Rational> out;
  for (const auto& l : c) out.insert(out.end(), l.state.data().begin(), l.state.data().end());
  return out;
}

FiniteMachine finite_machine(const Model& m, const FiniteMachineParams& params) {
  refuse_attention(m);
  ConfigurationSearch search;
  search.max_states = params.max_states;
  const Reachable<ModelConfiguration<RationalField>> r = reachable_configurations(
      m, RationalField{}, search,
      [&] { throw NotFiniteError(too_many(params.max_states, "the model")); });
  FiniteMachine fm;
  fm.symbols = m.alphabet.symbols();
  const Layer& top = m.layers.back().layer;
  fm.outputs = output_rows(top) * output_cols(top);
  fm.next = r.next;
  fm.parent = r.parent;
  fm.symbol = r.symbol;
  for (const auto& c : r.states) fm.output.push_back(c.output.data());  // the start's: none
  return fm;
}

FiniteMachine finite_machine(const Wfa& a, const FiniteMachineParams& params) {
  const std::size_t n = a.states();
  auto step = [&](const QVec& u, std::size_t s) {
    QVec v(n, Rational(0));  // u·M_σ
    for (std::size_t i = 0; i < n; ++i)
      if (u[i] != 0)
        for (std::size_t j = 0; j < n; ++j)
          if (a.transition[s](i, j) != 0) v[j] += u[i] * a.transition[s](i, j);
    return v;
  };
  auto key = [](const QVec& v) {
    std::string k;
    for (const Rational& x : v) k += to_string(x) + ",";
    return k;
  };
  const Reachable<QVec> r = breadth_first(
      a.initial, a.alphabet.size(), params.max_states, SIZE_MAX, step, key,
      [](QVec&, const QVec&) {},
      [&] { throw NotFiniteError(too_many(params.max_states, "the WFA")); });
  FiniteMachine fm;
  fm.symbols = a.alphabet.symbols();
  fm.outputs = 1;
  fm.start_has_output = true;
  fm.next = r.next;
  fm.parent = r.parent;
  fm.symbol = r.symbol;
  for (const QVec& v : r.states) {  // v·β
    Rational y = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (v[i] != 0) y += v[i] * a.final[i];
    fm.output.push_back({y});
  }
  return fm;
}

FiniteMachine finite_machine(const std::variant<Model, Wfa>& s, const FiniteMachineParams& p) {
  return std::visit([&](const auto& x) { return finite_machine(x, p); }, s);
}

FiniteEquivalenceResult decide_finite_equivalence(const FiniteMachine& f, const FiniteMachine& g,
                                                  const FiniteEquivalenceParams& params) {
  check_same_interface(f.symbols, f.outputs, g.symbols, g.outputs);
  const auto t0 = std::chrono::steady_clock::now();
  FiniteEquivalenceResult res;
  res.states_f = f.states();
  res.states_g = g.states();
  const std::size_t S = f.symbols.size(), ng = g.states();
  // Visited pairs: parent pair index and symbol, so the word is rebuilt only when needed.
  struct Visit {
    std::size_t p, q, parent, symbol;
  };
  std::vector<Visit> visits{{0, 0, 0, 0}};
  std::unordered_map<std::size_t, std::size_t> seen{{0, 0}};  // p·|Q_g| + q → visit index
  auto finish = [&] {
    res.states_visited = visits.size();
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  auto word = [&](std::size_t v) {
    std::vector<std::size_t> w;
    for (; v != 0; v = visits[v].parent) w.push_back(visits[v].symbol);
    return std::vector<std::size_t>(w.rbegin(), w.rend());
  };
  auto refute = [&](std::size_t v) {
    const std::vector<std::size_t> w = word(v);
    res.counterexample = EquivalenceCounterexample{w, w.size(), strings(f.output[visits[v].p]),
                                                   strings(g.output[visits[v].q])};
    finish();
    return res;
  };
  // The start pair's outputs are compared at ε only when both define y(ε); otherwise they are
  // compared when a nonempty word first re-enters the pair (the BFS-least such word), since
  // y(u) = output[0] there. Every other pair is compared when first reached.
  bool start_compared = f.start_has_output && g.start_has_output;
  if (start_compared && f.output[0] != g.output[0]) return refute(0);
  // The visit list is the BFS queue: pairs are appended in the order first reached.
  for (std::size_t head = 0; head < visits.size(); ++head) {
    const std::size_t p = visits[head].p, q = visits[head].q;
    for (std::size_t s = 0; s < S; ++s) {
      const std::size_t p2 = f.next[p][s], q2 = g.next[q][s];
      auto [it, fresh] = seen.emplace(p2 * ng + q2, visits.size());
      if (!fresh && it->second == 0 && !start_compared) {
        start_compared = true;
        if (f.output[p2] != g.output[q2]) {
          visits.push_back({p2, q2, head, s});
          return refute(visits.size() - 1);
        }
      }
      if (!fresh) continue;
      if (visits.size() >= params.max_pairs)
        throw InputError("", "the product search reaches more than " +
                                 std::to_string(params.max_pairs) + " pairs of states (" +
                                 std::to_string(f.states()) + " × " + std::to_string(g.states()) +
                                 " states)");
      visits.push_back({p2, q2, head, s});
      if (f.output[p2] != g.output[q2]) return refute(visits.size() - 1);
    }
  }
  res.equivalent = true;
  finish();
  return res;
}

std::optional<EquivalenceCounterexample> exhaustive_subject_counterexample(
    const std::variant<Model, Wfa>& f, const std::variant<Model, Wfa>& g, std::size_t max_length) {
  const RationalField k;
  auto last = [&](const std::variant<Model, Wfa>& s, const std::vector<std::size_t>& w) {
    if (const Wfa* a = std::get_if<Wfa>(&s)) return QVec{evaluate(*a, w)};
    return evaluate(std::get<Model>(s), k, w).outputs().back().data();
  };
  auto symbols = [](const std::variant<Model, Wfa>& s) {
    if (const Wfa* a = std::get_if<Wfa>(&s)) return a->alphabet.symbols();
    return std::get<Model>(s).alphabet.symbols();
  };
  if (symbols(f) != symbols(g)) throw InputError("", "the alphabets differ");
  if (std::holds_alternative<Wfa>(f) && std::holds_alternative<Wfa>(g)) {
    const QVec yf{evaluate(std::get<Wfa>(f), {})}, yg{evaluate(std::get<Wfa>(g), {})};
    if (yf != yg) return EquivalenceCounterexample{{}, 0, strings(yf), strings(yg)};
  }
  const std::size_t S = symbols(f).size();
  std::vector<std::vector<std::size_t>> layer{{}};
  for (std::size_t len = 1; len <= max_length; ++len) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& u : layer)
      for (std::size_t s = 0; s < S; ++s) {
        std::vector<std::size_t> w = u;
        w.push_back(s);
        const QVec yf = last(f, w), yg = last(g, w);
        if (yf != yg) return EquivalenceCounterexample{w, w.size(), strings(yf), strings(yg)};
        next.push_back(std::move(w));
      }
    layer = std::move(next);
  }
  return std::nullopt;
}

}  // namespace rnncc
