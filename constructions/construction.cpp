#include "constructions/construction.hpp"

#include <algorithm>

#include "algebra/error.hpp"

namespace rnncc {

namespace {

// "'a', 'b' and 3 more"
std::string symbol_list(const std::vector<std::string>& symbols) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(symbols.size(), 6);
  for (std::size_t i = 0; i < shown; ++i)
    out += (i == 0 ? "" : i + 1 == symbols.size() ? " and " : ", ") + ("'" + symbols[i] + "'");
  if (shown < symbols.size()) out += " and " + std::to_string(symbols.size() - shown) + " more";
  return out;
}

// X's input forms with token τ renumbered to perm[τ] (|Σ_X| tokens per position).
std::function<std::vector<InputSource>(std::size_t)> renumbered(
    std::function<std::vector<InputSource>(std::size_t)> forms, std::vector<std::size_t> perm) {
  if (!forms) return nullptr;
  return [forms = std::move(forms), perm = std::move(perm)](std::size_t n) {
    const std::vector<InputSource> in = forms(n);
    const std::size_t S = perm.size();
    std::vector<InputSource> out(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) out[(i / S) * S + perm[i % S]] = in[i];
    return out;
  };
}

}  // namespace

Construction with_model(Construction c, Model model, const std::string& source) {
  const Alphabet& want = c.model.alphabet;
  const Alphabet& got = model.alphabet;
  std::vector<std::string> missing, extra;
  std::vector<std::size_t> perm(want.size());
  for (std::size_t s = 0; s < want.size(); ++s) {
    if (const auto id = got.find(want.symbol(s)))
      perm[s] = *id;
    else
      missing.push_back(want.symbol(s));
  }
  for (const std::string& s : got.symbols())
    if (!want.find(s)) extra.push_back(s);
  if (!missing.empty() || !extra.empty()) {
    std::string why = "the model's alphabet (" + std::to_string(got.size()) +
                      " symbols) is not the alphabet of " + c.name + "'s model (" +
                      std::to_string(want.size()) + " symbols):";
    if (!missing.empty()) why += " it lacks " + symbol_list(missing);
    if (!missing.empty() && !extra.empty()) why += ";";
    if (!extra.empty()) why += " it has " + symbol_list(extra) + ", which " + c.name + " has not";
    throw InputError(source, why);
  }
  if (model.layers.empty()) throw InputError(source, "the model has no layers");
  const Layer& last = model.layers.back().layer;
  if (c.out_row >= output_rows(last) || c.out_col >= output_cols(last))
    throw InputError(source, c.name + " compares output entry [" + std::to_string(c.out_row) +
                                 "][" + std::to_string(c.out_col) +
                                 "] of the last layer; the model's last layer outputs " +
                                 std::to_string(output_rows(last)) + "×" +
                                 std::to_string(output_cols(last)));
  bool reordered = false;
  for (std::size_t s = 0; s < perm.size(); ++s) reordered = reordered || perm[s] != s;
  if (reordered) {
    c.encode = [encode = std::move(c.encode), perm](const std::vector<std::size_t>& w) {
      std::vector<std::size_t> x = encode(w);
      for (std::size_t& token : x) token = perm[token];
      return x;
    };
    c.embedding = renumbered(std::move(c.embedding), perm);
    c.input_forms = renumbered(std::move(c.input_forms), perm);
    if (c.grammar) {  // the grammar reads the construction's token ids: renumber its columns
      EncodingGrammar& g = *c.grammar;
      for (auto& row : g.next) {
        std::vector<std::optional<std::size_t>> moved(row.size());
        for (std::size_t s = 0; s < row.size(); ++s) moved[perm[s]] = row[s];
        row = std::move(moved);
      }
      g.decode = [decode = std::move(g.decode), perm](const std::vector<std::size_t>& x) {
        std::vector<std::size_t> inverse(perm.size()), y = x;
        for (std::size_t s = 0; s < perm.size(); ++s) inverse[perm[s]] = s;
        for (std::size_t& token : y) token = inverse[token];
        return decode(y);
      };
    }
  }
  c.name += " with the model of " + source;
  if (!c.claims.empty())
    c.notes.push_back("the construction's claims (" + std::to_string(c.claims.size()) +
                      ") were measured on its own model, not on " + source +
                      ", and are not checked; only \"the model computes f\" is");
  c.claims.clear();
  c.model = std::move(model);
  return c;
}

Claim claim_equal(std::string name, const Integer& claimed, const Integer& measured) {
  return {std::move(name), "= " + claimed.str(), measured.str(), claimed == measured};
}

Claim claim_at_most(std::string name, const Integer& bound, const Integer& measured) {
  return {std::move(name), "≤ " + bound.str(), measured.str(), measured <= bound};
}

}  // namespace rnncc
