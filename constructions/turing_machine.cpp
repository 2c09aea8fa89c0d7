#include "constructions/turing_machine.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>

#include "algebra/error.hpp"
#include "rnn/file_kind.hpp"
#include "rnn/json_cursor.hpp"
#include "rnn/utf8.hpp"

namespace rnncc {

// ---- Machines -------------------------------------------------------------------------------

std::string state_name(std::size_t q) {
  return std::string(1, static_cast<char>('A' + q));
}

std::string transition_name(const TuringMachine&, const TmTransition& t) {
  if (!t.defined) return "---";
  return std::to_string(t.write) + (t.move < 0 ? "L" : "R") + (t.next ? state_name(*t.next) : "Z");
}

std::string to_string(const TuringMachine& m) {
  std::string out;
  for (std::size_t q = 0; q < m.states; ++q) {
    if (q) out += "_";
    for (std::size_t a = 0; a < m.symbols; ++a) out += transition_name(m, m.at(q, a));
  }
  return out;
}

namespace {
// "character 'x'" for printable ASCII, else "byte 0xC3": a diagnostic stays UTF-8 whatever the
// input holds.
std::string printable(char c) {
  if (c >= 0x20 && c < 0x7F) return std::string("character '") + c + "'";
  return byte_name(c);
}
}  // namespace

TuringMachine parse_machine(std::string_view text, const std::string& where, bool lenient) {
  // Trim surrounding whitespace, keeping columns relative to the original string.
  std::size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  auto fail = [&](std::size_t pos, const std::string& why) {
    throw InputError(where, "column " + std::to_string(pos + 1) + ": " + why);
  };
  if (begin == end) throw InputError(where, "empty machine string (expected e.g. 1RB1LB_1LA1RZ)");
  // Split into states.
  std::vector<std::pair<std::size_t, std::size_t>> parts;  // [start, end)
  for (std::size_t s = begin;;) {
    std::size_t e = s;
    while (e < end && text[e] != '_') ++e;
    parts.push_back({s, e});
    if (e == end) break;
    s = e + 1;
  }
  if (parts.size() > 25)
    throw InputError(where, std::to_string(parts.size()) +
                                " states; at most 25 (A..Y; the letter Z means halt)");
  TuringMachine m;
  m.states = parts.size();
  for (std::size_t q = 0; q < parts.size(); ++q) {
    auto [s, e] = parts[q];
    const std::size_t len = e - s;
    if (len == 0) fail(s, "state " + state_name(q) + " has no transitions");
    // Check characters first, so a stray character is named where it is.
    for (std::size_t i = s; i < e; ++i) {
      const char c = text[i];
      const std::size_t k = (i - s) % 3;
      const bool ok = c == '-' || (k == 0 && std::isdigit(static_cast<unsigned char>(c))) ||
                      (k == 1 && (c == 'L' || c == 'R')) || (k == 2 && c >= 'A' && c <= 'Z');
      if (!ok)
        fail(i, "unexpected " + printable(c) + " (expected " +
                    (k == 0   ? "a symbol 0-9 to write"
                     : k == 1 ? "a move L or R"
                              : "a next state A-Z") +
                    " or '-')");
    }
    if (len % 3 != 0)
      fail(s, "state " + state_name(q) + " has " + std::to_string(len) +
                  " characters; each transition is 3 characters (write, move, next state)");
    const std::size_t count = len / 3;
    if (q == 0) {
      if (count > 10) fail(s, std::to_string(count) + " symbols; at most 10 (0..9)");
      m.symbols = count;
    } else if (count != m.symbols) {
      fail(s, "state " + state_name(q) + " has " + std::to_string(count) +
                  (count == 1 ? " transition" : " transitions") + ", but state A has " +
                  std::to_string(m.symbols) + " (one per read symbol)");
    }
    for (std::size_t a = 0; a < count; ++a) {
      const std::size_t at = s + 3 * a;
      const std::string_view t = text.substr(at, 3);
      TmTransition tr;
      if (t == "---") {
        m.delta.push_back(tr);
        continue;
      }
      for (std::size_t i = 0; i < 3; ++i)
        if (t[i] == '-') fail(at + i, "'-' may only appear as the undefined transition '---'");
      tr.defined = true;
      tr.write = static_cast<std::size_t>(t[0] - '0');
      tr.move = t[1] == 'L' ? -1 : 1;
      const std::size_t next = static_cast<std::size_t>(t[2] - 'A');
      if (next < parts.size()) {
        tr.next = next;
      } else if (t[2] != 'Z' && !lenient) {
        fail(at + 2, std::string("unknown state '") + t[2] + "' (states A.." +
                         state_name(parts.size() - 1) + "; 'Z' halts)");
      }
      m.delta.push_back(tr);
    }
  }
  // Written symbols must be read symbols.
  for (std::size_t q = 0; q < m.states; ++q)
    for (std::size_t a = 0; a < m.symbols; ++a)
      if (m.at(q, a).defined && m.at(q, a).write >= m.symbols)
        fail(parts[q].first + 3 * a, "writes symbol " + std::to_string(m.at(q, a).write) +
                                         ", but the machine reads symbols 0.." +
                                         std::to_string(m.symbols - 1));
  return m;
}

TuringMachine machine_from_argument(const std::string& argument, bool lenient) {
  std::ifstream in(argument);
  if (!in) {
    const bool looks_like_path =
        argument.find('/') != std::string::npos || argument.find('.') != std::string::npos;
    if (looks_like_path) throw InputError(argument, "cannot open machine file");
    return parse_machine(argument, "machine", lenient);
  }
  in.close();
  return parse_machine_file(read_text_file(argument, "machine file"), argument, lenient);
}

static TuringMachine parse_machine_file_unchecked(std::string_view text, const std::string& source,
                                                  bool lenient) {
  std::size_t number = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t nl = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++number;
    std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    return parse_machine(line, source + ":" + std::to_string(number), lenient);
  }
  throw InputError(source, "no machine in the file (only blank lines and # comments)");
}

