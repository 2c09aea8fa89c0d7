#include "circuits/io/sexpr.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "algebra/error.hpp"
#include "algebra/rational.hpp"
#include "rnn/json_cursor.hpp"  // line_column, read_text_file
#include "rnn/utf8.hpp"

namespace rnncc {

namespace {

constexpr std::size_t kMaxVariable = 65536;  // x65536: inputs are created eagerly, 1..k
// A formula's depth (of its binary tree, so also the nesting of its parentheses) is at most
// this (docs/formats.md, "Formula files", Limits). The parser keeps its own stack, but the
// formula's consumers (constructions, printers) walk its depth, and no formula a construction
// can use is anywhere near this deep (Barrington's program has length 4^depth). Bounding the
// binary depth, not only the nesting, keeps the canonical text (which nests as deep as the
// binary tree) readable again.
constexpr std::size_t kMaxDepth = 4096;

enum class Op { and_, or_, not_, add, sub, mul };

struct OpInfo {
  Op op;
  std::string_view name;
  bool boolean;
  std::size_t min_arity, max_arity;  // max 0 = unbounded
  GateKind gate;
};

constexpr OpInfo kOps[] = {
    {Op::and_, "and", true, 2, 0, GateKind::and_}, {Op::or_, "or", true, 2, 0, GateKind::or_},
    {Op::not_, "not", true, 1, 1, GateKind::not_}, {Op::add, "+", false, 2, 0, GateKind::add},
    {Op::sub, "-", false, 2, 2, GateKind::sub},    {Op::mul, "*", false, 2, 0, GateKind::mul},
};

const OpInfo* find_op(std::string_view name) {
  for (const OpInfo& o : kOps)
    if (o.name == name) return &o;
  return nullptr;
}

// A node of the binary tree. Nodes are appended in post-order (operands before the operator),
// so building the circuit and measuring depth are single forward passes — no recursion, so a
// formula nested arbitrarily deep cannot overflow the stack.
struct Node {
  enum class Kind { variable, constant, op } kind;
  std::size_t variable = 0;  // 1-based index
  Rational value;
  const OpInfo* op = nullptr;
  std::size_t a = 0, b = 0;  // operands (b unused for not)
  std::size_t depth = 0;
};

struct Token {
  enum class Kind { lparen, rparen, atom, end } kind;
  std::string_view text;
  std::size_t offset;
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& source) : text_(text), source_(source) {
    // A UTF-8 byte-order mark is not part of the text (and must not shift column numbers).
    if (text_.starts_with("\xEF\xBB\xBF")) text_.remove_prefix(3);
  }

  Formula parse() {
    struct Frame {
      const OpInfo* op;
      std::size_t open, op_offset;  // byte offsets of '(' and of the operator
      std::vector<std::size_t> operands;
    };
    std::vector<Frame> stack;
    std::optional<std::size_t> root;
    for (;;) {
      const Token t = next();
      if (t.kind == Token::Kind::end) {
        if (!stack.empty())
          fail(stack.back().open, "unbalanced parentheses: this '(' is never closed");
        if (!root) fail(t.offset, "empty input: expected a formula");
        break;
      }
      if (t.kind == Token::Kind::rparen && stack.empty())
        fail(t.offset, "unbalanced parentheses: ')' without a matching '('");
      if (root && stack.empty())
        fail(t.offset, "trailing input after the formula: " + describe(t) +
                           " (a file holds exactly one formula)");
      std::optional<std::size_t> done;
      if (t.kind == Token::Kind::lparen) {
        const Token o = next();
        if (o.kind == Token::Kind::end)
          fail(t.offset, "unbalanced parentheses: this '(' is never closed");
        const OpInfo* op = o.kind == Token::Kind::atom ? find_op(o.text) : nullptr;
        if (!op && o.kind == Token::Kind::atom)
          fail(o.offset,
               "unknown operator " + describe(o) + " (expected one of and, or, not, +, -, *)");
        if (!op)
          fail(o.offset,
               "expected an operator after '(' (one of and, or, not, +, -, *), got " + describe(o));
        set_mode(op->boolean, o.offset, "the operator '" + std::string(op->name) + "'");
        if (stack.size() >= kMaxDepth)
          fail(t.offset, "parentheses nest deeper than " + std::to_string(kMaxDepth) +
                             " levels (the depth limit of formula files)");
        stack.push_back({op, t.offset, o.offset, {}});
        continue;
      }
      if (t.kind == Token::Kind::rparen) {
        done = close(stack.back().op, stack.back().op_offset, stack.back().operands);
        stack.pop_back();
      } else {
        done = leaf(t);
      }
      if (stack.empty())
        root = done;
      else
        stack.back().operands.push_back(*done);
    }
    return build(*root);
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& what) const {
    const auto [line, column] = line_column(text_, offset);
    throw InputError(source_ + ":" + std::to_string(line) + ":" + std::to_string(column), what);
  }

