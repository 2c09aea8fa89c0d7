#include "verify/check_product_certificate.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <variant>

#include <nlohmann/json.hpp>

#include "algebra/modp_ops.hpp"
#include "constructions/wfa.hpp"
#include "verify/check_certificate_json.hpp"

namespace rnncc {
namespace {

using Vec = std::vector<Rational>;
using json = nlohmann::json;

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Exact arithmetic over Q, or over F_p (every value kept as its residue in [0, p)).
struct Field {
  std::optional<Integer> p;
  Rational norm(const Rational& x) const {
    if (!p) return x;
    Integer d = denominator(x) % *p;
    if (d == 0) throw Failure("a denominator is divisible by the modulus");
    Integer r = (numerator(x) % *p) * powm(d, *p - 2, *p) % *p;
    return Rational(r < 0 ? r + *p : r);
  }
  Vec norm(Vec v) const {
    for (Rational& x : v) x = norm(x);
    return v;
  }
};

// A subject as this checker steps it: a WFA (state α·M_u, output v·β) or a model of LRNN and
// Elman layers (state: every layer's state, flattened layer by layer; output: the top layer's
// y, row by row). Written from the semantics in docs/formats.md, not from rnn/evaluate.
struct Stepper {
  const SubjectFile& s;

  const Wfa* wfa() const { return std::get_if<Wfa>(&s.content); }
  const Model& model() const { return std::get<Model>(s.content); }

