#include "verify/sat_specs.hpp"

#include <optional>

#include "verify/model_circuit.hpp"

namespace rnncc::sat {

namespace {

std::size_t param(const Target::BooleanSpec& s, const std::string& name) {
  const auto it = s.parameters.find(name);
  if (it == s.parameters.end())
    throw SatUnsupported("the boolean specification '" + s.kind + "' lacks parameter " + name);
  return it->second;
}

// The word table[σ] for the symbol selected by one_hot.
Word lookup(WordBuilder& w, const std::vector<Lit>& one_hot, const std::vector<long>& table) {
  std::vector<Word> ws;
  for (long v : table) ws.push_back(w.constant(Integer(v)));
  return w.select(one_hot, ws);
}

Lit any_of(WordBuilder& w, const std::vector<Lit>& one_hot, std::size_t from, std::size_t to) {
  std::vector<Lit> xs(one_hot.begin() + static_cast<std::ptrdiff_t>(from),
                      one_hot.begin() + static_cast<std::ptrdiff_t>(to));
  return w.aig().or_all(xs);
}

class SelectiveCopy : public SpecCircuit {
 public:
  SelectiveCopy(WordBuilder& w, std::size_t K, std::size_t N) : w_(w), K_(K), N_(N) {
    n_ = w.constant(0);
  }
  SpecStep step(const std::vector<Lit>& x) override {
    ++t_;
    std::vector<long> ids, numbers;
    for (std::size_t s = 0; s < K_ + N_; ++s) {
      ids.push_back(static_cast<long>(s));
      numbers.push_back(s < K_ ? 0 : static_cast<long>(s - K_ + 1));
    }
    ids_.push_back(lookup(w_, x, ids));
    n_ = w_.mux(any_of(w_, x, K_, K_ + N_), lookup(w_, x, numbers), n_);
    Aig& g = w_.aig();
    const Lit promise = g.land(negate(w_.equal_const(n_, 0)),
                               negate(w_.less(w_.constant(Integer(static_cast<long>(t_))), n_)));
    std::vector<Lit> sel;
    std::vector<Word> ws;
    for (std::size_t j = 1; j <= N_ && j <= t_; ++j) {
      sel.push_back(w_.equal_const(n_, Integer(static_cast<long>(j))));
      ws.push_back(ids_[t_ - j]);
    }
    sel.push_back(negate(g.or_all(sel)));  // outside the promise: 0
    ws.push_back(w_.constant(0));
    return {w_.select(sel, ws), promise};
  }
  std::string statement() const override {
    return "f(w) = id(w_{|w|+1−n}), n the latest number token, on every w with 1 ≤ n ≤ |w|";
  }

 private:
  WordBuilder& w_;
  std::size_t K_, N_, t_ = 0;
  Word n_;
  std::vector<Word> ids_;
};

class AssocRecall : public SpecCircuit {
 public:
  AssocRecall(WordBuilder& w, std::size_t k, std::size_t v, std::size_t span)
      : w_(w), k_(k), v_(v), span_(span) {
    want_ = bound_ = w.constant(0);
  }
  SpecStep step(const std::vector<Lit>& x) override {
    ++t_;
    std::vector<long> key, query, value;
    for (std::size_t s = 0; s < 2 * k_ + v_; ++s) {
      key.push_back(s < k_ ? static_cast<long>(s + 1) : 0);
      value.push_back(s >= k_ && s < k_ + v_ ? static_cast<long>(s - k_) : 0);
      query.push_back(s >= k_ + v_ ? static_cast<long>(s - k_ - v_ + 1) : 0);
    }
    want_ = w_.mux(any_of(w_, x, k_ + v_, 2 * k_ + v_), lookup(w_, x, query), want_);
    bound_ = w_.mux(any_of(w_, x, 0, k_), lookup(w_, x, key), bound_);
    isval_.push_back(any_of(w_, x, k_, k_ + v_));
    val_.push_back(lookup(w_, x, value));
    bound_at_.push_back(bound_);
    Aig& g = w_.aig();
    Word answer = w_.constant(0);
    Lit found = kFalse;
    for (std::size_t s = t_ > span_ ? t_ - span_ + 1 : 1; s <= t_; ++s) {
      const Lit match = g.land(isval_[s - 1], w_.equal(bound_at_[s - 1], want_));
      answer = w_.mux(match, val_[s - 1], answer);
      found = g.lor(found, match);
    }
    return {answer, g.land(found, negate(w_.equal_const(want_, 0)))};
  }
  std::string statement() const override {
    return "f(w) = the value at the latest value position bound to the latest query's key, on "
           "every w where that position lies among the last " +
           std::to_string(span_) + " tokens";
  }

