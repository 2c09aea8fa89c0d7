// A structure-aware mutator for the JSON fuzz targets (issue 25, item 7). libFuzzer's byte
// mutations break a JSON file's syntax or its format's rules almost every time: 0.2 % of the
// mutated circuit files were accepted, so the code behind the readers was rarely reached. A
// target that invokes RNNCC_FUZZ_JSON_MUTATOR() gets libFuzzer's LLVMFuzzerCustomMutator: when
// the input parses as JSON, nine mutations in ten edit the document — a number nudged
// (±1, halved, negated, 0, a boundary), a numeric string given another rational, a string
// replaced by another of the document, an array element dropped or repeated, an object member
// dropped, a value replaced by a copy of another — and write it back; the tenth, and every
// input that is not JSON, gets libFuzzer's own byte mutations (LLVMFuzzerMutate), so the
// readers' syntax errors stay covered. One structured mutation in three starts from an input
// the reader accepted earlier (fuzz_stats.hpp's pool) instead of the given one, so that the
// accepting paths keep being reached once the corpus fills with inputs that exercise only the
// readers' errors. Only under libFuzzer (RNNCC_LIBFUZZER): the corpus replay
// of ordinary builds has no mutator.
#pragma once

#ifdef RNNCC_LIBFUZZER

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rnn/json_cursor.hpp"
#include "tests/fuzz/fuzz_stats.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace rnncc::fuzz {

// Every value of `doc`, parents before children (at most 4096, to 64 levels).
inline void json_nodes(nlohmann::json& v, std::vector<nlohmann::json*>& out, int depth = 0) {
  if (out.size() >= 4096 || depth > 64) return;
  out.push_back(&v);
  if (v.is_structured())
    for (auto& child : v) json_nodes(child, out, depth + 1);
}

// The edited document, written compactly or indented (at random), or nullopt when `text` is not
// JSON; compact when indented would pass `max_size` (libFuzzer's current length limit).
inline std::optional<std::string> mutate_json(std::string_view text, std::mt19937_64& rng,
                                              std::size_t max_size) {
  // Deeper than the readers' limit: left to the byte mutations, since writing such a document
  // back would recurse once per level.
  if (rnncc::json_nesting_offset(text, rnncc::json_depth_limit) < text.size()) return std::nullopt;
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) return std::nullopt;
  std::vector<nlohmann::json*> nodes;
  json_nodes(doc, nodes);
  std::vector<std::string> strings;
  for (const nlohmann::json* n : nodes)
    if (n->is_string()) strings.push_back(n->get<std::string>());
  const int edits = 1 + static_cast<int>(rng() % 4 == 0);
  for (int e = 0; e < edits; ++e) {
    nlohmann::json& v = *nodes[rng() % nodes.size()];
    static const std::int64_t boundary[] = {
        0, 1, -1, 2, 3, 64, 4096, 65536, INT32_MAX, INT32_MIN, -2, INT64_MAX, INT64_MIN + 1};
    switch (rng() % 7) {
      case 0:  // a number nudged or replaced by a boundary
        if (v.is_number_integer()) {
          // Modular arithmetic (C++20 converts back to signed modulo 2^64): no overflow.
          const std::uint64_t x = static_cast<std::uint64_t>(v.get<std::int64_t>());
          const std::int64_t options[] = {static_cast<std::int64_t>(x + 1),
                                          static_cast<std::int64_t>(x - 1),
                                          static_cast<std::int64_t>(x) / 2,
                                          static_cast<std::int64_t>(0 - x),
                                          0,
                                          boundary[rng() % std::size(boundary)]};
          v = options[rng() % std::size(options)];
        } else if (v.is_number()) {
          v = boundary[rng() % std::size(boundary)];
        }
        break;
      case 1:  // a numeric string given another rational
        if (v.is_string()) {
          static const char* const q[] = {"0",     "1",   "-1",         "1/2", "-3/4", "2", "1/3",
                                          "0.125", "7/9", "1000000007", "1/0", "-0",   "x"};
          v = q[rng() % std::size(q)];
        }
        break;
      case 2:  // a string replaced by another of the document
        if (v.is_string() && !strings.empty()) v = strings[rng() % strings.size()];
        break;
      case 3:  // an array element dropped or repeated
        if (v.is_array() && !v.empty()) {
          const std::size_t i = rng() % v.size();
          if (rng() % 2)
            v.erase(i);
          else
            v.insert(v.begin() + static_cast<std::ptrdiff_t>(i), nlohmann::json(v[i]));
        }
        break;
      case 4:  // an object member dropped
        if (v.is_object() && !v.empty()) {
          auto it = v.begin();
          std::advance(it, static_cast<std::ptrdiff_t>(rng() % v.size()));
          v.erase(it);
        }
        break;
      case 5: {  // a value replaced by a copy of another (copied first: it may be inside v)
        nlohmann::json copy = *nodes[rng() % nodes.size()];
        v = std::move(copy);
        break;
      }
      default:  // an integer written as a string, or a numeric string as an integer
        if (v.is_number_integer())
          v = v.dump();
        else if (v.is_string() && !v.get<std::string>().empty() &&
                 v.get<std::string>().find_first_not_of("-0123456789") == std::string::npos &&
                 v.get<std::string>().size() < 18)
          try {
            v = std::stoll(v.get<std::string>());
          } catch (const std::exception&) {  // "-", "--1", out of range: left as it is
          }
        break;
    }
    nodes.clear();
    json_nodes(doc, nodes);  // an edit may have moved or dropped nodes
  }
  if (rng() % 2) {
    std::string indented = doc.dump(1);
    if (indented.size() <= max_size) return indented;
  }
  return doc.dump();
}

// The mutator itself, a function so that the macro below stays one line.
inline std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t max_size,
                          unsigned seed) {
  // RNNCC_FUZZ_BYTE_MUTATIONS set: libFuzzer's mutations alone (to measure what this adds).
  static const bool bytes_only = std::getenv("RNNCC_FUZZ_BYTE_MUTATIONS") != nullptr;
  if (bytes_only) return LLVMFuzzerMutate(data, size, max_size);
  std::mt19937_64 rng(seed);
  const std::vector<std::string>& pool = stats().pool;
  std::string_view from(reinterpret_cast<const char*>(data), size);
  if (!pool.empty() && rng() % 3 == 0) from = pool[rng() % pool.size()];
  if (rng() % 10 != 0) {
    if (const std::optional<std::string> out = mutate_json(from, rng, max_size);
        out && out->size() <= max_size) {
      std::memcpy(data, out->data(), out->size());
      return out->size();
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

}  // namespace rnncc::fuzz

#define RNNCC_FUZZ_JSON_MUTATOR()                                                       \
  extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,  \
                                                 std::size_t max_size, unsigned seed) { \
    return rnncc::fuzz::mutate(data, size, max_size, seed);                             \
  }

#else

#define RNNCC_FUZZ_JSON_MUTATOR()

#endif
