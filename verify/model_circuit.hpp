// A model's exact semantics (rnn/evaluate.hpp over Q) as a boolean circuit on symbolic one-hot
// inputs, one position at a time (so a generated token can be fed back): the construction's
// side of a SAT proof (verify/sat_proof.hpp). Every value v is carried as the integer v·D, D the
// least common multiple of the model's parameter denominators, in the Words of
// verify/bitvec.hpp; a product of two values, or of a value and a parameter p/q, is divided
// back exactly, with a flag where the division is not exact. Where no flag is raised, every
// Word equals D times the exact rational value the reference evaluator computes.
//
// Linear parts are kept symbolic: every value is a linear form Σ c_i·a_i + c over atoms a_i (the
// Words of selections, products, ReLUs and attention picks), normalized, and only turned into
// gates where a non-linear operation reads it. So a state entry that equals another entry for
// structural reasons (state-recall's two copies of the register labels: a Householder step
// (S_a + S_b − S_{a+5} + S_{b+5})/2 with S_a ≡ S_{a+5} is S_b) is the same atom, and its range
// does not grow with the length.
//
// Layers: LRNN (any family: A(z) = Σ_k z_k A_k on the one-hot input as a selection among the
// symbols' affine maps, above it as Σ_k z_k·(A_k S)), Elman with ReLU, unique-hard attention
// (window, position bias, ties, residual); input maps between layers. Others (LSTM, sign
// activations, averaging or softmax attention) throw SatUnsupported naming the layer.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "rnn/model.hpp"
#include "verify/bitvec.hpp"

namespace rnncc::sat {

struct SatUnsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ModelCircuit {
 public:
  // Throws SatUnsupported for a layer kind it does not encode.
  ModelCircuit(const Model& model, WordBuilder& words);
  // Feeds position t = 1, 2, …: one selector per model symbol (exactly one true). Returns the
  // last layer's output y_t, row-major (vec_row), each entry scaled by scale().
  std::vector<Word> step(const std::vector<Lit>& one_hot);
  const Integer& scale() const { return D_; }

  // A value: Σ coef·atom + constant (rational values; atoms are Words scaled by D).
  struct Lin {
    std::map<std::size_t, Rational> terms;
    Rational constant = 0;
    bool operator==(const Lin& o) const { return terms == o.terms && constant == o.constant; }
  };

 private:
  Lin combine(const std::vector<std::pair<Rational, const Lin*>>& terms, const Rational& constant);
  Lin times(const Lin& a, const Lin& b);
  Lin select(const std::vector<Lit>& selectors, const std::vector<Lin>& values);
  Lin atom(Word w);
  Word materialize(const Lin& v);  // v·D as a Word
  static std::string key(const Lin& v);

  const Model& model_;
  WordBuilder& w_;
  Integer D_ = 1;
  std::vector<Word> atoms_;
  std::map<std::string, Word> materialized_;
  std::map<std::string, std::size_t> selections_;
  std::vector<std::vector<Lin>> state_;                       // per layer: LRNN S / Elman h
  std::vector<std::vector<std::vector<Lin>>> keys_, values_;  // attention: per position
  std::size_t t_ = 0;
};

}  // namespace rnncc::sat
