#include "circuits/io/blif.hpp"

#include <algorithm>

#include "algebra/error.hpp"
#include "rnn/json_cursor.hpp"

namespace rnncc {

// ---------------------------------------------------------------------------------------------
// Shared netlist machinery (BLIF and ISCAS .bench).
namespace netlist_io {

std::vector<GateId> xor_operands(std::span<const GateId> fanins) {
  std::vector<GateId> odd;
  for (GateId g : fanins) {
    auto it = std::find(odd.begin(), odd.end(), g);
    if (it == odd.end())
      odd.push_back(g);
    else
      odd.erase(it);
  }
  return odd;
}

void fail_at(std::string_view text, const std::string& source, std::size_t at,
             const std::string& what) {
  auto [line, col] = line_column(text, at);
  throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(col), what);
}

namespace {
std::string line_col(std::string_view text, std::size_t at) {
  auto [line, col] = line_column(text, at);
  return std::to_string(line) + ":" + std::to_string(col);
}
}  // namespace

Circuit build(const Netlist& n, std::string_view text, const std::string& source,
              const BuildNode& build_node) {
  auto fail = [&](std::size_t at, const std::string& what) { fail_at(text, source, at, what); };
  const std::size_t I = n.inputs.size(), N = n.nodes.size();
  // Signal id: input i is i, node j is I + j; `where` is its declaration or definition.
  std::unordered_map<std::string_view, std::uint32_t> signal;
  signal.reserve(I + N);
  std::vector<std::size_t> where(I + N);
  for (std::size_t i = 0; i < I; ++i) {
    const Netlist::Use& u = n.inputs[i];
    auto [it, fresh] = signal.emplace(u.name, static_cast<std::uint32_t>(i));
    if (!fresh)
      fail(u.at, "input '" + std::string(u.name) + "' is declared twice (first at " +
                     line_col(text, where[it->second]) + ")");
    where[i] = u.at;
  }
  for (std::size_t j = 0; j < N; ++j) {
    const Netlist::Use& u = n.nodes[j].signal;
    auto [it, fresh] = signal.emplace(u.name, static_cast<std::uint32_t>(I + j));
    if (!fresh)
      fail(u.at, "signal '" + std::string(u.name) + "' is defined twice (first " +
                     (it->second < I ? "declared an input" : "defined") + " at " +
                     line_col(text, where[it->second]) + ")");
    where[I + j] = u.at;
  }
  auto lookup = [&](const Netlist::Use& u) -> std::uint32_t {
    auto it = signal.find(u.name);
    if (it == signal.end())
      fail(u.at, "signal '" + std::string(u.name) +
                     "' is used but never defined (it is neither an input nor the output of a "
                     "gate)");
    return it->second;
  };
  // Undefined signals first, in file order (outputs, then fanins), so the first one is reported.
  {
    std::unordered_map<std::string_view, std::size_t> seen;
    for (const Netlist::Use& u : n.outputs) {
      lookup(u);
      auto [it, fresh] = seen.emplace(u.name, u.at);
      if (!fresh)
        fail(u.at, "output '" + std::string(u.name) + "' is declared twice (first at " +
                       line_col(text, it->second) + ")");
    }
    for (const Netlist::Use& u : n.fanins) lookup(u);
  }

  CircuitBuilder b;
  b.reserve(I + 2 * N + 2);
  std::vector<GateId> gate(I + N, kNoGate);
  for (std::size_t i = 0; i < I; ++i) gate[i] = b.input(std::string(n.inputs[i].name));
  // Iterative depth-first search (deep netlists would overflow the call stack): state 0 new,
  // 1 on the stack, 2 built.
  std::vector<std::uint8_t> state(N, 0);
  struct Frame {
    std::uint32_t node, next;
  };
  std::vector<Frame> stack;
  std::vector<GateId> ops;
  for (std::uint32_t root = 0; root < N; ++root) {
    if (state[root]) continue;
    state[root] = 1;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      Frame& f = stack.back();
      const Netlist::Node& node = n.nodes[f.node];
      if (f.next < node.fanin_count) {
        const Netlist::Use& u = n.fanins[node.first_fanin + f.next++];
        const std::uint32_t s = lookup(u);
        if (s < I || state[s - I] == 2) continue;
        const std::uint32_t j = static_cast<std::uint32_t>(s - I);
        if (state[j] == 1) {  // j is on the stack: j reads …, which reads f.node, which reads j
          std::string path;
          auto from =
              std::find_if(stack.begin(), stack.end(), [&](const Frame& g) { return g.node == j; });
          for (auto it = from; it != stack.end(); ++it)
            path += std::string(n.nodes[it->node].signal.name) + " -> ";
          path += std::string(n.nodes[j].signal.name);
          fail(u.at, "combinational cycle: " + path + " (each signal reads the next)");
        }
        state[j] = 1;
        stack.push_back({j, 0});
        continue;
      }
      ops.clear();
      for (std::uint32_t k = 0; k < node.fanin_count; ++k)
        ops.push_back(gate[lookup(n.fanins[node.first_fanin + k])]);
      gate[I + f.node] = build_node(b, f.node, ops);
      state[f.node] = 2;
      stack.pop_back();
    }
  }
  std::vector<GateId> outs;
  std::vector<std::string> names;
  for (const Netlist::Use& u : n.outputs) {
    outs.push_back(gate[lookup(u)]);
    names.emplace_back(u.name);
  }
  return b.finish(std::move(outs), std::move(names));
}

