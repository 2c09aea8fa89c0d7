// The independent checker of equivalence certificates (docs/formats.md, "Equivalence
// certificates"). Deliberately small: it shares no code with the decision procedure
// (verify/equivalence.*, verify/linear_representation.*, algebra/linear_basis.hpp) — only the
// file readers (verify/subject_file.hpp) and the number type.
//
// What it proves. For a model or WFA let h(u) be its vector after reading u: α·M_u for a WFA,
// [vec_row(S_u), 1] for a one-layer LRNN (S_u its state, S_{uσ} = A_σ S_u + B_σ). One step is a
// linear map of h (h(uσ) = h(u)·M_σ), and the output y(uσ) is a linear function of h(u). Let
// v(u) = [h_f(u), h_g(u)]. The checker recomputes v(u_i) for every basis word u_i from the word
// and checks, for every σ, (a) v(u_iσ) = Σ_j c_ijσ·v(u_j) with the certificate's coefficients
// and (b) y_f(u_iσ) = y_g(u_iσ) = the stated value; and that u_0 = ε. Then by induction on |u|
// every v(u) lies in span{v(u_j)} (v(ε) = v(u_0); v(uσ) = v(u)·M_σ is a combination of the
// v(u_j)·M_σ = v(u_jσ), each in the span by (a)), and y_f(uσ) − y_g(uσ) is linear in v(u) and
// vanishes on the span by (b): f ≡ g on every nonempty word. Two WFAs also compare ε.
// Arithmetic is exact over Q, or over F_p (every number reduced to its residue in [0, p)).
// A certificate with "morphism" instead of "basis" (the multimodular decider's) is checked by
// verify/check_certificate_morphism.cpp, also independent of the decider (its header says what
// it proves).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "verify/subject_file.hpp"

namespace rnncc {

struct CertificateCheck {
  bool ok = false;
  bool other_models = false;          // the certificate names other models (by digest)
  bool not_json = false;              // the file does not parse as JSON (bad input, not a proof)
  std::vector<std::string> problems;  // every broken rule found (the first few per kind)
  // The field the certificate's arithmetic is over, as read from it: "Q", or "F_p" with its
  // modulus (empty when the file has no readable field). A valid F_p certificate proves
  // agreement modulo p only (verify/certificate_claim.hpp).
  std::string field;
  std::optional<std::uint64_t> modulus;
};

CertificateCheck check_certificate(const SubjectFile& f, const SubjectFile& g,
                                   std::string_view certificate_json);

// The text of a certificate file; InputError when it cannot be read or is recognized as another
// kind of file (a model, a WFA, …: rnn/file_kind.hpp).
std::string read_certificate_file(const std::string& path);

}  // namespace rnncc
