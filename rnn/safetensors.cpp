#include "rnn/safetensors.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "rnn/json_cursor.hpp"

namespace rnncc {

namespace {

using nlohmann::json;

constexpr Dtype all_dtypes[] = {Dtype::F64, Dtype::F32, Dtype::F16, Dtype::BF16, Dtype::I64,
                                Dtype::I32, Dtype::I16, Dtype::I8,  Dtype::U64,  Dtype::U32,
                                Dtype::U16, Dtype::U8,  Dtype::BOOL};

std::string dtype_list() {
  std::string s;
  for (Dtype d : all_dtypes) s += (s.empty() ? "" : ", ") + to_string(d);
  return s;
}

std::uint64_t read_le(const unsigned char* p, std::size_t bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = bytes; i-- > 0;) v = (v << 8) | p[i];
  return v;
}

// A binary floating-point format with `mbits` fraction bits and `ebits` exponent bits (IEEE
// binary16: 10, 5; bfloat16: 7, 8) decoded exactly: every such value is a double.
double decode_binary(std::uint16_t bits, int mbits, int ebits) {
  const bool negative = bits >> (mbits + ebits);
  const unsigned e = (bits >> mbits) & ((1u << ebits) - 1);
  const unsigned m = bits & ((1u << mbits) - 1);
  const int bias = (1 << (ebits - 1)) - 1;
  double v;
  if (e == 0)  // subnormal: m·2^(1 − bias − mbits)
    v = std::ldexp(static_cast<double>(m), 1 - bias - mbits);
  else if (e == (1u << ebits) - 1)
    v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else  // (2^mbits + m)·2^(e − bias − mbits)
    v = std::ldexp(static_cast<double>((1u << mbits) + m), static_cast<int>(e) - bias - mbits);
  return negative ? -v : v;
}

// The nearest value of that format (ties to even), overflowing to ±inf.
std::uint16_t encode_binary(double x, int mbits, int ebits) {
  const std::uint16_t sign = std::signbit(x) ? std::uint16_t(1u << (mbits + ebits)) : 0;
  const unsigned emax_field = (1u << ebits) - 1;
  if (std::isnan(x)) return std::uint16_t(sign | (emax_field << mbits) | (1u << (mbits - 1)));
  const double a = std::fabs(x);
  if (std::isinf(a)) return std::uint16_t(sign | (emax_field << mbits));
  if (a == 0) return sign;
  const int bias = (1 << (ebits - 1)) - 1;
  int e2;
  std::frexp(a, &e2);                  // a = f·2^e2, f ∈ [1/2, 1): ⌊log₂ a⌋ = e2 − 1
  int E = std::max(e2 - 1, 1 - bias);  // the exponent of the value's binade (or emin)
  double q = std::nearbyint(std::ldexp(a, mbits - E));  // the significand, rounded once
  const double top = std::ldexp(1.0, mbits + 1);
  if (q >= top) {  // rounded up to the next binade
    q /= 2;
    ++E;
  }
  const double hidden = std::ldexp(1.0, mbits);
  if (q < hidden) return std::uint16_t(sign | static_cast<unsigned>(q));  // subnormal
  const int field = E + bias;
  if (field >= static_cast<int>(emax_field)) return std::uint16_t(sign | (emax_field << mbits));
  return std::uint16_t(sign | (unsigned(field) << mbits) | static_cast<unsigned>(q - hidden));
}

// Reads entry i of a tensor's bytes as a double; integers beyond 2^53 are refused (a double
// would round them).
double read_entry(const unsigned char* p, Dtype d, const SafeTensorsFile& f,
                  const std::string& name, std::size_t i) {
  constexpr double two53 = 9007199254740992.0;
  auto too_large = [&](const std::string& v) {
    f.fail(name, "entry " + std::to_string(i) + " is " + v +
                     ", beyond 2^53 in magnitude: not exactly a double");
  };
  switch (d) {
    case Dtype::F64:
      return std::bit_cast<double>(read_le(p, 8));
    case Dtype::F32:
      return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(read_le(p, 4))));
    case Dtype::F16:
      return f16_to_double(static_cast<std::uint16_t>(read_le(p, 2)));
    case Dtype::BF16:
      return bf16_to_double(static_cast<std::uint16_t>(read_le(p, 2)));
    case Dtype::I64: {
      const auto v = static_cast<std::int64_t>(read_le(p, 8));
      if (v > 9007199254740992LL || v < -9007199254740992LL) too_large(std::to_string(v));
      return static_cast<double>(v);
    }
    case Dtype::U64: {
      const std::uint64_t v = read_le(p, 8);
      if (static_cast<double>(v) > two53) too_large(std::to_string(v));
      return static_cast<double>(v);
    }
    case Dtype::I32:
      return static_cast<double>(static_cast<std::int32_t>(read_le(p, 4)));
    case Dtype::U32:
      return static_cast<double>(read_le(p, 4));
    case Dtype::I16:
      return static_cast<double>(static_cast<std::int16_t>(read_le(p, 2)));
    case Dtype::U16:
      return static_cast<double>(read_le(p, 2));
    case Dtype::I8:
      return static_cast<double>(static_cast<std::int8_t>(p[0]));
    case Dtype::U8:
      return static_cast<double>(p[0]);
    case Dtype::BOOL:
      if (p[0] > 1)
        f.fail(name, "entry " + std::to_string(i) + ": expected a BOOL byte 0 or 1, got " +
                         std::to_string(p[0]));
      return p[0];
  }
  return 0;
}