SignalNames::SignalNames(std::function<bool(char, bool)> legal, std::vector<std::string> reserved)
    : legal_(std::move(legal)) {
  for (std::string& r : reserved) taken_.insert(std::move(r));
}

std::string SignalNames::sanitize(std::string_view wanted) const {
  std::string s(wanted);
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!legal_(s[i], i == 0)) s[i] = '_';
  return s.empty() ? "_" : s;
}

std::string SignalNames::fresh(std::string_view wanted) {
  std::string s = sanitize(wanted);
  if (taken_.insert(s).second) return s;
  std::size_t& k = next_suffix_[s];
  for (;;) {
    std::string t = s + "_" + std::to_string(++k);
    if (taken_.insert(t).second) return t;
  }
}

std::vector<GateId> distinct_operands(const Circuit& c, GateId id) {
  std::vector<GateId> out;
  const auto ops = c.operands(id);
  if (c.kind(id) == GateKind::xor_) {
    for (GateId o : ops) {
      auto it = std::find(out.begin(), out.end(), o);
      if (it == out.end())
        out.push_back(o);
      else
        out.erase(it);  // x ⊕ x = 0
    }
  } else {
    for (GateId o : ops)
      if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
  }
  return out;
}

NetlistView prepare(const Circuit& c, const std::string& where, const std::string& format,
                    SignalNames& names) {
  bool threshold = false;
  for (GateId id = 0; id < c.size(); ++id) {
    const GateKind k = c.kind(id);
    switch (k) {
      case GateKind::input:
      case GateKind::and_:
      case GateKind::or_:
      case GateKind::xor_:
      case GateKind::not_:
        break;
      case GateKind::maj:
      case GateKind::thr:
        threshold = true;
        break;
      case GateKind::constant:
        if (c.constant(id) == 0 || c.constant(id) == 1) break;
        throw InputError(where, "gate " + std::to_string(id) + " is the constant " +
                                    to_string(c.constant(id)) + ": " + format +
                                    " holds boolean circuits (constants 0 and 1 only)");
      default:
        throw InputError(where, "gate " + std::to_string(id) + " is " + std::string(name(k)) +
                                    ": " + format +
                                    " holds boolean circuits (and, or, xor, not, maj, thr, "
                                    "constants 0 and 1) only");
    }
  }
  NetlistView v;
  v.circuit = threshold ? lower_threshold_gates(c) : c;
  const Circuit& d = v.circuit;
  v.gate_names.assign(d.size(), std::string());
  for (std::size_t i = 0; i < d.inputs().size(); ++i) {
    const std::string& n = d.input_names()[i];
    v.gate_names[d.inputs()[i]] = names.fresh(n.empty() ? "i" + std::to_string(i) : n);
  }
  std::unordered_set<std::string> output_taken;
  for (std::size_t k = 0; k < d.outputs().size(); ++k) {
    const GateId g = d.outputs()[k];
    const std::string wanted = k < d.output_names().size() && !d.output_names()[k].empty()
                                   ? d.output_names()[k]
                                   : "o" + std::to_string(k);
    std::string out;
    if (d.kind(g) == GateKind::input) {
      if (names.sanitize(wanted) == v.gate_names[g] && !output_taken.count(v.gate_names[g]))
        out = v.gate_names[g];  // the output is the input itself
      else
        v.buffers.emplace_back(out = names.fresh(wanted), g);
    } else if (v.gate_names[g].empty()) {
      out = v.gate_names[g] = names.fresh(wanted);
    } else {
      v.buffers.emplace_back(out = names.fresh(wanted), g);
    }
    output_taken.insert(out);
    v.output_names.push_back(std::move(out));
  }
  for (GateId id = 0; id < d.size(); ++id)
    if (v.gate_names[id].empty()) v.gate_names[id] = names.fresh("n" + std::to_string(id));
  return v;
}

}  // namespace netlist_io