TuringMachine parse_machine_file(std::string_view text, const std::string& source, bool lenient) {
  return parse_as_kind(text, source, {FileKind::machine},
                       [&] { return parse_machine_file_unchecked(text, source, lenient); });
}

std::vector<std::size_t> parse_tape_input(const TuringMachine& m, std::string_view input,
                                          const std::string& where) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const char c = input[i];
    if (!std::isdigit(static_cast<unsigned char>(c)) ||
        static_cast<std::size_t>(c - '0') >= m.symbols)
      throw InputError(where,
                       "column " + std::to_string(i + 1) + ": " +
                           (c >= 0x20 && c < 0x7F ? "'" + std::string(1, c) + "'" : byte_name(c)) +
                           " is not a tape symbol (0.." + std::to_string(m.symbols - 1) + ")");
    out.push_back(static_cast<std::size_t>(c - '0'));
  }
  return out;
}

// ---- The direct simulator -------------------------------------------------------------------

std::string to_string(HaltReason r) {
  switch (r) {
    case HaltReason::halt_state:
      return "halt state";
    case HaltReason::undefined:
      return "undefined transition";
    case HaltReason::step_cap:
      return "step cap";
  }
  return "?";
}

TmSimulator::TmSimulator(const TuringMachine& m, const std::vector<std::size_t>& input) : m_(&m) {
  if (m.states == 0) throw std::invalid_argument("TmSimulator: a machine with no states");
  tape_.assign(std::max<std::size_t>(input.size(), 1), 0);
  for (std::size_t i = 0; i < input.size(); ++i) {
    tape_[i] = static_cast<std::uint8_t>(input[i]);
    nonblank_ += input[i] != 0;
  }
}

std::size_t TmSimulator::read(std::int64_t cell) const {
  if (cell < origin_ || cell >= origin_ + static_cast<std::int64_t>(tape_.size())) return 0;
  return tape_[static_cast<std::size_t>(cell - origin_)];
}

