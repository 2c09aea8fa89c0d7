// The safetensors reader (rnn/safetensors.hpp): hand-built byte strings (little-endian, the
// format's own documented header example), every diagnostic, and the exact conversions of the
// 16-bit float formats.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "algebra/error.hpp"
#include "rnn/safetensors.hpp"

using namespace rnncc;

namespace {

// 8-byte little-endian length, then the header text, then the data bytes.
std::string file_of(const std::string& header, const std::string& data) {
  std::string out;
  const std::uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(n >> (8 * i)));
  return out + header + data;
}

std::string le32(float x) {
  const auto b = std::bit_cast<std::uint32_t>(x);
  std::string s;
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>(b >> (8 * i)));
  return s;
}

void expect_error(const std::string& bytes, const std::string& message) {
  CHECK_THROWS_MATCHES(parse_safetensors(bytes, "w.safetensors"), InputError,
                       Catch::Matchers::Message(message));
}

}  // namespace

TEST_CASE("safetensors: the format's documented example header reads", "[rnn][safetensors]") {
  // The README's example: {"TENSOR_NAME": {"dtype": "F16", "shape": [1, 16, 256],
  // "data_offsets": [BEGIN, END]}}: 4096 entries of 2 bytes.
  std::string data;
  for (int i = 0; i < 4096; ++i) {
    const std::uint16_t h = double_to_f16(i / 8.0);
    data.push_back(static_cast<char>(h & 0xff));
    data.push_back(static_cast<char>(h >> 8));
  }
  const std::string header =
      R"({"TENSOR_NAME":{"dtype":"F16","shape":[1,16,256],"data_offsets":[0,8192]},)"
      R"("__metadata__":{"format":"pt"}})";
  const SafeTensorsFile f = parse_safetensors(file_of(header, data), "ex.safetensors");
  REQUIRE(f.tensors.size() == 1);
  const SafeTensor& t = f.tensors[0];
  CHECK(t.name == "TENSOR_NAME");
  CHECK(t.dtype == Dtype::F16);
  CHECK(t.shape == std::vector<std::size_t>{1, 16, 256});
  REQUIRE(t.numel() == 4096);
  CHECK(t.values[0] == 0.0);
  CHECK(t.values[3] == 0.375);
  CHECK(t.values[2047] == 2047 / 8.0);  // 255.875: 11 significant bits, exact in binary16
  CHECK(f.metadata.at("format") == "pt");
  CHECK(&f.require("TENSOR_NAME", {1, 16, SafeTensorsFile::any_dim}) == &t);
}

TEST_CASE("safetensors: little-endian F32 and F64 tensors, in offset order", "[rnn][safetensors]") {
  std::string data = le32(1.5f) + le32(-0.25f);
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(0.1);
  for (int i = 0; i < 8; ++i) data.push_back(static_cast<char>(bits >> (8 * i)));
  // "b" first in the header, "a" first in the data.
  const std::string header = R"({"b":{"dtype":"F64","shape":[],"data_offsets":[8,16]},)"
                             R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}   )";
  const SafeTensorsFile f = parse_safetensors(file_of(header, data), "w");
  REQUIRE(f.tensors.size() == 2);
  CHECK(f.tensors[0].name == "a");
  CHECK(f.tensors[0].values == std::vector<double>{1.5, -0.25});
  CHECK(f.tensors[1].values == std::vector<double>{0.1});  // the same double, bit for bit
  CHECK(f.tensors[1].shape.empty());
}

TEST_CASE("safetensors: integer dtypes read exactly", "[rnn][safetensors]") {
  std::string data;
  data += std::string("\xff\x01", 2);                          // I8: −1, 1
  data += std::string("\xfe\xff", 2);                          // I16: −2
  data += std::string("\x00\x01", 2);                          // U16: 256
  data += std::string("\x01\x00\x00\x00\x00\x00\x00\x00", 8);  // I64: 1
  data += std::string("\x01", 1);                              // BOOL
  data += std::string("\x07", 1);                              // U8
  const std::string header = R"({"i8":{"dtype":"I8","shape":[2],"data_offsets":[0,2]},)"
                             R"("i16":{"dtype":"I16","shape":[1],"data_offsets":[2,4]},)"
                             R"("u16":{"dtype":"U16","shape":[1],"data_offsets":[4,6]},)"
                             R"("i64":{"dtype":"I64","shape":[1],"data_offsets":[6,14]},)"
                             R"("b":{"dtype":"BOOL","shape":[1],"data_offsets":[14,15]},)"
                             R"("u8":{"dtype":"U8","shape":[1],"data_offsets":[15,16]}})";
  const SafeTensorsFile f = parse_safetensors(file_of(header, data), "w");
  CHECK(f.find("i8")->values == std::vector<double>{-1, 1});
  CHECK(f.find("i16")->values == std::vector<double>{-2});
  CHECK(f.find("u16")->values == std::vector<double>{256});
  CHECK(f.find("i64")->values == std::vector<double>{1});
  CHECK(f.find("b")->values == std::vector<double>{1});
  CHECK(f.find("u8")->values == std::vector<double>{7});
  // A parameter must be a float tensor.
  CHECK_THROWS_MATCHES(f.require("i8", {2}), InputError,
                       Catch::Matchers::Message("w: tensor 'i8': expected a float tensor (F64, "
                                                "F32, F16 or BF16) for a parameter, got I8"));
}