// ---------------------------------------------------------------------------------------------
// Threshold gates → and/or/xor/not (the adder-comparator of blif.hpp).
namespace {

GateId lower_threshold(CircuitBuilder& b, std::span<const GateId> ops,
                       std::span<const std::int64_t> weights, std::int64_t theta) {
  const Circuit& c = b.view();
  std::int64_t T = theta;
  std::uint64_t W = 0;
  std::vector<std::vector<GateId>> columns;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::int64_t w = weights[i];
    if (w == 0) continue;
    if (b.is_constant(ops[i])) {  // a constant term moves into the threshold
      if (c.constant(ops[i]) != 0) T -= w;
      continue;
    }
    GateId y = ops[i];
    if (w < 0) {  // w·x = w + |w|·¬x
      y = b.not_(y);
      T += -w;
    }
    const std::uint64_t a = static_cast<std::uint64_t>(w < 0 ? -w : w);
    W += a;
    for (unsigned j = 0; j < 64; ++j)
      if ((a >> j) & 1) {
        if (columns.size() <= j) columns.resize(j + 1);
        columns[j].push_back(y);
      }
  }
  if (T <= 0) return b.constant(Rational(1));
  if (static_cast<std::uint64_t>(T) > W) return b.constant(Rational(0));
  // Column compression, least significant column first; each column is a FIFO, so the adders
  // of a column form a balanced tree.
  std::vector<GateId> s;  // s[j]: the one remaining bit of column j (kNoGate: none)
  for (std::size_t j = 0; j < columns.size(); ++j) {
    std::size_t head = 0;
    while (columns[j].size() - head >= 2) {
      const GateId x = columns[j][head], y = columns[j][head + 1];
      GateId sum, carry;
      const GateId xy[] = {x, y};
      if (columns[j].size() - head >= 3) {  // full adder
        const GateId z = columns[j][head + 2];
        head += 3;
        const GateId t = b.xor_(xy);
        const GateId tz[] = {t, z};
        sum = b.xor_(tz);
        const GateId ab = b.and_(xy), zt = b.and_(tz);
        const GateId either[] = {ab, zt};
        carry = b.or_(either);
      } else {  // half adder
        head += 2;
        sum = b.xor_(xy);
        carry = b.and_(xy);
      }
      columns[j].push_back(sum);
      if (columns.size() <= j + 1) columns.resize(j + 2);
      columns[j + 1].push_back(carry);
    }
    s.push_back(columns[j].size() > head ? columns[j][head] : kNoGate);
  }
  // Ripple comparator S ≥ T from the least significant bit up; kNoGate stands for the constant
  // 1 (g) or 0 (a missing s_j), so no constant gate is made that the result does not use.
  GateId g = kNoGate;
  for (std::size_t j = 0; j < s.size(); ++j) {
    const bool t = j < 63 && ((static_cast<std::uint64_t>(T) >> j) & 1);
    if (t) {  // g = s_j ∧ g
      if (s[j] == kNoGate) {
        g = b.constant(Rational(0));
      } else if (g == kNoGate) {
        g = s[j];
      } else {
        const GateId both[] = {s[j], g};
        g = b.and_(both);
      }
    } else if (g != kNoGate && s[j] != kNoGate) {  // g = s_j ∨ g (1 ∨ x = 1, 0 ∨ g = g)
      const GateId either[] = {s[j], g};
      g = b.or_(either);
    }
  }
  return g == kNoGate ? b.constant(Rational(1)) : g;
}

}  // namespace

