// Equivalence certificates: the JSON proof `rnncc equiv --certificate FILE` writes
// (docs/formats.md, "Equivalence certificates"), re-checked by verify/check_certificate.hpp.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "verify/equivalence.hpp"
#include "verify/subject_file.hpp"

namespace rnncc {

// The representation the decider uses for a file: from_wfa, or from_model.
LinearRepresentation subject_representation(const SubjectFile& s);

// Whether the certificate checker can recompute this file's vectors: a WFA, or a model of one
// LRNN layer. Otherwise returns the reason.
std::optional<std::string> not_certifiable(const SubjectFile& s);

// The certificate of an equivalent result (result.equivalent) for f = subject_representation(a)
// and g = subject_representation(b).
nlohmann::ordered_json equivalence_certificate(const EquivalenceResult& result,
                                               const SubjectFile& a, const SubjectFile& b);

}  // namespace rnncc