  std::vector<std::string> symbols() const {
    return wfa() ? wfa()->alphabet.symbols() : model().alphabet.symbols();
  }
  // Throws Failure for a layer this checker does not step.
  void require_readable() const {
    if (wfa()) return;
    if (model().layers.empty()) throw Failure(s.path + ": the model has no layers");
    for (const StackLayer& l : model().layers)
      if (!std::holds_alternative<LrnnLayer>(l.layer) &&
          !std::holds_alternative<ElmanLayer>(l.layer))
        throw Failure(s.path + ": the checker steps LRNN and Elman layers (and WFAs) only");
  }
  Vec start() const {
    if (wfa()) return wfa()->initial;
    Vec v;
    for (const StackLayer& l : model().layers) {
      const Matrix<Rational>& x = std::holds_alternative<LrnnLayer>(l.layer)
                                      ? std::get<LrnnLayer>(l.layer).initial_state
                                      : std::get<ElmanLayer>(l.layer).initial_state;
      v.insert(v.end(), x.data().begin(), x.data().end());
    }
    return v;
  }
  std::size_t state_size() const { return wfa() ? wfa()->states() : start().size(); }
  // y(ε) of a WFA.
  Vec empty_output() const {
    Rational acc = 0;
    for (std::size_t i = 0; i < wfa()->states(); ++i) acc += wfa()->initial[i] * wfa()->final[i];
    return {acc};
  }
  // One step by symbol a: (the next state, the output after it).
  std::pair<Vec, Vec> step(const Vec& x, std::size_t a) const {
    if (wfa()) {
      const Wfa& w = *wfa();
      Vec y(w.states(), Rational(0));
      for (std::size_t i = 0; i < w.states(); ++i)
        if (x[i] != 0)
          for (std::size_t j = 0; j < w.states(); ++j) y[j] += x[i] * w.transition[a](i, j);
      Rational out = 0;
      for (std::size_t j = 0; j < w.states(); ++j) out += y[j] * w.final[j];
      return {y, {out}};
    }
    Vec z(model().alphabet.size(), Rational(0));  // the first layer reads the one-hot symbol
    z[a] = 1;
    Vec next, out;
    std::size_t offset = 0;
    for (const StackLayer& sl : model().layers) {
      if (sl.input) {  // z = W·y + b
        const InputMap& im = *sl.input;
        Vec nz(im.weights.rows(), Rational(0));
        for (std::size_t i = 0; i < im.weights.rows(); ++i) {
          nz[i] = im.bias.empty() ? Rational(0) : im.bias(i, 0);
          for (std::size_t j = 0; j < im.weights.cols(); ++j) nz[i] += im.weights(i, j) * out[j];
        }
        z = nz;
      }
      if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
        const std::size_t d = l->d, m = l->m;
        // S' = (Σ_k z_k A_k) S + Σ_k z_k B_k ;  y = (C + Σ_k z_k C_k) S' + c₀
        Vec S(x.begin() + static_cast<std::ptrdiff_t>(offset),
              x.begin() + static_cast<std::ptrdiff_t>(offset + d * m));
        Vec S2(d * m, Rational(0));
        for (std::size_t k = 0; k < z.size(); ++k) {
          if (z[k] == 0) continue;
          for (std::size_t i = 0; i < d; ++i)
            for (std::size_t j = 0; j < m; ++j) {
              Rational acc = l->B[k](i, j);
              for (std::size_t t = 0; t < d; ++t) acc += l->A[k](i, t) * S[t * m + j];
              S2[i * m + j] += z[k] * acc;
            }
        }
        const std::size_t r = l->readout.rows();
        Vec y(r * m, Rational(0));
        for (std::size_t i = 0; i < r; ++i)
          for (std::size_t t = 0; t < d; ++t) {
            Rational c = l->readout(i, t);
            for (std::size_t k = 0; k < z.size() && !l->readout_feature.empty(); ++k)
              c += z[k] * l->readout_feature[k](i, t);
            for (std::size_t j = 0; j < m; ++j) y[i * m + j] += c * S2[t * m + j];
          }
        if (!l->readout_bias.empty())
          for (std::size_t i = 0; i < r; ++i)
            for (std::size_t j = 0; j < m; ++j) y[i * m + j] += l->readout_bias(i, j);
        next.insert(next.end(), S2.begin(), S2.end());
        out = y;
        offset += d * m;
      } else {
        const ElmanLayer& e = std::get<ElmanLayer>(sl.layer);
        // h' = act(W h + U z + b) ;  y = C h' + c₀
        Vec h2(e.d);
        for (std::size_t i = 0; i < e.d; ++i) {
          Rational acc = e.pre.bias.empty() ? Rational(0) : e.pre.bias(i, 0);
          for (std::size_t j = 0; j < e.d; ++j) acc += e.pre.W(i, j) * x[offset + j];
          for (std::size_t k = 0; k < z.size(); ++k) acc += e.pre.U(i, k) * z[k];
          h2[i] = e.activation == Activation::relu ? (acc > 0 ? acc : Rational(0))
                                                   : Rational(acc > 0   ? 1
                                                              : acc < 0 ? -1
                                                                        : 0);
        }
        Vec y(e.readout.rows(), Rational(0));
        for (std::size_t i = 0; i < e.readout.rows(); ++i) {
          y[i] = e.readout_bias.empty() ? Rational(0) : e.readout_bias(i, 0);
          for (std::size_t j = 0; j < e.d; ++j) y[i] += e.readout(i, j) * h2[j];
        }
        next.insert(next.end(), h2.begin(), h2.end());
        out = y;
        offset += e.d;
      }
    }
    return {next, out};
  }
};

Rational number(const json& x, const std::string& where, const Field& field = {}) {
  std::optional<Rational> q =
      x.is_string() ? try_parse_rational(x.get<std::string>()) : std::nullopt;
  if (!q) throw Failure(where + ": expected a number as a string");
  if (field.p && (*q < 0 || denominator(*q) != 1 || numerator(*q) >= *field.p))
    throw Failure(where + ": expected a residue in [0, p)");
  return *q;
}

Vec numbers(const json& xs, std::size_t size, const std::string& where, const Field& field = {}) {
  if (!xs.is_array() || xs.size() != size)
    throw Failure(where + ": expected " + std::to_string(size) + " numbers");
  Vec v;
  for (std::size_t i = 0; i < size; ++i)
    v.push_back(number(xs[i], where + "/" + std::to_string(i), field));
  return v;
}

std::size_t index_in(const json& x, std::size_t bound, const std::string& where) {
  if (!x.is_number_unsigned() || x.get<std::uint64_t>() >= bound)
    throw Failure(where + ": expected an index below " + std::to_string(bound));
  return static_cast<std::size_t>(x.get<std::uint64_t>());
}

// Runs a check body with the shared error handling.
template <class Body>
ProductCertificateCheck run_check(std::string_view text, Body&& body) {
  ProductCertificateCheck r;
  auto fail = [&](const std::string& what) {
    if (r.problems.size() < 20) r.problems.push_back(what);
  };
  try {
    // The linear reader (nlohmann's callback parser was quadratic in an array of objects: the
    // pairs), strict about members (check_members, per object of the format).
    const json c = parse_certificate_json(text);
    if (!c.is_object()) throw Failure("not a certificate: expected a JSON object");
    body(c, r, fail);
  } catch (const CertificateNotJson& e) {
    r.not_json = true;
    fail(e.what());
  } catch (const json::exception& e) {
    fail(std::string("malformed certificate: ") + e.what());
  } catch (const std::exception& e) {
    fail(e.what());
  }
  r.ok = r.problems.empty();
  if (!r.ok) r.established.clear();
  return r;
}

template <class Fail>
void check_digest(const json& named, const SubjectFile& s, const std::string& where,
                  ProductCertificateCheck& r, Fail& fail) {
  check_members(named, where, {"digest"}, {"file"});
  const json& d = named.at("digest");
  if (!d.is_string()) throw Failure(where + "/digest: expected a string");
  if (d.get<std::string>() != subject_digest(s)) {
    r.other_models = true;
    fail(where + ": the certificate is for another file (digest " + d.get<std::string>() + ", " +
         s.path + " has " + subject_digest(s) + ")");
  }
}

}  // namespace

