#include "verify/certificate.hpp"

#include <stdexcept>
#include <variant>

namespace rnncc {

LinearRepresentation subject_representation(const SubjectFile& s) {
  if (const auto* a = std::get_if<Wfa>(&s.content)) return from_wfa(*a);
  return from_model(std::get<Model>(s.content));
}

std::optional<std::string> not_certifiable(const SubjectFile& s) {
  if (s.is_wfa()) return std::nullopt;
  const Model& m = std::get<Model>(s.content);
  if (m.layers.size() != 1 || !std::holds_alternative<LrnnLayer>(m.layers[0].layer))
    return s.path +
           ": certificates cover WFAs and one-layer LRNN models (the checker "
           "recomputes their states itself); this model has " +
           std::to_string(m.layers.size()) + " layers";
  return std::nullopt;
}

nlohmann::ordered_json equivalence_certificate(const EquivalenceResult& r, const SubjectFile& a,
                                               const SubjectFile& b) {
  if (!r.equivalent) throw std::logic_error("equivalence_certificate: not an equivalence");
  nlohmann::ordered_json j;
  j["format"] = "rnncc-equivalence-certificate/1";
  j["models"] = nlohmann::ordered_json::array();
  for (const SubjectFile* s : {&a, &b})
    j["models"].push_back({{"file", s->path}, {"digest", subject_digest(*s)}});
  j["field"] = r.modulus ? "F_p" : "Q";
  if (r.modulus) j["modulus"] = *r.modulus;
  // The alphabet and output size (a WFA's without building its representation: O_σ = M_σ·β
  // costs |Σ|·d² at model scale).
  const LinearRepresentation f = a.is_wfa() ? LinearRepresentation{} : subject_representation(a);
  if (const auto* w = std::get_if<Wfa>(&a.content)) {
    j["alphabet"] = w->alphabet.symbols();
    j["outputs"] = 1;
  } else {
    j["alphabet"] = f.symbols;
    j["outputs"] = f.outputs;
  }
  if (r.empty_value) j["empty_word"] = {{"value", *r.empty_value}};
  if (r.morphism) {  // h_to(u) = h_from(u)·P, P sparse by rows: [column, numerator] pairs
    const EquivalenceMorphism& m = *r.morphism;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < m.rows; ++i) {
      nlohmann::ordered_json row = nlohmann::ordered_json::array();
      for (std::size_t c = 0; c < m.cols; ++c)
        if (const std::int64_t x = m.numerators[i * m.cols + c])
          row.push_back(nlohmann::ordered_json::array({c, std::to_string(x)}));
      rows.push_back(std::move(row));
    }
    j["morphism"] = {{"from", m.f_to_g ? "f" : "g"},
                     {"denominator", std::to_string(m.denominator)},
                     {"rows", std::move(rows)}};
    return j;
  }
  j["basis"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.basis_words.size(); ++i) {
    nlohmann::ordered_json word = nlohmann::ordered_json::array();
    for (std::size_t s : r.basis_words[i]) word.push_back(j["alphabet"][s]);
    j["basis"].push_back({{"word", word}, {"next", r.coefficients[i]}, {"outputs", r.values[i]}});
  }
  return j;
}

}  // namespace rnncc