 private:
  WordBuilder& w_;
  std::size_t k_, v_, span_, t_ = 0;
  Word want_, bound_;
  std::vector<Lit> isval_;
  std::vector<Word> val_, bound_at_;
};

class StateRecall : public SpecCircuit {
 public:
  StateRecall(WordBuilder& w, std::size_t order) : w_(w), order_(order) {
    for (std::size_t i = 0; i < 5; ++i) {
      slot_.push_back(w.constant(Integer(static_cast<long>(i))));
      deref_one_.push_back(kFalse);
    }
  }
  SpecStep step(const std::vector<Lit>& x) override {
    Aig& g = w_.aig();
    // ids: 0, 1 bits; 2..6 markers a..e; 7..16 the swaps (12), (13), …, (45).
    const Lit is_bit = g.lor(x[0], x[1]), is_swap = any_of(w_, x, 7, 17);
    for (std::size_t i = 0; i < 5; ++i)
      deref_one_[i] = g.mux(x[2 + i], g.land(has_bit_, last_bit_), deref_one_[i]);
    last_bit_ = g.mux(is_bit, x[1], last_bit_);
    has_bit_ = g.lor(has_bit_, is_bit);
    std::size_t id = 7;
    for (std::size_t a = 0; a < 5; ++a)
      for (std::size_t b = a + 1; b < 5; ++b, ++id) {
        const Word sa = slot_[a];
        slot_[a] = w_.mux(x[id], slot_[b], slot_[a]);
        slot_[b] = w_.mux(x[id], sa, slot_[b]);
      }
    std::vector<Lit> terms;
    for (std::size_t i = 0; i < 5; ++i)
      terms.push_back(
          g.land(w_.equal_const(slot_[0], Integer(static_cast<long>(i))), deref_one_[i]));
    // encode's image: bits-first (order 0) puts every swap last, perm-first (1) first.
    if (order_ == 0) {
      bad_ = g.lor(bad_, g.land(seen_swap_, negate(is_swap)));
      seen_swap_ = g.lor(seen_swap_, is_swap);
    } else if (order_ == 1) {
      bad_ = g.lor(bad_, g.land(seen_other_, is_swap));
      seen_other_ = g.lor(seen_other_, negate(is_swap));
    }
    return {w_.from_bit(g.or_all(terms)), negate(bad_)};
  }
  bool reads_encoded() const override { return true; }
  std::string statement() const override {
    return std::string("f(w) = the bit of register π⁻¹(1), on every w") +
           (order_ == 0   ? ", read as encode(w) (bits and markers, then the swaps)"
            : order_ == 1 ? ", read as encode(w) (the swaps, then bits and markers)"
                          : "");
  }