bool TmSimulator::step() {
  if (halted_) return false;
  const std::size_t a = read(head_);
  const TmTransition& t = m_->at(state_, a);
  if (!t.defined) {
    halted_ = true;
    reason_ = HaltReason::undefined;
    return false;
  }
  // Grow the tape so the head's cell exists (doubling, amortized O(1)).
  if (head_ < origin_) {
    const std::size_t grow = std::max<std::size_t>(tape_.size(), 64);
    tape_.insert(tape_.begin(), grow, 0);
    origin_ -= static_cast<std::int64_t>(grow);
  } else if (head_ >= origin_ + static_cast<std::int64_t>(tape_.size())) {
    tape_.resize(tape_.size() * 2 + 64, 0);
  }
  std::uint8_t& cell = tape_[static_cast<std::size_t>(head_ - origin_)];
  nonblank_ += (t.write != 0) - (cell != 0);
  cell = static_cast<std::uint8_t>(t.write);
  last_ = {state_, a, head_, &t};
  head_ += t.move;
  ++steps_;
  if (t.next) {
    state_ = *t.next;
  } else {
    halted_ = true;
    reason_ = HaltReason::halt_state;
  }
  return true;
}

TmRun simulate(const TuringMachine& m, const std::vector<std::size_t>& input,
               std::uint64_t max_steps, bool record) {
  TmSimulator sim(m, input);
  TmRun r;
  while (sim.steps() < max_steps && sim.step())
    if (record) r.transitions.push_back(sim.last());
  r.steps = sim.steps();
  r.halted = sim.halted();
  r.reason = sim.halt_reason().value_or(HaltReason::step_cap);
  if (r.halted && r.reason == HaltReason::halt_state && !r.transitions.empty())
    r.state = r.transitions.back().state;
  else if (r.halted && r.reason == HaltReason::halt_state)
    r.state = sim.last().state;
  else
    r.state = sim.state();
  r.head = sim.head();
  r.ones = sim.ones();
  const auto& tape = sim.tape();
  std::size_t lo = 0, hi = tape.size();
  while (lo < hi && tape[lo] == 0) ++lo;
  while (hi > lo && tape[hi - 1] == 0) --hi;
  r.leftmost = sim.leftmost() + static_cast<std::int64_t>(lo);
  if (lo == hi) r.leftmost = 0;
  for (std::size_t i = lo; i < hi; ++i) r.tape.push_back(tape[i]);
  return r;
}

std::string tape_text(const TmRun& r) {
  if (r.tape.empty()) return "0";
  std::string s;
  for (std::size_t a : r.tape) s += static_cast<char>('0' + a);
  return s;
}

Integer tm_value_bound(std::uint64_t steps, std::size_t input_length) {
  const Integer m = Integer(static_cast<unsigned long>(steps)) +
                    Integer(static_cast<unsigned long>(input_length)) + 1;
  return 4 * m * m;
}

// ---- The hybrid model -----------------------------------------------------------------------

std::optional<TokenMeaning> token_meaning(const TuringMachine& m, const std::string& token) {
  if (token == "---") return TokenMeaning{};
  if (token.size() != 3 || !std::isdigit(static_cast<unsigned char>(token[0])) ||
      (token[1] != 'L' && token[1] != 'R') || token[2] < 'A' || token[2] > 'Z')
    return std::nullopt;
  TokenMeaning t;
  t.defined = true;
  t.write = static_cast<std::size_t>(token[0] - '0');
  t.move = token[1] == 'L' ? -1 : 1;
  const std::size_t next = static_cast<std::size_t>(token[2] - 'A');
  if (next < m.states)
    t.next = next;
  else
    t.halts = true;
  return t;
}

namespace {

// Layer 1 (LRNN) state entries.
enum : std::size_t { kP, kP2, kC, kC2, kW, kW2, kQ0 };

}  // namespace

