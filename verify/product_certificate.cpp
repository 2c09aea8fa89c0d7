#include "verify/product_certificate.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <variant>

namespace rnncc {

namespace {

using ojson = nlohmann::ordered_json;

std::vector<std::string> texts(const std::vector<Rational>& v) {
  std::vector<std::string> out;
  for (const Rational& x : v) out.push_back(to_string(x));
  return out;
}

std::string key(const std::vector<Rational>& v) {
  std::string k;
  for (const Rational& x : v) {
    k += to_string(x);
    k += ',';
  }
  return k;
}

// One WFA step: y = x·M_sym.
std::vector<Rational> wfa_step(const Wfa& a, const std::vector<Rational>& x, std::size_t sym) {
  std::vector<Rational> y(a.states(), Rational(0));
  for (std::size_t i = 0; i < a.states(); ++i)
    if (x[i] != 0)
      for (std::size_t j = 0; j < a.states(); ++j) y[j] += x[i] * a.transition[sym](i, j);
  return y;
}

}  // namespace

std::vector<std::vector<Rational>> machine_states_by_replay(const FiniteMachine& fm,
                                                            const SubjectFile& s) {
  std::vector<std::vector<Rational>> out;
  std::optional<StackParams<RationalField>> p;
  if (const Model* m = std::get_if<Model>(&s.content)) p = configuration_params(*m);
  for (std::size_t q = 0; q < fm.states(); ++q) {
    const std::vector<std::size_t> w = fm.word(q);
    if (const Wfa* a = std::get_if<Wfa>(&s.content)) {
      std::vector<Rational> flat = a->initial;
      for (std::size_t sym : w) flat = wfa_step(*a, flat, sym);
      out.push_back(std::move(flat));
    } else {
      Configuration c = initial_states(*p);
      NoMeter meter;
      for (std::size_t sym : w) step_stack(*p, RationalField{}, c, sym, meter);
      out.push_back(flatten(c));
    }
  }
  return out;
}

std::vector<std::vector<Rational>> machine_states(const FiniteMachine& fm, const SubjectFile& s) {
  for (std::size_t q = 1; q < fm.states(); ++q)
    if (fm.parent[q] >= q) return machine_states_by_replay(fm, s);  // not in BFS order
  std::vector<std::vector<Rational>> out(fm.states());
  if (fm.states() == 0) return out;
  if (const Wfa* a = std::get_if<Wfa>(&s.content)) {
    out[0] = a->initial;
    for (std::size_t q = 1; q < fm.states(); ++q)
      out[q] = wfa_step(*a, out[fm.parent[q]], fm.symbol[q]);
    return out;
  }
  const StackParams<RationalField> p = configuration_params(std::get<Model>(s.content));
  std::vector<Configuration> config(fm.states());
  config[0] = initial_states(p);
  out[0] = flatten(config[0]);
  NoMeter meter;
  for (std::size_t q = 1; q < fm.states(); ++q) {
    config[q] = config[fm.parent[q]];
    step_stack(p, RationalField{}, config[q], fm.symbol[q], meter);
    out[q] = flatten(config[q]);
  }
  return out;
}

namespace {

ojson named(const SubjectFile& s) {
  return {{"file", s.path}, {"digest", subject_digest(s)}};
}

ojson wfa_json(const Wfa& a) {
  ojson j;
  j["format"] = "rnncc-wfa/1";
  j["alphabet"] = a.alphabet.symbols();
  std::vector<std::string> names = a.state_names;
  if (names.size() != a.states()) {
    names.clear();
    for (std::size_t i = 0; i < a.states(); ++i) names.push_back("q" + std::to_string(i));
  }
  j["states"] = names;
  j["initial"] = texts(a.initial);
  j["final"] = texts(a.final);
  ojson t = ojson::object();
  for (std::size_t k = 0; k < a.transition.size(); ++k) {
    ojson rows = ojson::array();
    for (std::size_t i = 0; i < a.transition[k].rows(); ++i) {
      std::vector<Rational> row;
      for (std::size_t c = 0; c < a.transition[k].cols(); ++c) row.push_back(a.transition[k](i, c));
      rows.push_back(texts(row));
    }
    t[a.alphabet.symbol(k)] = rows;
  }
  j["transitions"] = t;
  return j;
}

}  // namespace

std::optional<std::string> not_product_certifiable(const SubjectFile& s) {
  if (s.is_wfa()) return std::nullopt;
  const Model& m = std::get<Model>(s.content);
  for (std::size_t i = 0; i < m.layers.size(); ++i)
    if (!std::holds_alternative<LrnnLayer>(m.layers[i].layer) &&
        !std::holds_alternative<ElmanLayer>(m.layers[i].layer))
      return s.path +
             ": product certificates cover WFAs and models of LRNN and Elman layers (the "
             "checker steps them itself); layer " +
             std::to_string(i) + " is " + layer_kind(m.layers[i].layer);
  return std::nullopt;
}

ojson product_certificate(const FiniteMachine& mf, const FiniteMachine& mg, const SubjectFile& a,
                          const SubjectFile& b) {
  const std::vector<std::vector<Rational>> xf = machine_states(mf, a), xg = machine_states(mg, b);
  // The pairs of machine states reached, breadth-first; a certificate pair is a pair of
  // states (configurations), several machine pairs may share one (y is not part of it).
  std::vector<std::pair<std::size_t, std::size_t>> machine_pairs{{0, 0}};
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> machine_index{{{0, 0}, 0}};
  std::map<std::string, std::size_t> pair_index;
  std::vector<std::size_t> cert_of;  // machine pair → certificate pair
  std::vector<std::size_t> representative;
  auto cert_pair = [&](std::size_t p, std::size_t q) {
    auto [it, fresh] = pair_index.emplace(key(xf[p]) + "|" + key(xg[q]), representative.size());
    if (fresh) representative.push_back(machine_pairs.size() - 1);
    return it->second;
  };
  cert_of.push_back(cert_pair(0, 0));
  const std::size_t S = mf.symbols.size();
  for (std::size_t h = 0; h < machine_pairs.size(); ++h)
    for (std::size_t s = 0; s < S; ++s) {
      const std::pair<std::size_t, std::size_t> to{mf.next[machine_pairs[h].first][s],
                                                   mg.next[machine_pairs[h].second][s]};
      if (machine_index.emplace(to, machine_pairs.size()).second) {
        machine_pairs.push_back(to);
        cert_of.push_back(cert_pair(to.first, to.second));
      }
    }
  ojson j;
  j["format"] = "rnncc-product-certificate/1";
  j["models"] = ojson::array({named(a), named(b)});
  j["alphabet"] = mf.symbols;
  j["outputs"] = mf.outputs;
  if (mf.start_has_output && mg.start_has_output)
    j["empty_word"] = {{"value", texts(mf.output[0])}};
  j["pairs"] = ojson::array();
  for (std::size_t c = 0; c < representative.size(); ++c) {
    const auto [p, q] = machine_pairs[representative[c]];
    ojson next = ojson::array(), outputs = ojson::array();
    for (std::size_t s = 0; s < S; ++s) {
      const std::size_t p2 = mf.next[p][s], q2 = mg.next[q][s];
      next.push_back(cert_of[machine_index.at({p2, q2})]);
      outputs.push_back(texts(mf.output[p2]));
    }
    j["pairs"].push_back(
        {{"f", texts(xf[p])}, {"g", texts(xg[q])}, {"next", next}, {"outputs", outputs}});
  }
  return j;
}

ojson promise_certificate(const PromiseSearchResult& r, const EncodingGrammar& g,
                          const SubjectFile& x, std::size_t output) {
  if (!r.proved || r.explored.empty())
    throw std::logic_error("promise_certificate: not a proof with its explored pairs");
  const Model& m = std::get<Model>(x.content);
  const std::vector<std::string>& tokens = m.alphabet.symbols();
  ojson j;
  j["format"] = "rnncc-promise-certificate/1";
  j["model"] = named(x);
  j["alphabet"] = tokens;
  j["output"] = output;
  j["promise"] = g.promise;
  ojson gr;
  gr["start"] = g.start;
  gr["value"] = ojson::array();
  gr["next"] = ojson::array();
  for (std::size_t q = 0; q < g.states(); ++q) {
    gr["value"].push_back(g.value[q] ? ojson(to_string(*g.value[q])) : ojson(nullptr));
    ojson row = ojson::array();
    for (std::size_t t = 0; t < tokens.size(); ++t)
      if (g.next[q][t]) row.push_back(ojson::array({tokens[t], *g.next[q][t]}));
    gr["next"].push_back(row);
  }
  j["grammar"] = gr;
  j["pairs"] = ojson::array();
  for (const PromiseSearchResult::Pair& p : r.explored) {
    ojson next = ojson::array();
    for (const auto& [t, to, y] : p.next)
      next.push_back(ojson::array({tokens[t], to, to_string(y)}));
    j["pairs"].push_back({{"q", p.q}, {"state", texts(p.configuration)}, {"next", next}});
  }
  return j;
}

ojson input_map_certificate(const EquivalenceResult& r, const Wfa& spec, const SubjectFile& x,
                            const InputMapSpec& map, std::size_t output) {
  if (!r.equivalent) throw std::logic_error("input_map_certificate: not an equivalence");
  const Model& m = std::get<Model>(x.content);
  const std::vector<std::string>& tokens = m.alphabet.symbols();
  auto words = [&](const std::vector<std::size_t>& w) {
    std::vector<std::string> out;
    for (std::size_t t : w) out.push_back(tokens[t]);
    return out;
  };
  ojson j;
  j["format"] = "rnncc-input-map-certificate/1";
  const SubjectFile f{"specification", spec};
  j["specification"] = {{"digest", subject_digest(f)}, {"wfa", wfa_json(spec)}};
  j["model"] = named(x);
  j["field"] = r.modulus ? "F_p" : "Q";
  if (r.modulus) j["modulus"] = *r.modulus;
  j["alphabet"] = map.symbols;
  j["output"] = output;
  ojson per_q = ojson::array();
  for (std::size_t q = 0; q < map.control.states; ++q) {
    ojson row = ojson::array();
    for (const auto& w : map.tokens[q]) row.push_back(words(w));
    per_q.push_back(row);
  }
  j["map"] = {{"prefix", words(map.prefix)}, {"period", map.control.states}, {"tokens", per_q}};
  j["basis"] = ojson::array();
  for (std::size_t i = 0; i < r.basis_words.size(); ++i) {
    std::vector<std::string> word;
    for (std::size_t s : r.basis_words[i]) word.push_back(map.symbols[s]);
    j["basis"].push_back({{"word", word}, {"next", r.coefficients[i]}, {"outputs", r.values[i]}});
  }
  return j;
}

}  // namespace rnncc
