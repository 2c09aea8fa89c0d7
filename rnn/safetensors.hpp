// The safetensors checkpoint format, read with diagnostics (docs/import.md, "The file format"):
//
//     [8 bytes: N, unsigned little-endian] [N bytes: a JSON object, the header] [tensor bytes]
//     header := { NAME: {"dtype": D, "shape": [s₁, …], "data_offsets": [begin, end]}, …,
//                 "__metadata__": {KEY: "text", …} (optional) }
//
// Offsets are relative to the byte after the header; a tensor's bytes are its entries in
// row-major order, little-endian. Every check the format states is made: the header fits the
// file, offsets lie in the data, tensors do not overlap and cover the data with no hole (so a
// file is one reading, never a polyglot), shape product × dtype size = end − begin, the dtype
// is known, no name is repeated. Values are converted exactly to double (F64, F32, F16, BF16
// are all subsets of double; integers up to 2^53 in magnitude); an integer beyond 2^53 is
// refused. Non-finite floats are kept (inf, nan): the importer refuses them where a parameter is
// needed (rnn/float_params.hpp).
//
// Diagnostics name the file and the tensor or the header part:
//     w.safetensors: tensor 'lm_head.weight': expected 8 bytes (shape [2] × F32), got 12
//     w.safetensors: header: expected a JSON object, got an array
// and are InputErrors (the CLI's exit 2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rnncc {

// Limits a file may ask for (docs/import.md): the file itself, its header, and its tensors.
inline constexpr std::uint64_t safetensors_max_file_bytes = std::uint64_t{1} << 30;  // 1 GiB
inline constexpr std::uint64_t safetensors_max_header_bytes = 100'000'000;  // the format's cap
inline constexpr std::size_t safetensors_max_tensors = 1 << 16;
inline constexpr std::size_t safetensors_max_rank = 8;

enum class Dtype { F64, F32, F16, BF16, I64, I32, I16, I8, U64, U32, U16, U8, BOOL };
std::string to_string(Dtype d);  // "F64", "BF16", …
std::optional<Dtype> parse_dtype(std::string_view name);
std::size_t dtype_size(Dtype d);  // bytes per entry
bool is_float(Dtype d);

struct SafeTensor {
  std::string name;
  Dtype dtype = Dtype::F64;
  std::vector<std::size_t> shape;  // [] is a scalar (one entry)
  std::vector<double> values;      // row-major, converted exactly
  std::size_t numel() const { return values.size(); }
};

// "[3, 4]"
std::string shape_text(const std::vector<std::size_t>& shape);

struct SafeTensorsFile {
  std::string source;                           // the file name diagnostics give
  std::vector<SafeTensor> tensors;              // in the order of their data offsets
  std::map<std::string, std::string> metadata;  // "__metadata__"

  const SafeTensor* find(std::string_view name) const;
  // The tensor `name`, required: InputError "source: tensor 'name': expected shape [..], got
  // [..]" when missing (", not in the file") or mis-shaped, or when its dtype is not a float
  // dtype (a parameter is a float). Shape entries of `any_dim` match any size.
  static constexpr std::size_t any_dim = static_cast<std::size_t>(-1);
  const SafeTensor& require(std::string_view name, const std::vector<std::size_t>& shape) const;
  // The same for a tensor that may be absent.
  const SafeTensor* optional(std::string_view name, const std::vector<std::size_t>& shape) const;
  // source: tensor 'name': <what> — for the importers' refusals.
  [[noreturn]] void fail(std::string_view name, const std::string& what) const;
};

// Parses the bytes of a file; `source` names it in diagnostics. Throws InputError.
SafeTensorsFile parse_safetensors(std::string_view bytes, const std::string& source);
// Reads a file through read_file_bytes (rnn/json_cursor.hpp: the input size limit of every
// reader; the format itself stops at safetensors_max_file_bytes) and parses it. Throws InputError.
SafeTensorsFile load_safetensors(const std::string& path);

// The writer tests and examples use: F64 or F32 tensors (values rounded to float for F32), in
// the given order, offsets contiguous, the header padded with spaces to a multiple of 8 bytes.
struct TensorToWrite {
  std::string name;
  std::vector<std::size_t> shape;
  std::vector<double> values;
  Dtype dtype = Dtype::F64;  // F64, F32, F16 (rounded to nearest even), BF16 (the same)
};
std::string safetensors_bytes(const std::vector<TensorToWrite>& tensors,
                              const std::map<std::string, std::string>& metadata = {});

// Exact conversions of the 16-bit float formats (IEEE binary16 and bfloat16) to double, and
// nearest-even roundings the other way (the writer's).
double f16_to_double(std::uint16_t bits);
double bf16_to_double(std::uint16_t bits);
std::uint16_t double_to_f16(double x);
std::uint16_t double_to_bf16(double x);

}  // namespace rnncc