Circuit lower_threshold_gates(const Circuit& c) {
  CircuitBuilder b;
  b.reserve(c.size());
  std::vector<GateId> map(c.size(), kNoGate);
  std::vector<GateId> ops;
  std::vector<std::int64_t> w;
  for (GateId id = 0; id < c.size(); ++id) {
    ops.clear();
    for (GateId o : c.operands(id)) ops.push_back(map[o]);
    switch (c.kind(id)) {
      case GateKind::input:
        map[id] = b.input(c.input_names()[c.input_index(id)]);
        break;
      case GateKind::constant:
        map[id] = b.constant(c.constant(id));
        break;
      case GateKind::maj:  // [Σ xᵢ > k/2] = [Σ xᵢ ≥ ⌊k/2⌋ + 1]
        w.assign(ops.size(), 1);
        map[id] = lower_threshold(b, ops, w, static_cast<std::int64_t>(ops.size() / 2 + 1));
        break;
      case GateKind::thr: {
        const auto ws = c.weights(id);
        w.assign(ws.begin(), ws.end());
        map[id] = lower_threshold(b, ops, w, c.threshold(id));
        break;
      }
      default:
        map[id] = b.raw(c.kind(id), ops);
    }
  }
  std::vector<GateId> outs;
  for (GateId o : c.outputs()) outs.push_back(map[o]);
  const Circuit lowered = b.finish(std::move(outs), c.output_names());
  // Drop what the adders made that the comparator does not read (the sum bits of columns the
  // comparator never looks at, …): keep the inputs, every gate of `c` and what they read.
  std::vector<bool> live(lowered.size(), false);
  for (GateId id : map) live[id] = true;
  for (GateId id = static_cast<GateId>(lowered.size()); id-- > 0;)
    if (live[id])
      for (GateId o : lowered.operands(id)) live[o] = true;
  CircuitBuilder k;
  k.reserve(lowered.size());
  std::vector<GateId> kept(lowered.size(), kNoGate);
  for (GateId id = 0; id < lowered.size(); ++id) {
    if (!live[id]) continue;
    ops.clear();
    for (GateId o : lowered.operands(id)) ops.push_back(kept[o]);
    switch (lowered.kind(id)) {
      case GateKind::input:
        kept[id] = k.input(lowered.input_names()[lowered.input_index(id)]);
        break;
      case GateKind::constant:
        kept[id] = k.constant(lowered.constant(id));
        break;
      default:
        kept[id] = k.raw(lowered.kind(id), ops);
    }
  }
  outs.clear();
  for (GateId o : lowered.outputs()) outs.push_back(kept[o]);
  return k.finish(std::move(outs), lowered.output_names());
}

// ---------------------------------------------------------------------------------------------
// Reading BLIF.
namespace {

struct Token {
  std::string_view text;
  std::size_t at;
};

// Logical lines: '#' comments dropped, a line ending in '\' joined with the next, blank lines
// skipped, split at blanks (space, tab, CR, form feed).
struct LineReader {
  std::string_view s;
  std::size_t pos = 0;

  static bool blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f'; }

