#include "rnn/run_report.hpp"

#include <fmt/format.h>

#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "algebra/modp.hpp"
#include "rnn/evaluate.hpp"

namespace rnncc {

namespace {

template <Domain K>
TextMatrix text(const K& k, const Matrix<typename K::Element>& m) {
  TextMatrix out(m.rows());
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) out[i].push_back(k.to_string(m(i, j)));
  return out;
}

BitGrowth bits_of(const Trace<RationalField>& trace, std::size_t t) {
  BitGrowth g;
  for (const auto& layer : trace.layers)
    for (const Rational& q : layer.states[t].data()) {
      g.numerator_bits = std::max(g.numerator_bits, bit_length(numerator(q)));
      g.denominator_bits = std::max(g.denominator_bits, bit_length(denominator(q)));
    }
  return g;
}

template <Domain K>
RunReport report(const Model& model, const K& k, const std::vector<std::size_t>& ids,
                 std::string input) {
  Trace<K> trace = evaluate(model, k, ids);
  RunReport r;
  r.input = std::move(input);
  r.semantics = k.name();
  for (std::size_t t = 0; t < ids.size(); ++t) {
    PositionReport p;
    p.position = t + 1;
    p.symbol = model.alphabet.symbol(ids[t]);
    p.output = text(k, trace.outputs()[t]);
    p.accept = accepts(model.accept, k, trace.outputs()[t]);
    for (const auto& layer : trace.layers) {
      p.states.push_back(text(k, layer.states[t]));
      p.attended.push_back(layer.attended.empty()
                               ? std::nullopt
                               : std::optional<std::vector<std::size_t>>(layer.attended[t]));
    }
    if constexpr (std::is_same_v<K, RationalField>) p.bits = bits_of(trace, t);
    r.positions.push_back(std::move(p));
  }
  if constexpr (std::is_same_v<K, RationalField>) {
    BitGrowth m;
    for (const auto& p : r.positions) {
      m.numerator_bits = std::max(m.numerator_bits, p.bits->numerator_bits);
      m.denominator_bits = std::max(m.denominator_bits, p.bits->denominator_bits);
    }
    r.max_bits = m;
  }
  r.accepted = r.positions.back().accept;
  return r;
}

std::string show(const TextMatrix& m) {
  if (m.size() == 1 && m[0].size() == 1) return m[0][0];
  std::string out;
  if (!m.empty() && m[0].size() == 1) {  // a column: (a, b, c)
    for (std::size_t i = 0; i < m.size(); ++i) out += (i ? ", " : "") + m[i][0];
    return "(" + out + ")";
  }
  for (std::size_t i = 0; i < m.size(); ++i) {
    out += i ? ", [" : "[";
    for (std::size_t j = 0; j < m[i].size(); ++j) out += (j ? ", " : "") + m[i][j];
    out += "]";
  }
  return "[" + out + "]";
}

std::string verdict(const std::optional<bool>& a) {
  return !a ? "undefined" : *a ? "accepted" : "rejected";
}

}  // namespace

std::string describe_layers(const Model& model) {
  std::string out;
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i].layer;
    out += (i ? " → " : "") + layer_kind(l);
    if (auto* lr = std::get_if<LrnnLayer>(&l))
      out += fmt::format(" d={} m={}", lr->d, lr->m);
    else if (auto* e = std::get_if<ElmanLayer>(&l))
      out += fmt::format(" d={}", e->d);
    else if (auto* s = std::get_if<LstmLayer>(&l))
      out += fmt::format(" d={}", s->d);
    else if (auto* a = std::get_if<AttentionLayer>(&l)) {
      out += fmt::format(" h={} r={}", a->key_size(), a->value_size());
      if (a->kind == AttentionKind::unique_hard) out += " tie=" + to_string(a->tie);
      if (a->window) out += fmt::format(" window={}", *a->window);
      if (a->residual) out += " residual";
    }
  }
  return out;
}