  std::string position(std::size_t offset) const {
    const auto [line, column] = line_column(text_, offset);
    return std::to_string(line) + ":" + std::to_string(column);
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Token::Kind::lparen:
        return "'('";
      case Token::Kind::rparen:
        return "')'";
      case Token::Kind::atom:
        return "'" + std::string(t.text) + "'";
      case Token::Kind::end:
        break;
    }
    return "end of input";
  }

  // Skips whitespace and ';' comments, then reads '(', ')' or an atom (a maximal run of other
  // characters).
  Token next() {
    for (;;) {
      while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
      if (pos_ < text_.size() && text_[pos_] == ';') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        continue;
      }
      break;
    }
    const std::size_t start = pos_;
    if (pos_ == text_.size()) return {Token::Kind::end, {}, start};
    if (text_[pos_] == '(') return {Token::Kind::lparen, text_.substr(pos_++, 1), start};
    if (text_[pos_] == ')') return {Token::Kind::rparen, text_.substr(pos_++, 1), start};
    while (pos_ < text_.size() && !is_space(text_[pos_]) && text_[pos_] != '(' &&
           text_[pos_] != ')' && text_[pos_] != ';')
      ++pos_;
    // Diagnostics quote tokens, so a token must be UTF-8 text before anything quotes it.
    const std::string_view atom = text_.substr(start, pos_ - start);
    if (const auto bad = first_invalid_utf8(atom))
      fail(start + *bad, "expected UTF-8 text (" + byte_name(atom[*bad]) + " is not UTF-8)");
    return {Token::Kind::atom, text_.substr(start, pos_ - start), start};
  }

  static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  }

  // The first operator (or, for a lone leaf, a constant other than 0/1) fixes the kind.
  void set_mode(bool boolean, std::size_t offset, const std::string& what) {
    if (!mode_) {
      mode_ = boolean;
      mode_what_ = what;
      mode_offset_ = offset;
      return;
    }
    if (*mode_ != boolean)
      fail(offset, what + " is " + (boolean ? "boolean" : "arithmetic") + ", but this formula is " +
                       (*mode_ ? "boolean" : "arithmetic") + " (" + mode_what_ + " at " +
                       position(mode_offset_) +
                       "); a formula is boolean or arithmetic, never both");
  }

  std::size_t leaf(const Token& t) {
    Node n{};
    if (t.text[0] == 'x') {
      const std::string_view digits = t.text.substr(1);
      bool all_digits = true;
      for (char c : digits) all_digits = all_digits && c >= '0' && c <= '9';
      if (digits.empty()) fail(t.offset, "the variable 'x' needs an index: x1, x2, …");
      if (!all_digits)
        fail(t.offset,
             "bad token " + describe(t) + " (a variable is x followed by its index: x1, x2, …)");
      if (digits.find_first_not_of('0') == std::string_view::npos)
        fail(t.offset, "variables are numbered from 1: " + describe(t) + " is not a variable");
      if (digits[0] == '0')
        fail(t.offset, "bad token " + describe(t) +
                           " (write the variable index without leading "
                           "zeros)");
      if (digits.size() > 6 || std::stoul(std::string(digits)) > kMaxVariable)
        fail(t.offset, "the variable index of " + describe(t) + " is too large (at most " +
                           std::to_string(kMaxVariable) + ")");
      n.kind = Node::Kind::variable;
      n.variable = std::stoul(std::string(digits));
      variables_ = std::max(variables_, n.variable);
    } else if (auto q = try_parse_rational(t.text)) {
      n.kind = Node::Kind::constant;
      n.value = *q;
      if (*q != 0 && *q != 1) set_mode(false, t.offset, "the constant " + to_string(*q));
    } else {
      fail(t.offset, "bad token " + describe(t) +
                         " (expected a variable x1, x2, …, a constant such as 0, 1, -2, 3/4, "
                         "0.5, or '(')");
    }
    nodes_.push_back(std::move(n));
    return nodes_.size() - 1;
  }

  // ')' closes (op operands…): check the arity, then fold n-ary into left-nested binary nodes.
  std::size_t close(const OpInfo* op, std::size_t op_offset, const std::vector<std::size_t>& ops) {
    const std::size_t n = ops.size();
    if (n < op->min_arity || (op->max_arity != 0 && n > op->max_arity)) {
      std::string want = op->max_arity == 0   ? std::to_string(op->min_arity) + " or more operands"
                         : op->max_arity == 1 ? "1 operand"
                                              : std::to_string(op->max_arity) + " operands";
      fail(op_offset, "'" + std::string(op->name) + "' takes " + want + ", got " +
                          std::to_string(n) +
                          (op->op == Op::sub && n == 1 ? " (negation is (- 0 F))" : ""));
    }
    if (op->op == Op::not_) return push_op(op, op_offset, ops[0], ops[0]);
    std::size_t acc = ops[0];
    for (std::size_t i = 1; i < n; ++i) acc = push_op(op, op_offset, acc, ops[i]);
    return acc;
  }

  std::size_t push_op(const OpInfo* op, std::size_t op_offset, std::size_t a, std::size_t b) {
    if (std::max(nodes_[a].depth, nodes_[b].depth) >= kMaxDepth)
      fail(op_offset, "the formula is deeper than " + std::to_string(kMaxDepth) +
                          " (the depth limit of formula files; (op F1 … Fn) counts n − 1 levels)");
    Node n{};
    n.kind = Node::Kind::op;
    n.op = op;
    n.a = a;
    n.b = b;
    n.depth = 1 + std::max(nodes_[a].depth, nodes_[b].depth);
    nodes_.push_back(std::move(n));
    return nodes_.size() - 1;
  }

  Formula build(std::size_t root) {
    Formula f;
    f.variables = variables_;
    // A lone leaf: a variable or 0/1 is boolean; set_mode made other constants arithmetic.
    f.boolean = mode_.value_or(true);
    f.depth = nodes_[root].depth;
    CircuitBuilder b;
    b.reserve(nodes_.size() + variables_);
    std::vector<GateId> inputs, gate(nodes_.size(), kNoGate);
    for (std::size_t i = 1; i <= variables_; ++i)
      inputs.push_back(b.input("x" + std::to_string(i)));
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const Node& n = nodes_[i];
      switch (n.kind) {
        case Node::Kind::variable:
          gate[i] = inputs[n.variable - 1];
          break;
        case Node::Kind::constant:
          gate[i] = b.constant(n.value);
          break;
        case Node::Kind::op: {
          const GateId ops[2] = {gate[n.a], gate[n.b]};
          gate[i] = b.raw(n.op->gate, std::span<const GateId>(ops, n.op->op == Op::not_ ? 1 : 2));
          break;
        }
      }
    }
    f.circuit = b.finish({gate[root]}, {"f"});
    f.text = print(root);
    return f;
  }

  // The canonical text of the binary tree, by an explicit-stack walk (linear time and no
  // recursion).
  std::string print(std::size_t root) const {
    std::string out;
    std::vector<std::pair<std::size_t, int>> todo{{root, 0}};  // (node, operands printed)
    while (!todo.empty()) {
      auto& [id, done] = todo.back();
      const Node& n = nodes_[id];
      if (n.kind == Node::Kind::variable) {
        out += "x" + std::to_string(n.variable);
        todo.pop_back();
        continue;
      }
      if (n.kind == Node::Kind::constant) {
        out += to_string(n.value);
        todo.pop_back();
        continue;
      }
      const int arity = n.op->op == Op::not_ ? 1 : 2;
      if (done == 0) out += "(" + std::string(n.op->name);
      if (done == arity) {
        out += ")";
        todo.pop_back();
        continue;
      }
      const std::size_t next_child = done == 0 ? n.a : n.b;
      ++done;
      out += " ";
      todo.push_back({next_child, 0});  // `id`/`done` may dangle after this: not used again
    }
    return out;
  }

  std::string_view text_;
  const std::string& source_;
  std::size_t pos_ = 0;
  std::vector<Node> nodes_;
  std::size_t variables_ = 0;
  std::optional<bool> mode_;  // true = boolean
  std::string mode_what_;
  std::size_t mode_offset_ = 0;
};

