// A JSON value together with its file and RFC 6901 pointer, so that every diagnostic can say
// where it is and what was expected: `m.json: /layers/0/d: expected an integer in 1..4096,
// got the string "2"`. Used by every reader of rnncc's JSON formats.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"

namespace rnncc {

// "the string \"x\"", "an array of 3", "the floating-point number 2.0", … for diagnostics.
std::string describe(const nlohmann::json& v);
std::string escape_pointer(std::string_view token);  // RFC 6901: ~ → ~0, / → ~1

// The exact rational of a JSON value: a string in the grammar of algebra/rational.hpp or a
// JSON integer. Throws InputError naming `where` otherwise (floats are rejected: inexact).
Rational rational_from_json(const nlohmann::json& value, const std::string& where);

// Arrays and objects nest at most this deep in every rnncc JSON format (models need 6 levels):
// deeper input is refused while parsing, before any recursive walk could overflow the stack.
inline constexpr std::size_t json_depth_limit = 64;

// Byte offset of the bracket that opens nesting level `limit + 1` in `text`, or text.size()
// when none does: brackets inside strings do not count, nor a closing bracket with nothing open
// (text need not be JSON). parse_json locates its depth error with it; the fuzz mutator
// (tests/fuzz/json_mutator.hpp) leaves deeper documents to byte mutations.
std::size_t json_nesting_offset(std::string_view text, std::size_t limit);

// Parses JSON text, rejecting duplicate members and nesting deeper than json_depth_limit;
// malformed text is an InputError at source:line:column.
nlohmann::json parse_json(std::string_view text, const std::string& source);
// Reads a whole file ("cannot open", "is a directory" are InputErrors), at most
// max_input_mib() MiB of it: every file reader of rnncc reads through here (and
// read_file_bytes), so a file larger than the limit — /dev/zero, a mistaken 10 GB path — is
// refused before it is held in memory: a regular file by its size, anything else after the
// limit's worth of bytes, with "FILE: the <what> is larger than the input size limit of M MiB
// (raise --max-input or RNNCC_MAX_INPUT_MIB to read it anyway)".
std::string read_text_file(const std::string& path, const std::string& what);
// The same for binary formats (safetensors): the bytes as read.
std::string read_file_bytes(const std::string& path, const std::string& what);

// The input size limit (docs/reliability.md, "Limits"): set_max_input_mib (the CLI's
// --max-input), else the environment variable RNNCC_MAX_INPUT_MIB (a whole number of MiB; an
// unreadable value is ignored), else kDefaultMaxInputMiB. 0 means no limit.
inline constexpr std::uint64_t kDefaultMaxInputMiB = 128;
std::uint64_t max_input_mib();
void set_max_input_mib(std::uint64_t mib);
// The refusal, for a reader that measures a file itself: throws InputError(path, ...) when
// `bytes` passes the limit.
void check_input_size(const std::string& path, const std::string& what, std::uint64_t bytes);

// 1-based line and column (in code points) of byte offset `byte` in `text`.
std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t byte);

class JsonCursor {
 public:
  using json = nlohmann::json;
  JsonCursor(const json& v, std::string source, std::string path)
      : v_(&v), source_(std::move(source)), path_(std::move(path)) {}

  const json& value() const { return *v_; }
  const std::string& path() const { return path_; }
  std::string where() const { return source_ + ": " + (path_.empty() ? "/" : path_); }
  [[noreturn]] void fail(const std::string& expected) const {
    throw InputError(where(), "expected " + expected + ", got " + describe(*v_));
  }
  [[noreturn]] void error(const std::string& what) const { throw InputError(where(), what); }

  JsonCursor child(const std::string& key, const json& v) const {
    return JsonCursor(v, source_, path_ + "/" + escape_pointer(key));
  }
  JsonCursor operator[](std::size_t i) const {
    return JsonCursor((*v_)[i], source_, path_ + "/" + std::to_string(i));
  }

