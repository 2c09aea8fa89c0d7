#include "circuits/io/aiger.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "algebra/error.hpp"
#include "circuits/io/netlist.hpp"
#include "circuits/passes/aig_lowering.hpp"
#include "rnn/json_cursor.hpp"

namespace rnncc {

namespace {

// A cursor over the file's bytes with line:column positions for diagnostics.
struct Reader {
  std::string_view s;
  std::string source;
  std::size_t at = 0;

  [[noreturn]] void fail(const std::string& what) const {
    auto [line, col] = line_column(s, at);
    throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(col), what);
  }
  bool eof() const { return at >= s.size(); }
  std::uint64_t number(const char* what) {
    if (eof() || s[at] < '0' || s[at] > '9') fail(std::string("expected ") + what);
    std::uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data() + at, s.data() + s.size(), v);
    if (ec != std::errc()) fail(std::string("expected ") + what + " (a number that fits 64 bits)");
    at = static_cast<std::size_t>(ptr - s.data());
    return v;
  }
  void expect(char c, const char* what) {
    if (eof() || s[at] != c) fail(std::string("expected ") + what);
    ++at;
  }
  // 7-bit little-endian varint of the binary AND section.
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (eof()) fail("the binary AND section ends in the middle of a number");
      const auto byte = static_cast<unsigned char>(s[at++]);
      if (shift > 56) fail("a delta of the binary AND section does not fit 64 bits");
      v |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80)) return v;
    }
  }
};

}  // namespace

