// How the independent certificate checkers (verify/check_certificate.cpp,
// verify/check_certificate_morphism.cpp, verify/check_product_certificate.cpp) read a
// certificate's JSON: with the linear reader every rnncc file goes through (parse_json,
// rnn/json_cursor.hpp: duplicate members and nesting deeper than 64 levels refused), and
// strictly — a member a format does not define is refused by its JSON pointer, with the list of
// the members expected there, so a misspelled or extra member is never ignored silently. A
// shared file reader, like verify/subject_file.hpp: no code of the deciders.
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rnncc {

// Text that is not JSON rnncc reads: malformed, nested deeper than 64 levels, a number beyond a
// double. Bad input (the checkers set not_json; the CLI exits 2), not an invalid proof.
struct CertificateNotJson : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses a certificate's text in time linear in its size. Throws CertificateNotJson
// ("not a certificate: line 3, column 14: malformed JSON: …") or, for a member given twice,
// std::runtime_error ("/basis/0/next: duplicate member \"next\"": an invalid certificate).
nlohmann::json parse_certificate_json(std::string_view text);

// The string value of the top-level member "format", or "" (not a JSON object, no such member,
// not a string, or text that fails to parse before it). Reads no further than that member and
// builds no document: `rnncc check-certificate` picks its checker by it, and the checker then
// parses the whole text once.
std::string certificate_format_member(std::string_view text);

// Throws std::runtime_error unless `value` is an object holding every member of `required` and
// no member outside `required` and `optional`: "<pointer>: expected an object, got …",
// "<pointer>: expected a member \"word\"", or "<pointer>/<key>: unknown member \"key\"
// (expected one of: a, b, c)". `pointer` is the value's RFC 6901 pointer ("" for the root).
void check_members(const nlohmann::json& value, const std::string& pointer,
                   std::initializer_list<std::string_view> required,
                   std::initializer_list<std::string_view> optional = {});

}  // namespace rnncc
