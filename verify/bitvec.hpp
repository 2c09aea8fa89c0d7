// Exact integer arithmetic as boolean circuits (verify/cnf.hpp's Aig), for SAT proofs: a Word
// is a two's-complement bit vector with a sound range [lo, hi] of its value. Each operation
// computes its exact result wide enough, then keeps the fewest bits its range needs — the range
// (interval arithmetic on the operands' ranges) proves the dropped bits are copies of the sign —
// or, when the range needs more than `cap` bits, keeps `cap` bits and raises an overflow flag
// where the dropped bits are not copies of the sign. Exact division by a constant raises a
// flag where the remainder is not 0. A circuit whose flags are all false on an input therefore
// computed the exact integer result of every operation on that input (docs/constructions.md,
// "Proofs per length by SAT": what is proved).
#pragma once

#include <cstddef>
#include <vector>

#include "algebra/rational.hpp"
#include "verify/cnf.hpp"

namespace rnncc::sat {

struct Word {
  std::vector<Lit> bits;  // LSB first; the last is the sign
  Integer lo, hi;         // lo ≤ value ≤ hi on every input where no flag was raised
  std::size_t width() const { return bits.size(); }
  bool constant() const;
};

class WordBuilder {
 public:
  WordBuilder(Aig& aig, std::size_t cap) : aig_(aig), cap_(cap) {}
  Aig& aig() { return aig_; }

  Word constant(const Integer& v);
  Word from_bit(Lit b);  // 0 or 1
  Word add(const Word& a, const Word& b);
  Word sub(const Word& a, const Word& b);
  Word neg(const Word& a);
  Word mul(const Word& a, const Word& b);
  Word mul_const(const Word& a, const Integer& c);
  Word div_exact(const Word& a, const Integer& q);  // q > 0; flag when q ∤ a
  Word relu(const Word& a);
  Word mux(Lit s, const Word& a, const Word& b);  // s ? a : b
  // Exactly one selector true (the caller's promise): the selected word.
  Word select(const std::vector<Lit>& selectors, const std::vector<Word>& words);
  Lit less(const Word& a, const Word& b);  // a < b (signed)
  Lit equal(const Word& a, const Word& b);
  Lit equal_const(const Word& a, const Integer& c) { return equal(a, constant(c)); }

  // The flags raised since the last call (overflow, inexact division), OR-ed; kFalse if none.
  Lit take_flag();

  // The value of a word under an evaluation of the Aig (tests, counterexamples).
  static Integer value(const Word& w, const std::vector<bool>& node_values);

 private:
  std::vector<Lit> extend(const Word& a, std::size_t width) const;
  // The exact `bits` (wide enough for every value in [lo, hi] and more) cut to what [lo, hi]
  // needs, or to cap_ with a flag.
  Word fit(std::vector<Lit> bits, const Integer& lo, const Integer& hi);
  std::vector<Lit> add_bits(const std::vector<Lit>& a, const std::vector<Lit>& b, Lit carry);
  void raise(Lit f);

  Aig& aig_;
  std::size_t cap_;
  std::vector<Lit> flags_;
};

// The fewest two's-complement bits holding every integer of [lo, hi] (at least 1).
std::size_t signed_width(const Integer& lo, const Integer& hi);

}  // namespace rnncc::sat
