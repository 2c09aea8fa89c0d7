// JSON text for output (stdout, reports, files written): names and labels are bytes read from
// input files, and nlohmann-json throws on a string that is not UTF-8 when it dumps it (a
// type_error after the work is done). Every printed or written JSON goes through json_text (or,
// for files written as a stream, json_string), which replaces each invalid byte by U+FFFD instead.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rnncc {

// j.dump(indent) with invalid UTF-8 replaced (indent −1: one line).
template <class Json>
std::string json_text(const Json& j, int indent = 2) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The JSON string literal of `s`, quotes included, byte for byte as json_text writes a string
// member: printable ASCII other than '"' and '\' as it is (the common case, no allocation beyond
// the result), anything else escaped and replaced by nlohmann-json itself.
inline std::string json_string(std::string_view s) {
  bool plain = true;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
      plain = false;
      break;
    }
  }
  if (!plain) return json_text(nlohmann::json(std::string(s)), -1);
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  out += s;
  out += '"';
  return out;
}

}  // namespace rnncc
