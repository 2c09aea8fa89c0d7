#include "constructions/generators_file.hpp"

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "rnn/file_kind.hpp"
#include "rnn/json_cursor.hpp"

namespace rnncc {

namespace {

constexpr const char* kFormat = "rnncc-generators";

// One entry: a JSON integer or a rational string; "p/0" gets its own diagnostic (the rational
// grammar refuses it, and "not a rational" would hide why).
Rational entry(const JsonCursor& e) {
  if (e.value().is_string()) {
    const std::string s = e.value().get<std::string>();
    const std::size_t slash = s.find('/');
    if (slash != std::string::npos) {
      const std::string den = s.substr(slash + 1);
      if (!den.empty() && den.find_first_not_of('0') == std::string::npos &&
          try_parse_rational(s.substr(0, slash)))
        e.error("zero denominator in \"" + s + "\"");
    }
  }
  return e.rational();
}

}  // namespace

static std::vector<Matrix3> parse_generators_unchecked(std::string_view text,
                                                       const std::string& source) {
  const nlohmann::json doc = parse_json(text, source);
  const JsonCursor root(doc, source, "");
  root.object();
  root.only({"format", "description", "matrices"});
  const JsonCursor format = root.at("format");
  if (!format.value().is_string() || format.value().get<std::string>() != kFormat)
    format.fail("\"" + std::string(kFormat) + "\"");
  if (auto d = root.find("description")) (void)d->string();
  const JsonCursor list = root.at("matrices");
  const nlohmann::json& a = list.array();
  if (a.empty()) list.error("expected at least one matrix, got an empty array");
  if (a.size() > max_generators)
    list.error("expected at most " + std::to_string(max_generators) + " matrices, got " +
               std::to_string(a.size()) +
               " (the matmul3 model has up to 18 symbols per generator)");
  std::vector<Matrix3> out;
  for (std::size_t g = 0; g < a.size(); ++g) {
    const JsonCursor m = list[g];
    if (!m.value().is_array()) m.fail("a 3×3 matrix (an array of 3 rows)");
    if (m.value().size() != 3) m.error("expected 3 rows, got " + std::to_string(m.value().size()));
    Matrix3 x;
    for (std::size_t r = 0; r < 3; ++r) {
      const JsonCursor row = m[r];
      if (!row.value().is_array()) row.fail("a row (an array of 3 entries)");
      if (row.value().size() != 3)
        row.error("expected 3 entries, got " + std::to_string(row.value().size()));
      for (std::size_t k = 0; k < 3; ++k) x[3 * r + k] = entry(row[k]);
    }
    out.push_back(std::move(x));
  }
  return out;
}

std::vector<Matrix3> parse_generators(std::string_view text, const std::string& source) {
  return parse_as_kind(text, source, {FileKind::generators},
                       [&] { return parse_generators_unchecked(text, source); });
}

std::vector<Matrix3> load_generators(const std::string& path) {
  return parse_generators(read_text_file(path, "generators file"), path);
}

std::string generators_to_json(const std::vector<Matrix3>& matrices) {
  nlohmann::ordered_json doc;
  doc["format"] = kFormat;
  doc["matrices"] = nlohmann::ordered_json::array();
  for (const Matrix3& m : matrices) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (std::size_t r = 0; r < 3; ++r) {
      nlohmann::ordered_json row = nlohmann::ordered_json::array();
      for (std::size_t k = 0; k < 3; ++k) row.push_back(to_string(m[3 * r + k]));
      rows.push_back(std::move(row));
    }
    doc["matrices"].push_back(std::move(rows));
  }
  return doc.dump() + "\n";
}

}  // namespace rnncc