  bool next(std::vector<Token>& tokens) {
    tokens.clear();
    while (pos < s.size()) {
      std::size_t end = s.find('\n', pos);
      if (end == std::string_view::npos) end = s.size();
      const std::size_t base = pos;
      std::string_view line = s.substr(pos, end - pos);
      pos = end + 1;
      if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
      while (!line.empty() && blank(line.back())) line.remove_suffix(1);
      const bool continued = !line.empty() && line.back() == '\\';
      if (continued) line.remove_suffix(1);
      for (std::size_t i = 0; i < line.size();) {
        if (blank(line[i])) {
          ++i;
          continue;
        }
        std::size_t j = i;
        while (j < line.size() && !blank(line[j])) ++j;
        tokens.push_back({line.substr(i, j - i), base + i});
        i = j;
      }
      if (!continued && !tokens.empty()) return true;
    }
    return !tokens.empty();
  }
};

bool ignored_directive(std::string_view d) {
  static constexpr std::string_view kIgnored[] = {".area",
                                                  ".delay",
                                                  ".wire_load_slope",
                                                  ".wire",
                                                  ".input_arrival",
                                                  ".output_required",
                                                  ".input_drive",
                                                  ".output_load",
                                                  ".max_input_load",
                                                  ".attr",
                                                  ".param",
                                                  ".cname",
                                                  ".default_input_arrival",
                                                  ".default_output_required",
                                                  ".default_input_drive",
                                                  ".default_output_load",
                                                  ".default_max_input_load"};
  return std::find(std::begin(kIgnored), std::end(kIgnored), d) != std::end(kIgnored);
}

struct Cover {
  std::uint32_t first_row = 0, rows = 0;
  char value = 0;  // '1' on-set, '0' off-set, 0 no rows yet
};

}  // namespace