std::string certificate_format(std::string_view text) {
  return certificate_format_member(text);
}

ProductCertificateCheck check_product_certificate(const SubjectFile& f, const SubjectFile& g,
                                                  std::string_view text) {
  return run_check(text, [&](const json& c, ProductCertificateCheck& r, auto& fail) {
    if (!c.contains("format") || c["format"] != "rnncc-product-certificate/1")
      throw Failure("/format: expected \"rnncc-product-certificate/1\"");
    check_members(c, "", {"format", "models", "alphabet", "outputs", "pairs"}, {"empty_word"});
    const json& models = c.at("models");
    if (!models.is_array() || models.size() != 2) throw Failure("/models: expected two models");
    check_digest(models[0], f, "/models/0", r, fail);
    check_digest(models[1], g, "/models/1", r, fail);
    if (!r.problems.empty()) return;
    const Stepper sf{f}, sg{g};
    sf.require_readable();
    sg.require_readable();
    const std::vector<std::string> symbols = sf.symbols();
    if (sg.symbols() != symbols || c.at("alphabet").get<std::vector<std::string>>() != symbols)
      throw Failure("/alphabet: not the alphabet of both models");
    const std::size_t S = symbols.size();
    const Vec zf = sf.start(), zg = sg.start();
    const std::size_t nf = zf.size(), ng = zg.size();
    const std::size_t r_out = index_in(c.at("outputs"), std::size_t{1} << 20, "/outputs");
    // y(ε): compared exactly when both are WFAs.
    const bool both_wfas = f.is_wfa() && g.is_wfa();
    if (both_wfas != c.contains("empty_word"))
      fail("/empty_word: must be present exactly when both models are WFAs");
    else if (both_wfas) {
      check_members(c["empty_word"], "/empty_word", {"value"});
      const Vec stated = numbers(c["empty_word"].at("value"), 1, "/empty_word/value");
      if (sf.empty_output() != stated || sg.empty_output() != stated)
        fail("/empty_word: y_f(ε), y_g(ε) ≠ value");
    }
    const json& pairs = c.at("pairs");
    if (!pairs.is_array() || pairs.empty()) throw Failure("/pairs: expected a nonempty array");
    const std::size_t n = pairs.size();
    std::vector<Vec> xf(n), xg(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string where = "/pairs/" + std::to_string(i);
      check_members(pairs[i], where, {"f", "g", "next", "outputs"});
      xf[i] = numbers(pairs[i].at("f"), nf, where + "/f");
      xg[i] = numbers(pairs[i].at("g"), ng, where + "/g");
    }
    if (xf[0] != zf || xg[0] != zg) fail("/pairs/0: not the pair of start states");
    std::size_t steps = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string where = "/pairs/" + std::to_string(i);
      const json& next = pairs[i].at("next");
      const json& outs = pairs[i].at("outputs");
      if (!next.is_array() || next.size() != S || !outs.is_array() || outs.size() != S)
        throw Failure(where + ": expected a successor and an output per symbol (" +
                      std::to_string(S) + ")");
      for (std::size_t a = 0; a < S; ++a) {
        const std::size_t j = index_in(next[a], n, where + "/next/" + std::to_string(a));
        const auto [yf_state, yf] = sf.step(xf[i], a);
        const auto [yg_state, yg] = sg.step(xg[i], a);
        ++steps;
        if (yf_state != xf[j] || yg_state != xg[j])
          fail(where + "/next/" + std::to_string(a) + ": stepping by " + symbols[a] +
               " does not give pair " + std::to_string(j) + "'s states");
        if (yf.size() != r_out || yg.size() != r_out)
          throw Failure("/outputs: not the output size of both models");
        const Vec stated = numbers(outs[a], r_out, where + "/outputs/" + std::to_string(a));
        if (yf != stated || yg != stated)
          fail(where + "/outputs/" + std::to_string(a) + ": y_f or y_g after " + symbols[a] +
               " is not the stated value");
      }
    }
    r.established = f.path + " and " + g.path + " agree over Q on every nonempty prefix" +
                    (both_wfas ? " and on ε" : "") + " (" + std::to_string(n) +
                    " pairs of states, closed under every symbol: " + std::to_string(steps) +
                    " steps recomputed)";
  });
}