Circuit parse_aiger(std::string_view bytes, const std::string& source) {
  Reader r{bytes, source};
  const bool ascii = bytes.starts_with("aag ");
  if (!ascii && !bytes.starts_with("aig "))
    r.fail("expected the header 'aag M I L O A' or 'aig M I L O A'");
  r.at = 4;
  const std::size_t at_M = r.at;
  const std::uint64_t M = r.number("M (maximum variable index)");
  r.expect(' ', "' I'");
  const std::size_t at_I = r.at;
  const std::uint64_t I = r.number("I (inputs)");
  r.expect(' ', "' L'");
  const std::size_t at_L = r.at;
  const std::uint64_t L = r.number("L (latches)");
  r.expect(' ', "' O'");
  const std::size_t at_O = r.at;
  const std::uint64_t O = r.number("O (outputs)");
  r.expect(' ', "' A'");
  const std::size_t at_A = r.at;
  const std::uint64_t A = r.number("A (AND gates)");
  while (!r.eof() && r.s[r.at] == ' ') {  // AIGER 1.9 header extensions B C J F: must be 0 here
    ++r.at;
    if (r.number("a header field") != 0)
      r.fail("bad-state, invariant, justice and fairness properties are not supported");
  }
  r.expect('\n', "the end of the header line");
  const std::size_t body = r.at;
  if (L != 0) {
    r.at = at_L;
    r.fail("the file has " + std::to_string(L) + " latches; rnncc reads combinational AIGs only");
  }
  // Untrusted counts (docs/formats.md, "AIGER", Limits): each is checked against the bytes
  // left before anything is allocated, so a 20-byte header cannot ask for 2^64 gates. An ASCII
  // input, output or AND line takes at least 2 bytes ("2\n"); a binary output line 2 bytes and
  // a binary AND gate 2 (two one-byte deltas). Binary inputs take no bytes at all, so their
  // count has a limit of its own: kAigerFreeInputs plus 16 per byte of the file.
  const std::uint64_t left = bytes.size() - body;
  auto too_many = [&](std::size_t at, const std::string& what, std::uint64_t n, std::uint64_t max) {
    r.at = at;
    r.fail("the header declares " + std::to_string(n) + " " + what + ", but the file can hold " +
           std::to_string(max) + " at most (" + std::to_string(left) + " bytes after the header)");
  };
  const std::uint64_t max_inputs =
      ascii ? left / 2 : kAigerFreeInputs + 16 * static_cast<std::uint64_t>(bytes.size());
  if (I > max_inputs) too_many(at_I, "inputs", I, max_inputs);
  if (O > left / 2) too_many(at_O, "outputs", O, left / 2);
  if (A > left / 2) too_many(at_A, "AND gates", A, left / 2);
  if ((ascii ? I : 0) + O + A > left / 2)
    too_many(ascii ? at_I : at_O, ascii ? "input, output and AND lines" : "output and AND lines",
             (ascii ? I : 0) + O + A, left / 2);
  if (M != I + L + A) {
    r.at = at_M;
    r.fail("M = " + std::to_string(M) + " but I + L + A = " + std::to_string(I + L + A));
  }
  if (M > kAigerMaxVariables) {
    r.at = at_M;
    r.fail("M = " + std::to_string(M) + " exceeds the limit of " +
           std::to_string(kAigerMaxVariables) + " variables");
  }
  r.at = body;

  CircuitBuilder b;
  b.reserve(I + A + A / 2 + 2);
  std::vector<GateId> var(M + 1, kNoGate);  // positive literal of each variable
  std::vector<GateId> negated(M + 1, kNoGate);
  GateId zero = kNoGate, one = kNoGate;
  for (std::uint64_t i = 1; i <= I; ++i) {
    if (ascii) {
      const std::size_t at = r.at;
      const std::uint64_t lit = r.number("an input literal");
      if (lit != 2 * i)
        r.at = at, r.fail("input " + std::to_string(i) + " must be literal " +
                          std::to_string(2 * i) + ", got " + std::to_string(lit));
      r.expect('\n', "the end of the input line");
    }
  }
  std::vector<std::uint64_t> out_lits;
  for (std::uint64_t o = 0; o < O; ++o) {
    out_lits.push_back(r.number("an output literal"));
    if (out_lits.back() > 2 * M + 1)
      r.fail("output literal " + std::to_string(out_lits.back()) + " exceeds 2M + 1");
    r.expect('\n', "the end of the output line");
  }
  auto literal = [&](std::uint64_t lit) -> GateId {
    const std::uint64_t v = lit >> 1;
    if (v == 0) {
      if (zero == kNoGate) zero = b.constant(Rational(0));
      if (one == kNoGate) one = b.constant(Rational(1));
      return lit & 1 ? one : zero;
    }
    if (var[v] == kNoGate)
      r.fail("literal " + std::to_string(lit) + " uses variable " + std::to_string(v) +
             " before it is defined");
    if (!(lit & 1)) return var[v];
    if (negated[v] == kNoGate) {
      const GateId op[] = {var[v]};
      negated[v] = b.raw(GateKind::not_, op);
    }
    return negated[v];
  };
  std::vector<std::pair<std::uint64_t, std::uint64_t>> and_lits;  // built after the symbols
  and_lits.reserve(A);
  for (std::uint64_t a = 0; a < A; ++a) {
    const std::uint64_t lhs = 2 * (I + L + a + 1);
    std::uint64_t r0, r1;
    const std::size_t line_at = r.at;
    if (ascii) {
      const std::uint64_t got = r.number("an AND line 'lhs rhs0 rhs1'");
      if (got != lhs)
        r.fail("AND gate " + std::to_string(a) + " must define literal " + std::to_string(lhs) +
               ", got " + std::to_string(got));
      r.expect(' ', "' rhs0'");
      r0 = r.number("rhs0");
      r.expect(' ', "' rhs1'");
      r1 = r.number("rhs1");
      r.expect('\n', "the end of the AND line");
    } else {
      const std::uint64_t d0 = r.varint(), d1 = r.varint();
      if (d0 == 0 || d0 > lhs)
        r.fail("AND gate " + std::to_string(a) + ": delta " + std::to_string(d0) +
               " is not in 1..lhs");
      r0 = lhs - d0;
      if (d1 > r0)
        r.fail("AND gate " + std::to_string(a) + ": second delta exceeds the first operand");
      r1 = r0 - d1;
    }
    if (r0 >= lhs || r1 >= lhs) {
      r.at = line_at;
      r.fail("AND gate " + std::to_string(a) + " reads a literal that is not defined before it");
    }
    and_lits.push_back({r0, r1});
  }
  // Symbol table: lines i<n> NAME and o<n> NAME (names in the netlist spelling, decoded by
  // netlist_io::decode_name); then an optional comment section, a line "c" and free text.
  std::vector<std::string> in_names(I), out_names(O);
  std::vector<std::size_t> in_at(I, std::string_view::npos),
      out_at(O, std::string_view::npos);  // where each symbol line starts
  while (!r.eof()) {
    const std::size_t line_at = r.at;
    const char kind = r.s[r.at];
    if (kind == 'c') {
      if (r.at + 1 < r.s.size() && r.s[r.at + 1] != '\n' && r.s[r.at + 1] != '\r') {
        ++r.at;
        r.fail(
            "expected the end of the line after 'c' (the comment section starts with a line "
            "'c')");
      }
      break;
    }
    if (kind == 'l') r.fail("latch symbols in a file without latches");
    if (kind != 'i' && kind != 'o')
      r.fail("expected a symbol line 'i<n> name' or 'o<n> name', or the comment section 'c'");
    ++r.at;
    const std::size_t idx_at = r.at;
    const std::uint64_t idx =
        r.number(kind == 'i' ? "an input index after 'i'" : "an output index after 'o'");
    const std::uint64_t count = kind == 'i' ? I : O;
    if (idx >= count) {
      r.at = idx_at;
      r.fail("symbol index " + std::to_string(idx) + " out of range (the file has " +
             std::to_string(count) + (kind == 'i' ? " inputs" : " outputs") + ")");
    }
    r.expect(' ', "' name' after the symbol index");
    const std::size_t end = std::min(r.s.find('\n', r.at), r.s.size());
    std::string_view name = r.s.substr(r.at, end - r.at);
    if (name.ends_with('\r')) name.remove_suffix(1);
    if (name.empty()) r.fail("expected a symbol name");
    netlist_io::check_utf8_name(r.s, r.source, name, r.at);
    std::size_t& first = (kind == 'i' ? in_at : out_at)[idx];
    if (first != std::string_view::npos) {
      auto [line, col] = line_column(r.s, first);
      r.at = line_at;
      r.fail(std::string(kind == 'i' ? "input " : "output ") + std::to_string(idx) +
             " is named twice (first at " + std::to_string(line) + ":" + std::to_string(col) + ")");
    }
    first = line_at;
    (kind == 'i' ? in_names : out_names)[idx] =
        netlist_io::decode_name_at(r.s, r.source, name, r.at);
    r.at = end == r.s.size() ? end : end + 1;
  }
  // Inputs first so that input i is circuit input i; then the AND gates in file order.
  for (std::uint64_t i = 1; i <= I; ++i)
    var[i] = b.input(in_names[i - 1].empty() ? "i" + std::to_string(i - 1) : in_names[i - 1]);
  for (std::uint64_t a = 0; a < A; ++a) {
    const GateId ops[] = {literal(and_lits[a].first), literal(and_lits[a].second)};
    var[I + L + a + 1] = b.raw(GateKind::and_, ops);
  }
  std::vector<GateId> outs;
  for (std::uint64_t lit : out_lits) outs.push_back(literal(lit));
  std::vector<std::string> names;
  bool named = std::any_of(out_names.begin(), out_names.end(),
                           [](const std::string& n) { return !n.empty(); });
  for (std::uint64_t o = 0; o < O && named; ++o)
    names.push_back(out_names[o].empty() ? "o" + std::to_string(o) : out_names[o]);
  return b.finish(outs, names);
}

