#include "verify/k_induction.hpp"

#include <chrono>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <variant>

#if RNNCC_HAVE_Z3
#include <z3++.h>
#endif

#include "algebra/error.hpp"

namespace rnncc::kind {

std::string to_string(InductionOutcome::Verdict v) {
  switch (v) {
    case InductionOutcome::Verdict::proved:
      return "proved";
    case InductionOutcome::Verdict::failed:
      return "failed";
    case InductionOutcome::Verdict::not_applicable:
      return "not applicable";
    case InductionOutcome::Verdict::unavailable:
      return "unavailable";
  }
  return "?";
}

bool k_induction_available(std::string* why) {
#if RNNCC_HAVE_Z3
  (void)why;
  return true;
#else
  if (why) *why = "rnncc was built without Z3 (install libz3-dev and reconfigure)";
  return false;
#endif
}

#if RNNCC_HAVE_Z3
namespace {

z3::expr real(z3::context& ctx, const Rational& q) {
  return ctx.real_val(rnncc::to_string(q).c_str());
}

Rational read_numeral(const z3::expr& e) {
  if (!e.is_numeral()) throw std::runtime_error("k-induction: not a numeral: " + e.to_string());
  const std::string text = Z3_get_numeral_string(e.ctx(), e);
  const std::optional<Rational> q = try_parse_rational(text);
  if (!q) throw std::runtime_error("k-induction: cannot read Z3's numeral '" + text + "'");
  return *q;
}

// One token of the choice: taken when `when` holds (the last one: otherwise).
struct Choice {
  z3::expr when;
  std::size_t token;
};

// h' = ReLU(W h + U e_tok + b), the token chosen among `choices` by an ite chain.
std::vector<z3::expr> elman_step(z3::context& ctx, const ElmanLayer& L,
                                 const std::vector<z3::expr>& h,
                                 const std::vector<Choice>& choices) {
  std::vector<z3::expr> out;
  for (std::size_t i = 0; i < L.d; ++i) {
    z3::expr col = real(ctx, L.pre.U(i, choices.back().token));
    for (std::size_t c = choices.size() - 1; c-- > 0;)
      col = z3::ite(choices[c].when, real(ctx, L.pre.U(i, choices[c].token)), col);
    z3::expr pre = col;
    for (std::size_t j = 0; j < L.d; ++j)
      if (L.pre.W(i, j) != 0) pre = pre + real(ctx, L.pre.W(i, j)) * h[j];
    if (L.pre.bias.rows() == L.d && L.pre.bias(i, 0) != 0) pre = pre + real(ctx, L.pre.bias(i, 0));
    out.push_back(z3::ite(pre > 0, pre, ctx.real_val(0)));
  }
  return out;
}

z3::expr readout(z3::context& ctx, const ElmanLayer& L, const std::vector<z3::expr>& h) {
  z3::expr y = ctx.real_val(0);
  if (L.readout_bias.rows() > 0) y = real(ctx, L.readout_bias(0, 0));
  for (std::size_t j = 0; j < L.d; ++j)
    if (L.readout(0, j) != 0) y = y + real(ctx, L.readout(0, j)) * h[j];
  return y;
}

// The graph-walk construction's units, as constructions/graph_walk.cpp lays them out.
enum Unit : std::size_t { kS = 0, kT = 6, kA = 10, kB = 11 };

struct State {
  std::vector<z3::expr> h;
  z3::expr at, seen;
};

class GraphWalk {
 public:
  GraphWalk(z3::context& ctx, const Construction& c, std::size_t V, bool ever, bool promise)
      : ctx_(ctx),
        c_(c),
        L_(std::get<ElmanLayer>(c.model.layers[0].layer)),
        V_(V),
        ever_(ever),
        promise_(promise),
        t_(ctx.int_const("t")) {}

  std::size_t token(const std::string& name) const {
    const auto id = c_.model.alphabet.find(name);
    if (!id) throw InputError("--k-induction", "the model has no token '" + name + "'");
    return *id;
  }