  const json& object() const {
    if (!v_->is_object()) fail("an object");
    return *v_;
  }
  bool has(const std::string& key) const { return object().contains(key); }
  std::optional<JsonCursor> find(const std::string& key) const {
    const json& o = object();
    auto it = o.find(key);
    if (it == o.end()) return std::nullopt;
    return child(key, *it);
  }
  JsonCursor at(const std::string& key) const {
    if (auto n = find(key)) return *n;
    error("expected a member \"" + key + "\"");
  }
  // Rejects members outside `allowed` — a typo must not be ignored silently.
  void only(std::initializer_list<std::string_view> allowed) const {
    for (auto it = object().begin(); it != object().end(); ++it) {
      bool ok = false;
      for (auto a : allowed) ok = ok || a == it.key();
      if (!ok) {
        std::string list;
        for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        child(it.key(), it.value())
            .error("unknown member \"" + it.key() + "\" (expected one of: " + list + ")");
      }
    }
  }
  const json& array() const {
    if (!v_->is_array()) fail("an array");
    return *v_;
  }
  std::string string() const {
    if (!v_->is_string()) fail("a string");
    return v_->get<std::string>();
  }
  std::size_t size_value(std::size_t min, std::size_t max) const {
    if (!v_->is_number_integer() || v_->get<long long>() < static_cast<long long>(min) ||
        v_->get<unsigned long long>() > max)
      fail("an integer in " + std::to_string(min) + ".." + std::to_string(max));
    return v_->get<std::size_t>();
  }
  std::int32_t int32_value() const {
    if (!v_->is_number_integer() || v_->get<long long>() < INT32_MIN ||
        v_->get<long long>() > INT32_MAX)
      fail("a 32-bit integer");
    return v_->get<std::int32_t>();
  }
  // The string member `key`, or `fallback` when absent.
  std::string string_member_or(const std::string& key, const std::string& fallback) const {
    auto n = find(key);
    return n ? n->string() : fallback;
  }
  Rational rational() const { return rational_from_json(*v_, where()); }

  std::vector<Rational> vector(std::size_t n) const {
    const json& a = array();
    if (a.size() != n) fail("a vector of " + std::to_string(n) + (n == 1 ? " entry" : " entries"));
    std::vector<Rational> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back((*this)[i].rational());
    return out;
  }
  Matrix<Rational> matrix(std::size_t rows, std::size_t cols) const {
    const json& a = array();
    auto wrong = [&](std::size_t got_cols) {
      error("expected " + std::to_string(rows) + "×" + std::to_string(cols) + " matrix, got " +
            std::to_string(a.size()) + "×" + std::to_string(got_cols));
    };
    if (!a.empty() && !a[0].is_array())
      error("expected " + std::to_string(rows) + "×" + std::to_string(cols) +
            " matrix (an array of rows), got a flat array of " + std::to_string(a.size()));
    if (a.size() != rows) wrong(a.empty() ? 0 : a[0].size());
    Matrix<Rational> m(rows, cols);
    for (std::size_t i = 0; i < rows; ++i) {
      JsonCursor row = (*this)[i];
      if (!row.value().is_array())
        row.fail("a row (an array of " + std::to_string(cols) + " rationals)");
      if (row.value().size() != cols) wrong(row.value().size());
      for (std::size_t j = 0; j < cols; ++j) m(i, j) = row[j].rational();
    }
    return m;
  }
  // A matrix with `cols` columns and any number ≥ 1 of rows.
  Matrix<Rational> matrix_any_rows(std::size_t cols) const {
    const json& a = array();
    if (a.empty()) fail("a non-empty matrix with " + std::to_string(cols) + " columns");
    return matrix(a.size(), cols);
  }
  // d×1 column given either as a vector or as a d×1 matrix; d×m otherwise.
  Matrix<Rational> state(std::size_t rows, std::size_t cols) const {
    const json& a = array();
    if (cols == 1 && (a.empty() || !a[0].is_array())) {
      std::vector<Rational> v = vector(rows);
      Matrix<Rational> m(rows, 1);
      for (std::size_t i = 0; i < rows; ++i) m(i, 0) = v[i];
      return m;
    }
    return matrix(rows, cols);
  }

 private:
  const json* v_;
  std::string source_, path_;
};

}  // namespace rnncc
