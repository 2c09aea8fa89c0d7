// The three-way check of one string (f, X, X's compiled arithmetic circuit: Checker) and the
// three-way method's report (Verification::three_way).
#include "verify/three_way.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/eval/evaluate.hpp"
#include "verify/verification.hpp"

namespace rnncc::verify_internal {

Checker::Checker(const Construction& c, const VerifyOptions& o) : c_(c), o_(o) {
  if (c.modulus) mod_.emplace(*c.modulus);
  // Three-way needs X's arithmetic circuit: LRNN stacks (compile_lrnn), one Elman layer
  // (compile_nonlinear_sequential), LRNN layers under one hard-attention layer
  // (compile_attention_arith) — compile_model's arith routes; softmax has no exact circuit.
  TargetOptions t;
  try {
    (void)compiler_name(c.model, t);
    const auto* a = std::get_if<AttentionLayer>(&c.model.layers.back().layer);
    compilable_ = !a || a->kind != AttentionKind::softmax;
  } catch (const InputError&) {
    compilable_ = false;
  }
}

// f(w) vs X(encode(w)) [vs X's circuit]. Returns the mismatch, if any.
std::optional<Mismatch> Checker::check(const std::vector<std::size_t>& w, bool three_way) {
  const Rational expected = c_.target.value(w);
  const std::vector<std::size_t> x = c_.encode(w);
  if (x.empty())
    throw std::logic_error("verify: the encoding of a string is empty; X has no output for it");
  if (mod_) return check_in(*mod_, expected, x, three_way);
  return check_in(RationalField{}, expected, x, three_way);
}

// (f(w), X's compared output) over Q; nullopt for a mod-p construction.
std::optional<std::pair<Rational, Rational>> Checker::exact_values(
    const std::vector<std::size_t>& w) {
  if (mod_) return std::nullopt;
  const auto trace = evaluate(prepared(RationalField{}), c_.encode(w));
  return std::pair{c_.target.value(w), trace.outputs().back()(c_.out_row, c_.out_col)};
}

// Multiply-adds compile_model spends on X at length n: a Sklansky scan makes
// (n/2)·⌈log₂ n⌉ compositions of d×d maps (d³ + d²·m each, zeros included: the builder folds
// them one by one) per LRNN layer; other layers cost about n·d² (one step per position).
double Checker::compile_work(std::size_t n) const {
  double work = 0, levels = std::ceil(std::log2(static_cast<double>(std::max<std::size_t>(n, 2))));
  for (const StackLayer& sl : c_.model.layers) {
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
      const double d = static_cast<double>(l->d), m = static_cast<double>(l->m);
      work += (static_cast<double>(n) / 2) * levels * (d * d * d + d * d * m);
    } else {
      const double k = static_cast<double>(output_rows(sl.layer) + input_features(sl.layer));
      work += static_cast<double>(n) * k * k;
    }
  }
  return work;
}

// Three-way compiles a circuit per length; past the budget (a 100-state WFA's model at length
// 40 needs ≈ 10^8 multiply-adds per length, minutes in all) the longer lengths are not
// compiled and the report says from which length on (VerifyOptions::three_way_max_work).
bool Checker::within_compile_budget(std::size_t n) {
  if (compile_work(n) <= o_.three_way_max_work) return true;
  if (!first_over_budget_ || n < *first_over_budget_) first_over_budget_ = n;
  return false;
}

template <Domain K>
std::optional<Mismatch> Checker::check_in(const K& k, const Rational& expected_q,
                                          const std::vector<std::size_t>& x, bool three_way) {
  const auto want = k.from_rational(expected_q);
  const auto trace = evaluate(prepared(k), x);
  const auto& got = trace.outputs().back()(c_.out_row, c_.out_col);
  const std::string expected_text = c_.modulus
                                        ? k.to_string(want) + " (= " + to_string(expected_q) +
                                              " mod " + std::to_string(*c_.modulus) + ")"
                                        : to_string(expected_q);
  if (!k.equal(want, got)) return Mismatch{expected_text, k.to_string(got), "model"};
  if (three_way && compilable_ && !x.empty() && x.size() <= o_.three_way_max_tokens &&
      within_compile_budget(x.size())) {
    const Circuit& circ =
        circuit_for(x.size(), std::is_same_v<K, ModP>);  // exact circuits serve Z and Q
    std::vector<typename K::Element> in(x.size() * c_.model.alphabet.size(), k.zero());
    for (std::size_t t = 0; t < x.size(); ++t) in[t * c_.model.alphabet.size() + x[t]] = k.one();
    const auto out = evaluate(circ, k, std::span<const typename K::Element>(in));
    const std::size_t cols = output_cols(c_.model.layers.back().layer);
    const auto& y = out.at(c_.out_row * cols + c_.out_col);
    if (!k.equal(y, got)) return Mismatch{k.to_string(got) + " (model)", k.to_string(y), "circuit"};
  }
  return std::nullopt;
}

// X with its parameters converted once per domain (rnn/evaluate.hpp, PreparedModel).
template <Domain K>
const PreparedModel<K>& Checker::prepared(const K& k) {
  if constexpr (std::is_same_v<K, ModP>) {
    if (!prepared_mod_) prepared_mod_.emplace(c_.model, k);
    return *prepared_mod_;
  } else {
    if (!prepared_q_) prepared_q_.emplace(c_.model, k);
    return *prepared_q_;
  }
}

const Circuit& Checker::circuit_for(std::size_t n,
                                    bool mod) {  // one per length (Z and Q share one)
  auto& cache = mod ? circuits_mod_ : circuits_rational_;
  auto it = cache.find(n);
  if (it == cache.end()) {
    TargetOptions o;  // arith, exact
    o.compile.acceptance = false;
    o.compile.scan = ScanKind::sklansky;
    it = cache.emplace(n, compile_model(c_.model, n, o).circuit).first;
    compiled_.emplace(n, mod);
  }
  return it->second;
}

// three-way: every string the methods above checked was also run through X's compiled
// arithmetic circuit (Checker::check); this reports how many lengths were compiled, or why
// none could be.
void Verification::three_way() {
  if (report_.proof && !report_.proof->proved && !report_.proof->finite_domain)
    return;  // refuted by the decision: no string was run
  if (o_.three_way && !checker_.compilable())
    report_.notes.push_back(
        "three-way agreement skipped: no arithmetic circuit for this model (compile_model's "
        "arith routes: LRNN stacks, one Elman layer, LRNN layers under one hard-attention "
        "layer)");
  else if (o_.three_way)
    report_.checked["three-way (lengths compiled)"] = checker_.circuits_compiled();
  if (o_.three_way && checker_.first_over_budget())
    report_.notes.push_back(fmt::format(
        "three-way agreement skipped from length {} on: compiling X there takes ≈ {:.1e} "
        "multiply-adds, over the limit of {:.1e} (VerifyOptions::three_way_max_work)",
        *checker_.first_over_budget(), checker_.compile_work(*checker_.first_over_budget()),
        o_.three_way_max_work));
}

}  // namespace rnncc::verify_internal