Circuit parse_blif(std::string_view text, const std::string& source) {
  auto fail = [&](std::size_t at, const std::string& what) {
    netlist_io::fail_at(text, source, at, what);
  };
  netlist_io::Netlist n;
  std::vector<Cover> covers;
  std::vector<std::string_view> cubes;  // the rows of every cover, cover by cover
  LineReader lines{text};
  std::vector<Token> t;
  bool model = false, ended = false, in_names = false;
  while (lines.next(t)) {
    const Token& head = t[0];
    if (ended) fail(head.at, "expected nothing after .end, got '" + std::string(head.text) + "'");
    if (!model && head.text != ".model")
      fail(head.at, "expected '.model NAME' first, got '" + std::string(head.text) + "'");
    if (head.text.starts_with('.')) {
      in_names = false;
      const std::string_view d = head.text;
      if (d == ".model") {
        if (model)
          fail(head.at,
               "sequential/hierarchical BLIF is not supported: a second .model (rnncc reads one "
               "flat combinational model)");
        model = true;
      } else if (d == ".inputs" || d == ".outputs") {
        auto& list = d == ".inputs" ? n.inputs : n.outputs;
        for (std::size_t i = 1; i < t.size(); ++i) list.push_back({t[i].text, t[i].at});
      } else if (d == ".names") {
        if (t.size() < 2) fail(head.at, ".names needs at least an output signal");
        netlist_io::Netlist::Node node;
        node.signal = {t.back().text, t.back().at};
        node.first_fanin = static_cast<std::uint32_t>(n.fanins.size());
        node.fanin_count = static_cast<std::uint32_t>(t.size() - 2);
        for (std::size_t i = 1; i + 1 < t.size(); ++i) n.fanins.push_back({t[i].text, t[i].at});
        n.nodes.push_back(node);
        covers.push_back({static_cast<std::uint32_t>(cubes.size()), 0, 0});
        in_names = true;
      } else if (d == ".end") {
        ended = true;
      } else if (d == ".latch" || d == ".mlatch" || d == ".subckt" || d == ".gate" ||
                 d == ".search") {
        fail(head.at, "sequential/hierarchical BLIF is not supported: " + std::string(d) +
                          " (rnncc reads one flat combinational model of .names covers)");
      } else if (!ignored_directive(d)) {
        fail(head.at, "unknown BLIF directive '" + std::string(d) +
                          "' (rnncc reads .model, .inputs, .outputs, .names and .end)");
      }
      continue;
    }
    // A cover row of the current .names.
    if (!in_names)
      fail(head.at, "a cover row outside .names (expected a directive starting with '.', got '" +
                        std::string(head.text) + "')");
    const std::uint32_t k = n.nodes.back().fanin_count;
    Cover& cover = covers.back();
    std::string_view cube;
    std::size_t value_index = 0;
    if (k == 0) {
      value_index = 0;
    } else {
      cube = head.text;
      if (cube.size() != k)
        fail(head.at, "the cube '" + std::string(cube) + "' has " + std::to_string(cube.size()) +
                          " literals but .names has " + std::to_string(k) + " inputs");
      for (std::size_t i = 0; i < cube.size(); ++i)
        if (cube[i] != '0' && cube[i] != '1' && cube[i] != '-')
          fail(head.at + i, std::string("expected 0, 1 or - in a cube, got '") + cube[i] + "'");
      value_index = 1;
      if (t.size() < 2)
        fail(head.at + cube.size(), "expected the output value 0 or 1 after the cube");
    }
    const Token& value = t[value_index];
    if (value.text != "0" && value.text != "1")
      fail(value.at,
           "expected the output value 0 or 1, got '" + std::string(value.text) + "'" +
               (k == 0 ? " (this .names has no inputs, so a row is only the value)" : ""));
    if (t.size() > value_index + 1)
      fail(t[value_index + 1].at,
           "unexpected '" + std::string(t[value_index + 1].text) + "' after the output value");
    if (cover.value != 0 && cover.value != value.text[0])
      fail(value.at,
           "the cover mixes on-set rows (output 1) and off-set rows (output 0); BLIF allows "
           "one kind per .names");
    cover.value = value.text[0];
    cubes.push_back(cube);
    ++cover.rows;
  }
  if (!model) fail(text.size(), "expected '.model NAME' first, got the end of the file");

  auto build_node = [&](CircuitBuilder& b, std::size_t node,
                        std::span<const GateId> fanins) -> GateId {
    const Cover& cover = covers[node];
    const std::size_t k = fanins.size();
    if (cover.rows == 0) return b.constant(Rational(0));
    const std::span<const std::string_view> rows(cubes.data() + cover.first_row, cover.rows);
    // Parity covers become xor gates: 2^(k−1) distinct full minterms of one parity, over k
    // distinct signals.
    if (k >= 2 && k <= 16 && rows.size() == (std::size_t{1} << (k - 1))) {
      const netlist_io::Netlist::Node& nd = n.nodes[node];
      bool distinct = true;
      for (std::size_t i = 0; i < k && distinct; ++i)
        for (std::size_t j = i + 1; j < k && distinct; ++j)
          distinct = n.fanins[nd.first_fanin + i].name != n.fanins[nd.first_fanin + j].name;
      std::vector<bool> seen(std::size_t{1} << k, false);
      int parity = -1;
      bool ok = distinct;
      for (std::string_view r : rows) {
        if (!ok) break;
        std::size_t m = 0;
        int p = 0;
        for (std::size_t i = 0; i < k && ok; ++i) {
          if (r[i] == '-') ok = false;
          if (r[i] == '1') {
            m |= std::size_t{1} << i;
            p ^= 1;
          }
        }
        if (!ok || seen[m] || (parity >= 0 && p != parity)) {
          ok = false;
        } else {
          seen[m] = true;
          parity = p;
        }
      }
      if (ok) {  // the parity of k variables; signals that alias one gate cancel in pairs
        const GateId x = b.xor_(netlist_io::xor_operands(fanins));
        return (parity == 1) == (cover.value == '1') ? x : b.not_(x);
      }
    }
    std::vector<GateId> terms, lits;
    for (std::string_view r : rows) {
      lits.clear();
      for (std::size_t i = 0; i < k; ++i)
        if (r[i] == '1')
          lits.push_back(fanins[i]);
        else if (r[i] == '0')
          lits.push_back(b.not_(fanins[i]));
      terms.push_back(b.and_(lits));
    }
    const GateId sum = b.or_(terms);
    return cover.value == '1' ? sum : b.not_(sum);
  };
  return netlist_io::build(n, text, source, build_node);
}