TEST_CASE("safetensors: F16 and BF16 convert exactly", "[rnn][safetensors]") {
  CHECK(f16_to_double(0x3c00) == 1.0);
  CHECK(f16_to_double(0xc000) == -2.0);
  CHECK(f16_to_double(0x7bff) == 65504.0);                          // the largest finite
  CHECK(f16_to_double(0x0001) == std::ldexp(1.0, -24));             // the least subnormal
  CHECK(f16_to_double(0x03ff) == std::ldexp(1023.0, -24));          // the largest subnormal
  CHECK(f16_to_double(0x0400) == std::ldexp(1.0, -14));             // the least normal
  CHECK(f16_to_double(0x3555) == std::ldexp(0x155 + 1024.0, -12));  // ≈ 1/3
  CHECK(std::signbit(f16_to_double(0x8000)));
  CHECK(std::isinf(f16_to_double(0x7c00)));
  CHECK(std::isinf(f16_to_double(0xfc00)));
  CHECK(std::isnan(f16_to_double(0x7e00)));
  CHECK(bf16_to_double(0x3f80) == 1.0);
  CHECK(bf16_to_double(0x0001) == std::ldexp(1.0, -133));  // the least subnormal
  CHECK(bf16_to_double(0x4049) == 3.140625);
  CHECK(std::isinf(bf16_to_double(0xff80)));
  CHECK(std::isnan(bf16_to_double(0x7fc1)));
  // BF16 is the top half of a float: decoding agrees with the float for every pattern.
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const float fl = std::bit_cast<float>(b << 16);
    const double d = bf16_to_double(static_cast<std::uint16_t>(b));
    if (std::isnan(fl))
      REQUIRE(std::isnan(d));
    else
      REQUIRE(d == static_cast<double>(fl));
  }
  // Every finite binary16 value round-trips through the writer's rounding.
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const double d = f16_to_double(static_cast<std::uint16_t>(b));
    if (!std::isnan(d)) REQUIRE(double_to_f16(d) == b);
  }
  // Ties go to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
  CHECK(double_to_f16(1.0 + std::ldexp(1.0, -11)) == 0x3c00);
  CHECK(double_to_f16(1.0 + 3 * std::ldexp(1.0, -11)) == 0x3c02);
  CHECK(double_to_f16(65520.0) == 0x7c00);               // rounds past the largest finite: inf
  CHECK(double_to_f16(std::ldexp(1.0, -25)) == 0x0000);  // half the least subnormal: to even 0
  CHECK(double_to_bf16(1.0 + std::ldexp(1.0, -8)) == 0x3f80);
}

TEST_CASE("safetensors: the writer's files read back", "[rnn][safetensors]") {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::vector<TensorToWrite> ts;
  for (Dtype d : {Dtype::F64, Dtype::F32, Dtype::F16, Dtype::BF16}) {
    TensorToWrite t{"w." + to_string(d), {3, 5}, {}, d};
    for (int i = 0; i < 15; ++i) t.values.push_back(normal(rng));
    ts.push_back(t);
  }
  const SafeTensorsFile f = parse_safetensors(safetensors_bytes(ts, {{"k", "v"}}), "w");
  CHECK(f.metadata.at("k") == "v");
  for (const TensorToWrite& t : ts) {
    const SafeTensor& r = f.require(t.name, {3, 5});
    for (std::size_t i = 0; i < 15; ++i) {
      const double x = t.values[i];
      const double want = t.dtype == Dtype::F64   ? x
                          : t.dtype == Dtype::F32 ? static_cast<double>(static_cast<float>(x))
                          : t.dtype == Dtype::F16 ? f16_to_double(double_to_f16(x))
                                                  : bf16_to_double(double_to_bf16(x));
      CHECK(r.values[i] == want);
    }
  }
}

TEST_CASE("safetensors: every header diagnostic", "[rnn][safetensors]") {
  expect_error("abc",
               "w.safetensors: header: expected at least 8 bytes (the header length), got 3");
  expect_error(std::string("\xff\xff\xff\xff\x00\x00\x00\x00", 8) + "{}",
               "w.safetensors: header: header length 4294967295 is more than the format's limit "
               "of 100000000 bytes: not a safetensors file (8 bytes of header length, then a JSON "
               "header)");
  expect_error(std::string("\x10\x00\x00\x00\x00\x00\x00\x00", 8) + "{}",
               "w.safetensors: header: header length 16 is more than the 2 bytes after it");
  expect_error(file_of("[]", ""), "w.safetensors: header: expected the header to start with '{'");
  expect_error(file_of("{\"a\":", ""),
               "w.safetensors: header:1:6: malformed JSON: syntax error while parsing value - "
               "unexpected end of input; expected '[', '{', or a literal");
  expect_error(file_of(R"({"a":{"dtype":"F32","shape":[],"data_offsets":[0,4]},"a":1})", "1234"),
               "w.safetensors: header: /a: duplicate member \"a\"");
  expect_error(file_of(R"({"__metadata__":[]})", ""),
               "w.safetensors: header: expected __metadata__ to be an object of strings");
  expect_error(file_of(R"({"__metadata__":{"x":1}})", ""),
               "w.safetensors: header: __metadata__: expected \"x\" to be a string, got the "
               "number 1");
  expect_error(file_of(R"({})", "ab"),
               "w.safetensors: header: expected the tensors to cover the 2 data bytes, they end "
               "at byte 0 (2 bytes after them)");
}

