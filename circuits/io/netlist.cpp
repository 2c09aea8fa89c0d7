// The shared netlist machinery of the BLIF and ISCAS .bench readers and writers.
#include "circuits/io/netlist.hpp"

#include <algorithm>

#include "algebra/error.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "rnn/json_cursor.hpp"
#include "rnn/utf8.hpp"

namespace rnncc {

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

std::size_t utf8_error(std::string_view s) {
  return first_invalid_utf8(s).value_or(std::string_view::npos);
}

void check_utf8_name(std::string_view text, const std::string& source, std::string_view token,
                     std::size_t at) {
  const std::size_t bad = utf8_error(token);
  if (bad == std::string_view::npos) return;
  fail_at(text, source, at + bad,
          "expected a UTF-8 name (" + byte_name(token[bad]) + " is not UTF-8)");
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
  for (std::size_t i = 0; i < I; ++i)
    gate[i] = b.input(decode_name_at(text, source, n.inputs[i].name, n.inputs[i].at));
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
    names.push_back(decode_name_at(text, source, u.name, u.at));
  }
  return b.finish(std::move(outs), std::move(names));
}

namespace {
bool reserved_word(std::string_view s) {
  auto is = [&](std::string_view w) {
    if (s.size() != w.size()) return false;
    for (std::size_t i = 0; i < s.size(); ++i)
      if ((s[i] & ~0x20) != w[i]) return false;
    return true;
  };
  return is("INPUT") || is("OUTPUT");
}
}  // namespace

std::string encode_name(std::string_view name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const bool reserved = reserved_word(name);
  std::string out;
  out.reserve(name.size());
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto ch = static_cast<unsigned char>(name[i]);
    const bool keep = ch > ' ' && ch < 0x7F && ch != '#' && ch != ',' && ch != '(' && ch != ')' &&
                      ch != '=' && ch != '\\' && ch != '%' && !(i == 0 && (ch == '.' || reserved));
    if (keep) {
      out += static_cast<char>(ch);
    } else {
      out += '%';
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    }
  }
  return out;
}

std::string decode_name(std::string_view name) {
  auto hex = [](char ch) -> int {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    return -1;
  };
  std::string out;
  out.reserve(name.size());
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '%' && i + 2 < name.size() && hex(name[i + 1]) >= 0 && hex(name[i + 2]) >= 0) {
      out += static_cast<char>(hex(name[i + 1]) * 16 + hex(name[i + 2]));
      i += 2;
    } else {
      out += name[i];
    }
  }
  return out;
}

std::string decode_name_at(std::string_view text, const std::string& source, std::string_view token,
                           std::size_t at) {
  std::string name = decode_name(token);
  if (utf8_error(name) != std::string_view::npos)
    fail_at(text, source, at,
            "the name '" + std::string(token) +
                "' is not UTF-8 once its %XX escapes are decoded (names are UTF-8)");
  return name;
}

SignalNames::SignalNames(std::vector<std::string> reserved) {
  for (std::string& r : reserved) taken_.insert(std::move(r));
}

std::string SignalNames::sanitize(std::string_view wanted) const {
  return wanted.empty() ? "_" : encode_name(wanted);
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

namespace {
// prefix followed by k in decimal ("i3"). Spelled out rather than "i" + std::to_string(k): that
// operator+ trips GCC 12's -Wrestrict false positive (GCC bug 105329) once inlined here.
std::string numbered(char prefix, std::size_t k) {
  std::string s(1, prefix);
  s += std::to_string(k);
  return s;
}
}  // namespace

PortNames port_names(const Circuit& d, SignalNames& names) {
  PortNames p;
  for (std::size_t i = 0; i < d.inputs().size(); ++i) {
    const std::string& n = d.input_names()[i];
    p.input_names.push_back(names.fresh(n.empty() ? numbered('i', i) : n));
  }
  std::unordered_set<std::string> output_taken;
  for (std::size_t k = 0; k < d.outputs().size(); ++k) {
    const GateId g = d.outputs()[k];
    const std::string wanted = k < d.output_names().size() && !d.output_names()[k].empty()
                                   ? d.output_names()[k]
                                   : numbered('o', k);
    const std::string* in =
        d.kind(g) == GateKind::input ? &p.input_names[d.input_index(g)] : nullptr;
    const bool same = in && names.sanitize(wanted) == *in && !output_taken.count(*in);
    std::string out = same ? *in : names.fresh(wanted);
    output_taken.insert(out);
    p.output_names.push_back(std::move(out));
    p.output_is_input.push_back(same);
  }
  return p;
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
  PortNames p = port_names(d, names);
  for (std::size_t i = 0; i < d.inputs().size(); ++i)
    v.gate_names[d.inputs()[i]] = std::move(p.input_names[i]);
  for (std::size_t k = 0; k < d.outputs().size(); ++k) {
    const GateId g = d.outputs()[k];
    if (!p.output_is_input[k]) {
      if (d.kind(g) == GateKind::input || !v.gate_names[g].empty())
        v.buffers.emplace_back(p.output_names[k], g);
      else
        v.gate_names[g] = p.output_names[k];
    }
    v.output_names.push_back(std::move(p.output_names[k]));
  }
  for (GateId id = 0; id < d.size(); ++id)
    if (v.gate_names[id].empty()) v.gate_names[id] = names.fresh(numbered('n', id));
  return v;
}

}  // namespace netlist_io

}  // namespace rnncc