Circuit load_blif(const std::string& path) {
  return parse_blif(read_text_file(path, "BLIF file"), path);
}

// ---------------------------------------------------------------------------------------------
// Writing BLIF.
namespace {

bool blif_legal(char ch, bool first) {
  // Any printable non-blank character except the comment and continuation characters and '='
  // (.subckt's formal=actual); a leading '.' would read as a directive.
  return ch > ' ' && ch < 127 && ch != '#' && ch != '\\' && ch != '=' && !(first && ch == '.');
}

void append_list(std::string& out, std::string_view directive,
                 const std::vector<std::string>& names) {
  out += directive;
  std::size_t width = directive.size();
  for (const std::string& n : names) {
    if (width + 1 + n.size() > 100) {
      out += " \\\n";
      width = 0;
    }
    out += ' ';
    out += n;
    width += 1 + n.size();
  }
  out += '\n';
}

}  // namespace

std::string write_blif(const Circuit& c, std::string_view model) {
  netlist_io::SignalNames names(blif_legal);
  netlist_io::NetlistView v = netlist_io::prepare(c, "blif", "BLIF", names);
  const Circuit& d = v.circuit;
  const auto& nm = v.gate_names;
  std::string out = "# written by rnncc (BLIF, combinational)\n.model " +
                    netlist_io::SignalNames(blif_legal).sanitize(model) + "\n";
  std::vector<std::string> ins;
  for (GateId i : d.inputs()) ins.push_back(nm[i]);
  append_list(out, ".inputs", ins);
  append_list(out, ".outputs", v.output_names);
  auto names_line = [&](std::span<const std::string> fanins, const std::string& output) {
    out += ".names";
    for (const std::string& f : fanins) out += ' ' + f;
    out += ' ' + output + '\n';
  };
  for (GateId id = 0; id < d.size(); ++id) {
    switch (d.kind(id)) {
      case GateKind::input:
        break;
      case GateKind::constant:
        out += ".names " + nm[id] + (d.constant(id) == 1 ? "\n1\n" : "\n");
        break;
      case GateKind::not_:
        out += ".names " + nm[d.operands(id)[0]] + ' ' + nm[id] + "\n0 1\n";
        break;
      case GateKind::and_:
      case GateKind::or_: {
        const std::vector<GateId> ops = netlist_io::distinct_operands(d, id);
        std::vector<std::string> fanins;
        for (GateId o : ops) fanins.push_back(nm[o]);
        names_line(fanins, nm[id]);
        if (d.kind(id) == GateKind::and_) {
          out += std::string(ops.size(), '1') + " 1\n";
        } else {
          for (std::size_t i = 0; i < ops.size(); ++i) {
            std::string row(ops.size(), '-');
            row[i] = '1';
            out += row + " 1\n";
          }
        }
        break;
      }
      case GateKind::xor_: {
        // Balanced tree of 2-input xors, paired as write_aiger pairs them.
        std::vector<std::string> level;
        for (GateId o : netlist_io::distinct_operands(d, id)) level.push_back(nm[o]);
        if (level.empty()) {
          out += ".names " + nm[id] + "\n";
          break;
        }
        if (level.size() == 1) {
          out += ".names " + level[0] + ' ' + nm[id] + "\n1 1\n";
          break;
        }
        netlist_io::xor_tree(std::move(level), nm[id], names,
                             [&](const std::string& x, const std::string& l, const std::string& r) {
                               const std::string pair[] = {l, r};
                               names_line(pair, x);
                               out += "01 1\n10 1\n";
                             });
        break;
      }
      default:
        break;  // prepare() refused everything else; maj/thr were lowered
    }
  }
  for (const auto& [name, g] : v.buffers) out += ".names " + nm[g] + ' ' + name + "\n1 1\n";
  out += ".end\n";
  return out;
}

}  // namespace rnncc
