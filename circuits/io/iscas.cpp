#include "circuits/io/iscas.hpp"

#include <algorithm>
#include <bit>
#include <cctype>

#include "algebra/error.hpp"
#include "circuits/io/netlist.hpp"
#include "rnn/json_cursor.hpp"

namespace rnncc {

namespace {

enum class BenchType : std::uint8_t { and_, nand, or_, nor, xor_, xnor, not_, buff, vdd, gnd, lut };

struct Token {
  std::string_view text;
  std::size_t at;
};

bool punct(char ch) {
  return ch == '(' || ch == ')' || ch == ',' || ch == '=';
}
bool blank(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f';
}

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return u;
}

struct BenchNode {
  BenchType type;
  std::uint32_t lut = 0;  // LUT: index of its truth table
};

// The truth table of a k-input LUT, bit m = f(minterm m), from the hex digits of `hex`
// (without 0x); false when a set bit lies beyond the 2^k minterms.
bool parse_truth(std::string_view hex, std::size_t k, std::vector<bool>& bits) {
  bits.assign(std::size_t{1} << k, false);
  std::size_t bit = 0;
  for (std::size_t i = hex.size(); i-- > 0; bit += 4) {
    const char ch = hex[i];
    const int v = ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10;
    for (int b = 0; b < 4; ++b)
      if ((v >> b) & 1) {
        if (bit + b >= bits.size()) return false;
        bits[bit + b] = true;
      }
  }
  return true;
}

// Shannon expansion on the highest variable: f = (x ∧ f₁) ∨ (¬x ∧ f₀) over table[off, off+2^v).
GateId shannon(CircuitBuilder& b, std::span<const GateId> x, const std::vector<bool>& table,
               std::size_t off, std::size_t v) {
  const std::size_t n = std::size_t{1} << v;
  const bool first = table[off];
  if (std::all_of(table.begin() + static_cast<std::ptrdiff_t>(off),
                  table.begin() + static_cast<std::ptrdiff_t>(off + n),
                  [&](bool t) { return t == first; }))
    return b.constant(Rational(first ? 1 : 0));
  const std::size_t half = n / 2;
  const GateId f0 = shannon(b, x, table, off, v - 1), f1 = shannon(b, x, table, off + half, v - 1);
  if (f0 == f1) return f0;
  const GateId hi[] = {x[v - 1], f1};
  const GateId lo[] = {b.not_(x[v - 1]), f0};
  const GateId both[] = {b.and_(hi), b.and_(lo)};
  return b.or_(both);
}

}  // namespace