Circuit load_aiger(const std::string& path) {
  return parse_aiger(read_text_file(path, "AIGER file"), path);
}

std::uint32_t aig_levels(const Circuit& c) {
  std::vector<std::uint32_t> level(c.size(), 0);
  for (GateId id = 0; id < c.size(); ++id) {
    std::uint32_t m = 0;
    for (GateId o : c.operands(id)) m = std::max(m, level[o]);
    level[id] = m + (c.kind(id) == GateKind::and_ ? 1 : 0);
  }
  std::uint32_t d = 0;
  for (GateId o : c.outputs()) d = std::max(d, level[o]);
  return d;
}

std::size_t and_count(const Circuit& c) {
  std::size_t n = 0;
  for (GateId id = 0; id < c.size(); ++id)
    n += c.kind(id) == GateKind::and_ ? c.gate(id).arity() - 1 : 0;
  return n;
}

void write_aiger(const Circuit& c, AigerFormat format, TextSink& out) {
  // Every AND node as it comes (constants folded, nothing shared: strash in
  // circuits/passes/strash.hpp is the hashed form), numbered in the order it was made.
  const Circuit aig = lower_to_aig(c);
  const std::uint64_t I = aig.inputs().size();
  std::vector<std::uint64_t> lit(aig.size(), 0);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ands;  // operands of AND i, 2(I+1+i)
  for (GateId id = 0; id < aig.size(); ++id) {
    const auto ops = aig.operands(id);
    switch (aig.kind(id)) {
      case GateKind::input:
        lit[id] = 2 * (aig.input_index(id) + 1);
        break;
      case GateKind::constant:
        lit[id] = aig.constant(id) == 1 ? 1 : 0;
        break;
      case GateKind::not_:
        lit[id] = lit[ops[0]] ^ 1;
        break;
      case GateKind::and_:
        ands.push_back({std::max(lit[ops[0]], lit[ops[1]]), std::min(lit[ops[0]], lit[ops[1]])});
        lit[id] = 2 * (I + ands.size());
        break;
      default:
        throw std::logic_error("write_aiger: lower_to_aig left a " +
                               std::string(name(aig.kind(id))) + " gate");
    }
  }
  const std::uint64_t A = ands.size(), M = I + A, O = aig.outputs().size();
  out << (format == AigerFormat::ascii ? "aag " : "aig ") << M << ' ' << I << " 0 " << O << ' ' << A
      << '\n';
  if (format == AigerFormat::ascii)
    for (std::uint64_t i = 1; i <= I; ++i) out << 2 * i << '\n';
  for (GateId o : aig.outputs()) out << lit[o] << '\n';
  for (std::uint64_t a = 0; a < A; ++a) {
    const std::uint64_t lhs = 2 * (I + a + 1);
    const auto [r0, r1] = ands[a];
    if (format == AigerFormat::ascii) {
      out << lhs << ' ' << r0 << ' ' << r1 << '\n';
    } else {
      for (std::uint64_t d : {lhs - r0, r0 - r1}) {
        while (d & ~std::uint64_t{0x7F}) {
          out << static_cast<char>((d & 0x7F) | 0x80);
          d >>= 7;
        }
        out << static_cast<char>(d);
      }
    }
  }
  // The symbol table: every input and output, spelled as BLIF and .bench spell them.
  netlist_io::SignalNames names;
  const netlist_io::PortNames p = netlist_io::port_names(aig, names);
  for (std::size_t i = 0; i < p.input_names.size(); ++i)
    out << 'i' << i << ' ' << p.input_names[i] << '\n';
  for (std::size_t o = 0; o < p.output_names.size(); ++o)
    out << 'o' << o << ' ' << p.output_names[o] << '\n';
  out << "c\nwritten by rnncc\n";
}

std::string write_aiger(const Circuit& c, AigerFormat format) {
  TextSink out;
  write_aiger(c, format, out);
  return out.take();
}

}  // namespace rnncc
