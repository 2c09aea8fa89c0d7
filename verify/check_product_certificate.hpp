// The independent checkers of the certificates of proofs that are not one linear basis over one
// LRNN layer (issue 24, item 6; docs/formats.md, "Product, promise and input-map
// certificates"). Like verify/check_certificate.hpp they share no code with the deciders
// (verify/finite_equivalence.*, verify/promise_search.*, verify/linear_representation.*,
// verify/equivalence.*): only the file readers (verify/subject_file.hpp, the WFA JSON reader)
// and the number type. Each recomputes every step with its own small step function.
//
//   rnncc-product-certificate/1   (rnncc equiv --method product --certificate): a set P of
//     pairs (x_f, x_g) of states of the two subjects — every layer's state of a model (LRNN
//     S row by row, Elman h), the vector α·M_u of a WFA — with, per symbol σ, the index of the
//     successor pair and the common output. Checked: P[0] is the pair of start states; for
//     every pair and σ, stepping both states by σ gives exactly the successor's states, and
//     both outputs equal the stated value (and y(ε) for two WFAs). Then P is an inductive
//     invariant containing the start: by induction on |w| the pair reached by w is in P, and
//     the outputs after every nonempty w agree.
//   rnncc-promise-certificate/1   (rnncc verify KIND --certificate, where a grammar proves it):
//     one model X, the encoding grammar G (a partial automaton over X's tokens, a value at
//     the states where a valid encoding ends) and a set of pairs (q, x) with their successors
//     per token G allows. Checked: pair 0 is (G's start, X's start); the transitions stated
//     are exactly those G allows; each successor is G's next state and X's stepped state;
//     at a successor whose G-state has a value, X's compared output equals it. Then X
//     computes G's value on every token string G accepts. What G accepts is data in the
//     certificate: the checker states it (its promise text and how many strings it accepts).
//   rnncc-input-map-certificate/1 (rnncc verify KIND --certificate for a model read through an
//     input map: DPLR sub-steps, matmul3's BOS and period-2 tokens): the specification WFA
//     (embedded), one LRNN layer X, the map (a token prefix; per control state q = position
//     mod P and symbol σ, a token word τ(q, σ)) and a linear basis as in
//     rnncc-equivalence-certificate/1 for the composed representation. The checker composes
//     itself: v(u) = [α·M_u, e_{q(u)} ⊗ h_X(prefix·τ(q₀,u₁)⋯)] (h_X = [vec_row(S), 1]), and
//     checks that u_0 = ε, v(u_iσ) is the stated combination of the basis vectors and the
//     outputs after u_iσ (X's at the last token of τ) equal the stated value — the induction of
//     verify/check_certificate.hpp on the composed vectors, whose step is linear.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "verify/subject_file.hpp"

namespace rnncc {

struct ProductCertificateCheck {
  bool ok = false;
  bool other_models = false;             // the certificate names other files (by digest)
  bool not_json = false;                 // not JSON (bad input, not a proof)
  std::vector<std::string> problems;     // every broken rule found (the first 20)
  std::string established;               // what a valid certificate establishes, in words
  std::string field = "Q";               // the arithmetic of the certificate: "Q" or "F_p"
  std::optional<std::uint64_t> modulus;  // p when field is "F_p" (input maps read mod p)
};

// The "format" of a certificate text, or "" when it has none (or is not a JSON object).
std::string certificate_format(std::string_view certificate_json);

ProductCertificateCheck check_product_certificate(const SubjectFile& f, const SubjectFile& g,
                                                  std::string_view certificate_json);
ProductCertificateCheck check_promise_certificate(const SubjectFile& x,
                                                  std::string_view certificate_json);
// spec: the specification WFA's file, compared by digest with the embedded one; none: the
// embedded one is the specification.
ProductCertificateCheck check_input_map_certificate(const std::optional<SubjectFile>& spec,
                                                    const SubjectFile& x,
                                                    std::string_view certificate_json);

}  // namespace rnncc