bool is_bare_token(std::string_view s) {
  if (s.empty()) return false;
  if (s[0] == 'x') return s.substr(1).find_first_not_of("0123456789") == std::string_view::npos;
  return try_parse_rational(s).has_value();
}

}  // namespace

Formula parse_formula(std::string_view text, const std::string& source) {
  return Parser(text, source).parse();
}

Formula load_formula(const std::string& path) {
  return parse_formula(read_text_file(path, "formula file"), path);
}

Formula formula_from_argument(const std::string& arg) {
  const std::size_t first = arg.find_first_not_of(" \t\r\n");
  const std::string_view rest =
      first == std::string::npos ? std::string_view() : std::string_view(arg).substr(first);
  const std::size_t last = rest.find_last_not_of(" \t\r\n");
  const std::string_view trimmed = rest.substr(0, last == std::string_view::npos ? 0 : last + 1);
  if (rest.empty() || rest[0] == '(' || rest[0] == ';' || is_bare_token(trimmed))
    return parse_formula(arg, "<formula>");
  return load_formula(arg);
}

std::string excerpt(const std::string& text) {
  if (text.size() <= 72) return text;
  std::size_t cut = text.find(' ', 60);
  return text.substr(0, cut == std::string::npos ? 60 : cut) + " …";
}

}  // namespace rnncc
