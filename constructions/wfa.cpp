// Weighted finite automata: the plain evaluator and the two file readers (docs/formats.md,
// "WFA files"). The evaluator is the claimed semantics the automata constructions are checked
// against, so it is the textbook row-vector product, written for clarity.
#include "constructions/wfa.hpp"
#include "rnn/file_kind.hpp"

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "algebra/error.hpp"
#include "rnn/json_cursor.hpp"
#include "rnn/utf8.hpp"

namespace rnncc {

bool Wfa::deterministic() const {
  std::size_t starts = 0;
  for (const Rational& x : initial) starts += x != 0;
  if (starts != 1) return false;
  for (const Matrix<Rational>& m : transition)
    for (std::size_t p = 0; p < m.rows(); ++p) {
      std::size_t out = 0;
      for (std::size_t q = 0; q < m.cols(); ++q) out += m(p, q) != 0;
      if (out > 1) return false;
    }
  return true;
}

// f(w) = αᵀ M_{w₁} ⋯ M_{w_n} β: the row vector vᵀ = αᵀ M_{w₁} ⋯ M_{w_t} is the weight of
// reaching each state after t symbols, summed over paths.
Rational evaluate(const Wfa& a, const std::vector<std::size_t>& w) {
  const std::size_t d = a.states();
  std::vector<Rational> v = a.initial, next(d);
  for (std::size_t sigma : w) {
    if (sigma >= a.transition.size())
      throw std::out_of_range("wfa evaluate: symbol id " + std::to_string(sigma) +
                              " outside the alphabet of " + std::to_string(a.transition.size()));
    const Matrix<Rational>& m = a.transition[sigma];
    for (std::size_t q = 0; q < d; ++q) {
      Rational acc = 0;
      for (std::size_t p = 0; p < d; ++p)
        if (v[p] != 0 && m(p, q) != 0) acc += v[p] * m(p, q);
      next[q] = acc;
    }
    v.swap(next);
  }
  Rational f = 0;
  for (std::size_t q = 0; q < d; ++q) f += v[q] * a.final[q];
  return f;
}

Wfa dense_wfa(const WfaArcs& arcs) {
  const std::size_t d = arcs.states();
  Wfa a;
  a.alphabet = arcs.alphabet;
  a.state_names = arcs.state_names;
  a.initial.assign(d, Rational(0));
  for (const auto& [q, w] : arcs.initial) a.initial.at(q) = w;
  a.final.assign(d, Rational(0));
  for (const auto& [q, w] : arcs.finals) a.final.at(q) = w;
  a.transition.assign(arcs.alphabet.size(), Matrix<Rational>(d, d, Rational(0)));
  for (const WfaArcs::Arc& arc : arcs.arcs)
    a.transition.at(arc.label)(arc.src, arc.dst) = arc.weight;
  return a;
}

WfaArcs wfa_arcs(const Wfa& a) {
  WfaArcs out;
  out.alphabet = a.alphabet;
  out.state_names = a.state_names;
  for (std::size_t q = 0; q < a.states(); ++q)
    if (a.initial[q] != 0) out.initial.emplace_back(q, a.initial[q]);
  for (std::size_t q = 0; q < a.states(); ++q)
    if (a.final[q] != 0) out.finals.emplace_back(q, a.final[q]);
  for (std::size_t s = 0; s < a.transition.size(); ++s)
    for (std::size_t p = 0; p < a.states(); ++p)
      for (std::size_t q = 0; q < a.states(); ++q)
        if (a.transition[s](p, q) != 0) out.arcs.push_back({p, q, s, a.transition[s](p, q)});
  return out;
}

namespace {

// ---------------------------------------------------------------------------------------
// AT&T text
// ---------------------------------------------------------------------------------------

struct Token {
  std::string_view text;
  std::size_t column;  // 1-based, in code points
};

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// Splits one line (comment already removed) at blanks; columns count UTF-8 code points.
std::vector<Token> tokens_of(std::string_view line) {
  std::vector<Token> out;
  std::size_t column = 1, i = 0;
  auto advance = [&](std::size_t to) {
    for (; i < to; ++i)
      if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++column;
  };
  while (i < line.size()) {
    if (is_blank(line[i])) {
      advance(i + 1);
      continue;
    }
    std::size_t j = i;
    while (j < line.size() && !is_blank(line[j])) ++j;
    out.push_back({line.substr(i, j - i), column});
    advance(j);
  }
  return out;
}

class AttReader {
 public:
  AttReader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  WfaArcs read() {
    if (text_.starts_with("\xEF\xBB\xBF")) text_.remove_prefix(3);  // UTF-8 byte-order mark
    std::size_t line_no = 0, first_final_line = 0;
    std::optional<std::size_t> initial;
    // Line by line; a last line without '\n' counts too.
    for (std::size_t pos = 0; pos <= text_.size();) {
      ++line_no;
      const std::size_t nl = text_.find('\n', pos);
      const std::size_t end = nl == std::string_view::npos ? text_.size() : nl;
      std::string_view line = text_.substr(pos, end - pos);
      pos = end + 1;
      if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
      line_ = line_no;
      if (auto bad = first_invalid_utf8(line))  // names are written out later (JSON, DOT)
        fail(Token{line, line_column(line, *bad).second},
             "expected UTF-8 text, got " + byte_name(line[*bad]) +
                 " (state names, labels and weights are UTF-8)");
      std::vector<Token> t = tokens_of(line);
      if (t.empty()) continue;
      if (t.size() > 4)
        fail(t[4],
             "expected 'src dst label [weight]' (an arc) or 'state [weight]' (a final state), "
             "got " +
                 std::to_string(t.size()) + " fields");
      const std::size_t first = state_id(t[0]);
      if (!initial) initial = first;  // the first line's source is the initial state
      if (t.size() >= 3) {            // arc
        WfaArcs::Arc arc{first, state_id(t[1]), label_id(t[2]),
                         t.size() == 4 ? weight(t[3], false) : Rational(1)};
        auto key = std::make_tuple(arc.src, arc.dst, arc.label);
        if (auto it = arc_index_.find(key); it != arc_index_.end())
          arcs_[it->second].weight += arc.weight;  // a repeated arc adds weights
        else {
          arc_index_.emplace(key, arcs_.size());
          arcs_.push_back(std::move(arc));
        }
      } else {  // final state
        Rational w = t.size() == 2 ? weight(t[1], true) : Rational(1);
        if (auto it = final_line_.find(first); it != final_line_.end())
          fail(t[0], "state '" + std::string(t[0].text) + "' already has a final weight (line " +
                         std::to_string(it->second) + ")");
        final_line_.emplace(first, line_no);
        finals_.emplace_back(first, std::move(w));
        if (first_final_line == 0) first_final_line = line_no;
      }
    }
    if (!initial)
      throw InputError(source_ + ":1:1",
                       "expected at least one line 'src dst label [weight]' (an arc) or 'state "
                       "[weight]' (a final state), got an empty WFA file");
    if (labels_.empty())
      throw InputError(source_ + ":" + std::to_string(first_final_line) + ":1",
                       "expected at least one arc 'src dst label [weight]': the alphabet is the "
                       "set of arc labels, and this file has only final-state lines");

    WfaArcs a;
    a.alphabet = Alphabet(labels_, source_);
    a.state_names = std::move(names_);
    a.initial = {{*initial, Rational(1)}};
    a.finals = std::move(finals_);
    a.arcs = std::move(arcs_);
    return a;
  }

