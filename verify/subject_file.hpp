// The files `rnncc equiv` and `rnncc check-certificate` read: a model (rnncc-model/1) or a WFA
// (rnncc-wfa/1 JSON, or AT&T text), and a digest of each one's canonical content, which a
// certificate records so that a certificate for other models is refused.
//
// This reader (and the model/WFA parsers under it) is the only code the certificate checker
// shares with the decision procedure.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "constructions/wfa.hpp"
#include "rnn/model.hpp"

namespace rnncc {

struct SubjectFile {
  std::string path;
  std::variant<Model, Wfa> content;
  bool is_wfa() const { return std::holds_alternative<Wfa>(content); }
};

// .json with "format": "rnncc-wfa/1" → WFA; other .json → model; anything else → AT&T WFA.
// Throws InputError.
SubjectFile load_subject_file(const std::string& path);
// The same reading of `text`, the content of a file named `path` (its extension decides).
SubjectFile parse_subject_file(std::string_view text, const std::string& path);

// "fnv1a64:<16 hex digits>" of the canonical content: model_to_json(m).dump() for a model; for
// a WFA the alphabet, initial, final and transition weights in canonical rational form (state
// names are not part of the function). A naming check, not a security measure: the checker
// recomputes everything from the models themselves.
std::string subject_digest(const SubjectFile& s);

}  // namespace rnncc