struct Entry {
  std::string name;
  Dtype dtype;
  std::vector<std::size_t> shape;
  std::uint64_t begin, end;
};

}  // namespace

std::string to_string(Dtype d) {
  switch (d) {
    case Dtype::F64:
      return "F64";
    case Dtype::F32:
      return "F32";
    case Dtype::F16:
      return "F16";
    case Dtype::BF16:
      return "BF16";
    case Dtype::I64:
      return "I64";
    case Dtype::I32:
      return "I32";
    case Dtype::I16:
      return "I16";
    case Dtype::I8:
      return "I8";
    case Dtype::U64:
      return "U64";
    case Dtype::U32:
      return "U32";
    case Dtype::U16:
      return "U16";
    case Dtype::U8:
      return "U8";
    case Dtype::BOOL:
      return "BOOL";
  }
  return "?";
}

std::optional<Dtype> parse_dtype(std::string_view name) {
  for (Dtype d : all_dtypes)
    if (to_string(d) == name) return d;
  return std::nullopt;
}

std::size_t dtype_size(Dtype d) {
  switch (d) {
    case Dtype::F64:
    case Dtype::I64:
    case Dtype::U64:
      return 8;
    case Dtype::F32:
    case Dtype::I32:
    case Dtype::U32:
      return 4;
    case Dtype::F16:
    case Dtype::BF16:
    case Dtype::I16:
    case Dtype::U16:
      return 2;
    case Dtype::I8:
    case Dtype::U8:
    case Dtype::BOOL:
      return 1;
  }
  return 1;
}

bool is_float(Dtype d) {
  return d == Dtype::F64 || d == Dtype::F32 || d == Dtype::F16 || d == Dtype::BF16;
}

double f16_to_double(std::uint16_t bits) {
  return decode_binary(bits, 10, 5);
}
double bf16_to_double(std::uint16_t bits) {
  return decode_binary(bits, 7, 8);
}
std::uint16_t double_to_f16(double x) {
  return encode_binary(x, 10, 5);
}
std::uint16_t double_to_bf16(double x) {
  return encode_binary(x, 7, 8);
}

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") +
         (shape[i] == SafeTensorsFile::any_dim ? std::string("*") : std::to_string(shape[i]));
  return s + "]";
}