ProductCertificateCheck check_promise_certificate(const SubjectFile& x, std::string_view text) {
  return run_check(text, [&](const json& c, ProductCertificateCheck& r, auto& fail) {
    if (!c.contains("format") || c["format"] != "rnncc-promise-certificate/1")
      throw Failure("/format: expected \"rnncc-promise-certificate/1\"");
    check_members(c, "", {"format", "model", "alphabet", "output", "promise", "grammar", "pairs"});
    check_digest(c.at("model"), x, "/model", r, fail);
    if (!r.problems.empty()) return;
    if (x.is_wfa()) throw Failure(x.path + ": a promise certificate is for a model");
    const Stepper sx{x};
    sx.require_readable();
    const std::vector<std::string> symbols = sx.symbols();
    if (c.at("alphabet").get<std::vector<std::string>>() != symbols)
      throw Failure("/alphabet: not the model's alphabet");
    const std::size_t S = symbols.size();
    std::map<std::string, std::size_t> id;
    for (std::size_t a = 0; a < S; ++a) id[symbols[a]] = a;
    const std::size_t out = index_in(c.at("output"), std::size_t{1} << 20, "/output");
    if (!c.at("promise").is_string()) throw Failure("/promise: expected the promise in words");
    // The grammar: per state, its value (or null) and its transitions [token, state].
    const json& gr = c.at("grammar");
    check_members(gr, "/grammar", {"start", "value", "next"});
    const json& gv = gr.at("value");
    const json& gn = gr.at("next");
    if (!gv.is_array() || !gn.is_array() || gv.size() != gn.size() || gv.empty())
      throw Failure("/grammar: expected \"value\" and \"next\" per state");
    const std::size_t Q = gv.size();
    const std::size_t start = index_in(gr.at("start"), Q, "/grammar/start");
    std::vector<std::optional<Rational>> value(Q);
    std::vector<std::map<std::size_t, std::size_t>> delta(Q);
    for (std::size_t q = 0; q < Q; ++q) {
      const std::string where = "/grammar/next/" + std::to_string(q);
      if (!gv[q].is_null()) value[q] = number(gv[q], "/grammar/value/" + std::to_string(q));
      if (!gn[q].is_array()) throw Failure(where + ": expected [token, state] pairs");
      for (std::size_t k = 0; k < gn[q].size(); ++k) {
        const json& t = gn[q][k];
        if (!t.is_array() || t.size() != 2 || !t[0].is_string() ||
            !id.count(t[0].get<std::string>()))
          throw Failure(where + "/" + std::to_string(k) +
                        ": expected [a token of the model, state]");
        const std::size_t to = index_in(t[1], Q, where + "/" + std::to_string(k) + "/1");
        if (!delta[q].emplace(id[t[0].get<std::string>()], to).second)
          throw Failure(where + "/" + std::to_string(k) + ": a token repeated");
      }
    }
    if (value[start]) throw Failure("/grammar/value: the start state accepts the empty string");
    // The pairs.
    const json& pairs = c.at("pairs");
    if (!pairs.is_array() || pairs.empty()) throw Failure("/pairs: expected a nonempty array");
    const std::size_t n = pairs.size();
    const Vec z0 = sx.start();
    std::vector<Vec> state(n);
    std::vector<std::size_t> gq(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string where = "/pairs/" + std::to_string(i);
      check_members(pairs[i], where, {"q", "state", "next"});
      gq[i] = index_in(pairs[i].at("q"), Q, where + "/q");
      state[i] = numbers(pairs[i].at("state"), z0.size(), where + "/state");
    }
    if (gq[0] != start || state[0] != z0)
      fail("/pairs/0: not (the grammar's start, the model's start)");
    std::size_t steps = 0, compared = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string where = "/pairs/" + std::to_string(i);
      const json& next = pairs[i].at("next");
      if (!next.is_array()) throw Failure(where + "/next: expected [token, pair, output] triples");
      std::set<std::size_t> stated_tokens;
      for (std::size_t k = 0; k < next.size(); ++k) {
        const std::string at = where + "/next/" + std::to_string(k);
        const json& t = next[k];
        if (!t.is_array() || t.size() != 3 || !t[0].is_string() ||
            !id.count(t[0].get<std::string>()))
          throw Failure(at + ": expected [a token of the model, pair, output]");
        const std::size_t a = id[t[0].get<std::string>()];
        const std::size_t j = index_in(t[1], n, at + "/1");
        if (!stated_tokens.insert(a).second) throw Failure(at + ": a token repeated");
        const auto g = delta[gq[i]].find(a);
        if (g == delta[gq[i]].end()) {
          fail(at + ": the grammar does not allow " + symbols[a] + " here");
          continue;
        }
        const auto [x2, y] = sx.step(state[i], a);
        ++steps;
        if (out >= y.size()) throw Failure("/output: beyond the model's output size");
        if (gq[j] != g->second || x2 != state[j])
          fail(at + ": reading " + symbols[a] + " does not lead to pair " + std::to_string(j) +
               " (grammar state " + std::to_string(g->second) + ", the stepped model state)");
        const Rational stated = number(t[2], at + "/2");
        if (y[out] != stated)
          fail(at + "/2: the model's output after " + symbols[a] + " is not the stated value");
        if (value[g->second]) {
          ++compared;
          if (y[out] != *value[g->second])
            fail(at + ": a valid encoding ends here with value " + to_string(*value[g->second]) +
                 ", the model outputs " + to_string(y[out]));
        }
      }
      for (const auto& [a, to] : delta[gq[i]])
        if (!stated_tokens.count(a))
          fail(where + "/next: the grammar allows " + symbols[a] +
               " here, the certificate has no such transition (the set is not closed)");
    }
    // How many token strings the grammar accepts: paths from the start to a state with a
    // value; infinite when an accepting state is reached through a cycle.
    std::vector<int> mark(Q, 0);  // 0 new, 1 on the stack, 2 done
    std::vector<Integer> count(Q, Integer(0));
    bool infinite = false;
    std::vector<std::pair<std::size_t, std::map<std::size_t, std::size_t>::const_iterator>> stack;
    stack.push_back({start, delta[start].begin()});
    mark[start] = 1;
    while (!stack.empty()) {
      auto& [q, it] = stack.back();
      if (it == delta[q].end()) {
        count[q] += value[q] ? 1 : 0;
        for (const auto& [a, to] : delta[q]) count[q] += count[to];
        mark[q] = 2;
        stack.pop_back();
        continue;
      }
      const std::size_t to = (it++)->second;
      if (mark[to] == 1) infinite = true;
      if (mark[to] == 0) {
        mark[to] = 1;
        stack.push_back({to, delta[to].begin()});
      }
    }
    r.established =
        x.path + " outputs the grammar's value on every token string the grammar accepts (" +
        (infinite ? std::string("a grammar with cycles: unboundedly many") : count[start].str()) +
        " strings; promise: " + c["promise"].get<std::string>() + "); " + std::to_string(n) +
        " pairs closed under the grammar's tokens, " + std::to_string(steps) +
        " steps recomputed, " + std::to_string(compared) + " compared";
  });
}