 private:
  [[noreturn]] void fail(const Token& t, const std::string& what) const {
    throw InputError(source_ + ":" + std::to_string(line_) + ":" + std::to_string(t.column), what);
  }

  // The WFA is stored densely (|Σ| matrices of states × states), so the counts are checked as
  // they grow, before anything of that size is allocated (docs/formats.md, "WFA files").
  void check_size(const Token& t, std::size_t states, std::size_t labels) const {
    if (states > att_max_states) fail(t, "more than " + std::to_string(att_max_states) + " states");
    if (labels > att_max_states)
      fail(t, "more than " + std::to_string(att_max_states) + " distinct labels");
    if (labels * states * states > att_max_entries)
      fail(t, std::to_string(labels) + " labels × " + std::to_string(states) + "² states is " +
                  std::to_string(labels * states * states) + " matrix entries; at most " +
                  std::to_string(att_max_entries));
  }

  std::size_t state_id(const Token& t) {
    const std::string_view name = t.text;
    auto it = state_index_.find(std::string(name));
    if (it != state_index_.end()) return it->second;
    check_size(t, names_.size() + 1, std::max<std::size_t>(labels_.size(), 1));
    state_index_.emplace(std::string(name), names_.size());
    names_.emplace_back(name);
    return names_.size() - 1;
  }

  std::size_t label_id(const Token& t) {
    const std::string label(t.text);
    if (label.find(',') != std::string::npos)
      fail(t,
           "label '" + label + "' is not a valid symbol: ',' separates symbols in input strings");
    if (label == "<eps>" || label == "<epsilon>")
      fail(t,
           "label '" + label + "' is an epsilon arc; a WFA here reads exactly one symbol per arc");
    for (std::size_t i = 0; i < labels_.size(); ++i)
      if (labels_[i] == label) return i;
    check_size(t, names_.size(), labels_.size() + 1);
    labels_.push_back(label);
    return labels_.size() - 1;
  }

