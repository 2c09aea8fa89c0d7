// Exhaustive checks of nonlinear and hybrid constructions by prefix sharing (issue 26, item 4):
// every string of Σ^L through the model itself — Elman ReLU/sign layers, LRNN layers of any
// family, unique-hard attention layers whose key–value state is the stack of the prefix's
// frames — depth first over the trie of strings, so each prefix's frame is computed once
// (verify/model_walk.hpp has the walk and the math). Where verify/prefix_check.hpp needs X linear
// and f a WFA, this needs X with integer parameters and f one of the tasks the walk defines
// (Spec: selective copying, associative recall); it is exact — 64-bit integers with every
// multiplication and addition checked, a string whose values overflow is counted, reported and
// not compared, never passed.
//
// Exact, not sampled: the leaf compares y_L[out_row][out_col] with f(w) as integers, and skips
// (counts) strings outside f's promise, like the CPU checker (verify/verify.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "constructions/construction.hpp"
#include "verify/device_check.hpp"
#include "verify/model_walk.hpp"

namespace rnncc {

// The method, as the reports state it.
inline constexpr const char* kModelWalkMethod =
    "exhaustive by prefix sharing through the model's layers (integer parameters, checked 64-bit "
    "arithmetic; attention reads the prefix's key–value frames)";

struct ModelWalkSubject {
  mwalk::Tables tables;  // tables.P points into parameters (fix_pointer after a copy)
  std::vector<std::int64_t> parameters;
  std::string spec;  // "selective-copy", "assoc-recall"
  void fix_pointer() { tables.P = parameters.data(); }
};

// The subject for c, or std::nullopt with the reason in *why: a parameter that is not an
// integer or does not fit 63 bits, a layer kind the walk does not take (LSTM, averaging or
// softmax attention), a vector wider than mwalk::kMaxVector, more than mwalk::kMaxLayers
// layers, encode not the identity, a modulus, or f not one of the walk's tasks.
std::optional<ModelWalkSubject> model_walk_subject(const Construction& c,
                                                   std::string* why = nullptr);

struct ModelWalkOptions {
  std::size_t length = 1;
  std::uint64_t first = 0;  // a slice of Σ^L in lexicographic order: [first, first + count)
  std::uint64_t count = 0;  // 0 = to the end
  CheckDevice device = CheckDevice::cpu;
  unsigned cpu_threads = 0;         // 0: std::thread::hardware_concurrency()
  std::uint32_t gpu_threads = 128;  // GPU block size
  std::uint32_t suffix_depth = 0;   // strings per task or GPU thread = |Σ|^s (0: chosen)
  bool plain = false;               // the plain twin: every string from scratch (CPU, one thread)
};

// Whether the walk takes the subject at this length on this device, else why (length 0 or over
// mwalk::kMaxLength; on the GPU, parameters over the constant memory).
std::optional<std::string> model_walk_not_applicable(const ModelWalkSubject& s, std::size_t length,
                                                     CheckDevice device = CheckDevice::cpu);

// The suffix depth s the walk uses: `asked` if nonzero, else the device's choice (|Σ|^s ≈ 2^16
// strings a CPU task, 2^10 a GPU thread); at most L − 1. Each task starts from frame 0, so its
// first string takes L steps and each later one L − t + 1 (t: the lowest changed position): the
// step count depends on s, and a GPU and a CPU run count the same steps only at the same s.
std::uint32_t model_walk_suffix_depth(std::uint64_t symbols, std::size_t length, CheckDevice device,
                                      std::uint32_t asked = 0);

// Every core (or every GPU thread, verify/cuda/model_walk_gpu.hpp) walks tasks of |Σ|^s aligned
// strings (or, with `plain`, one thread checks string by string). Throws InputError for length
// 0, a slice past the end, |Σ|^L > 2^62 or when model_walk_not_applicable; gpu::GpuError from the
// device. The report's `strings` counts every string of the slice; `skipped`
// those outside f's promise, `overflowed` those not compared (exact is false when there are
// any), `gates` the frame words, `steps` the model steps (which depend on the suffix depth).
DeviceCheckReport model_walk_check(const ModelWalkSubject& s, const ModelWalkOptions& options);

}  // namespace rnncc
