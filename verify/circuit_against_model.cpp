// eval --against: a compiled circuit checked against the model's function of its precision and
// scan (circuit_against_model.hpp).
#include "verify/circuit_against_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <random>
#include <regex>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "circuits/compile/lrnn_boolean.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "rnn/run_report.hpp"

namespace rnncc {
namespace {

// Where an output's value goes: y_t entry (i, j), bit b (boolean), or acceptance / validity.
struct OutputSlot {
  enum class Kind { y, accept, valid } kind = Kind::y;
  std::size_t t = 0, i = 0, j = 0, bit = 0;
};

struct Layout {
  std::size_t n = 0;
  bool boolean = false;
  std::vector<OutputSlot> slots;  // one per circuit output
  std::size_t width = 0;          // boolean: bits per y entry (all equal)
};

Layout read_layout(const Circuit& c, const Model& model) {
  Layout L;
  const std::size_t sigma = model.alphabet.size();
  const auto& inputs = c.inputs();
  if (inputs.empty() || inputs.size() % sigma != 0)
    throw InputError("--against", fmt::format("the circuit has {} inputs, not n·|Σ| one-hot inputs "
                                              "for the model's {} symbols",
                                              inputs.size(), sigma));
  L.n = inputs.size() / sigma;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const std::string want =
        fmt::format("x[{},{}]", k / sigma + 1, model.alphabet.symbol(k % sigma));
    if (c.input_names().at(k) != want)
      throw InputError("--against",
                       fmt::format("input {} of the circuit is named '{}', not '{}': a circuit "
                                   "compiled from a model reads the one-hot x[t,σ] in order",
                                   k, c.input_names().at(k), want));
  }
  L.boolean = is_boolean(c);
  static const std::regex y(R"(y\[(\d+)\]\[(\d+)\]\[(\d+)\](?:\.b\[(\d+)\])?)");
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, std::size_t> bits_of;
  for (std::size_t k = 0; k < c.outputs().size(); ++k) {
    const std::string& name = c.output_names().at(k);
    OutputSlot s;
    std::smatch m;
    if (name == "accept") {
      s.kind = OutputSlot::Kind::accept;
    } else if (name == "valid") {
      s.kind = OutputSlot::Kind::valid;
    } else if (std::regex_match(name, m, y) && m[4].matched == L.boolean) {
      s.t = std::stoul(m[1]);
      s.i = std::stoul(m[2]);
      s.j = std::stoul(m[3]);
      if (s.t < 1 || s.t > L.n)
        throw InputError("--against", fmt::format("output '{}' names position {}, outside 1..{}",
                                                  name, s.t, L.n));
      if (L.boolean) {
        s.bit = std::stoul(m[4]);
        ++bits_of[{s.t, s.i, s.j}];
      }
    } else {
      throw InputError(
          "--against",
          fmt::format("output '{}' is not one a compiled model has: {} circuits name theirs "
                      "{}, accept and valid",
                      name, L.boolean ? "boolean" : "arithmetic",
                      L.boolean ? "y[t][i][j].b[k]" : "y[t][i][j]"));
    }
    L.slots.push_back(s);
  }
  // Nothing to compare would make every check vacuously agree.
  if (std::none_of(L.slots.begin(), L.slots.end(),
                   [](const OutputSlot& s) { return s.kind != OutputSlot::Kind::valid; }))
    throw InputError("--against", "the circuit has no output y[t][i][j] or accept to compare");
  for (const auto& [entry, bits] : bits_of) {
    if (L.width != 0 && bits != L.width)
      throw InputError("--against", "the circuit's y entries have different bit widths");
    L.width = bits;
  }
  return L;
}

// The strings checked: every string of Σ^n in order, or `count` seeded random ones.
std::vector<std::vector<std::size_t>> draw_strings(std::size_t n, std::size_t sigma,
                                                   const AgainstModelOptions& o) {
  std::vector<std::vector<std::size_t>> out;
  if (o.exhaustive) {
    std::size_t total = 1;
    for (std::size_t t = 0; t < n; ++t) {
      if (total > o.max_strings / sigma)
        throw InputError("--exhaustive",
                         fmt::format("|Σ|^n = {}^{} strings is more than {}: use --batch N random "
                                     "strings",
                                     sigma, n, o.max_strings));
      total *= sigma;
    }
    out.assign(total, std::vector<std::size_t>(n));
    for (std::size_t s = 0; s < total; ++s)
      for (std::size_t t = n, v = s; t-- > 0; v /= sigma) out[s][t] = v % sigma;
    return out;
  }
  if (o.strings > o.max_strings)
    throw InputError("--batch",
                     fmt::format("{} random strings is more than {}", o.strings, o.max_strings));
  if (o.strings == 0) throw InputError("--batch", "0: check at least one string");
  std::mt19937_64 rng(o.seed);
  out.assign(o.strings, std::vector<std::size_t>(n));
  for (auto& w : out)
    for (auto& x : w) x = static_cast<std::size_t>(rng() % sigma);
  return out;
}

// A raw fixed-point value (value raw/2^F) as `rnncc run --precision log:C` prints it.
std::string fixed_text(const Integer& raw, const FixedFormat& f) {
  return FixedPoint(f).to_string({raw});
}

// The boolean circuit's raw outputs on every string: out[s][k] = output k's bit on string s.
std::vector<std::vector<bool>> run_boolean(const Circuit& c, const Layout& L, std::size_t sigma,
                                           const std::vector<std::vector<std::size_t>>& strings,
                                           unsigned threads) {
  const std::size_t inputs = c.inputs().size(), outputs = c.outputs().size();
  const std::size_t words = (strings.size() + 63) / 64;
  std::vector<bits::Word> patterns(words * inputs, 0);
  for (std::size_t s = 0; s < strings.size(); ++s)
    for (std::size_t t = 0; t < L.n; ++t)
      patterns[(s / 64) * inputs + t * sigma + strings[s][t]] |= bits::Word{1} << (s % 64);
  const auto result = evaluate_bits_batch(c, patterns, threads);
  std::vector<std::vector<bool>> out(strings.size(), std::vector<bool>(outputs));
  for (std::size_t s = 0; s < strings.size(); ++s)
    for (std::size_t k = 0; k < outputs; ++k)
      out[s][k] = (result[(s / 64) * outputs + k] >> (s % 64)) & 1;
  return out;
}

// The circuit's y entries, decoded from W-bit two's complement, and its accept / valid bits.
struct BooleanValues {
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, Integer> y;
  std::optional<bool> accept, valid;
};

BooleanValues decode(const Layout& L, const std::vector<bool>& bits) {
  BooleanValues v;
  for (std::size_t k = 0; k < L.slots.size(); ++k) {
    const OutputSlot& s = L.slots[k];
    if (s.kind == OutputSlot::Kind::accept) {
      v.accept = bits[k];
    } else if (s.kind == OutputSlot::Kind::valid) {
      v.valid = bits[k];
    } else {
      Integer& e = v.y[{s.t, s.i, s.j}];
      if (bits[k]) e += Integer(1) << s.bit;
    }
  }
  for (auto& [entry, e] : v.y)  // bit W−1 carries −2^{W−1}
    if (e >= (Integer(1) << (L.width - 1))) e -= Integer(1) << L.width;
  return v;
}

std::string y_name(std::size_t t, std::size_t i, std::size_t j) {
  return fmt::format("y[{}][{}][{}]", t, i, j);
}

// The first difference between the circuit's values and the scan-rounded reference, if any.
std::optional<AgainstModelMismatch> boolean_difference(const BooleanValues& got,
                                                       const ScanRoundedResult& want,
                                                       const FixedFormat& format) {
  AgainstModelMismatch m;
  if (got.valid && !*got.valid) {
    m.output = "valid";
    m.circuit = "0";
    m.reference = "1";
    return m;
  }
  for (const auto& [entry, raw] : got.y) {
    const auto [t, i, j] = entry;
    const Matrix<Integer>& y = want.outputs.at(t - 1);
    if (i >= y.rows() || j >= y.cols())
      throw InputError("--against", fmt::format("output {} is outside the model's {}×{} y_t",
                                                y_name(t, i, j), y.rows(), y.cols()));
    if (raw != y(i, j)) {
      m.output = y_name(t, i, j);
      m.circuit = fixed_text(raw, format);
      m.reference = fixed_text(y(i, j), format);
      return m;
    }
  }
  if (got.accept && *got.accept != want.accept) {
    m.output = "accept";
    m.circuit = *got.accept ? "1" : "0";
    m.reference = want.accept ? "1" : "0";
    return m;
  }
  return std::nullopt;
}

void check_boolean(const Circuit& c, const Model& model, const Layout& L,
                   const AgainstModelOptions& o, AgainstModelReport& r) {
  if (compiler_name(model, o.target) != "compile_lrnn_boolean")
    throw InputError("--against",
                     "a boolean circuit is checked against the scan-rounded function of the "
                     "LRNN route (one LRNN layer, --precision log:C); this model and precision "
                     "compile by " +
                         compiler_name(model, o.target));
  BooleanLrnnOptions bo;
  bo.precision = o.target.precision;
  bo.scan = o.target.compile.scan;
  const FixedFormat f = boolean_lrnn_format(L.n, bo);
  const std::size_t W = 1 + f.int_bits + f.frac_bits;
  if (L.width != W)
    throw InputError(
        "--precision",
        fmt::format("{} at length {} gives {}-bit values (I = {}, F = {}), the "
                    "circuit's outputs have {} bits: give the --precision (and "
                    "--int-bits) it was compiled with",
                    to_string(o.target.precision), L.n, W, f.int_bits, f.frac_bits, L.width));
  const std::string scan = to_string(bo.scan);
  r.kind = "boolean";
  const std::string precision = to_string(o.target.precision);
  if (bo.scan.kind == ScanKind::sequential) {  // the circuit of the sequential rule itself
    r.reference = fmt::format("the model's {} run (the sequential rule)", precision);
    r.command = fmt::format("rnncc run --precision {}", precision);
  } else {
    r.reference = fmt::format("the scan-rounded function of {} at {}", scan, precision);
    r.command = fmt::format("rnncc run --precision {} --scan {}", precision, scan);
  }
  const auto strings = draw_strings(L.n, model.alphabet.size(), o);
  const auto bits = run_boolean(c, L, model.alphabet.size(), strings, o.threads);
  r.strings = strings.size();
  std::vector<BooleanValues> values;
  values.reserve(strings.size());
  for (std::size_t s = 0; s < strings.size(); ++s) {
    values.push_back(decode(L, bits[s]));
    const auto d =
        boolean_difference(values.back(), evaluate_scan_rounded(model, strings[s], bo), f);
    if (!d) continue;
    ++r.differing;
    if (!r.first) {
      r.first = *d;
      r.first->input = model.alphabet.join(strings[s]);
    }
  }
  if (r.differing == 0) return;
  // Which scan's function does the circuit compute? Each other scan, on the same strings (the
  // first 256: a wrong guess shows within a few).
  for (ScanKind k : {ScanKind::sequential, ScanKind::sklansky, ScanKind::kogge_stone,
                     ScanKind::brent_kung, ScanKind::ladner_fischer}) {
    BooleanLrnnOptions other = bo;
    other.scan = Scan(k);
    if (to_string(other.scan) == scan) continue;
    bool all = true;
    for (std::size_t s = 0; s < std::min<std::size_t>(strings.size(), 256) && all; ++s)
      all = !boolean_difference(values[s], evaluate_scan_rounded(model, strings[s], other), f);
    if (all) r.agreeing_scans.push_back(to_string(other.scan));
  }
}

void check_arithmetic(const Circuit& c, const Model& model, const Layout& L,
                      const AgainstModelOptions& o, AgainstModelReport& r) {
  if (o.target.precision.log_c)
    throw InputError("--precision",
                     "an arithmetic circuit computes over Q: it is checked against the model's "
                     "exact run (leave --precision out, or give exact)");
  r.kind = "arithmetic";
  r.reference = "the model's exact run over Q (every scan computes it)";
  r.command = "rnncc run";
  const std::size_t sigma = model.alphabet.size();
  const auto strings = draw_strings(L.n, sigma, o);
  r.strings = strings.size();
  const RationalField Q;
  std::vector<std::vector<Rational>> rows(strings.size(),
                                          std::vector<Rational>(c.inputs().size(), Rational(0)));
  for (std::size_t s = 0; s < strings.size(); ++s)
    for (std::size_t t = 0; t < L.n; ++t) rows[s][t * sigma + strings[s][t]] = 1;
  const auto got = evaluate_batch(c, Q, rows, o.threads);
  for (std::size_t s = 0; s < strings.size(); ++s) {
    const std::string text = model.alphabet.join(strings[s]);
    const RunReport want = run_model(model, text, "--against", PrecisionSpec{});
    std::optional<AgainstModelMismatch> d;
    for (std::size_t k = 0; k < L.slots.size() && !d; ++k) {
      const OutputSlot& slot = L.slots[k];
      AgainstModelMismatch m;
      if (slot.kind == OutputSlot::Kind::y) {
        const TextMatrix& y = want.positions.at(slot.t - 1).output;
        if (slot.i >= y.size() || slot.j >= y[slot.i].size())
          throw InputError("--against", fmt::format("output {} is outside the model's y_t",
                                                    y_name(slot.t, slot.i, slot.j)));
        m.output = y_name(slot.t, slot.i, slot.j);
        m.circuit = to_string(got[s][k]);
        m.reference = y[slot.i][slot.j];
      } else {
        m.output = slot.kind == OutputSlot::Kind::accept ? "accept" : "valid";
        m.circuit = to_string(got[s][k]);
        const std::optional<bool> a = slot.kind == OutputSlot::Kind::accept
                                          ? want.positions.at(L.n - 1).accept
                                          : std::optional<bool>(true);
        m.reference = a ? (*a ? "1" : "0") : "undefined";
      }
      if (m.circuit != m.reference) d = m;
    }
    if (!d) continue;
    ++r.differing;
    if (!r.first) {
      r.first = *d;
      r.first->input = text;
    }
  }
}

}  // namespace