  Rational weight(const Token& t, bool final_line) const {
    if (auto q = try_parse_rational(t.text)) return *q;
    fail(t, "expected a rational weight such as -3/4, got '" + std::string(t.text) + "'" +
                (final_line ? " (a line of two fields is a final state 'state weight'; an arc "
                              "needs 'src dst label [weight]')"
                            : ""));
  }

  std::string_view text_;
  const std::string& source_;
  std::size_t line_ = 0;
  std::unordered_map<std::string, std::size_t> state_index_;
  std::vector<std::string> names_, labels_;
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, std::size_t> arc_index_;
  std::vector<WfaArcs::Arc> arcs_;
  std::map<std::size_t, std::size_t> final_line_;  // state → line of its final weight
  std::vector<std::pair<std::size_t, Rational>> finals_;
};

}  // namespace

WfaArcs parse_wfa_att_arcs(std::string_view text, const std::string& source) {
  return parse_as_kind(text, source, {FileKind::wfa},
                       [&] { return AttReader(text, source).read(); });
}

Wfa parse_wfa_att(std::string_view text, const std::string& source) {
  return dense_wfa(parse_wfa_att_arcs(text, source));
}

// ---------------------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------------------

static Wfa parse_wfa_json_unchecked(std::string_view text, const std::string& source) {
  const nlohmann::json doc = parse_json(text, source);
  JsonCursor root(doc, source, "");
  root.only({"format", "description", "comment", "alphabet", "states", "initial", "final",
             "transitions"});
  if (auto f = root.find("format"); f && f->string() != "rnncc-wfa/1") f->fail("\"rnncc-wfa/1\"");
  if (auto d = root.find("description")) d->string();
  if (auto c = root.find("comment")) c->string();

  Wfa a;
  JsonCursor alphabet = root.at("alphabet");
  std::vector<std::string> symbols;
  for (std::size_t i = 0; i < alphabet.array().size(); ++i) symbols.push_back(alphabet[i].string());
  a.alphabet = Alphabet(symbols, alphabet.where());

  JsonCursor states = root.at("states");
  if (states.value().is_array()) {
    if (states.array().empty()) states.fail("at least one state name");
    // The limit of the number form, checked before the names are: comparing every pair of
    // names took 12 s for 60 000 of them under the sanitizers (the size-scaling fuzz target).
    if (states.array().size() > att_max_states)
      states.error("expected at most " + std::to_string(att_max_states) + " states, got " +
                   std::to_string(states.array().size()));
    std::set<std::string> seen;
    for (std::size_t i = 0; i < states.array().size(); ++i) {
      JsonCursor s = states[i];
      std::string name = s.string();
      if (name.empty()) s.fail("a non-empty state name");
      if (!seen.insert(name).second) s.error("state name '" + name + "' is repeated");
      a.state_names.push_back(std::move(name));
    }
  } else {
    if (!states.value().is_number_integer())
      states.fail("a number of states (an integer in 1..4096) or an array of state names");
    const std::size_t n = states.size_value(1, att_max_states);
    for (std::size_t i = 0; i < n; ++i) a.state_names.push_back(std::to_string(i));
  }
  const std::size_t d = a.state_names.size();
  a.initial = root.at("initial").vector(d);
  a.final = root.at("final").vector(d);

  JsonCursor transitions = root.at("transitions");
  for (auto it = transitions.object().begin(); it != transitions.object().end(); ++it)
    if (!a.alphabet.find(it.key()))
      transitions.child(it.key(), it.value())
          .error("'" + it.key() + "' is not a symbol of the alphabet");
  for (const std::string& s : a.alphabet.symbols()) {
    if (!transitions.has(s))
      transitions.error("expected a " + std::to_string(d) + "×" + std::to_string(d) +
                        " matrix for symbol '" + s + "'");
    a.transition.push_back(transitions.at(s).matrix(d, d));
  }
  return a;
}

Wfa parse_wfa_json(std::string_view text, const std::string& source) {
  return parse_as_kind(text, source, {FileKind::wfa},
                       [&] { return parse_wfa_json_unchecked(text, source); });
}

Wfa load_wfa(const std::string& path) {
  const std::string text = read_text_file(path, "WFA file");
  if (path.ends_with(".json")) return parse_wfa_json(text, path);
  return parse_wfa_att(text, path);
}

WfaArcs load_wfa_arcs(const std::string& path) {
  const std::string text = read_text_file(path, "WFA file");
  if (path.ends_with(".json")) return wfa_arcs(parse_wfa_json(text, path));
  return parse_wfa_att_arcs(text, path);
}

}  // namespace rnncc
