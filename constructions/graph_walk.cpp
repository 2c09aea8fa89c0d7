#include "constructions/graph_walk.hpp"

#include <map>
#include <tuple>

#include "algebra/error.hpp"
#include "constructions/registry.hpp"

namespace rnncc {

namespace {

// Hidden units of the Elman layer (the `ever` variant uses all of them; the others the first 6).
enum Unit : std::size_t { kS, kP, kQ, kZ, kR1, kR2, kT, kP2, kQ2, kZ2, kA, kB, kAllUnits };

struct Instance {
  std::size_t s = 0, t = 0;
  std::vector<std::pair<std::size_t, std::size_t>> edges;  // sorted by source
};

Instance decode(const std::vector<std::size_t>& w, std::size_t V) {
  Instance in;
  in.s = w[0] + 1;  // symbol ids 0..V−1 are vertices 1..V, id V is "-"
  in.t = w[1] + 1;
  for (std::size_t u = 1; u < V; ++u) {
    const std::size_t v = w[1 + u] + 1;
    if (w[1 + u] < V && v > u) in.edges.push_back({u, v});
  }
  return in;
}

bool reachable(const Instance& in) {
  std::size_t at = in.s;
  bool seen = at == in.t;
  for (auto [u, v] : in.edges)
    if (u == at) {
      at = v;
      seen = seen || at == in.t;
    }
  return seen;
}

// The encoding grammar (constructions/encoding_grammar.hpp): encode's token strings of the
// instances within the promise, as an automaton over the model's tokens, built breadth-first
// from a step function on the instance read so far. `ever`: T<t> s<s> ca cb cf, then per edge
// u → v (u < v, sources strictly increasing) e<uv>a e<uv>b e<uv>c e<uv>d ca cb cf; every
// prefix ending in cf is a complete encoding (the remaining vertices have no edge), with
// f = [t visited]. Final variants: s<s>, the edges' four tokens each, then t<t>a t<t>b; t ≠ s,
// and with the promise t is no edge's source.
struct GrammarState {
  enum Phase {
    start,
    after_t,
    expect_ca,
    after_ca,
    after_cb,
    idle,
    edge_a,
    edge_b,
    edge_c,
    tail_a,
    done
  };
  int phase = start;
  std::size_t s = 0, t = 0, at = 0, last_u = 0, pu = 0, pv = 0;
  unsigned visited = 0, sources = 0;
  bool seen = false;
  auto key() const { return std::tie(phase, s, t, at, last_u, pu, pv, visited, sources, seen); }
  bool operator<(const GrammarState& o) const { return key() < o.key(); }
};

struct Token {
  char kind = 0;  // 's', 'T', 'e' (part a..d), 'c' (a, b, f), 't' (part a, b)
  std::size_t i = 0, j = 0;
  char part = 0;
};

Token parse_token(const std::string& name) {
  Token k;
  k.kind = name[0];
  if (k.kind == 's' || k.kind == 'T') {
    k.i = static_cast<std::size_t>(name[1] - '0');
  } else if (k.kind == 'e') {
    k.i = static_cast<std::size_t>(name[1] - '0');
    k.j = static_cast<std::size_t>(name[2] - '0');
    k.part = name[3];
  } else if (k.kind == 'c') {
    k.part = name[1];
  } else {  // t<j>a, t<j>b
    k.i = static_cast<std::size_t>(name[1] - '0');
    k.part = name[2];
  }
  return k;
}

std::optional<GrammarState> grammar_step(GrammarState g, const Token& k, GraphWalkVariant variant) {
  using P = GrammarState;
  const bool ever = variant == GraphWalkVariant::ever;
  switch (g.phase) {
    case P::start:
      if (ever && k.kind == 'T') return g.t = k.i, g.phase = P::after_t, g;
      if (!ever && k.kind == 's')
        return g.s = g.at = k.i, g.visited = 1u << k.i, g.phase = P::idle, g;
      return std::nullopt;
    case P::after_t:
      if (k.kind != 's' || k.i == g.t) return std::nullopt;
      return g.at = k.i, g.phase = P::expect_ca, g;
    case P::expect_ca:
      if (k.kind != 'c' || k.part != 'a') return std::nullopt;
      return g.phase = P::after_ca, g;
    case P::after_ca:
      if (k.kind != 'c' || k.part != 'b') return std::nullopt;
      return g.phase = P::after_cb, g;
    case P::after_cb:
      if (k.kind != 'c' || k.part != 'f') return std::nullopt;
      return g.seen = g.seen || g.at == g.t, g.phase = P::idle, g;
    case P::idle:
      if (k.kind == 'e' && k.part == 'a' && k.i > g.last_u)
        return g.pu = k.i, g.pv = k.j, g.phase = P::edge_a, g;
      if (!ever && k.kind == 't' && k.part == 'a' && k.i != g.s) {
        if (variant == GraphWalkVariant::final_with_promise && (g.sources >> k.i & 1u))
          return std::nullopt;  // t must be a sink
        return g.t = k.i, g.phase = P::tail_a, g;
      }
      return std::nullopt;
    case P::edge_a:
    case P::edge_b:
    case P::edge_c: {
      const char want = g.phase == P::edge_a ? 'b' : g.phase == P::edge_b ? 'c' : 'd';
      if (k.kind != 'e' || k.i != g.pu || k.j != g.pv || k.part != want) return std::nullopt;
      if (want != 'd') return g.phase += 1, g;
      // Only what the variant's value and promise read is kept (fewer states): `ever` the
      // current vertex and the flag; the final variants the visited set, and with the
      // promise the edges' sources.
      if (g.at == g.pu) {
        g.at = g.pv;
        if (!ever) g.visited |= 1u << g.pv;
      }
      g.last_u = g.pu;
      if (variant == GraphWalkVariant::final_with_promise) g.sources |= 1u << g.pu;
      g.pu = g.pv = 0;
      g.phase = ever ? P::expect_ca : P::idle;
      return g;
    }
    case P::tail_a:
      if (k.kind != 't' || k.part != 'b' || k.i != g.t) return std::nullopt;
      return g.phase = P::done, g;
    default:
      return std::nullopt;
  }
}

}  // namespace

Construction graph_walk(std::size_t V, GraphWalkVariant variant) {
  if (V < 2 || V > 9)
    throw InputError("--vertices", "expected 2..9 vertices, got " + std::to_string(V));
  const bool ever = variant == GraphWalkVariant::ever;
  const std::size_t units = ever ? kAllUnits : kT;
  const Rational M(static_cast<long>(V));            // the jump gate's slope: |v − u| < M
  const Rational big(static_cast<long>(4 * V + 8));  // a gated-off unit's offset: exceeds |W h|

  // Tokens and their columns U x. A unit not named by a token is gated off (−big → ReLU = 0),
  // except the carried units S, T, A, B (offset 0).
  std::vector<std::string> tokens;
  std::vector<std::vector<Rational>> U;
  auto token = [&](std::string name, std::map<std::size_t, Rational> on) {
    std::vector<Rational> col(units, -big);
    for (std::size_t carried : {kS, kT, kA, kB})
      if (carried < units) col[carried] = 0;
    for (auto& [unit, value] : on) col[unit] = value;
    tokens.push_back(std::move(name));
    U.push_back(std::move(col));
  };
  // h' = ReLU(W h + U x):
  //   S' = S + r1 − r2      p' = S − u     q' = u − S     z' = 1 − p − q = [S = u] (integers)
  //   r1' = M·z + (v−u) − M,  r2' = M·z − (v−u) − M,  so r1 − r2 = (v − u)·z for z ∈ {0, 1}
  // ever:  T' = T   p2' = S − T   q2' = T − S   z2' = [S = T]
  //   A' = A − B + z2,  B' = A − B + z2 − 1:  the flag A − B = min(1, visits) stays 0/1.
  Matrix<Rational> W(units, units, Rational(0));
  W(kS, kS) = 1;
  W(kS, kR1) = 1;
  W(kS, kR2) = -1;
  W(kP, kS) = 1;
  W(kQ, kS) = -1;
  W(kZ, kP) = -1;
  W(kZ, kQ) = -1;
  W(kR1, kZ) = M;
  W(kR2, kZ) = M;
  if (ever) {
    W(kT, kT) = 1;
    W(kP2, kS) = 1;
    W(kP2, kT) = -1;
    W(kQ2, kS) = -1;
    W(kQ2, kT) = 1;
    W(kZ2, kP2) = -1;
    W(kZ2, kQ2) = -1;
    for (std::size_t row : {kA, kB}) {
      W(row, kA) = 1;
      W(row, kB) = -1;
      W(row, kZ2) = 1;
    }
  }
  for (std::size_t i = 1; i <= V; ++i)
    token("s" + std::to_string(i), {{kS, Rational(static_cast<long>(i))}});
  if (ever)
    for (std::size_t j = 1; j <= V; ++j)
      token("T" + std::to_string(j), {{kT, Rational(static_cast<long>(j))}});
  for (std::size_t u = 1; u < V; ++u)
    for (std::size_t v = u + 1; v <= V; ++v) {
      const std::string e = "e" + std::to_string(u) + std::to_string(v);
      const Rational du(static_cast<long>(u)), jump(static_cast<long>(v - u));
      token(e + "a", {{kP, -du}, {kQ, du}});                // p = S − u, q = u − S
      token(e + "b", {{kZ, Rational(1)}});                  // z = [S = u]
      token(e + "c", {{kR1, jump - M}, {kR2, -jump - M}});  // r1 − r2 = (v − u)·z
      token(e + "d", {});                                   // S ← S + r1 − r2
    }
  if (ever) {
    token("ca", {{kP2, Rational(0)}, {kQ2, Rational(0)}});  // p2 = S − T, q2 = T − S
    token("cb", {{kZ2, Rational(1)}});                      // z2 = [S = T]
    token("cf", {});                                        // flag ← min(1, flag + z2)
    // B' carries offset −1 on every token, so B = max(0, A − B + z2 − 1)
    for (auto& col : U) col[kB] = -1;
  } else {
    for (std::size_t j = 1; j <= V; ++j) {
      const Rational dj(static_cast<long>(j));
      token("t" + std::to_string(j) + "a", {{kP, -dj}, {kQ, dj}});  // compare the final S with t
      token("t" + std::to_string(j) + "b", {{kZ, Rational(1)}});
    }
  }

  ElmanLayer layer;
  layer.activation = Activation::relu;
  layer.d = units;
  layer.features = tokens.size();
  layer.pre.W = W;
  layer.pre.U = Matrix<Rational>(units, tokens.size(), Rational(0));
  for (std::size_t k = 0; k < tokens.size(); ++k)
    for (std::size_t unit = 0; unit < units; ++unit) layer.pre.U(unit, k) = U[k][unit];
  layer.pre.bias = Matrix<Rational>(units, 1, Rational(0));
  layer.initial_state = Matrix<Rational>(units, 1, Rational(0));
  layer.readout = Matrix<Rational>(1, units, Rational(0));
  if (ever) {  // y = A − B
    layer.readout(0, kA) = 1;
    layer.readout(0, kB) = -1;
  } else {
    layer.readout(0, kZ) = 1;
  }

  Construction c;
  c.name = variant == GraphWalkVariant::ever ? "graph-walk (ever)"
           : variant == GraphWalkVariant::final_with_promise
               ? "graph-walk (final vertex, t a sink)"
               : "graph-walk (final vertex, promise dropped)";
  c.model.name = c.name;
  c.model.alphabet = Alphabet(tokens, "graph-walk tokens");
  c.model.layers.push_back({std::nullopt, layer});
  c.model.accept.mode = Acceptance::Mode::positive;
  std::vector<std::string> symbols;
  for (std::size_t i = 1; i <= V; ++i) symbols.push_back(std::to_string(i));
  symbols.push_back("-");
  c.target.alphabet = Alphabet(symbols, "graph-walk instances");
  c.target.fixed_length = V + 1;
  c.target.value = [V](const std::vector<std::size_t>& w) {
    return Rational(reachable(decode(w, V)) ? 1 : 0);
  };
  c.target.promise = [V, variant](const std::vector<std::size_t>& w) {
    if (w[0] == V || w[1] == V || w[0] == w[1]) return false;  // s and t are distinct vertices
    if (variant != GraphWalkVariant::final_with_promise) return true;
    const Instance in = decode(w, V);
    for (auto [u, v] : in.edges)
      if (u == in.t) return false;  // t must be a sink
    return true;
  };
  const Alphabet model_alphabet = c.model.alphabet;
  c.encode = [V, ever, model_alphabet](const std::vector<std::size_t>& w) {
    const Instance in = decode(w, V);
    std::vector<std::string> seq;
    if (ever) seq.push_back("T" + std::to_string(in.t));
    seq.push_back("s" + std::to_string(in.s));
    if (ever) seq.insert(seq.end(), {"ca", "cb", "cf"});
    for (auto [u, v] : in.edges) {
      const std::string e = "e" + std::to_string(u) + std::to_string(v);
      seq.insert(seq.end(), {e + "a", e + "b", e + "c", e + "d"});
      if (ever) seq.insert(seq.end(), {"ca", "cb", "cf"});
    }
    if (!ever)
      seq.insert(seq.end(), {"t" + std::to_string(in.t) + "a", "t" + std::to_string(in.t) + "b"});
    std::vector<std::size_t> ids;
    for (const auto& s : seq) ids.push_back(*model_alphabet.find(s));
    return ids;
  };
  // The encoding grammar, breadth-first over its reachable states.
  {
    EncodingGrammar g;
    std::vector<Token> parsed;
    for (const std::string& name : tokens) parsed.push_back(parse_token(name));
    std::vector<GrammarState> states{GrammarState{}};
    std::map<GrammarState, std::size_t> index{{states[0], 0}};
    for (std::size_t q = 0; q < states.size(); ++q) {
      g.next.emplace_back(tokens.size());
      const GrammarState here = states[q];
      const bool complete =
          ever ? here.phase == GrammarState::idle : here.phase == GrammarState::done;
      g.value.push_back(complete ? std::optional<Rational>(ever ? (here.seen ? 1 : 0)
                                                                : ((here.visited >> here.t) & 1u))
                                 : std::nullopt);
      for (std::size_t k = 0; k < tokens.size(); ++k)
        if (const auto to = grammar_step(here, parsed[k], variant)) {
          auto [it, fresh] = index.emplace(*to, states.size());
          if (fresh) states.push_back(*to);
          g.next[q][k] = it->second;
        }
    }
    g.promise =
        ever ? "the input is a valid encoding — T<t> s<s> ca cb cf, then for each edge u → v "
               "(u < v, sources strictly increasing) e<uv>a e<uv>b e<uv>c e<uv>d ca cb "
               "cf — of an instance on " +
                   std::to_string(V) + " vertices with s ≠ t"
             : "the input is a valid encoding — s<s>, then for each edge u → v (u < v, "
               "sources strictly increasing) e<uv>a e<uv>b e<uv>c e<uv>d, then t<t>a "
               "t<t>b — of an instance on " +
                   std::to_string(V) + " vertices with s ≠ t" +
                   (variant == GraphWalkVariant::final_with_promise
                        ? " and t a sink (no edge leaves t)"
                        : "");
    g.decode = [V, parsed](const std::vector<std::size_t>& x) {
      std::vector<std::size_t> w(V + 1, V);  // "-": no edge
      for (std::size_t id : x) {
        const Token& k = parsed[id];
        if (k.kind == 's') w[0] = k.i - 1;
        if (k.kind == 'T' || (k.kind == 't' && k.part == 'a')) w[1] = k.i - 1;
        if (k.kind == 'e' && k.part == 'a') w[1 + k.i] = k.j - 1;
      }
      return w;
    };
    c.grammar = std::move(g);
  }
  // Claims, measured on the model: state units; sub-steps per edge (tokens of one edge);
  // the largest |entry| of W and U — the values are integers of O(log V) bits.
  std::size_t edge_tokens = 0;
  for (const auto& name : tokens) edge_tokens += name.rfind("e12", 0) == 0;
  Rational largest = 0;
  for (const Rational& q : W.data()) largest = std::max(largest, Rational(abs(q)));
  for (const Rational& q : layer.pre.U.data()) largest = std::max(largest, Rational(abs(q)));
  c.claims = {claim_equal("state units", ever ? 12 : 6, static_cast<long>(layer.d)),
              claim_equal("sub-steps per edge", 4, static_cast<long>(edge_tokens)),
              claim_at_most("largest weight (4V + 8)", Integer(static_cast<long>(4 * V + 8)),
                            numerator(largest))};
  return c;
}

// ---- the `graph-walk` and `dgc` kinds (constructions/registry.hpp) ----

void register_graph_walk(Registry& registry) {
  const std::vector<OptionSpec> options = {{.name = "--vertices",
                                            .kind = OptionKind::whole_number,
                                            .help = "vertices V",
                                            .default_value = "3"},
                                           {.name = "--variant",
                                            .kind = OptionKind::choice,
                                            .help = "ever, final (t a sink) or final-no-promise",
                                            .default_value = "ever",
                                            .allowed = {"ever", "final", "final-no-promise"}}};
  auto build = [](const OptionValues& v) {
    const std::string& name = v.text("--variant");
    const GraphWalkVariant variant = name == "ever"    ? GraphWalkVariant::ever
                                     : name == "final" ? GraphWalkVariant::final_with_promise
                                                       : GraphWalkVariant::final_no_promise;
    return graph_walk(v.whole_number("--vertices"), variant);
  };
  registry.add(
      {.name = "graph-walk",
       .help = "sorted deterministic graph connectivity by a ReLU RNN, against reachability",
       .options = options,
       .build_from = build});
  registry.add({.name = "dgc",
                .help = "sorted deterministic graph connectivity [MJLLS26 Thm 2] (the graph-walk "
                        "ReLU RNN), against reachability",
                .options = options,
                .build_from = build});
}

}  // namespace rnncc