std::string AgainstModelReport::verdict() const {
  if (differing > 0) return "refuted";
  return exhaustive ? "proved" : "tested";
}

AgainstModelReport check_circuit_against_model(const Circuit& circuit, const Model& model,
                                               const AgainstModelOptions& options) {
  const Layout L = read_layout(circuit, model);
  AgainstModelReport r;
  r.length = L.n;
  r.exhaustive = options.exhaustive;
  if (L.boolean)
    check_boolean(circuit, model, L, options, r);
  else
    check_arithmetic(circuit, model, L, options, r);
  return r;
}

std::string format_text(const AgainstModelReport& r, const std::string& circuit_name,
                        const std::string& model_name) {
  std::string out =
      fmt::format("{} against {}: {} (`{}`)\n", circuit_name, model_name, r.reference, r.command);
  const std::string which =
      r.exhaustive ? fmt::format("all {} strings of length {}", r.strings, r.length)
                   : fmt::format("{} random strings of length {}", r.strings, r.length);
  if (r.differing == 0) {
    out += fmt::format("  {}: {} agree{}\n", r.verdict(), which,
                       r.exhaustive ? " (every input the circuit has)" : "");
    return out;
  }
  out += fmt::format("  refuted: {} of {} differ\n", r.differing, which);
  out += fmt::format("  first: {} at input {}: circuit {}, reference {}\n", r.first->output,
                     r.first->input, r.first->circuit, r.first->reference);
  if (!r.agreeing_scans.empty()) {
    std::string scans;
    for (const auto& s : r.agreeing_scans) scans += (scans.empty() ? "" : ", ") + s;
    out += fmt::format(
        "  on these strings the circuit equals the function of --scan {}: give "
        "--scan as the circuit was compiled\n",
        scans);
  }
  return out;
}

nlohmann::ordered_json to_json(const AgainstModelReport& r) {
  nlohmann::ordered_json j = {{"verdict", r.verdict()},     {"kind", r.kind},
                              {"reference", r.reference},   {"command", r.command},
                              {"length", r.length},         {"strings", r.strings},
                              {"exhaustive", r.exhaustive}, {"differing", r.differing}};
  if (r.first)
    j["first"] = {{"input", r.first->input},
                  {"output", r.first->output},
                  {"circuit", r.first->circuit},
                  {"reference", r.first->reference}};
  j["agreeing_scans"] = r.agreeing_scans;
  return j;
}

}  // namespace rnncc