RunReport run_model(const Model& model, std::string_view input, const std::string& where,
                    const PrecisionSpec& precision) {
  std::vector<std::size_t> ids = model.alphabet.tokenize(input, where);
  std::string shown = model.alphabet.join(ids);
  try {
    switch (precision.kind) {
      case PrecisionSpec::Kind::exact:
        return report(model, RationalField{}, ids, shown);
      case PrecisionSpec::Kind::log:
        return report(model,
                      FixedPoint(log_precision(precision.log_c, ids.size(), precision.int_bits,
                                               precision.rounding, precision.overflow)),
                      ids, shown);
      case PrecisionSpec::Kind::mod:
        return report(model, ModP(precision.modulus), ids, shown);
    }
  } catch (const DomainError& e) {
    throw DomainError(where + " (" + shown + "): " + e.what());
  }
  throw std::logic_error("unhandled precision kind");
}

std::string format_text(const Model& model, const std::vector<RunReport>& runs, bool trace) {
  std::string out = fmt::format("model {}: {}\n", model.name.empty() ? "(unnamed)" : model.name,
                                describe_layers(model));
  const char* mode = model.accept.mode == Acceptance::Mode::positive ? "> 0" : "= 0";
  for (const RunReport& r : runs) {
    out += fmt::format("\ninput {}  [{}]  {} (y[{}][{}] {})\n", r.input, r.semantics,
                       verdict(r.accepted), model.accept.row, model.accept.col, mode);
    std::size_t width = 1;
    for (const auto& p : r.positions) width = std::max(width, show(p.output).size());
    out += fmt::format("  {:>4}  {:<6}  {:<{}}  {}\n", "t", "symbol", "y", width, "accept");
    for (const auto& p : r.positions) {
      out +=
          fmt::format("  {:>4}  {:<6}  {:<{}}  {}\n", p.position, p.symbol, show(p.output), width,
                      !p.accept   ? "-"
                      : *p.accept ? "yes"
                                  : "no");
      if (trace) {
        for (std::size_t l = 0; l < p.states.size(); ++l) {
          if (p.attended[l]) {  // an attention layer: no state; the positions it attends to
            std::string at;
            for (std::size_t s : *p.attended[l]) at += (at.empty() ? "" : ", ") + std::to_string(s);
            out += fmt::format("        A{}_{} = attends {}\n", l, p.position, at);
          } else {
            out += fmt::format("        S{}_{} = {}\n", l, p.position, show(p.states[l]));
          }
        }
        if (p.bits)
          out += fmt::format("        bits: numerator {}, denominator {}\n", p.bits->numerator_bits,
                             p.bits->denominator_bits);
      }
    }
    if (r.max_bits)
      out += fmt::format("  bit growth: largest numerator {} bits, largest denominator {} bits\n",
                         r.max_bits->numerator_bits, r.max_bits->denominator_bits);
  }
  return out;
}

nlohmann::ordered_json to_json(const Model& model, const std::vector<RunReport>& runs, bool trace) {
  using json = nlohmann::ordered_json;
  json j;
  j["model"] = model.name;
  j["layers"] = describe_layers(model);
  j["accept"] = {{"mode", model.accept.mode == Acceptance::Mode::positive ? "positive" : "zero"},
                 {"output", {model.accept.row, model.accept.col}}};
  auto opt = [](const std::optional<bool>& b) { return b ? json(*b) : json(nullptr); };
  auto bits = [](const BitGrowth& g) {
    return json{{"numerator", g.numerator_bits}, {"denominator", g.denominator_bits}};
  };
  j["runs"] = json::array();
  for (const RunReport& r : runs) {
    json run{{"input", r.input}, {"semantics", r.semantics}, {"accepted", opt(r.accepted)}};
    run["positions"] = json::array();
    for (const auto& p : r.positions) {
      json pj{
          {"t", p.position}, {"symbol", p.symbol}, {"output", p.output}, {"accept", opt(p.accept)}};
      if (trace) {
        pj["states"] = p.states;
        bool any = false;
        json att = json::array();
        for (const auto& a : p.attended) {
          any = any || a.has_value();
          att.push_back(a ? json(*a) : json(nullptr));
        }
        if (any) pj["attended"] = std::move(att);
      }
      if (p.bits) pj["bits"] = bits(*p.bits);
      run["positions"].push_back(std::move(pj));
    }
    if (r.max_bits) run["max_bits"] = bits(*r.max_bits);
    j["runs"].push_back(std::move(run));
  }
  return j;
}

}  // namespace rnncc