ProductCertificateCheck check_input_map_certificate(const std::optional<SubjectFile>& spec,
                                                    const SubjectFile& x, std::string_view text) {
  return run_check(text, [&](const json& c, ProductCertificateCheck& r, auto& fail) {
    if (!c.contains("format") || c["format"] != "rnncc-input-map-certificate/1")
      throw Failure("/format: expected \"rnncc-input-map-certificate/1\"");
    check_members(
        c, "", {"format", "specification", "model", "field", "alphabet", "output", "map", "basis"},
        {"modulus"});
    check_members(c.at("specification"), "/specification", {"digest", "wfa"});
    // The specification: the embedded WFA (read by the WFA reader); a file given must be it.
    const SubjectFile f{
        "the specification in the certificate",
        parse_wfa_json(c.at("specification").at("wfa").dump(), "/specification/wfa")};
    if (spec && subject_digest(*spec) != subject_digest(f)) {
      r.other_models = true;
      fail("/specification: the certificate is for another specification (" + spec->path +
           " has digest " + subject_digest(*spec) + ", the embedded WFA " + subject_digest(f) +
           ")");
    }
    if (spec && !spec->is_wfa()) throw Failure(spec->path + ": the specification is a WFA");
    check_digest(c.at("model"), x, "/model", r, fail);
    if (!r.problems.empty()) return;
    if (x.is_wfa() || std::get<Model>(x.content).layers.size() != 1 ||
        !std::holds_alternative<LrnnLayer>(std::get<Model>(x.content).layers[0].layer))
      throw Failure(x.path + ": the input-map checker reads a model of one LRNN layer");
    const Stepper sx{x}, sf{f};
    // The field.
    Field num;
    if (c.at("field") == "F_p") {
      if (!c.at("modulus").is_number_unsigned())
        throw Failure("/modulus: expected a prime as a JSON integer");
      const std::uint64_t p = c.at("modulus").get<std::uint64_t>();
      if (!modp::is_prime(p) || p >= (std::uint64_t{1} << 62))
        throw Failure("/modulus: not a prime < 2^62");
      num.p = Integer(p);
    } else if (c.at("field") != "Q" || c.contains("modulus")) {
      throw Failure("/field: expected \"Q\" (no modulus) or \"F_p\" with a modulus");
    }
    const std::vector<std::string> symbols = sf.symbols(), tokens = sx.symbols();
    if (c.at("alphabet").get<std::vector<std::string>>() != symbols)
      throw Failure("/alphabet: not the specification's alphabet");
    const std::size_t S = symbols.size();
    std::map<std::string, std::size_t> sym_id, tok_id;
    for (std::size_t a = 0; a < S; ++a) sym_id[symbols[a]] = a;
    for (std::size_t t = 0; t < tokens.size(); ++t) tok_id[tokens[t]] = t;
    const std::size_t out = index_in(c.at("output"), std::size_t{1} << 20, "/output");
    // The map.
    const json& m = c.at("map");
    check_members(m, "/map", {"prefix", "period", "tokens"});
    auto token_word = [&](const json& w, const std::string& where, bool nonempty) {
      if (!w.is_array() || (nonempty && w.empty()))
        throw Failure(where + ": expected " + (nonempty ? "a nonempty" : "an") +
                      " array of tokens");
      std::vector<std::size_t> ids;
      for (std::size_t k = 0; k < w.size(); ++k) {
        if (!w[k].is_string() || !tok_id.count(w[k].get<std::string>()))
          throw Failure(where + "/" + std::to_string(k) + ": not a token of the model");
        ids.push_back(tok_id[w[k].get<std::string>()]);
      }
      return ids;
    };
    const std::vector<std::size_t> prefix = token_word(m.at("prefix"), "/map/prefix", false);
    const std::size_t P = index_in(m.at("period"), 1024, "/map/period");
    if (P == 0) throw Failure("/map/period: expected at least 1");
    const json& tw = m.at("tokens");
    if (!tw.is_array() || tw.size() != P)
      throw Failure("/map/tokens: expected one row per control state");
    std::vector<std::vector<std::vector<std::size_t>>> tau(P);
    for (std::size_t q = 0; q < P; ++q) {
      if (!tw[q].is_array() || tw[q].size() != S)
        throw Failure("/map/tokens/" + std::to_string(q) + ": expected a token word per symbol");
      for (std::size_t a = 0; a < S; ++a)
        tau[q].push_back(token_word(
            tw[q][a], "/map/tokens/" + std::to_string(q) + "/" + std::to_string(a), true));
    }
    // X after a token word, from a state: (state, the output after its last token).
    auto run = [&](Vec s, const std::vector<std::size_t>& word) {
      Vec y;
      for (std::size_t t : word) {
        auto [s2, y2] = sx.step(s, t);
        s = num.norm(s2);
        y = num.norm(y2);
      }
      return std::pair{s, y};
    };
    const Vec x0 = run(sx.start(), prefix).first;
    const std::size_t dx = x0.size() + 1;  // h_X = [vec_row(S), 1]
    auto vec = [&](const Vec& hf, const Vec& sxs, std::size_t q) {
      Vec v = hf;
      for (std::size_t b = 0; b < P; ++b)
        for (std::size_t k = 0; k < dx; ++k)
          v.push_back(b != q ? Rational(0) : k + 1 < dx ? sxs[k] : Rational(1));
      return v;
    };
    // The basis words: ε first, prefix-closed, distinct.
    const json& basis = c.at("basis");
    if (!basis.is_array()) throw Failure("/basis: expected an array");
    const std::size_t k = basis.size();
    std::vector<std::vector<std::size_t>> words;
    std::map<std::vector<std::size_t>, std::size_t> seen;
    for (std::size_t i = 0; i < k; ++i) {
      check_members(basis[i], "/basis/" + std::to_string(i), {"word", "next", "outputs"});
      std::vector<std::size_t> w;
      for (const auto& s : basis[i].at("word")) {
        if (!s.is_string() || !sym_id.count(s.get<std::string>()))
          throw Failure("/basis/" + std::to_string(i) + "/word: unknown symbol");
        w.push_back(sym_id[s.get<std::string>()]);
      }
      if (i == 0 && !w.empty()) fail("/basis/0/word: the first basis word must be ε");
      if (!w.empty() && !seen.count(std::vector<std::size_t>(w.begin(), w.end() - 1)))
        fail("/basis/" + std::to_string(i) + "/word: its prefix is not an earlier basis word");
      if (!seen.emplace(w, i).second) fail("/basis/" + std::to_string(i) + "/word: repeated");
      words.push_back(std::move(w));
    }
    if (k == 0) throw Failure("/basis: empty (the model's homogenized vector is never 0)");
    if (!r.problems.empty()) return;
    std::vector<Vec> hf(k), hx(k), v(k);
    for (std::size_t i = 0; i < k; ++i) {
      if (words[i].empty()) {
        hf[i] = num.norm(sf.start());
        hx[i] = x0;
      } else {
        const std::size_t parent =
            seen.at(std::vector<std::size_t>(words[i].begin(), words[i].end() - 1));
        const std::size_t a = words[i].back(), q = (words[i].size() - 1) % P;
        hf[i] = num.norm(sf.step(hf[parent], a).first);
        hx[i] = run(hx[parent], tau[q][a]).first;
      }
      v[i] = vec(hf[i], hx[i], words[i].size() % P);
    }
    for (std::size_t i = 0; i < k; ++i) {
      const std::size_t q = words[i].size() % P;
      for (std::size_t a = 0; a < S; ++a) {
        const std::string where = "/basis/" + std::to_string(i);
        const auto [f2, yf] = sf.step(hf[i], a);
        const auto [x2, yx] = run(hx[i], tau[q][a]);
        if (out >= yx.size()) throw Failure("/output: beyond the model's output size");
        const Vec next = vec(num.norm(f2), x2, (q + 1) % P);
        const Vec coef =
            numbers(basis[i].at("next").at(a), k, where + "/next/" + std::to_string(a), num);
        Vec comb(next.size(), Rational(0));
        for (std::size_t j = 0; j < k; ++j)
          if (coef[j] != 0)
            for (std::size_t t = 0; t < comb.size(); ++t) comb[t] += coef[j] * v[j][t];
        if (num.norm(comb) != next)
          fail(where + "/next/" + std::to_string(a) + ": v(u·" + symbols[a] +
               ") is not this combination of the basis vectors");
        const Vec stated =
            numbers(basis[i].at("outputs").at(a), 1, where + "/outputs/" + std::to_string(a), num);
        if (num.norm(yf) != stated || Vec{yx[out]} != stated)
          fail(where + "/outputs/" + std::to_string(a) +
               ": the specification's or the model's output after u·" + symbols[a] +
               " is not the stated value");
      }
    }
    if (num.p) r.field = "F_p", r.modulus = static_cast<std::uint64_t>(*num.p);
    r.established = x.path + " read through the certificate's input map (prefix of " +
                    std::to_string(prefix.size()) + " tokens, period " + std::to_string(P) +
                    ") computes " + (spec ? spec->path : f.path) + " on every nonempty prefix" +
                    (num.p ? " modulo " + num.p->str() : std::string(" over Q")) + " (basis of " +
                    std::to_string(k) + " words)";
  });
}

}  // namespace rnncc
