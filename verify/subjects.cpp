#include "verify/subjects.hpp"

#include "algebra/error.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/model_json.hpp"

namespace rnncc {

Construction model_against_wfa(const Model& model, const Wfa& wfa) {
  const Alphabet& ma = model.alphabet;
  const Alphabet& wa = wfa.alphabet;
  std::vector<std::size_t> to_model(wa.size());
  for (std::size_t s = 0; s < wa.size(); ++s) {
    auto id = ma.find(wa.symbol(s));
    if (!id)
      throw InputError("--against",
                       "the WFA's symbol '" + wa.symbol(s) + "' is not in the model's alphabet");
    to_model[s] = *id;
  }
  for (const std::string& s : ma.symbols())
    if (!wa.find(s))
      throw InputError(
          "--against",
          "the model's symbol '" + s +
              "' is not in the WFA's alphabet (a model that reads several tokens per "
              "symbol, like `construct wfa --family dplr`'s σ.k sub-steps, is checked "
              "by the construction: rnncc verify wfa WFA --family dplr --model MODEL)");
  Construction c;
  c.name =
      "model " + (model.name.empty() ? std::string("(unnamed)") : model.name) + " against the WFA";
  c.model = model;
  c.target = wfa_to_lrnn(wfa, WfaFamily::general).target;
  c.out_row = model.accept.row;
  c.out_col = model.accept.col;
  c.encode = [to_model](const std::vector<std::size_t>& w) {
    std::vector<std::size_t> x;
    for (std::size_t s : w) x.push_back(to_model[s]);
    return x;
  };
  const std::size_t S = wa.size();
  c.embedding = [to_model, S](std::size_t n) {
    std::vector<InputSource> e(n * S);
    for (std::size_t t = 0; t < n; ++t)
      for (std::size_t s = 0; s < S; ++s)
        e[t * S + to_model[s]].variables.push_back(static_cast<std::uint32_t>(t * S + s));
    return e;
  };
  return c;  // a user's model makes no claims beyond computing f
}

void register_subjects(Registry& registry) {
  registry.add({.name = "model",
                .help = "a model file against a WFA (--against WFA)",
                .input_help = "model file (JSON, docs/formats.md)",
                .options = {{.name = "--against",
                             .kind = OptionKind::text,
                             .help = "the WFA the model should compute",
                             .required = true}},
                .build_from =
                    [](const OptionValues& v) {
                      return model_against_wfa(load_model(v.input()),
                                               load_wfa(v.text("--against")));
                    },
                .verify_only = true});
}

const Registry& verify_registry() {
  static const Registry registry = [] {
    Registry r;
    register_all(r);
    register_subjects(r);
    return r;
  }();
  return registry;
}

}  // namespace rnncc
