#include "verify/check_certificate.hpp"

#include <map>
#include <optional>
#include <variant>

#include <nlohmann/json.hpp>

#include "algebra/modp_ops.hpp"
#include "rnn/file_kind.hpp"
#include "rnn/json_cursor.hpp"
#include "verify/check_certificate_json.hpp"

namespace rnncc {

// verify/check_certificate_morphism.cpp: the morphism form.
void check_morphism_certificate(const SubjectFile& f, const SubjectFile& g, const nlohmann::json& c,
                                std::vector<std::string>& problems);

namespace {

using Vec = std::vector<Rational>;

// Exact arithmetic over Q, or over F_p with every value kept as its residue in [0, p).
struct Numbers {
  std::optional<Integer> p;
  Rational norm(const Rational& x) const {
    if (!p) return x;
    Integer d = denominator(x) % *p;
    if (d == 0) throw std::domain_error("a denominator is divisible by the modulus");
    Integer inv = powm(d, *p - 2, *p);  // Fermat
    Integer r = (numerator(x) % *p) * inv % *p;
    return Rational(r < 0 ? r + *p : r);
  }
};

// h after each word, and the outputs, for one subject.
struct Machine {
  const SubjectFile& s;
  const Numbers& num;
  std::string problem;  // set when the subject is not one the checker reads

