#include "rnn/json_cursor.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "algebra/error.hpp"

namespace rnncc {

using nlohmann::json;

std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return v.get<bool>() ? "true" : "false";
    case json::value_t::string:
      return "the string " + v.dump();
    case json::value_t::number_float:
      return "the floating-point number " + v.dump();
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "the number " + v.dump();
    case json::value_t::array:
      return v.empty() ? "an empty array" : "an array of " + std::to_string(v.size());
    case json::value_t::object:
      return "an object";
    default:
      return "a value of another type";
  }
}

std::string escape_pointer(std::string_view token) {  // RFC 6901
  std::string out;
  for (char c : token) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

// A JSON value with its file and pointer, so every diagnostic can say where it is.

std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t byte) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {  // count code points
      ++column;
    }
  }
  return {line, column};
}

Rational rational_from_json(const json& v, const std::string& where) {
  if (v.is_number_integer()) return Rational(decimal_integer(v.dump()));
  if (v.is_string()) {
    if (auto q = try_parse_rational(v.get<std::string>())) return *q;
    throw InputError(
        where, "expected a rational such as \"3/4\", \"-2\" or \"0.125\", got " + describe(v));
  }
  if (v.is_number_float()) {
    std::string hint = try_parse_rational(v.dump()) ? ", e.g. \"" + v.dump() + "\""
                                                    : " such as \"3/4\" or \"0.125\"";
    throw InputError(
        where, "expected an exact rational as a string, got " + describe(v) +
                   " (JSON numbers with a fraction or exponent, or beyond 64 bits, are read as "
                   "inexact floats: write the value as a string" +
                   hint + ")");
  }
  throw InputError(where, "expected a rational such as \"3/4\", got " + describe(v));
}

namespace {

// Rejects duplicate object members while parsing (nlohmann keeps the last one silently), and
// names them by JSON pointer. Frames track the pointer: an object's current key, an array's
// next index.
// Thrown by the parse callback when nesting passes json_depth_limit; parse_json turns it into
// an InputError at the line and column of the opening bracket.
struct TooDeep {};

class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(std::string source) : source_(std::move(source)) {}
  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    // `depth` counts the containers already open; stopping here keeps every later recursive
    // walk (comparison, dump) of the document bounded too.
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        static_cast<std::size_t>(depth) >= json_depth_limit)
      throw TooDeep{};
    switch (event) {
      case json::parse_event_t::object_start:
        frames_.push_back({true, {}, 0, {}});
        break;
      case json::parse_event_t::array_start:
        frames_.push_back({false, {}, 0, {}});
        break;
      case json::parse_event_t::key: {
        Frame& f = frames_.back();
        f.key = parsed.get<std::string>();
        if (!f.seen.insert(f.key).second)
          throw InputError(source_ + ": " + pointer(), "duplicate member \"" + f.key + "\"");
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        element_done();
        break;
      case json::parse_event_t::value:
        element_done();
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool object;
    std::string key;
    std::size_t index;
    std::set<std::string> seen;
  };
  void element_done() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }
  std::string pointer() const {
    std::string p;
    for (const Frame& f : frames_)
      p += "/" + (f.object ? escape_pointer(f.key) : std::to_string(f.index));
    return p;
  }
  std::string source_;
  std::vector<Frame> frames_;
};

// Byte offset of the bracket that opens level `limit + 1` in `text`, a valid JSON prefix up to
// there (the parser read it): brackets inside strings do not count.
std::size_t too_deep_offset(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return text.size();
}

}  // namespace

json parse_json(std::string_view text, const std::string& source) {
  try {
    return json::parse(text.begin(), text.end(), DuplicateKeyCheck(source));
  } catch (const TooDeep&) {
    auto [line, col] = line_column(text, too_deep_offset(text, json_depth_limit));
    throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(col),
                     "JSON nested deeper than " + std::to_string(json_depth_limit) +
                         " levels (the limit of every rnncc JSON format, docs/formats.md)");
  } catch (const json::out_of_range& e) {
    // A number beyond a double (1e400): nlohmann throws out_of_range 406 "number overflow
    // parsing '1e400'" without a position; the first occurrence of the literal names it.
    const std::string msg = e.what();
    std::size_t at = 0;
    if (auto q = msg.find("parsing '"); q != std::string::npos) {
      const std::string literal = msg.substr(q + 9, msg.rfind('\'') - (q + 9));
      if (auto p = text.find(literal); p != std::string_view::npos) at = p;
    }
    auto [line, col] = line_column(text, at);
    throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(col),
                     "malformed JSON: " + msg.substr(msg.find(']') + 2) +
                         " (a number beyond the range of a double; exact values are strings)");
  } catch (const json::parse_error& e) {
    auto [line, col] = line_column(text, e.byte == 0 ? 0 : e.byte - 1);
    // nlohmann's own text counts bytes ("at line 1, column 28"); keep only its reason.
    std::string msg = e.what();
    if (auto p = msg.find(": syntax error"); p != std::string::npos)
      msg = msg.substr(p + 2);
    else if (auto q = msg.find("parse error"); q != std::string::npos)
      msg = msg.substr(q);
    throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(col),
                     "malformed JSON: " + msg);
  }
}

std::string read_text_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path, "is a directory, not a " + what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the " + what);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace rnncc
