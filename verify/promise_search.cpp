#include "verify/promise_search.hpp"

#include <chrono>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "algebra/error.hpp"
#include "verify/finite_equivalence.hpp"

namespace rnncc {

namespace {

std::string config_key(const Configuration& c) {
  std::string key;
  for (const auto& l : c) {
    for (const Rational& x : l.state.data()) {
      key += to_string(x);
      key += ',';
    }
    key += ';';
  }
  return key;
}

}  // namespace

PromiseSearchResult promise_search(const Model& x, std::size_t output, const EncodingGrammar& g,
                                   bool keep_pairs, const PromiseSearchParams& params) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t S = x.alphabet.size();
  for (const auto& row : g.next)
    if (row.size() != S)
      throw InputError("", "the encoding grammar reads " + std::to_string(row.size()) +
                               " tokens; the model has " + std::to_string(S));
  if (g.states() == 0 || g.value.size() != g.states())
    throw InputError("", "the encoding grammar has no states or no value per state");
  if (g.value[g.start])
    throw InputError("",
                     "the encoding grammar accepts the empty string, where the model has no "
                     "output");
  const StackParams<RationalField> params_x = configuration_params(x);
  PromiseSearchResult res;
  res.grammar_states = g.states();
  struct Visit {
    std::size_t q;
    Configuration c;
    std::size_t parent, token;
  };
  std::vector<Visit> visits{{g.start, initial_states(params_x), 0, 0}};
  std::unordered_map<std::string, std::size_t> seen;
  std::unordered_set<std::string> configs;
  {
    const std::string k = config_key(visits[0].c);
    configs.insert(k);
    seen.emplace(std::to_string(g.start) + "|" + k, 0);
  }
  if (keep_pairs) res.explored.push_back({g.start, flatten(visits[0].c), {}});
  auto finish = [&] {
    res.pairs = visits.size();
    res.configurations = configs.size();
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
  };
  for (std::size_t head = 0; head < visits.size(); ++head) {
    for (std::size_t s = 0; s < S; ++s) {
      const std::optional<std::size_t> q2 = g.next[visits[head].q][s];
      if (!q2) continue;
      Configuration c = visits[head].c;
      NoMeter meter;
      const Matrix<Rational> y = step_stack(params_x, RationalField{}, c, s, meter);
      const Rational out = y.data().at(output);
      const std::string ck = config_key(c);
      auto [it, fresh] = seen.emplace(std::to_string(*q2) + "|" + ck, visits.size());
      if (fresh) {
        if (visits.size() >= params.max_pairs)
          throw InputError("", "the promise-restricted product search reaches more than " +
                                   std::to_string(params.max_pairs) +
                                   " (grammar state, configuration) pairs: the configurations "
                                   "may be infinite even on valid encodings");
        configs.insert(ck);
        visits.push_back({*q2, std::move(c), head, s});
        if (keep_pairs) res.explored.push_back({*q2, flatten(visits.back().c), {}});
      }
      if (keep_pairs) res.explored[head].next.emplace_back(s, it->second, out);
      if (g.value[*q2]) {
        ++res.comparisons;
        if (out != *g.value[*q2]) {
          // Every transition is compared once, from pairs in the order of their least words
          // m(P) (breadth-first), tokens in id order; the output of x = u·s, u reaching P, is
          // that of m(P)·s (a function of P and s): so the first failure is on the llex-least
          // failing valid encoding.
          std::vector<std::size_t> w{s};
          for (std::size_t v = head; v != 0; v = visits[v].parent) w.push_back(visits[v].token);
          res.counterexample = std::vector<std::size_t>(w.rbegin(), w.rend());
          res.expected = *g.value[*q2];
          res.got = out;
          res.explored.clear();
          return finish();
        }
      }
    }
  }
  res.proved = true;
  return finish();
}

}  // namespace rnncc