  std::size_t symbols() const {
    return s.is_wfa() ? std::get<Wfa>(s.content).alphabet.size()
                      : std::get<Model>(s.content).alphabet.size();
  }
  const LrnnLayer* layer() const {
    const Model& m = std::get<Model>(s.content);
    return m.layers.size() == 1 ? std::get_if<LrnnLayer>(&m.layers[0].layer) : nullptr;
  }
  // The state: α·M_u for a WFA, S_u (d×m, row-major) for the layer.
  Vec start() const {
    if (s.is_wfa()) return std::get<Wfa>(s.content).initial;
    return layer()->initial_state.data();
  }
  Vec step(const Vec& x, std::size_t a) const {
    if (s.is_wfa()) {
      const Matrix<Rational>& M = std::get<Wfa>(s.content).transition[a];
      Vec y(M.cols(), Rational(0));
      for (std::size_t i = 0; i < M.rows(); ++i)
        for (std::size_t j = 0; j < M.cols(); ++j) y[j] += x[i] * M(i, j);
      return normed(y);
    }
    const LrnnLayer& l = *layer();
    Vec y(l.d * l.m, Rational(0));  // S' = A S + B
    for (std::size_t i = 0; i < l.d; ++i)
      for (std::size_t j = 0; j < l.m; ++j) {
        Rational acc = l.B[a](i, j);
        for (std::size_t k = 0; k < l.d; ++k) acc += l.A[a](i, k) * x[k * l.m + j];
        y[i * l.m + j] = acc;
      }
    return normed(y);
  }
  // y after the last symbol a, from the state after it.
  Vec out(const Vec& x, std::size_t a) const {
    if (s.is_wfa()) {
      Rational acc = 0;
      for (std::size_t i = 0; i < x.size(); ++i) acc += x[i] * std::get<Wfa>(s.content).final[i];
      return normed({acc});
    }
    const LrnnLayer& l = *layer();
    Vec y;
    for (std::size_t i = 0; i < l.readout.rows(); ++i)
      for (std::size_t j = 0; j < l.m; ++j) {
        Rational acc = l.readout_bias.empty() ? Rational(0) : l.readout_bias(i, j);
        for (std::size_t k = 0; k < l.d; ++k) {
          Rational c = l.readout(i, k);
          if (!l.readout_feature.empty()) c += l.readout_feature[a](i, k);
          acc += c * x[k * l.m + j];
        }
        y.push_back(acc);
      }
    return normed(y);
  }
  std::size_t outputs() const { return s.is_wfa() ? 1 : layer()->readout.rows() * layer()->m; }
  // The homogenized vector h: the state, and 1 for a layer.
  Vec h(const Vec& x) const {
    Vec v = x;
    if (!s.is_wfa()) v.push_back(Rational(1));
    return v;
  }
  Vec normed(Vec v) const {
    for (Rational& x : v) x = num.norm(x);
    return v;
  }
};

}  // namespace

CertificateCheck check_certificate(const SubjectFile& f, const SubjectFile& g,
                                   std::string_view text) {
  CertificateCheck result;
  auto& problems = result.problems;
  auto fail = [&](const std::string& what) {
    if (problems.size() < 20) problems.push_back(what);
  };
  try {
    // The linear reader (issue 25: nlohmann's callback parser rescanned the parent container
    // after every closed object, 19–33 s for a 900 kB certificate), and only the members the
    // format defines (docs/formats.md, "Equivalence certificates").
    const nlohmann::json c = parse_certificate_json(text);
    if (!c.is_object()) throw std::runtime_error("/: expected a certificate (a JSON object)");
    if (!c.contains("format") || c["format"] != "rnncc-equivalence-certificate/1")
      fail("/format: expected \"rnncc-equivalence-certificate/1\"");
    check_members(c, "", {"format", "models", "field", "alphabet", "outputs"},
                  {"modulus", "empty_word", "basis", "morphism"});
    if (c.contains("basis") == c.contains("morphism"))
      throw std::runtime_error("/: expected one of the members \"basis\" and \"morphism\"");
    // The models named are these models.
    const auto& models = c.at("models");
    if (!models.is_array() || models.size() != 2)
      throw std::runtime_error("/models: expected two models");
    const SubjectFile* subj[2] = {&f, &g};
    for (int i = 0; i < 2; ++i)
      check_members(models[i], "/models/" + std::to_string(i), {"digest"}, {"file"});
    for (int i = 0; i < 2; ++i)
      if (models[i].at("digest") != subject_digest(*subj[i]))
        result.other_models = true,
        fail("/models/" + std::to_string(i) + ": the certificate is for another model (digest " +
             models[i].at("digest").get<std::string>() + ", " + subj[i]->path + " has " +
             subject_digest(*subj[i]) + ")");
    // The field.
    Numbers num;
    if (c.at("field") == "F_p") {
      // Checked before converting: get<> of a float or negative value would be undefined or wrap.
      if (!c.at("modulus").is_number_unsigned())
        throw std::runtime_error("/modulus: expected a prime as a JSON integer");
      const std::uint64_t p = c.at("modulus").get<std::uint64_t>();
      if (!modp::is_prime(p) || p >= (std::uint64_t{1} << 62)) fail("/modulus: not a prime < 2^62");
      num.p = Integer(p);
      result.field = "F_p", result.modulus = p;
    } else if (c.at("field") == "Q" && !c.contains("modulus")) {
      result.field = "Q";
    } else if (c.at("field") != "Q" || c.contains("modulus")) {
      fail("/field: expected \"Q\" (no modulus) or \"F_p\" with a modulus");
    }
    if (!problems.empty()) return result;
    Machine mf{f, num, {}}, mg{g, num, {}};
    for (const Machine* m : {&mf, &mg})
      if (!m->s.is_wfa() && !m->layer())
        throw std::runtime_error(m->s.path + ": the checker reads WFAs and one-layer LRNN models");
    // The alphabet and output size are the models'.
    std::vector<std::string> sf = f.is_wfa() ? std::get<Wfa>(f.content).alphabet.symbols()
                                             : std::get<Model>(f.content).alphabet.symbols();
    std::vector<std::string> sg = g.is_wfa() ? std::get<Wfa>(g.content).alphabet.symbols()
                                             : std::get<Model>(g.content).alphabet.symbols();
    if (sf != sg || c.at("alphabet").get<std::vector<std::string>>() != sf)
      throw std::runtime_error("/alphabet: not the alphabet of both models");
    if (!c.at("outputs").is_number_unsigned() ||
        c.at("outputs").get<std::size_t>() != mf.outputs() || mf.outputs() != mg.outputs())
      throw std::runtime_error("/outputs: not the output size of both models");
    std::map<std::string, std::size_t> id;
    for (std::size_t a = 0; a < sf.size(); ++a) id[sf[a]] = a;
    auto number = [&](const nlohmann::json& x, const std::string& where) {
      std::optional<Rational> q =
          x.is_string() ? try_parse_rational(x.get<std::string>()) : std::nullopt;
      if (!q) throw std::runtime_error(where + ": expected a number as a string");
      if (num.p && (*q < 0 || denominator(*q) != 1 || numerator(*q) >= *num.p))
        throw std::runtime_error(where + ": expected a residue in [0, p)");
      return *q;
    };
    auto numbers = [&](const nlohmann::json& xs, std::size_t size, const std::string& where) {
      if (!xs.is_array() || xs.size() != size)
        throw std::runtime_error(where + ": expected " + std::to_string(size) + " numbers");
      Vec v;
      for (std::size_t i = 0; i < size; ++i)
        v.push_back(number(xs[i], where + "/" + std::to_string(i)));
      return v;
    };
    // The empty word: compared exactly when both are WFAs.
    const bool empty = f.is_wfa() && g.is_wfa();
    if (empty != c.contains("empty_word"))
      fail("/empty_word: must be present exactly when both models are WFAs");
    else if (empty) {
      auto value = [&](const Machine& m) {  // α·β
        Rational acc = 0;
        const Wfa& a = std::get<Wfa>(m.s.content);
        for (std::size_t i = 0; i < a.states(); ++i) acc += a.initial[i] * a.final[i];
        return m.normed({acc});
      };
      check_members(c["empty_word"], "/empty_word", {"value"});
      const Vec stated = numbers(c["empty_word"].at("value"), 1, "/empty_word/value");
      if (value(mf) != stated || value(mg) != stated) fail("/empty_word: y_f(ε), y_g(ε) ≠ value");
    }
    if (c.contains("morphism")) {  // the other form: a morphism checked exactly
      if (problems.empty()) check_morphism_certificate(f, g, c, problems);
      result.ok = problems.empty();
      return result;
    }
    // The basis words: ε first, prefix-closed, distinct.
    const auto& basis = c.at("basis");
    if (!basis.is_array()) throw std::runtime_error("/basis: expected an array");
    const std::size_t k = basis.size(), r = mf.outputs();
    std::vector<std::vector<std::size_t>> words;
    std::map<std::vector<std::size_t>, std::size_t> seen;
    for (std::size_t i = 0; i < k; ++i) {
      check_members(basis[i], "/basis/" + std::to_string(i), {"word", "next", "outputs"});
      std::vector<std::size_t> w;
      for (const auto& x : basis[i].at("word")) {
        auto it = id.find(x.get<std::string>());
        if (it == id.end())
          throw std::runtime_error("/basis/" + std::to_string(i) + "/word: unknown symbol");
        w.push_back(it->second);
      }
      if (i == 0 && !w.empty()) fail("/basis/0/word: the first basis word must be ε");
      if (!w.empty() && !seen.count(std::vector<std::size_t>(w.begin(), w.end() - 1)))
        fail("/basis/" + std::to_string(i) + "/word: its prefix is not an earlier basis word");
      if (!seen.emplace(w, i).second) fail("/basis/" + std::to_string(i) + "/word: repeated");
      words.push_back(std::move(w));
    }
    if (!problems.empty()) return result;
    // v(u) for every basis word, recomputed from the word: one step from its prefix, an earlier
    // basis word (checked above), so the work is one step per word, not one per symbol.
    std::vector<Vec> sf_state(k), sg_state(k), v(k);
    for (std::size_t i = 0; i < k; ++i) {
      Vec xf, xg;
      if (words[i].empty()) {
        xf = mf.normed(mf.start()), xg = mg.normed(mg.start());
      } else {
        const std::size_t parent =
            seen.at(std::vector<std::size_t>(words[i].begin(), words[i].end() - 1));
        xf = mf.step(sf_state[parent], words[i].back());
        xg = mg.step(sg_state[parent], words[i].back());
      }
      sf_state[i] = xf;
      sg_state[i] = xg;
      v[i] = mf.h(xf);
      for (const Rational& x : mg.h(xg)) v[i].push_back(x);
    }
    if (k == 0) {  // then v(ε) must be 0
      Vec z = mf.h(mf.normed(mf.start()));
      for (const Rational& x : mg.h(mg.normed(mg.start()))) z.push_back(x);
      for (const Rational& x : z)
        if (x != 0) fail("/basis: empty, but the initial vector is not 0");
    }
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t a = 0; a < sf.size(); ++a) {
        const std::string where = "/basis/" + std::to_string(i);
        const Vec xf = mf.step(sf_state[i], a), xg = mg.step(sg_state[i], a);
        Vec next = mf.h(xf);
        for (const Rational& x : mg.h(xg)) next.push_back(x);
        const Vec coef =
            numbers(basis[i].at("next").at(a), k, where + "/next/" + std::to_string(a));
        Vec comb(next.size(), Rational(0));
        for (std::size_t j = 0; j < k; ++j)
          if (coef[j] != 0)
            for (std::size_t t = 0; t < comb.size(); ++t) comb[t] += coef[j] * v[j][t];
        if (mf.normed(comb) != next)
          fail(where + "/next/" + std::to_string(a) + ": v(u·" + sf[a] +
               ") is not this combination of the basis vectors");
        const Vec stated =
            numbers(basis[i].at("outputs").at(a), r, where + "/outputs/" + std::to_string(a));
        if (mf.out(xf, a) != stated || mg.out(xg, a) != stated)
          fail(where + "/outputs/" + std::to_string(a) + ": y_f or y_g after u·" + sf[a] +
               " is not the stated value");
      }
  } catch (const CertificateNotJson& e) {
    result.not_json = true;
    fail(e.what());
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("malformed certificate: ") + e.what());
  } catch (const std::exception& e) {
    fail(e.what());
  }
  result.ok = problems.empty();
  return result;
}

std::string read_certificate_file(const std::string& path) {
  std::string text = read_text_file(path, "certificate");
  if (const FileKind k = file_kind(text, path);
      k != FileKind::unknown && k != FileKind::certificate)
    throw InputError(path, wrong_kind_message(k, {FileKind::certificate}));
  return text;
}

}  // namespace rnncc