TmHybrid turing_machine_hybrid(const TuringMachine& m, const std::vector<std::size_t>& input,
                               const TmHybridOptions& options) {
  const std::size_t Q = m.states, G = m.symbols;
  for (std::size_t a : input)
    if (a >= G)
      throw InputError("--input", "symbol " + std::to_string(a) + " is not a tape symbol");
  TmHybrid h;
  h.name = "turing-machine (hybrid, " + to_string(m) + ")";

  // Tokens: "^", "x0".."x{G−1}", then every transition of δ once (first appearance order).
  std::vector<std::string> tokens{"^"};
  for (std::size_t a = 0; a < G; ++a) tokens.push_back("x" + std::to_string(a));
  h.bos = 0;
  for (std::size_t a = 0; a < G; ++a) h.input_token.push_back(1 + a);
  for (std::size_t q = 0; q < Q; ++q)
    for (std::size_t a = 0; a < G; ++a) {
      const std::string name = transition_name(m, m.at(q, a));
      auto it = std::find(tokens.begin(), tokens.end(), name);
      h.step_token.push_back(static_cast<std::size_t>(it - tokens.begin()));
      if (it == tokens.end()) tokens.push_back(name);
    }
  const std::size_t V = tokens.size();
  for (std::size_t k = 1 + G; k < V; ++k)
    if (token_meaning(m, tokens[k])->halts || !token_meaning(m, tokens[k])->defined)
      h.rule.stop.push_back(k);

  // ---- Layer 1: LRNN, state S = (p, p², c, c², w, w², q_0..q_{Q−1}, s_1..s_{G−1}) ----------
  //   p: head position (after the token's move), c: input tokens read, w: the cell the token
  //   wrote (its key), q: one-hot control state, s: one-hot symbol the token wrote (0: none).
  //   transition (b, D, q'):  p ← p + D, p² ← p² + 2D·p + D², w ← p, w² ← p², q ← e_{q'}
  //                           (0 when halting), s ← e_b;  c, c² kept.
  //   input x_a:              w ← c, w² ← c², c ← c + 1, c² ← c² + 2c + 1, s ← e_a; p, q kept.
  //   "^" and "---":          S kept.
  const std::size_t kS1 = kQ0 + Q, d = kS1 + (G - 1);
  LrnnLayer l1;
  l1.family = Family::general;
  l1.d = d;
  l1.m = 1;
  l1.features = V;
  l1.initial_state = Matrix<Rational>(d, 1, Rational(0));
  l1.initial_state(kQ0, 0) = 1;  // state A
  const bool off = options.defect == TmHybridOptions::Defect::off_by_one_position;
  for (std::size_t k = 0; k < V; ++k) {
    Matrix<Rational> A(d, d, Rational(0)), B(d, 1, Rational(0));
    auto keep = [&](std::size_t i) { A(i, i) = 1; };
    auto set_symbol = [&](std::size_t b) {
      if (b > 0) B(kS1 + b - 1, 0) = 1;
    };
    const std::optional<TokenMeaning> t =
        k > G ? token_meaning(m, tokens[k]) : std::optional<TokenMeaning>{};
    if (k >= 1 && k <= G) {  // input token x_a
      for (std::size_t i : {kP, kP2}) keep(i);
      for (std::size_t i = 0; i < Q; ++i) keep(kQ0 + i);
      A(kW, kC) = 1;
      A(kW2, kC2) = 1;
      A(kC, kC) = 1;
      B(kC, 0) = 1;
      A(kC2, kC2) = 1;
      A(kC2, kC) = 2;
      B(kC2, 0) = 1;
      set_symbol(k - 1);
    } else if (t && t->defined) {  // transition (b, D, q')
      const Rational D(t->move);
      A(kP, kP) = 1;
      B(kP, 0) = D;
      A(kP2, kP2) = 1;
      A(kP2, kP) = 2 * D;
      B(kP2, 0) = D * D;
      for (std::size_t i : {kC, kC2}) keep(i);
      A(kW, kP) = 1;
      A(kW2, kP2) = 1;
      if (off) {  // the broken model: w = p + 1
        B(kW, 0) = 1;
        A(kW2, kP) = 2;
        B(kW2, 0) = 1;
      }
      if (t->next) B(kQ0 + *t->next, 0) = 1;
      set_symbol(t->write);
    } else {  // "^", "---"
      for (std::size_t i = 0; i < d; ++i) keep(i);
    }
    l1.A.push_back(std::move(A));
    l1.B.push_back(std::move(B));
  }
  l1.record.assign(V, NoParams{});
  // Readout y1 = (p, p², w, w², q, s): features of the attention layer.
  const std::size_t k2 = 4 + Q + (G - 1);
  l1.readout = Matrix<Rational>(k2, d, Rational(0));
  {
    std::size_t row = 0;
    for (std::size_t i : {kP, kP2, kW, kW2}) l1.readout(row++, i) = 1;
    for (std::size_t i = kQ0; i < d; ++i) l1.readout(row++, i) = 1;
  }
  enum : std::size_t { zP, zP2, zW, zW2, zQ0 };
  const std::size_t zS1 = zQ0 + Q;

  // ---- Layer 2: unique-hard attention, one head, rightmost ties ---------------------------
  //   q_t = (2p_t, −1), k_s = (w_s, w_s²): score(t, s) = 2p_t·w_s − w_s² = p_t² − (p_t − w_s)²,
  //   maximal exactly where w_s = p_t; ties (the same cell written again) go to the most recent
  //   token. v_s = (w_s, s_1..s_{G−1}); residual: y2 = (z; w_{s*}, s*_1..s*_{G−1}).
  AttentionLayer l2;
  l2.kind = AttentionKind::unique_hard;
  l2.tie = options.defect == TmHybridOptions::Defect::leftmost_ties ? TieRule::leftmost
                                                                    : TieRule::rightmost;
  l2.features = k2;
  l2.query.weights = Matrix<Rational>(2, k2, Rational(0));
  l2.query.weights(0, zP) = 2;
  l2.query.bias = Matrix<Rational>(2, 1, Rational(0));
  l2.query.bias(1, 0) = -1;
  l2.key.weights = Matrix<Rational>(2, k2, Rational(0));
  l2.key.weights(0, zW) = 1;
  l2.key.weights(1, zW2) = 1;
  l2.key.bias = Matrix<Rational>(2, 1, Rational(0));
  l2.value.weights = Matrix<Rational>(G, k2, Rational(0));
  l2.value.weights(0, zW) = 1;
  for (std::size_t j = 1; j < G; ++j) l2.value.weights(j, zS1 + j - 1) = 1;
  l2.value.bias = Matrix<Rational>(G, 1, Rational(0));
  l2.residual = true;
  const std::size_t k3 = k2 + G;
  const std::size_t aW = k2, aS1 = k2 + 1;  // attended w*, s*_1..

  // ---- Layer 3: ReLU (Elman, W = 0): e⁺ = [w* − p]₊, e⁻ = [p − w*]₊, q, s* -----------------
  //   e⁺ + e⁻ = |w* − p|, an integer: 0 iff the attended token wrote the head's cell.
  const std::size_t d3 = 2 + Q + (G - 1);
  ElmanLayer l3;
  l3.activation = Activation::relu;
  l3.d = d3;
  l3.features = k3;
  l3.pre.W = Matrix<Rational>(d3, d3, Rational(0));
  l3.pre.U = Matrix<Rational>(d3, k3, Rational(0));
  l3.pre.bias = Matrix<Rational>(d3, 1, Rational(0));
  l3.pre.U(0, aW) = 1;
  l3.pre.U(0, zP) = -1;
  l3.pre.U(1, aW) = -1;
  l3.pre.U(1, zP) = 1;
  for (std::size_t i = 0; i < Q; ++i) l3.pre.U(2 + i, zQ0 + i) = 1;
  for (std::size_t j = 1; j < G; ++j) l3.pre.U(2 + Q + j - 1, aS1 + j - 1) = 1;
  l3.initial_state = Matrix<Rational>(d3, 1, Rational(0));
  l3.readout = Matrix<Rational>(d3, d3, Rational(0));
  for (std::size_t i = 0; i < d3; ++i) l3.readout(i, i) = 1;

  // ---- Layer 4: ReLU (Elman, W = 0): the transition table --------------------------------
  //   g_{i,j} = [q_i + s*_j − e⁺ − e⁻ − 1]₊ = [state i ∧ read symbol j]   (j ≥ 1)
  //   g_i     = [q_i]₊ = q_i;  [state i ∧ read 0] = g_i − Σ_{j≥1} g_{i,j}  (linear)
  //   y_k = Σ_{(i,j): δ(i,j) = token k} [state i ∧ read j]: one-hot of the next token.
  const std::size_t d4 = Q * G;
  auto g_unit = [&](std::size_t i, std::size_t j) { return i * (G - 1) + (j - 1); };
  auto q_unit = [&](std::size_t i) { return Q * (G - 1) + i; };
  ElmanLayer l4;
  l4.activation = Activation::relu;
  l4.d = d4;
  l4.features = d3;
  l4.pre.W = Matrix<Rational>(d4, d4, Rational(0));
  l4.pre.U = Matrix<Rational>(d4, d3, Rational(0));
  l4.pre.bias = Matrix<Rational>(d4, 1, Rational(0));
  for (std::size_t i = 0; i < Q; ++i) {
    for (std::size_t j = 1; j < G; ++j) {
      const std::size_t u = g_unit(i, j);
      l4.pre.U(u, 2 + i) = 1;
      l4.pre.U(u, 2 + Q + j - 1) = 1;
      l4.pre.U(u, 0) = -1;
      l4.pre.U(u, 1) = -1;
      l4.pre.bias(u, 0) = -1;
    }
    l4.pre.U(q_unit(i), 2 + i) = 1;
  }
  l4.initial_state = Matrix<Rational>(d4, 1, Rational(0));
  l4.readout = Matrix<Rational>(V, d4, Rational(0));
  for (std::size_t i = 0; i < Q; ++i) {
    const std::size_t k0 = h.step_token[i * G];
    l4.readout(k0, q_unit(i)) += 1;
    for (std::size_t j = 1; j < G; ++j) {
      l4.readout(h.step_token[i * G + j], g_unit(i, j)) += 1;
      l4.readout(k0, g_unit(i, j)) -= 1;
    }
  }

  auto identity = [](std::size_t n) {
    InputMap im{Matrix<Rational>(n, n, Rational(0)), Matrix<Rational>(n, 1, Rational(0))};
    for (std::size_t i = 0; i < n; ++i) im.weights(i, i) = 1;
    return im;
  };
  h.model.name = h.name;
  h.model.description =
      "Turing machine " + to_string(m) +
      " simulated with chain of thought [WDL24]: prompt '^ x<a>…' (the input), then each "
      "generated token is one transition taken (write, move, next state; Z halts)";
  h.model.alphabet = Alphabet(tokens, "turing-machine tokens");
  h.model.layers.push_back({std::nullopt, l1});
  h.model.layers.push_back({identity(k2), l2});
  h.model.layers.push_back({identity(k3), l3});
  h.model.layers.push_back({identity(d3), l4});
  h.model.accept = {Acceptance::Mode::positive, 0, 0};
  h.prompt.push_back(h.bos);
  for (std::size_t a : input) h.prompt.push_back(h.input_token[a]);

  auto n = [](std::size_t x) { return Integer(static_cast<unsigned long>(x)); };
  h.claims = {
      claim_equal("layers (lrnn, attention, relu, relu)", 4, n(h.model.layers.size())),
      claim_equal("LRNN state dimension (5 + |Q| + |Γ|)", n(5 + Q + G), n(l1.d)),
      claim_equal("attention heads", 1, 1),
      claim_equal("attention key size", 2, n(l2.key_size())),
      claim_equal("ReLU units (1 + |Q| + |Γ|) + |Q|·|Γ|", n(1 + Q + G + Q * G), n(d3 + d4)),
      claim_equal("tokens (^, inputs, distinct transitions)",
                  n(1 + G +
                    [&] {
                      std::vector<std::size_t> u = h.step_token;
                      std::sort(u.begin(), u.end());
                      return static_cast<std::size_t>(std::unique(u.begin(), u.end()) - u.begin());
                    }()),
                  n(V)),
  };
  return h;
}

}  // namespace rnncc
