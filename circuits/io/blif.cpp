#include "circuits/io/blif.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "algebra/error.hpp"
#include "circuits/io/netlist.hpp"
#include "rnn/json_cursor.hpp"

namespace rnncc {

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
    for (const Token& tok : t) netlist_io::check_utf8_name(text, source, tok.text, tok.at);
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

void append_list(TextSink& out, std::string_view directive, const std::vector<std::string>& names) {
  out << directive;
  std::size_t width = directive.size();
  for (const std::string& n : names) {
    if (width + 1 + n.size() > 100) {
      out << " \\\n";
      width = 0;
    }
    out << ' ' << n;
    width += 1 + n.size();
  }
  out << '\n';
}

}  // namespace

void write_blif(const Circuit& c, std::string_view model, TextSink& out) {
  netlist_io::SignalNames names;
  netlist_io::NetlistView v = netlist_io::prepare(c, "blif", "BLIF", names);
  const Circuit& d = v.circuit;
  const auto& nm = v.gate_names;
  out << "# written by rnncc (BLIF, combinational)\n.model "
      << netlist_io::SignalNames().sanitize(model) << '\n';
  std::vector<std::string> ins;
  for (GateId i : d.inputs()) ins.push_back(nm[i]);
  append_list(out, ".inputs", ins);
  append_list(out, ".outputs", v.output_names);
  auto names_line = [&](std::span<const std::string> fanins, const std::string& output) {
    out << ".names";
    for (const std::string& f : fanins) out << ' ' << f;
    out << ' ' << output << '\n';
  };
  std::vector<std::string> fanins;
  for (GateId id = 0; id < d.size(); ++id) {
    switch (d.kind(id)) {
      case GateKind::input:
        break;
      case GateKind::constant:
        out << ".names " << nm[id] << (d.constant(id) == 1 ? "\n1\n" : "\n");
        break;
      case GateKind::not_:
        out << ".names " << nm[d.operands(id)[0]] << ' ' << nm[id] << "\n0 1\n";
        break;
      case GateKind::and_:
      case GateKind::or_: {
        const std::vector<GateId> ops = netlist_io::distinct_operands(d, id);
        fanins.clear();
        for (GateId o : ops) fanins.push_back(nm[o]);
        names_line(fanins, nm[id]);
        if (d.kind(id) == GateKind::and_) {
          out << std::string(ops.size(), '1') << " 1\n";
        } else {
          for (std::size_t i = 0; i < ops.size(); ++i) {
            std::string row(ops.size(), '-');
            row[i] = '1';
            out << row << " 1\n";
          }
        }
        break;
      }
      case GateKind::xor_: {
        // Balanced tree of 2-input xors, paired as write_aiger pairs them.
        std::vector<std::string> level;
        for (GateId o : netlist_io::distinct_operands(d, id)) level.push_back(nm[o]);
        if (level.empty()) {
          out << ".names " << nm[id] << '\n';
          break;
        }
        if (level.size() == 1) {
          out << ".names " << level[0] << ' ' << nm[id] << "\n1 1\n";
          break;
        }
        netlist_io::xor_tree(std::move(level), nm[id], names,
                             [&](const std::string& x, const std::string& l, const std::string& r) {
                               const std::string pair[] = {l, r};
                               names_line(pair, x);
                               out << "01 1\n10 1\n";
                             });
        break;
      }
      default:
        break;  // prepare() refused everything else; maj/thr were lowered
    }
  }
  for (const auto& [name, g] : v.buffers) out << ".names " << nm[g] << ' ' << name << "\n1 1\n";
  out << ".end\n";
}

std::string write_blif(const Circuit& c, std::string_view model) {
  TextSink out;
  write_blif(c, model, out);
  return out.take();
}

}  // namespace rnncc