  State fresh(const std::string& tag) {
    State s{{}, ctx_.int_const(("at" + tag).c_str()), ctx_.bool_const(("seen" + tag).c_str())};
    for (std::size_t i = 0; i < L_.d; ++i)
      s.h.push_back(ctx_.real_const(("h" + tag + "_" + std::to_string(i)).c_str()));
    return s;
  }

  z3::expr t_range() const { return t_ >= 1 && t_ <= static_cast<int>(V_); }

  // The start block for start vertex s (and t): the model from its initial state, f's start.
  State start(const z3::expr& s) {
    std::vector<z3::expr> h;
    for (std::size_t i = 0; i < L_.d; ++i) h.push_back(real(ctx_, L_.initial_state(i, 0)));
    auto by_vertex = [&](const z3::expr& x, const std::string& prefix) {
      std::vector<Choice> ch;
      for (std::size_t j = 1; j <= V_; ++j)
        ch.push_back({x == static_cast<int>(j), token(prefix + std::to_string(j))});
      return ch;
    };
    if (ever_) h = elman_step(ctx_, L_, h, by_vertex(t_, "T"));
    h = elman_step(ctx_, L_, h, by_vertex(s, "s"));
    if (ever_) h = compare(h);
    return {h, s, s == t_};
  }

  // One edge block u → v, symbolic u and v (constrained by edge_ok).
  State edge(const State& s, const z3::expr& u, const z3::expr& v) {
    std::vector<z3::expr> h = s.h;
    for (const char part : std::string("abcd")) {
      std::vector<Choice> ch;
      for (std::size_t a = 1; a < V_; ++a)
        for (std::size_t b = a + 1; b <= V_; ++b)
          ch.push_back({u == static_cast<int>(a) && v == static_cast<int>(b),
                        token("e" + std::to_string(a) + std::to_string(b) + part)});
      h = elman_step(ctx_, L_, h, ch);
    }
    if (ever_) h = compare(h);
    const z3::expr at = z3::ite(s.at == u, v, s.at);
    return {h, at, s.seen || at == t_};
  }

  z3::expr edge_ok(const z3::expr& u, const z3::expr& v) const {
    z3::expr ok = u >= 1 && u < v && v <= static_cast<int>(V_);
    if (promise_) ok = ok && u != t_;  // t is a sink
    return ok;
  }

  z3::expr invariant(const State& s) const {
    z3::expr I = s.at >= 1 && s.at <= static_cast<int>(V_) && s.h[kS] == z3::to_real(s.at);
    for (std::size_t i = 0; i < L_.d; ++i)
      if (i != kS && !(ever_ && (i == kT || i == kA || i == kB))) I = I && s.h[i] == 0;
    if (ever_)
      I = I && s.h[kT] == z3::to_real(t_) &&
          s.h[kA] - s.h[kB] == z3::ite(s.seen, ctx_.real_val(1), ctx_.real_val(0));
    else
      I = I && s.seen == (s.at == t_);
    return I;
  }

  // The model's output at the end of the input from a block boundary, and f's value there.
  z3::expr output_ok(const State& s) {
    std::vector<z3::expr> h = s.h;
    if (!ever_) {
      std::vector<Choice> a, b;
      for (std::size_t j = 1; j <= V_; ++j) {
        a.push_back({t_ == static_cast<int>(j), token("t" + std::to_string(j) + "a")});
        b.push_back({t_ == static_cast<int>(j), token("t" + std::to_string(j) + "b")});
      }
      h = elman_step(ctx_, L_, h, a);
      h = elman_step(ctx_, L_, h, b);
    }
    return readout(ctx_, L_, h) == z3::ite(s.seen, ctx_.real_val(1), ctx_.real_val(0));
  }

  z3::expr equal(const State& a, const State& b) const {
    z3::expr e = a.at == b.at && a.seen == b.seen;
    for (std::size_t i = 0; i < L_.d; ++i) e = e && a.h[i] == b.h[i];
    return e;
  }

