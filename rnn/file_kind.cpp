#include "rnn/file_kind.hpp"

#include <nlohmann/json.hpp>

#include "rnn/json_cursor.hpp"

namespace rnncc {

namespace {

bool ends_with(std::string_view s, std::string_view tail) {
  return s.ends_with(tail);
}

FileKind kind_of_format(std::string_view f) {
  struct Prefix {
    std::string_view prefix;
    FileKind kind;
  };
  static constexpr Prefix prefixes[] = {{"rnncc-model", FileKind::model},
                                        {"rnncc-circuit", FileKind::circuit},
                                        {"rnncc-wfa", FileKind::wfa},
                                        {"rnncc-generators", FileKind::generators},
                                        {"rnncc-equivalence-certificate", FileKind::certificate},
                                        {"rnncc-product-certificate", FileKind::certificate},
                                        {"rnncc-promise-certificate", FileKind::certificate},
                                        {"rnncc-input-map-certificate", FileKind::certificate}};
  for (const Prefix& p : prefixes)
    if (f.starts_with(p.prefix)) return p.kind;
  return FileKind::unknown;
}

FileKind kind_of_json(const nlohmann::json& doc) {
  if (!doc.is_object()) return FileKind::unknown;
  FileKind by_members = FileKind::unknown;
  if (doc.contains("layers"))
    by_members = FileKind::model;
  else if (doc.contains("gates"))
    by_members = FileKind::circuit;
  else if (doc.contains("matrices"))
    by_members = FileKind::generators;
  else if (doc.contains("initial") || doc.contains("final") || doc.contains("transitions"))
    by_members = FileKind::wfa;
  else if (doc.contains("basis") && doc.contains("f") && doc.contains("g"))
    by_members = FileKind::certificate;
  if (auto f = doc.find("format"); f != doc.end() && f->is_string()) {
    const FileKind by_format = kind_of_format(f->get_ref<const std::string&>());
    // A format naming one kind over the members of another is a mislabelled file, not a
    // file of the wrong kind: the reader's own "/format" diagnostic says it better.
    if (by_format != FileKind::unknown && by_members != FileKind::unknown &&
        by_format != by_members)
      return FileKind::unknown;
    if (by_format != FileKind::unknown) return by_format;
  }
  return by_members;
}

// A bbchallenge string: transitions of three characters (symbol, L or R, state letter) or
// "---", states separated by '_', at least one transition.
bool is_machine_line(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
    line.remove_suffix(1);
  if (line.size() < 3) return false;
  std::size_t i = 0;
  while (i < line.size()) {
    if (i + 3 > line.size()) return false;
    const std::string_view t = line.substr(i, 3);
    const bool undefined = t == "---";
    const bool defined =
        t[0] >= '0' && t[0] <= '9' && (t[1] == 'L' || t[1] == 'R') && t[2] >= 'A' && t[2] <= 'Z';
    if (!undefined && !defined) return false;
    i += 3;
    if (i < line.size()) {
      if (line[i] == '_') ++i;
      if (i == line.size()) return false;
    }
  }
  return true;
}

std::string_view first_line(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t nl = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    return line.substr(first);
  }
  return {};
}

std::string with_article(const std::string& noun) {
  const bool vowel =
      !noun.empty() && std::string_view("aeiouAEIOU").find(noun[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + noun;
}

}  // namespace

FileKind file_kind(std::string_view text, std::string_view path) {
  const std::string_view line = first_line(text);
  if (line.starts_with("{")) {
    try {
      if (FileKind k = kind_of_json(parse_json(text, std::string(path))); k != FileKind::unknown)
        return k;
    } catch (const InputError&) {  // not JSON after all: the extension may still say
    }
  }
  if (ends_with(path, ".aig") || ends_with(path, ".aag") || ends_with(path, ".blif") ||
      ends_with(path, ".bench"))
    return FileKind::circuit;
  if (ends_with(path, ".att")) return FileKind::wfa;
  if (ends_with(path, ".sexp")) return FileKind::formula;
  if (is_machine_line(line)) return FileKind::machine;
  return FileKind::unknown;
}

std::string kind_name(FileKind k) {
  switch (k) {
    case FileKind::model:
      return "model";
    case FileKind::circuit:
      return "circuit";
    case FileKind::wfa:
      return "WFA";
    case FileKind::machine:
      return "Turing machine";
    case FileKind::generators:
      return "generators";
    case FileKind::certificate:
      return "equivalence certificate";
    case FileKind::formula:
      return "formula";
    case FileKind::unknown:
      break;
  }
  return "unrecognized";
}

std::string wrong_kind_message(FileKind found, std::initializer_list<FileKind> accepted) {
  const FileKind wanted = accepted.size() == 0 ? FileKind::unknown : *accepted.begin();
  std::string hint;
  switch (found) {
    case FileKind::model:
      hint = wanted == FileKind::circuit
                 ? "`rnncc compile` makes a circuit from it"
                 : "`rnncc run`, `compile`, `equiv`, `minimize` and `depth --model` read models";
      break;
    case FileKind::circuit:
      hint = "`rnncc stats`, `eval`, `convert` and `draw` read circuits";
      if (wanted == FileKind::model)
        hint += "; this command takes the model a circuit is compiled from";
      break;
    case FileKind::wfa:
      hint = wanted == FileKind::model || wanted == FileKind::circuit
                 ? "`rnncc construct wfa FILE -o MODEL.json` makes a model from it (`rnncc "
                   "equiv` and `minimize` also read it as it is)"
                 : "`rnncc construct wfa`, `equiv` and `minimize` read WFAs";
      break;
    case FileKind::machine:
      hint =
          "`rnncc construct tm FILE -o MODEL.json` makes a model from it; `rnncc verify tm` "
          "and `draw tm` read it as it is";
      break;
    case FileKind::generators:
      hint = "`rnncc construct matmul3 --generators FILE` reads it";
      break;
    case FileKind::certificate:
      hint = "`rnncc check-certificate F G FILE` re-checks it";
      break;
    case FileKind::formula:
      hint = "`rnncc construct barrington FILE` (or `ben-or-cleve`) makes a model from it";
      break;
    case FileKind::unknown:
      break;
  }
  std::string text = "this is " + with_article(kind_name(found)) + " file";
  if (accepted.size() != 0) {
    text += ", not ";
    std::size_t i = 0;
    for (FileKind a : accepted) {
      text += i == 0 ? with_article(kind_name(a))
                     : (i + 1 == accepted.size() ? " or " : ", ") + kind_name(a);
      ++i;
    }
    text += " file";
  }
  if (!hint.empty()) text += "; " + hint;
  return text;
}

void reject_other_kind(std::string_view text, const std::string& path,
                       std::initializer_list<FileKind> accepted) {
  const FileKind k = file_kind(text, path);
  if (k == FileKind::unknown) return;
  for (FileKind a : accepted)
    if (a == k) return;
  throw InputError(path, wrong_kind_message(k, accepted));
}

}  // namespace rnncc
