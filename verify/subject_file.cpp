#include "verify/subject_file.hpp"

#include <cstdint>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "rnn/file_kind.hpp"
#include "rnn/json_cursor.hpp"
#include "rnn/model_json.hpp"

namespace rnncc {

SubjectFile load_subject_file(const std::string& path) {
  return parse_subject_file(
      read_text_file(path, path.ends_with(".json") ? "model or WFA file" : "WFA file"), path);
}

static SubjectFile parse_subject_file_unchecked(std::string_view text, const std::string& path) {
  SubjectFile s;
  s.path = path;
  if (!path.ends_with(".json")) {
    s.content = parse_wfa_att(text, path);
    return s;
  }
  const nlohmann::json doc = parse_json(text, path);
  if (doc.is_object() && doc.contains("format") && doc["format"] == "rnncc-wfa/1")
    s.content = parse_wfa_json(text, path);
  else
    s.content = parse_model(text, path);
  return s;
}

SubjectFile parse_subject_file(std::string_view text, const std::string& path) {
  return parse_as_kind(text, path, {FileKind::model, FileKind::wfa},
                       [&] { return parse_subject_file_unchecked(text, path); });
}

std::string subject_digest(const SubjectFile& s) {
  std::string text;
  if (const auto* m = std::get_if<Model>(&s.content)) {
    text = "model\n" + model_to_json(*m).dump();
  } else {
    const Wfa& a = std::get<Wfa>(s.content);
    auto put = [&](const Rational& x) {  // (no `" " + …`: GCC 12 misreports -Wrestrict on it)
      text += ' ';
      text += to_string(x);
    };
    text = "wfa\n";
    for (const std::string& x : a.alphabet.symbols()) {
      text += x;
      text += '\n';
    }
    text += "initial";
    for (const Rational& x : a.initial) put(x);
    text += "\nfinal";
    for (const Rational& x : a.final) put(x);
    for (const auto& t : a.transition) {
      text += "\nM";
      for (const Rational& x : t.data()) put(x);
    }
  }
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string("fnv1a64:") + hex;
}

}  // namespace rnncc