 private:
  WordBuilder& w_;
  std::size_t order_;
  std::vector<Word> slot_;
  std::vector<Lit> deref_one_;
  Lit last_bit_ = kFalse, has_bit_ = kFalse, bad_ = kFalse, seen_swap_ = kFalse,
      seen_other_ = kFalse;
};

}  // namespace

TmSpec::TmSpec(Aig& aig, const TuringMachine& m, const std::vector<std::size_t>& step_token,
               std::size_t tokens, const std::vector<std::vector<Lit>>& tape, std::size_t steps)
    : g_(aig), m_(m), step_token_(step_token), tokens_(tokens) {
  const std::size_t n = tape.size(), cells = n + 2 * steps + 1;
  for (std::size_t c = 0; c < cells; ++c) {
    const bool input = c >= steps && c < steps + n;
    tape_.push_back(input ? tape[c - steps] : [&] {
      std::vector<Lit> blank(m.symbols, kFalse);
      blank[0] = kTrue;
      return blank;
    }());
    head_.push_back(c == steps ? kTrue : kFalse);
  }
  state_.assign(m.states, kFalse);
  state_[0] = kTrue;  // state A
}

TmSpec::Step TmSpec::step() {
  const std::size_t Q = m_.states, G = m_.symbols, C = head_.size();
  std::vector<Lit> read(G);
  for (std::size_t a = 0; a < G; ++a) {
    std::vector<Lit> terms;
    for (std::size_t c = 0; c < C; ++c) terms.push_back(g_.land(head_[c], tape_[c][a]));
    read[a] = g_.or_all(terms);
  }
  std::vector<std::vector<Lit>> by_token(tokens_), writes(G), next(Q);
  std::vector<Lit> undefined, left, right, halting;
  for (std::size_t q = 0; q < Q; ++q)
    for (std::size_t a = 0; a < G; ++a) {
      const Lit qa = g_.land(state_[q], read[a]);
      by_token[step_token_[q * G + a]].push_back(qa);
      const TmTransition& t = m_.at(q, a);
      if (!t.defined) {
        undefined.push_back(qa);
        continue;
      }
      writes[t.write].push_back(qa);
      (t.move < 0 ? left : right).push_back(qa);
      if (t.next)
        next[*t.next].push_back(qa);
      else
        halting.push_back(qa);
    }
  Step out;
  out.running = negate(halted_);
  for (const auto& terms : by_token) out.token.push_back(g_.or_all(terms));
  const Lit und = g_.or_all(undefined), mv_left = g_.or_all(left), mv_right = g_.or_all(right);
  std::vector<Lit> write(G);
  for (std::size_t b = 0; b < G; ++b) write[b] = g_.or_all(writes[b]);
  std::vector<std::vector<Lit>> tape = tape_;
  std::vector<Lit> head(C, kFalse);
  for (std::size_t c = 0; c < C; ++c) {
    const Lit here = g_.land(head_[c], negate(und));
    for (std::size_t b = 0; b < G; ++b) tape[c][b] = g_.mux(here, write[b], tape_[c][b]);
    std::vector<Lit> from = {g_.land(und, head_[c])};
    if (c > 0) from.push_back(g_.land(mv_right, head_[c - 1]));
    if (c + 1 < C) from.push_back(g_.land(mv_left, head_[c + 1]));
    head[c] = g_.or_all(from);
  }
  tape_ = std::move(tape);
  head_ = std::move(head);
  for (std::size_t q = 0; q < Q; ++q) state_[q] = g_.or_all(next[q]);
  halted_ = g_.lor(halted_, g_.lor(und, g_.or_all(halting)));
  return out;
}

std::string spec_kinds() {
  return "selective-copy, assoc-recall and state-recall";
}

std::unique_ptr<SpecCircuit> make_spec(const Target::BooleanSpec& s, WordBuilder& w) {
  if (s.kind == "selective-copy")
    return std::make_unique<SelectiveCopy>(w, param(s, "K"), param(s, "N"));
  if (s.kind == "assoc-recall")
    return std::make_unique<AssocRecall>(w, param(s, "keys"), param(s, "values"), param(s, "span"));
  if (s.kind == "state-recall") return std::make_unique<StateRecall>(w, param(s, "order"));
  throw SatUnsupported(s.kind.empty() ? "f has no boolean specification (constructions with one: " +
                                            spec_kinds() + ")"
                                      : "unknown boolean specification '" + s.kind + "'");
}

}  // namespace rnncc::sat
