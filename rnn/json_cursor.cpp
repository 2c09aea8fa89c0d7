#include "rnn/json_cursor.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
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

// Thrown by the SAX builder when nesting passes json_depth_limit; parse_json turns it into an
// InputError at the line and column of the opening bracket.
struct TooDeep {};

// Builds the document through nlohmann's SAX interface, rejecting duplicate object members
// (nlohmann keeps the last one silently) by JSON pointer and nesting deeper than
// json_depth_limit. Linear in the document: nlohmann's own callback parser rescans the parent
// container after every closed object or array (to erase discarded values), which is
// quadratic in an array of objects — 0.9 s for a circuit of 65 537 gates before this.
class DomBuilder {
 public:
  explicit DomBuilder(std::string source) : source_(std::move(source)) {}
  json& root() { return root_; }

  bool null() { return put(json(nullptr)); }
  bool boolean(bool v) { return put(json(v)); }
  bool number_integer(json::number_integer_t v) { return put(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return put(json(v)); }
  bool string(json::string_t& v) { return put(json(std::move(v))); }
  bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    Frame& f = stack_.back();
    f.key = std::move(k);
    if (f.value->contains(f.key))
      throw InputError(source_ + ": " + pointer(), "duplicate member \"" + f.key + "\"");
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;  // the concrete parse_error or out_of_range, as json::parse would throw it
  }

 private:
  struct Frame {
    json* value;      // the open container
    std::string key;  // an object's current member
  };
  // Stores v where the parser is (root, the open array's end, the open object's current
  // member) and returns where it went.
  json* place(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& f = stack_.back();
    if (f.value->is_array()) {
      f.value->push_back(std::move(v));
      return &f.value->back();
    }
    return &((*f.value)[f.key] = std::move(v));
  }
  bool put(json&& v) {
    place(std::move(v));
    return true;
  }
  bool open(json&& container) {
    // The containers already open; stopping here keeps every later recursive walk
    // (comparison, dump) of the document bounded too.
    if (stack_.size() >= json_depth_limit) throw TooDeep{};
    stack_.push_back({place(std::move(container)), {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }
  // RFC 6901 pointer of the member being read: an open array's component is the index of its
  // open element (its last), an object's is its current key.
  std::string pointer() const {
    std::string p;
    for (std::size_t i = 0; i < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      const bool last = i + 1 == stack_.size();
      p += "/" + (f.value->is_object() ? escape_pointer(f.key)
                                       : std::to_string(f.value->size() - (last ? 0 : 1)));
    }
    return p;
  }
  std::string source_;
  json root_;
  std::vector<Frame> stack_;
};

}  // namespace

std::size_t json_nesting_offset(std::string_view text, std::size_t limit) {
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
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return text.size();
}

json parse_json(std::string_view text, const std::string& source) {
  try {
    DomBuilder builder(source);
    json::sax_parse(text.begin(), text.end(), &builder);
    return std::move(builder.root());
  } catch (const TooDeep&) {
    auto [line, col] = line_column(text, json_nesting_offset(text, json_depth_limit));
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

namespace {

std::optional<std::uint64_t> g_max_input_mib;  // set_max_input_mib

std::uint64_t limit_bytes(std::uint64_t mib) {
  return mib > (std::numeric_limits<std::uint64_t>::max() >> 20)
             ? std::numeric_limits<std::uint64_t>::max()
             : mib << 20;
}

[[noreturn]] void refuse_size(const std::string& path, const std::string& what) {
  throw InputError(path, "the " + what + " is larger than the input size limit of " +
                             std::to_string(max_input_mib()) +
                             " MiB (raise --max-input or RNNCC_MAX_INPUT_MIB to read it anyway)");
}

}  // namespace

std::uint64_t max_input_mib() {
  if (g_max_input_mib) return *g_max_input_mib;
  if (const char* env = std::getenv("RNNCC_MAX_INPUT_MIB")) {
    std::uint64_t v = 0;
    const char* end = env + std::strlen(env);
    const auto [p, ec] = std::from_chars(env, end, v);
    if (*env != 0 && ec == std::errc() && p == end) return v;
  }
  return kDefaultMaxInputMiB;
}

void set_max_input_mib(std::uint64_t mib) {
  g_max_input_mib = mib;
}

void check_input_size(const std::string& path, const std::string& what, std::uint64_t bytes) {
  const std::uint64_t mib = max_input_mib();
  if (mib != 0 && bytes > limit_bytes(mib)) refuse_size(path, what);
}

std::string read_file_bytes(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path, "is a directory, not a " + what);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path, "cannot open the " + what);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  const std::uint64_t mib = max_input_mib();
  const std::uint64_t limit =
      mib == 0 ? std::numeric_limits<std::uint64_t>::max() : limit_bytes(mib);
  // A regular file is measured before it is read; a device or a pipe (/dev/zero, <(…)) is read
  // until one byte past the limit, so at most the limit is ever held.
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<std::uint64_t>(st.st_size) > limit)
    refuse_size(path, what);
  // Read in blocks (not a doubling string, which would hold twice the limit while it grows),
  // joined once at the end.
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  std::vector<std::unique_ptr<char[]>> blocks;
  std::uint64_t total = 0;
  std::size_t in_last = kBlock;
  for (;;) {
    if (in_last == kBlock) {
      blocks.emplace_back(new char[kBlock]);
      in_last = 0;
    }
    const ssize_t got = ::read(fd, blocks.back().get() + in_last, kBlock - in_last);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(path, "cannot read the " + what + ": " + std::strerror(errno));
    if (got == 0) break;
    in_last += static_cast<std::size_t>(got);
    total += static_cast<std::uint64_t>(got);
    if (total > limit) refuse_size(path, what);
  }
  std::string out;
  out.reserve(static_cast<std::size_t>(total));
  for (std::size_t b = 0; b < blocks.size(); ++b)
    out.append(blocks[b].get(), b + 1 == blocks.size() ? in_last : kBlock);
  return out;
}

std::string read_text_file(const std::string& path, const std::string& what) {
  return read_file_bytes(path, what);
}

}  // namespace rnncc
