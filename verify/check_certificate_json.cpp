#include "verify/check_certificate_json.hpp"

#include <cctype>

#include "algebra/error.hpp"
#include "rnn/json_cursor.hpp"

namespace rnncc {

nlohmann::json parse_certificate_json(std::string_view text) {
  try {
    // No source name: parse_json's `where` is then ":LINE:COLUMN" for text that does not parse
    // and ": /pointer" for a duplicate member.
    return parse_json(text, "");
  } catch (const InputError& e) {
    const std::string& where = e.where();
    const std::string what = std::string(e.what()).substr(where.size() + 2);
    if (where.size() > 1 && where[0] == ':' && std::isdigit(static_cast<unsigned char>(where[1]))) {
      const std::size_t colon = where.find(':', 1);
      throw CertificateNotJson("not a certificate: line " + where.substr(1, colon - 1) +
                               ", column " + where.substr(colon + 1) + ": " + what);
    }
    throw std::runtime_error((where.size() > 2 ? where.substr(2) : where) + ": " + what);
  }
}

namespace {

// SAX events of nlohmann::json::sax_parse: follows the nesting only, and stops the parse (false)
// once the top-level "format" member's value was read, or at the first event showing there is
// none (the root is not an object).
struct FormatMember {
  using json = nlohmann::json;
  std::size_t depth = 0;
  bool at_format = false;  // the last top-level key was "format"
  std::string format;

  bool value() { return !(depth == 1 && at_format); }  // the member's value, not a string: stop
  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(json::number_integer_t) { return value(); }
  bool number_unsigned(json::number_unsigned_t) { return value(); }
  bool number_float(json::number_float_t, const json::string_t&) { return value(); }
  bool binary(json::binary_t&) { return value(); }
  bool string(json::string_t& s) {
    if (depth == 1 && at_format) {
      format = s;
      return false;
    }
    return depth > 0;
  }
  bool start_object(std::size_t) {
    if (depth == 1 && at_format) return false;
    ++depth;
    return true;
  }
  bool start_array(std::size_t) { return depth > 0 && !(depth == 1 && at_format); }
  bool end_object() { return --depth > 0; }
  bool end_array() { return true; }
  bool key(json::string_t& k) {
    if (depth == 1) at_format = k == "format";
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception&) {
    return false;
  }
};

}  // namespace

std::string certificate_format_member(std::string_view text) {
  FormatMember m;
  try {
    nlohmann::json::sax_parse(text.begin(), text.end(), &m);
  } catch (const nlohmann::json::exception&) {  // out_of_range (a number beyond a double)
  }
  return m.format;
}

void check_members(const nlohmann::json& value, const std::string& pointer,
                   std::initializer_list<std::string_view> required,
                   std::initializer_list<std::string_view> optional) {
  if (!value.is_object())
    throw std::runtime_error((pointer.empty() ? "/" : pointer) + ": expected an object, got " +
                             describe(value));
  for (auto it = value.begin(); it != value.end(); ++it) {
    bool known = false;
    for (std::string_view a : required) known = known || a == it.key();
    for (std::string_view a : optional) known = known || a == it.key();
    if (known) continue;
    std::string list;
    for (auto names : {required, optional})
      for (std::string_view a : names) list += (list.empty() ? "" : ", ") + std::string(a);
    throw std::runtime_error(pointer + "/" + escape_pointer(it.key()) + ": unknown member \"" +
                             it.key() + "\" (expected one of: " + list + ")");
  }
  for (std::string_view a : required)
    if (!value.contains(a))
      throw std::runtime_error((pointer.empty() ? "/" : pointer) + ": expected a member \"" +
                               std::string(a) + "\"");
}

}  // namespace rnncc