Circuit parse_bench(std::string_view text, const std::string& source) {
  auto fail = [&](std::size_t at, const std::string& what) {
    netlist_io::fail_at(text, source, at, what);
  };
  netlist_io::Netlist n;
  std::vector<BenchNode> nodes;
  std::vector<std::vector<bool>> tables;
  std::vector<Token> t;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::size_t base = pos;
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    t.clear();
    for (std::size_t i = 0; i < line.size();) {
      if (blank(line[i])) {
        ++i;
      } else if (punct(line[i])) {
        t.push_back({line.substr(i, 1), base + i});
        ++i;
      } else {
        std::size_t j = i;
        while (j < line.size() && !blank(line[j]) && !punct(line[j])) ++j;
        t.push_back({line.substr(i, j - i), base + i});
        i = j;
      }
    }
    if (t.empty()) continue;
    for (const Token& tok : t) netlist_io::check_utf8_name(text, source, tok.text, tok.at);
    const std::size_t line_end = base + line.size();
    std::size_t k = 0;  // next token
    auto at_next = [&] { return k < t.size() ? t[k].at : line_end; };
    auto got = [&] {
      return k < t.size() ? "'" + std::string(t[k].text) + "'" : std::string("the end of the line");
    };
    auto expect = [&](std::string_view what) {
      if (k >= t.size() || t[k].text != what)
        fail(at_next(), "expected '" + std::string(what) + "', got " + got());
      ++k;
    };
    auto name = [&](const char* what) -> Token {
      if (k >= t.size() || punct(t[k].text[0]))
        fail(at_next(), std::string("expected ") + what + ", got " + got());
      return t[k++];
    };
    auto line_done = [&] {
      if (k < t.size())
        fail(t[k].at, "unexpected '" + std::string(t[k].text) + "' at the end of the line");
    };
    const std::string head = upper(t[0].text);
    if ((head == "INPUT" || head == "OUTPUT") && !(t.size() > 1 && t[1].text == "=")) {
      k = 1;
      expect("(");
      const Token s = name("a signal name");
      expect(")");
      line_done();
      (head == "INPUT" ? n.inputs : n.outputs).push_back({s.text, s.at});
      continue;
    }
    if (punct(t[0].text[0]) || t.size() < 2 || t[1].text != "=")
      fail(t[0].at, "expected INPUT(name), OUTPUT(name) or 'name = GATE(operands)', got '" +
                        std::string(t[0].text) + "'");
    const Token out = t[0];
    k = 2;
    const Token type_token = name("a gate type after '='");
    const std::string type = upper(type_token.text);
    BenchNode node{};
    std::size_t min_ops = 1, max_ops = SIZE_MAX;
    if (type == "AND") {
      node.type = BenchType::and_;
    } else if (type == "NAND") {
      node.type = BenchType::nand;
    } else if (type == "OR") {
      node.type = BenchType::or_;
    } else if (type == "NOR") {
      node.type = BenchType::nor;
    } else if (type == "XOR") {
      node.type = BenchType::xor_;
    } else if (type == "XNOR") {
      node.type = BenchType::xnor;
    } else if (type == "NOT" || type == "INV") {
      node.type = BenchType::not_;
      max_ops = 1;
    } else if (type == "BUFF" || type == "BUF") {
      node.type = BenchType::buff;
      max_ops = 1;
    } else if (type == "VDD" || type == "GND") {
      node.type = type == "VDD" ? BenchType::vdd : BenchType::gnd;
      min_ops = max_ops = 0;
    } else if (type == "LUT") {
      node.type = BenchType::lut;
      min_ops = 0;
      max_ops = 16;
    } else if (type == "DFF" || type == "DFFR" || type == "LATCH") {
      fail(type_token.at, "sequential .bench is not supported: " + std::string(type_token.text) +
                              " (rnncc reads combinational circuits)");
    } else {
      fail(type_token.at, "unknown gate type '" + std::string(type_token.text) +
                              "' (expected AND, NAND, OR, NOR, XOR, XNOR, NOT, BUFF, BUF, LUT, "
                              "vdd or gnd)");
    }
    std::string_view hex;
    std::size_t hex_at = 0;
    if (node.type == BenchType::lut) {
      hex_at = at_next();
      if (k >= t.size() || !(t[k].text.starts_with("0x") || t[k].text.starts_with("0X")) ||
          t[k].text.size() < 3 || !std::all_of(t[k].text.begin() + 2, t[k].text.end(), [](char ch) {
            return std::isxdigit(static_cast<unsigned char>(ch));
          }))
        fail(hex_at, "expected a truth table 0x… after LUT, got " + got());
      hex = t[k++].text.substr(2);
    }
    netlist_io::Netlist::Node nn;
    nn.signal = {out.text, out.at};
    nn.first_fanin = static_cast<std::uint32_t>(n.fanins.size());
    const bool constant = node.type == BenchType::vdd || node.type == BenchType::gnd;
    if (!constant || (k < t.size() && t[k].text == "(")) {
      expect("(");
      if (k < t.size() && t[k].text == ")") {
        ++k;
      } else {
        for (;;) {
          const Token s = name("a signal name");
          n.fanins.push_back({s.text, s.at});
          if (k < t.size() && t[k].text == ",") {
            ++k;
            continue;
          }
          expect(")");
          break;
        }
      }
    }
    line_done();
    nn.fanin_count = static_cast<std::uint32_t>(n.fanins.size() - nn.first_fanin);
    if (nn.fanin_count < min_ops || nn.fanin_count > max_ops)
      fail(type_token.at, std::string(type_token.text) +
                              (max_ops == 0                   ? " takes no operands"
                               : max_ops == 1 && min_ops == 1 ? " takes one operand"
                               : node.type == BenchType::lut  ? " takes at most 16 operands"
                                                              : " needs at least one operand") +
                              ", got " + std::to_string(nn.fanin_count));
    if (node.type == BenchType::lut) {
      tables.emplace_back();
      if (!parse_truth(hex, nn.fanin_count, tables.back()))
        fail(hex_at, "the truth table 0x" + std::string(hex) + " has bits beyond the " +
                         std::to_string(std::size_t{1} << nn.fanin_count) + " minterms of " +
                         std::to_string(nn.fanin_count) + " inputs");
      node.lut = static_cast<std::uint32_t>(tables.size() - 1);
    }
    n.nodes.push_back(nn);
    nodes.push_back(node);
  }

  auto build_node = [&](CircuitBuilder& b, std::size_t i, std::span<const GateId> ops) -> GateId {
    switch (nodes[i].type) {
      case BenchType::and_:
        return b.and_(ops);
      case BenchType::nand:
        return b.not_(b.and_(ops));
      case BenchType::or_:
        return b.or_(ops);
      case BenchType::nor:
        return b.not_(b.or_(ops));
      case BenchType::xor_:
        return b.xor_(ops);
      case BenchType::xnor:
        return b.not_(b.xor_(ops));
      case BenchType::not_:
        return b.not_(ops[0]);
      case BenchType::buff:
        return ops[0];
      case BenchType::vdd:
        return b.constant(Rational(1));
      case BenchType::gnd:
        return b.constant(Rational(0));
      case BenchType::lut: {
        const std::vector<bool>& table = tables[nodes[i].lut];
        // A parity function is an xor (or its complement) of the operands that occur an odd
        // number of times (x ⊕ x = 0).
        if (ops.size() >= 2) {
          bool odd = true, even = true;
          for (std::size_t m = 0; m < table.size(); ++m) {
            const bool p = std::popcount(m) & 1;
            odd &= table[m] == p;
            even &= table[m] != p;
          }
          if (odd || even) {
            const GateId x = b.xor_(netlist_io::xor_operands(ops));
            return odd ? x : b.not_(x);
          }
        }
        return shannon(b, ops, table, 0, ops.size());
      }
    }
    return kNoGate;
  };
  return netlist_io::build(n, text, source, build_node);
}

