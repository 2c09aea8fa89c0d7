// Which kind of rnncc file a text is — model, circuit, WFA, Turing machine, generators,
// certificate, formula — recognized by its JSON "format" member (or, without one, by its
// members), by its extension, or by the shape of its first line. Every loader calls
// `reject_other_kind` on its error path, so that a file of the wrong kind is refused with what it
// is and which command reads it ("m.json: this is a model file; `rnncc compile` makes a circuit
// from it") instead of a parse error deep inside it (docs/cli.md, "File kinds").
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "algebra/error.hpp"

namespace rnncc {

enum class FileKind { unknown, model, circuit, wfa, machine, generators, certificate, formula };

// The kind of `text` read from `path`: by the JSON "format" member ("rnncc-model/1", …, any
// version), else by the members of a JSON object ("layers": model, "gates": circuit, "matrices":
// generators, "initial"/"final"/"transitions": WFA; a format and members naming two different
// kinds: unknown, a mislabelled file), else by the extension (.aig, .aag, .blif,
// .bench: circuit; .att: WFA; .sexp: formula), else by the first line that is neither blank nor a
// '#' comment (a bbchallenge string such as 1RB1LB_1LA1RZ: machine). unknown when none says.
FileKind file_kind(std::string_view text, std::string_view path);

std::string kind_name(FileKind k);  // "model", "circuit", "WFA", "Turing machine", …

// "this is a model file, not a circuit file; `rnncc compile` makes a circuit from it": what a
// file of kind `found` is and which command reads it, for a command that reads `accepted`.
std::string wrong_kind_message(FileKind found, std::initializer_list<FileKind> accepted);

// Throws InputError(path, wrong_kind_message(...)) when `text` is recognized as a kind outside
// `accepted`; returns otherwise (unknown, or an accepted kind: the caller's own diagnostic
// stands). Loaders call it when their parse fails, then rethrow their own error.
void reject_other_kind(std::string_view text, const std::string& path,
                       std::initializer_list<FileKind> accepted);

// Runs `parse()`; when it throws, refuses a file of another kind with the kind message, else
// lets the parser's own error through.
template <class Parse>
auto parse_as_kind(std::string_view text, const std::string& path,
                   std::initializer_list<FileKind> accepted, Parse&& parse) -> decltype(parse()) {
  try {
    return parse();
  } catch (const InputError&) {
    reject_other_kind(text, path, accepted);
    throw;
  } catch (const DomainError&) {
    reject_other_kind(text, path, accepted);
    throw;
  }
}

}  // namespace rnncc