TEST_CASE("safetensors: every tensor diagnostic", "[rnn][safetensors]") {
  auto one = [](const std::string& entry, const std::string& data) {
    return file_of(R"({"t":)" + entry + "}", data);
  };
  expect_error(one("1", ""),
               "w.safetensors: tensor 't': expected an object with exactly dtype, shape and "
               "data_offsets, got the number 1");
  expect_error(one(R"({"dtype":"F32","shape":[],"data_offsets":[0,4],"x":0})", "1234"),
               "w.safetensors: tensor 't': expected an object with exactly dtype, shape and "
               "data_offsets, got an object");
  expect_error(one(R"({"dtype":"F8_E4M3","shape":[],"data_offsets":[0,1]})", "1"),
               "w.safetensors: tensor 't': expected a dtype among F64, F32, F16, BF16, I64, I32, "
               "I16, I8, U64, U32, U16, U8, BOOL, got the string \"F8_E4M3\"");
  expect_error(one(R"({"dtype":"F32","shape":[1,1,1,1,1,1,1,1,1],"data_offsets":[0,4]})", "1234"),
               "w.safetensors: tensor 't': expected a shape of at most 8 non-negative integers, "
               "got an array of 9");
  expect_error(one(R"({"dtype":"F32","shape":[-1],"data_offsets":[0,4]})", "1234"),
               "w.safetensors: tensor 't': expected a shape of non-negative integers, got "
               "the number -1");
  expect_error(one(R"({"dtype":"F32","shape":[1],"data_offsets":[0]})", "1234"),
               "w.safetensors: tensor 't': expected data_offsets [begin, end] (two non-negative "
               "integers), got an array of 1");
  expect_error(one(R"({"dtype":"F32","shape":[1],"data_offsets":[0,8]})", "1234"),
               "w.safetensors: tensor 't': expected data_offsets [begin, end] with begin ≤ end ≤ "
               "4 (the data's size), got [0, 8]");
  expect_error(one(R"({"dtype":"F32","shape":[3],"data_offsets":[0,4]})", "1234"),
               "w.safetensors: tensor 't': expected 12 bytes (shape [3] × F32, 4 bytes each), "
               "got 4");
  expect_error(
      one(R"({"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]})", "1234"),
      "w.safetensors: tensor 't': expected more bytes than the file holds (shape [4294967296, "
      "4294967296] × F32, 4 bytes each), got 4");
  expect_error(one(R"({"dtype":"BOOL","shape":[1],"data_offsets":[0,1]})", "\x02"),
               "w.safetensors: tensor 't': entry 0: expected a BOOL byte 0 or 1, got 2");
  expect_error(one(R"({"dtype":"I64","shape":[1],"data_offsets":[0,8]})",
                   std::string("\x01\x00\x00\x00\x00\x00\x20\x00", 8)),
               "w.safetensors: tensor 't': entry 0 is 9007199254740993, beyond 2^53 in "
               "magnitude: not exactly a double");
  // Overlap and holes.
  expect_error(file_of(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                       R"("b":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}})",
                       "123456"),
               "w.safetensors: tensor 'b': expected its data to start at byte 4 where tensor 'a' "
               "ends, got 2 (the tensors overlap)");
  expect_error(file_of(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}})", "123456"),
               "w.safetensors: tensor 'a': expected its data to start at byte 0 (the first "
               "tensor), got 2 (a hole of 2 bytes)");
  // Missing and mis-shaped tensors, as the importers ask for them.
  const SafeTensorsFile f = parse_safetensors(
      one(R"({"dtype":"F32","shape":[1],"data_offsets":[0,4]})", le32(2.0f)), "w.safetensors");
  CHECK_THROWS_MATCHES(f.require("u", {2, 3}), InputError,
                       Catch::Matchers::Message(
                           "w.safetensors: tensor 'u': expected shape [2, 3], not in the file"));
  CHECK_THROWS_MATCHES(
      f.require("t", {2}), InputError,
      Catch::Matchers::Message("w.safetensors: tensor 't': expected shape [2], got [1]"));
  CHECK(f.optional("u", {2}) == nullptr);
}

TEST_CASE("safetensors: unreadable files", "[rnn][safetensors]") {
  CHECK_THROWS_MATCHES(
      load_safetensors("/nonexistent/w.safetensors"), InputError,
      Catch::Matchers::Message("/nonexistent/w.safetensors: cannot open the safetensors file"));
  CHECK_THROWS_MATCHES(load_safetensors("/tmp"), InputError,
                       Catch::Matchers::Message("/tmp: is a directory, not a safetensors file"));
}