const SafeTensor* SafeTensorsFile::find(std::string_view name) const {
  for (const SafeTensor& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

void SafeTensorsFile::fail(std::string_view name, const std::string& what) const {
  throw InputError(source, "tensor '" + std::string(name) + "': " + what);
}

const SafeTensor* SafeTensorsFile::optional(std::string_view name,
                                            const std::vector<std::size_t>& shape) const {
  const SafeTensor* t = find(name);
  if (!t) return nullptr;
  bool match = t->shape.size() == shape.size();
  for (std::size_t i = 0; match && i < shape.size(); ++i)
    match = shape[i] == any_dim || shape[i] == t->shape[i];
  if (!match) fail(name, "expected shape " + shape_text(shape) + ", got " + shape_text(t->shape));
  if (!is_float(t->dtype))
    fail(name, "expected a float tensor (F64, F32, F16 or BF16) for a parameter, got " +
                   to_string(t->dtype));
  return t;
}

const SafeTensor& SafeTensorsFile::require(std::string_view name,
                                           const std::vector<std::size_t>& shape) const {
  if (const SafeTensor* t = optional(name, shape)) return *t;
  fail(name, "expected shape " + shape_text(shape) + ", not in the file");
}

SafeTensorsFile parse_safetensors(std::string_view bytes, const std::string& source) {
  SafeTensorsFile file;
  file.source = source;
  auto header_error = [&](const std::string& what) { throw InputError(source, "header: " + what); };
  if (bytes.size() > safetensors_max_file_bytes)
    header_error("the file has " + std::to_string(bytes.size()) +
                 " bytes, more than the limit of " + std::to_string(safetensors_max_file_bytes) +
                 " (1 GiB)");
  if (bytes.size() < 8)
    header_error("expected at least 8 bytes (the header length), got " +
                 std::to_string(bytes.size()));
  const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::uint64_t n = read_le(raw, 8);
  if (n > safetensors_max_header_bytes)
    header_error("header length " + std::to_string(n) + " is more than the format's limit of " +
                 std::to_string(safetensors_max_header_bytes) +
                 " bytes: not a safetensors file (8 bytes of header length, then a JSON header)");
  if (n > bytes.size() - 8)
    header_error("header length " + std::to_string(n) + " is more than the " +
                 std::to_string(bytes.size() - 8) + " bytes after it");
  const std::string_view header_text = bytes.substr(8, n);
  if (header_text.empty() || header_text.front() != '{')
    header_error("expected the header to start with '{'");
  const json header = parse_json(header_text, source + ": header");
  if (!header.is_object()) header_error("expected a JSON object, got " + describe(header));
  const std::uint64_t data_size = bytes.size() - 8 - n;
  const auto* data = raw + 8 + n;

  std::vector<Entry> entries;
  for (auto it = header.begin(); it != header.end(); ++it) {
    const std::string& name = it.key();
    const json& v = it.value();
    if (name == "__metadata__") {
      if (!v.is_object()) header_error("expected __metadata__ to be an object of strings");
      for (auto m = v.begin(); m != v.end(); ++m) {
        if (!m.value().is_string())
          header_error("__metadata__: expected \"" + m.key() + "\" to be a string, got " +
                       describe(m.value()));
        file.metadata[m.key()] = m.value().get<std::string>();
      }
      continue;
    }
    if (entries.size() >= safetensors_max_tensors)
      header_error("more than " + std::to_string(safetensors_max_tensors) + " tensors");
    if (!v.is_object() || v.size() != 3 || !v.contains("dtype") || !v.contains("shape") ||
        !v.contains("data_offsets"))
      file.fail(name, "expected an object with exactly dtype, shape and data_offsets, got " +
                          describe(v));
    Entry e{name, Dtype::F64, {}, 0, 0};
    const json& dt = v["dtype"];
    std::optional<Dtype> d = dt.is_string() ? parse_dtype(dt.get<std::string>()) : std::nullopt;
    if (!d) file.fail(name, "expected a dtype among " + dtype_list() + ", got " + describe(dt));
    e.dtype = *d;
    const json& sh = v["shape"];
    if (!sh.is_array() || sh.size() > safetensors_max_rank)
      file.fail(name, "expected a shape of at most " + std::to_string(safetensors_max_rank) +
                          " non-negative integers, got " + describe(sh));
    std::uint64_t count = 1;
    bool overflow = false;
    for (const json& s : sh) {
      if (!s.is_number_unsigned())
        file.fail(name, "expected a shape of non-negative integers, got " + describe(s));
      const auto k = s.get<std::uint64_t>();
      e.shape.push_back(static_cast<std::size_t>(k));
      if (k != 0 && count > safetensors_max_file_bytes / k) overflow = true;
      count *= k;
    }
    const json& off = v["data_offsets"];
    if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() ||
        !off[1].is_number_unsigned())
      file.fail(name, "expected data_offsets [begin, end] (two non-negative integers), got " +
                          describe(off));
    e.begin = off[0].get<std::uint64_t>();
    e.end = off[1].get<std::uint64_t>();
    if (e.begin > e.end || e.end > data_size)
      file.fail(name, "expected data_offsets [begin, end] with begin ≤ end ≤ " +
                          std::to_string(data_size) + " (the data's size), got [" +
                          std::to_string(e.begin) + ", " + std::to_string(e.end) + "]");
    const std::uint64_t want = count * dtype_size(e.dtype);
    if (overflow || want != e.end - e.begin)
      file.fail(name, "expected " +
                          (overflow ? std::string("more bytes than the file holds")
                                    : std::to_string(want) + " bytes") +
                          " (shape " + shape_text(e.shape) + " × " + to_string(e.dtype) + ", " +
                          std::to_string(dtype_size(e.dtype)) + " bytes each), got " +
                          std::to_string(e.end - e.begin));
    entries.push_back(std::move(e));
  }
  // Contiguous cover: sorted by offset, each tensor starts where the previous one ends.
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  std::uint64_t at = 0;
  std::string previous;
  for (const Entry& e : entries) {
    if (e.begin != at)
      file.fail(
          e.name,
          "expected its data to start at byte " + std::to_string(at) +
              (previous.empty() ? " (the first tensor)" : " where tensor '" + previous + "' ends") +
              ", got " + std::to_string(e.begin) +
              (e.begin < at ? " (the tensors overlap)"
                            : " (a hole of " + std::to_string(e.begin - at) + " bytes)"));
    at = e.end;
    previous = e.name;
  }
  if (at != data_size)
    header_error("expected the tensors to cover the " + std::to_string(data_size) +
                 " data bytes, they end at byte " + std::to_string(at) + " (" +
                 std::to_string(data_size - at) + " bytes after them)");
  for (Entry& e : entries) {
    SafeTensor t;
    t.name = std::move(e.name);
    t.dtype = e.dtype;
    t.shape = std::move(e.shape);
    const std::size_t size = dtype_size(t.dtype);
    const std::size_t count = (e.end - e.begin) / size;
    // A tensor of shape [0, …] has no entries; a scalar (shape []) has one.
    t.values.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
      t.values.push_back(read_entry(data + e.begin + i * size, t.dtype, file, t.name, i));
    file.tensors.push_back(std::move(t));
  }
  return file;
}

SafeTensorsFile load_safetensors(const std::string& path) {
  return parse_safetensors(read_file_bytes(path, "safetensors file"), path);
}
std::string safetensors_bytes(const std::vector<TensorToWrite>& tensors,
                              const std::map<std::string, std::string>& metadata) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::string data;
  for (const TensorToWrite& t : tensors) {
    const std::size_t begin = data.size();
    auto put = [&](std::uint64_t bits, std::size_t bytes) {
      for (std::size_t i = 0; i < bytes; ++i) data.push_back(static_cast<char>(bits >> (8 * i)));
    };
    for (double x : t.values) switch (t.dtype) {
        case Dtype::F64:
          put(std::bit_cast<std::uint64_t>(x), 8);
          break;
        case Dtype::F32:
          put(std::bit_cast<std::uint32_t>(static_cast<float>(x)), 4);
          break;
        case Dtype::F16:
          put(double_to_f16(x), 2);
          break;
        case Dtype::BF16:
          put(double_to_bf16(x), 2);
          break;
        default:
          throw std::logic_error("safetensors_bytes: writes float tensors only");
      }
    header[t.name] = {
        {"dtype", to_string(t.dtype)}, {"shape", t.shape}, {"data_offsets", {begin, data.size()}}};
  }
  std::string text = header.dump();
  while (text.size() % 8) text.push_back(' ');
  std::string out;
  const std::uint64_t n = text.size();
  for (std::size_t i = 0; i < 8; ++i) out.push_back(static_cast<char>(n >> (8 * i)));
  return out + text + data;
}

}  // namespace rnncc