Circuit load_bench(const std::string& path) {
  return parse_bench(read_text_file(path, ".bench file"), path);
}

void write_bench(const Circuit& c, TextSink& out) {
  netlist_io::SignalNames names;
  netlist_io::NetlistView v = netlist_io::prepare(c, "bench", "ISCAS .bench", names);
  const Circuit& d = v.circuit;
  const auto& nm = v.gate_names;
  out << "# written by rnncc (ISCAS-89 .bench, combinational)\n";
  for (GateId i : d.inputs()) out << "INPUT(" << nm[i] << ")\n";
  for (const std::string& o : v.output_names) out << "OUTPUT(" << o << ")\n";
  auto gate = [&](const std::string& lhs, std::string_view type, std::span<const std::string> ops) {
    out << lhs << " = " << type << '(';
    for (std::size_t i = 0; i < ops.size(); ++i) out << (i ? ", " : "") << ops[i];
    out << ")\n";
  };
  std::vector<std::string> ops;
  for (GateId id = 0; id < d.size(); ++id) {
    switch (d.kind(id)) {
      case GateKind::input:
        break;
      case GateKind::constant:
        out << nm[id] << (d.constant(id) == 1 ? " = vdd\n" : " = gnd\n");
        break;
      case GateKind::not_: {
        const std::string op[] = {nm[d.operands(id)[0]]};
        gate(nm[id], "NOT", op);
        break;
      }
      case GateKind::and_:
      case GateKind::or_: {
        ops.clear();
        for (GateId o : netlist_io::distinct_operands(d, id)) ops.push_back(nm[o]);
        gate(nm[id], ops.size() == 1 ? "BUFF" : d.kind(id) == GateKind::and_ ? "AND" : "OR", ops);
        break;
      }
      case GateKind::xor_: {
        std::vector<std::string> level;
        for (GateId o : netlist_io::distinct_operands(d, id)) level.push_back(nm[o]);
        if (level.empty()) {
          out << nm[id] << " = gnd\n";
          break;
        }
        if (level.size() == 1) {
          gate(nm[id], "BUFF", level);
          break;
        }
        netlist_io::xor_tree(std::move(level), nm[id], names,
                             [&](const std::string& x, const std::string& l, const std::string& r) {
                               const std::string pair[] = {l, r};
                               gate(x, "XOR", pair);
                             });
        break;
      }
      default:
        break;  // prepare() refused everything else; maj/thr were lowered
    }
  }
  for (const auto& [name, g] : v.buffers) {
    const std::string op[] = {nm[g]};
    gate(name, "BUFF", op);
  }
}

std::string write_bench(const Circuit& c) {
  TextSink out;
  write_bench(c, out);
  return out.take();
}

}  // namespace rnncc
