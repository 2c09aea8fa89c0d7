// JSON text for output (stdout, reports, files written): names and labels are bytes read from
// input files, and nlohmann-json throws on a string that is not UTF-8 when it dumps it (a
// type_error after the work is done). Every printed or written JSON goes through json_text,
// which replaces each invalid byte by U+FFFD instead.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace rnncc {

// j.dump(indent) with invalid UTF-8 replaced (indent −1: one line).
template <class Json>
std::string json_text(const Json& j, int indent = 2) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace rnncc