  std::string describe(const z3::model& m, const State& s) const {
    std::ostringstream os;
    os << "at = " << m.eval(s.at, true) << ", seen = " << m.eval(s.seen, true) << ", h = (";
    for (std::size_t i = 0; i < L_.d; ++i)
      os << (i ? ", " : "") << rnncc::to_string(read_numeral(m.eval(s.h[i], true)));
    os << ")";
    return os.str();
  }

  const z3::expr& t() const { return t_; }
  std::string t_text(const z3::model& m) const { return m.eval(t_, true).to_string(); }

 private:
  std::vector<z3::expr> compare(std::vector<z3::expr> h) {
    for (const char* name : {"ca", "cb", "cf"})
      h = elman_step(ctx_, L_, h, {{ctx_.bool_val(true), token(name)}});
    return h;
  }

  z3::context& ctx_;
  const Construction& c_;
  const ElmanLayer& L_;
  std::size_t V_;
  bool ever_, promise_;
  z3::expr t_;
};

}  // namespace
#endif

std::vector<Rational> smt_elman_step(const ElmanLayer& layer, const std::vector<Rational>& h,
                                     std::size_t token) {
#if RNNCC_HAVE_Z3
  z3::context ctx;
  std::vector<z3::expr> hz;
  for (const Rational& q : h) hz.push_back(real(ctx, q));
  std::vector<Rational> out;
  for (const z3::expr& e : elman_step(ctx, layer, hz, {{ctx.bool_val(true), token}}))
    out.push_back(read_numeral(e.simplify()));
  return out;
#else
  (void)layer, (void)h, (void)token;
  throw InputError("--k-induction", "rnncc was built without Z3");
#endif
}

InductionOutcome prove_by_k_induction(const Construction& c, std::size_t max_k) {
  InductionOutcome r;
  std::string why;
  if (!k_induction_available(&why)) {
    r.reason = why;
    return r;
  }
#if RNNCC_HAVE_Z3
  const auto t0 = std::chrono::steady_clock::now();
  const bool ever = c.name == "graph-walk (ever)";
  const bool promise = c.name == "graph-walk (final vertex, t a sink)";
  const bool no_promise = c.name == "graph-walk (final vertex, promise dropped)";
  const std::size_t V = c.target.alphabet.size() - 1;
  r.verdict = InductionOutcome::Verdict::not_applicable;
  if (!ever && !promise && !no_promise) {
    r.reason = "no inductive invariant is known for " + c.name + " (only the graph-walk / dgc RNN)";
    return r;
  }
  if (c.model.layers.size() != 1 || !std::holds_alternative<ElmanLayer>(c.model.layers[0].layer)) {
    r.reason = "the model is not one Elman layer";
    return r;
  }
  const ElmanLayer& L = std::get<ElmanLayer>(c.model.layers[0].layer);
  if (L.activation != Activation::relu || L.d != (ever ? 12u : 6u) || L.readout.rows() != 1 ||
      c.out_row != 0 || c.out_col != 0) {
    r.reason = "the model's layer is not the graph-walk ReLU layer (activation, units, readout)";
    return r;
  }
  unsigned maj = 0, min = 0, build = 0, rev = 0;
  Z3_get_version(&maj, &min, &build, &rev);
  r.solver = "Z3 " + std::to_string(maj) + "." + std::to_string(min) + "." + std::to_string(build);
  r.invariant = std::string("at every block boundary 1 ≤ at ≤ V, h_S = at, ") +
                (ever ? "the units other than S, T, A, B are 0, h_T = t and h_A − h_B = [seen]"
                      : "the units other than S are 0, and seen ⇔ at = t") +
                " (at, seen: f's walk — its vertex and whether it has visited t)";
  r.assumed = std::string(
                  "inputs are encode's blocks: a start block (s ≠ t), edge blocks u → v "
                  "with u < v") +
              (promise ? " and u ≠ t (the promise: t is a sink)" : "") +
              (ever ? "" : ", an end block") +
              " — any number, in any order (sorted instances among them); f's step written "
              "from reachable(); Z3's soundness";

  z3::context ctx;
  GraphWalk g(ctx, c, V, ever, promise);
  auto finish = [&](InductionOutcome::Verdict v) {
    r.verdict = v;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };
  auto unsat = [&](z3::solver& s) {
    ++r.queries;
    const z3::check_result res = s.check();
    if (res == z3::unknown)
      throw std::runtime_error("k-induction: Z3 answered unknown (" + s.reason_unknown() + ")");
    return res == z3::unsat;
  };
  // A path: the start block, then edge blocks; fresh variables at each boundary.
  auto path = [&](z3::solver& s, std::size_t blocks, bool from_start, std::vector<State>& states,
                  std::vector<std::pair<z3::expr, z3::expr>>& edges, const std::string& tag) {
    s.add(g.t_range());
    states.push_back(g.fresh(tag + "0"));
    if (from_start) {
      const z3::expr src = ctx.int_const(("s" + tag).c_str());
      s.add(src >= 1 && src <= static_cast<int>(V) && src != g.t());
      s.add(g.equal(states[0], g.start(src)));
    }
    for (std::size_t i = 0; i < blocks; ++i) {
      const std::string n = tag + std::to_string(i + 1);
      const z3::expr u = ctx.int_const(("u" + n).c_str()), v = ctx.int_const(("v" + n).c_str());
      s.add(g.edge_ok(u, v));
      edges.push_back({u, v});
      states.push_back(g.fresh(n));
      s.add(g.equal(states.back(), g.edge(states[i], u, v)));
    }
  };
  auto trace = [&](const z3::model& m, const std::vector<State>& states,
                   const std::vector<std::pair<z3::expr, z3::expr>>& edges) {
    std::string text = "t = " + g.t_text(m) + "; " + g.describe(m, states[0]);
    for (std::size_t i = 0; i < edges.size(); ++i)
      text += "; edge " + m.eval(edges[i].first, true).to_string() + " → " +
              m.eval(edges[i].second, true).to_string() + ": " + g.describe(m, states[i + 1]);
    return text;
  };

  // output: I ⇒ the model's output is f's value.
  {
    z3::solver s(ctx);
    std::vector<State> states;
    std::vector<std::pair<z3::expr, z3::expr>> edges;
    path(s, 0, false, states, edges, "o");
    s.add(g.invariant(states[0]));
    s.add(!g.output_ok(states[0]));
    if (!unsat(s)) {
      r.reason = "output: a state satisfying I where the model's output is not [seen]";
      r.counterexample = trace(s.get_model(), states, edges);
      return finish(InductionOutcome::Verdict::failed);
    }
  }
  for (std::size_t k = 1; k <= max_k; ++k) {
    r.k = k;
    {  // base at depth k − 1 (depths < k − 1 were checked for smaller k)
      z3::solver s(ctx);
      std::vector<State> states;
      std::vector<std::pair<z3::expr, z3::expr>> edges;
      path(s, k - 1, true, states, edges, "b");
      s.add(!g.invariant(states.back()));
      if (!unsat(s)) {
        r.reason = "base: I fails after the start block and " + std::to_string(k - 1) +
                   " edge block(s) — a real run";
        r.counterexample = trace(s.get_model(), states, edges);
        return finish(InductionOutcome::Verdict::failed);
      }
    }
    z3::solver s(ctx);
    std::vector<State> states;
    std::vector<std::pair<z3::expr, z3::expr>> edges;
    path(s, k, false, states, edges, "k");
    for (std::size_t i = 0; i < k; ++i) s.add(g.invariant(states[i]));
    s.add(!g.invariant(states.back()));
    if (unsat(s)) return finish(InductionOutcome::Verdict::proved);
    r.reason = "step: I holds at " + std::to_string(k) +
               " consecutive boundaries and fails at the next (a counterexample to induction; "
               "it may be unreachable)";
    r.counterexample = trace(s.get_model(), states, edges);
  }
  return finish(InductionOutcome::Verdict::failed);
#else
  (void)c, (void)max_k;
  return r;
#endif
}

}  // namespace rnncc::kind
