// The wide CPU evaluator: the device program (circuits/eval/program.hpp) run on the CPU with a
// block of B 64-bit words per slot (B = 8..64: 512..4096 patterns per instruction), each
// instruction executed over the whole block with the compiler's vector extensions, so one
// instruction of the program costs a few AVX-512 (or AVX2, or SSE2) operations per 8 (4, 2)
// words instead of one dispatch per word (issue 15, item 2).
//
//   - dispatch: the block kernel is compiled three times from one template, for AVX-512
//     (target("avx512f,…")), AVX2 and the generic baseline; the best the CPU supports is chosen
//     once with __builtin_cpu_supports (or forced, for tests). A binary built here runs on a
//     machine without AVX-512;
//   - cache blocking: a thread's slot file is (slots + spill slots + 2 constants) cells of B words;
//     wide_program_options lowers with slot_capacity = (3/4 of the per-core L2, from sysfs) /
//     (8·B), so the slots of one block stay in L2; spilled values live past them in the same
//     per-thread array (L3). choose_block_words then takes the largest B ≤ 256 whose slot file fits
//     L2: larger blocks amortise the per-instruction dispatch and overlap the dependency chains of
//     consecutive instructions (measured by bench/cpu_eval: B = 8 → 256 is 6e10 → 5e11 gate
//     evaluations/s on EPFL multiplier, one core);
//   - threads: the pattern words are cut into blocks of B words; threads take blocks from an
//     atomic counter, each with its own slot file and digest, merged at the end;
//   - semantics: the same pattern generation (patterns::bool_word) and the same digest as
//     run_program (ones, mismatches, first_mismatch(es), stored), bit for bit.
// Boolean programs (threshold instructions through the bit-sliced counter of
// circuits/eval/gate_ops.hpp, vectorised) and arithmetic programs: 2B lanes of 32-bit residues per
// cell, the program once per prime per block with algebra/mont31.hpp's functions (lane loops the
// compiler vectorises, 16 lanes per AVX-512 operation), the same sums, stored residues and
// mismatches as run_program. The float shadow (RunOptions::magnitude) runs on run_program itself.
#pragma once

#include <cstdint>
#include <string>

#include "algebra/progress.hpp"
#include "circuits/eval/program.hpp"

namespace rnncc {

enum class WideIsa { automatic, generic, avx2, avx512 };
std::string to_string(WideIsa isa);

// The best instruction set this CPU runs (checked once).
WideIsa best_wide_isa();
bool wide_isa_supported(WideIsa isa);

struct WideOptions {
  unsigned threads = 0;  // 0 = all cores
  WideIsa isa = WideIsa::automatic;
  std::uint32_t block_words = 0;  // 8, 16, …, 256 words per slot; 0 = choose_block_words
  // Patterns done, reported to the caller's current task (a ProgressTask it began with the
  // pattern count) every 64 blocks per thread; never begins or ends a task itself.
  Progress* progress = nullptr;
};

// Per-core L2 bytes (sysfs, else sysconf, else 1 MiB).
std::size_t l2_cache_bytes();

// Lowering options for the wide evaluator with B words per slot: the slot file of one block
// (slot_capacity · B · 8 bytes) fills at most 3/4 of L2.
ProgramOptions wide_program_options(std::uint32_t block_words);

// B for a program and a run: the largest of 256, 128, …, 8 whose slot file of on-chip slots
// ((slots + 2) · B · 8 bytes) fits L2, halved while there are fewer than 4 blocks per thread.
inline constexpr std::uint32_t kMaxBlockWords = 256;
std::uint32_t choose_block_words(const Program& p, std::uint64_t patterns, unsigned threads);

// Throws std::invalid_argument for a block size other than 8, 16, …, 256, an instruction set the
// CPU lacks, an arithmetic program without primes or with a prime dividing a denominator.
ProgramResult run_program_wide(const Program& p, const RunOptions& options,
                               const WideOptions& wide = {});

}  // namespace rnncc
