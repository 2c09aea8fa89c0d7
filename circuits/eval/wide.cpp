#include "circuits/eval/wide.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>

#include "algebra/modp_ops.hpp"

#include <unistd.h>

namespace rnncc {

std::string to_string(WideIsa isa) {
  switch (isa) {
    case WideIsa::generic:
      return "generic";
    case WideIsa::avx2:
      return "avx2";
    case WideIsa::avx512:
      return "avx512";
    default:
      return "automatic";
  }
}

#if defined(__x86_64__) || defined(__i386__)
#define RNNCC_WIDE_X86 1
#else
#define RNNCC_WIDE_X86 0
#endif

bool wide_isa_supported(WideIsa isa) {
  switch (isa) {
    case WideIsa::automatic:
    case WideIsa::generic:
      return true;
#if RNNCC_WIDE_X86
    case WideIsa::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    case WideIsa::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("popcnt");
#endif
    default:
      return false;
  }
}

WideIsa best_wide_isa() {
  static const WideIsa best = wide_isa_supported(WideIsa::avx512) ? WideIsa::avx512
                              : wide_isa_supported(WideIsa::avx2) ? WideIsa::avx2
                                                                  : WideIsa::generic;
  return best;
}

std::size_t l2_cache_bytes() {
  static const std::size_t bytes = [] {
    std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index2/size");
    std::string s;
    if (f >> s && !s.empty()) {
      std::size_t n = std::strtoull(s.c_str(), nullptr, 10);
      const char unit = s.back();
      if (unit == 'K') n <<= 10;
      if (unit == 'M') n <<= 20;
      if (n >= (64u << 10)) return n;
    }
#ifdef _SC_LEVEL2_CACHE_SIZE
    const long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (v >= (64 << 10)) return static_cast<std::size_t>(v);
#endif
    return std::size_t{1} << 20;
  }();
  return bytes;
}

namespace {

std::size_t slot_budget_bytes() {
  return l2_cache_bytes() / 4 * 3;
}

bool valid_block(std::uint32_t b) {
  return b == 8 || b == 16 || b == 32 || b == 64 || b == 128 || b == 256;
}

}  // namespace

ProgramOptions wide_program_options(std::uint32_t block_words) {
  if (!valid_block(block_words))
    throw std::invalid_argument("wide block of " + std::to_string(block_words) +
                                " words: expected 8, 16, 32, 64, 128 or 256");
  ProgramOptions po;
  const std::size_t cells = slot_budget_bytes() / (8 * std::size_t{block_words});
  po.slot_capacity =
      static_cast<std::uint32_t>(std::max<std::size_t>(cells, 3) - 2);  // 2: constants
  return po;
}

std::uint32_t choose_block_words(const Program& p, std::uint64_t patterns, unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t cells = std::size_t{p.slots} + 2;
  std::uint32_t b = kMaxBlockWords;
  while (b > 8 && cells * b * 8 > l2_cache_bytes()) b /= 2;
  const std::uint64_t words = (patterns + 63) / 64;
  while (b > 8 && words < std::uint64_t{4} * threads * b) b /= 2;
  return b;
}

namespace {

// ---- the pre-decoded program -------------------------------------------------------------------
//
// Every location becomes a cell index of the thread's slot file: slots, then spill slots, then the
// constants 0 and 1 (filled once). Gates become one of two kernels: and2 with three inversion
// masks (or2 by De Morgan: a ∨ b = ¬(¬a ∧ ¬b), so every flag flips), xor2 with one (the three
// folded together). The masks are 0 or all ones, applied branch-free, so the one frequent case
// (an AIG's and) never mispredicts on the flags.

enum Kind : std::uint8_t { k_and, k_xor, k_input, k_copy, k_output, k_compare, k_thr };

struct Op {
  std::uint8_t kind;
  std::uint8_t ia, ib, io;  // 0 or 1: inversion of a, b, result (k_and); io only for k_xor
  std::uint32_t d, a, b;    // cells (input: b = input index; output/compare: b = output/pair)
};

struct Decoded {
  std::vector<Op> code;
  std::vector<std::uint32_t> thr_cells;  // parallel to Program::aux: the k locations as cells
  std::uint32_t cells = 0, zero = 0, max_planes = 0;
};

Decoded decode(const Program& p) {
  Decoded dp;
  dp.zero = p.slots + p.spill_slots;
  dp.cells = dp.zero + 2;
  dp.max_planes = std::max<std::uint32_t>(p.max_threshold_planes, 1);
  auto cell = [&](std::uint32_t loc) -> std::uint32_t {
    switch (loc_kind(loc)) {
      case LocKind::slot:
        return loc_index(loc);
      case LocKind::spill:
        return p.slots + loc_index(loc);
      default:
        return dp.zero + (loc_index(loc) ? 1 : 0);
    }
  };
  dp.thr_cells.assign(p.aux.size(), 0);
  dp.code.reserve(p.code.size());
  for (const Instr& in : p.code) {
    Op op{};
    const std::uint8_t ia = in.op_flags & kInvA ? 1 : 0, ib = in.op_flags & kInvB ? 1 : 0,
                       io = in.op_flags & kInvOut ? 1 : 0;
    switch (in.op()) {
      case ProgOp::input:
        op = {k_input, 0, 0, 0, cell(in.d), 0, in.b};
        break;
      case ProgOp::spill:
        op = {k_copy, 0, 0, 0, cell(in.d), cell(in.a), 0};
        break;
      case ProgOp::output:
        op = {k_output, ia, 0, 0, 0, cell(in.a), in.b};
        break;
      case ProgOp::compare:
        op = {k_compare, ia, ib, 0, cell(in.d), cell(in.a), in.b};
        break;
      case ProgOp::and2:
        op = {k_and, ia, ib, io, cell(in.d), cell(in.a), cell(in.b)};
        break;
      case ProgOp::or2:
        op = {k_and,
              static_cast<std::uint8_t>(ia ^ 1),
              static_cast<std::uint8_t>(ib ^ 1),
              static_cast<std::uint8_t>(io ^ 1),
              cell(in.d),
              cell(in.a),
              cell(in.b)};
        break;
      case ProgOp::xor2:
        op = {k_xor,      0,          0,         static_cast<std::uint8_t>(ia ^ ib ^ io),
              cell(in.d), cell(in.a), cell(in.b)};
        break;
      case ProgOp::thr: {
        op = {k_thr, 0, 0, 0, cell(in.d), in.a, in.b};
        for (std::uint32_t i = 0; i < in.b; ++i)
          dp.thr_cells[in.a + i] = cell(static_cast<std::uint32_t>(p.aux[in.a + i]));
        break;
      }
      default:
        throw std::invalid_argument("the wide evaluator runs boolean programs only (" +
                                    to_string(in.op()) + ")");
    }
    dp.code.push_back(op);
  }
  return dp;
}

// What one thread accumulates (merged at the end).
struct Digest {
  std::vector<std::uint64_t> ones, mismatches, firsts;
  std::optional<std::uint64_t> first;
};

void note_mismatch(Digest& r, std::size_t cap, std::uint64_t pattern) {
  if (!r.first || pattern < *r.first) r.first = pattern;
  auto& f = r.firsts;
  if (std::find(f.begin(), f.end(), pattern) != f.end()) return;
  f.insert(std::upper_bound(f.begin(), f.end(), pattern), pattern);
  if (f.size() > cap) f.pop_back();
}

// Runs work(0 .. n−1), on n threads when n > 1; rethrows the first exception.
template <class F>
void run_threads(unsigned n, F&& work) {
  if (n == 1) {
    work(0u);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(n);
  for (unsigned i = 0; i < n; ++i)
    pool.emplace_back([&, i] {
      try {
        work(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// Mismatch counts summed; the smallest first mismatches over all threads (the twin keeps the
// smallest max_first_mismatches of them, sorted).
void merge_mismatches(ProgramResult& r, const std::vector<Digest>& digests, std::size_t cap) {
  for (const Digest& g : digests) {
    for (std::size_t q = 0; q < r.mismatches.size(); ++q) r.mismatches[q] += g.mismatches[q];
    if (g.first && (!r.first_mismatch || *g.first < *r.first_mismatch)) r.first_mismatch = g.first;
    r.first_mismatches.insert(r.first_mismatches.end(), g.firsts.begin(), g.firsts.end());
  }
  std::sort(r.first_mismatches.begin(), r.first_mismatches.end());
  r.first_mismatches.erase(std::unique(r.first_mismatches.begin(), r.first_mismatches.end()),
                           r.first_mismatches.end());
  if (r.first_mismatches.size() > cap) r.first_mismatches.resize(cap);
}

struct Shared {
  const Program* p;
  const Decoded* dp;
  const RunOptions* o;
  std::uint64_t words, first_word;
  std::uint64_t* stored;  // [word][output] or null
};

struct Thread {
  std::uint64_t* cell;     // cells × B words, 64-byte aligned
  std::uint64_t* planes;   // max_planes × B words
  std::uint64_t* scratch;  // B words: lane masks of the block
  Digest digest;
};

#define RNNCC_INLINE __attribute__((always_inline)) inline

// One instruction over a block of B words, L words per vector. V: a GCC/clang vector of L words.
template <class V, unsigned B>
struct Kernel {
  static constexpr unsigned L = sizeof(V) / 8;
  static_assert(B % L == 0);

  static RNNCC_INLINE V load(const std::uint64_t* p) {
    V v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
  }
  static RNNCC_INLINE void store(std::uint64_t* p, V v) { __builtin_memcpy(p, &v, sizeof v); }
  static RNNCC_INLINE V splat(std::uint64_t x) {
    V v;
    for (unsigned i = 0; i < L; ++i) v[i] = x;
    return v;
  }

  static RNNCC_INLINE void run_block(const Shared& s, Thread& t, std::uint64_t block) {
    const Decoded& dp = *s.dp;
    const RunOptions& o = *s.o;
    std::uint64_t* cell = t.cell;
    const std::uint64_t w0 = block * B;  // first word of the block (relative to the run)
    // Lane masks: patterns past count (and words past the run) are masked out of the digest.
    std::uint64_t* mask = t.scratch;
    for (unsigned w = 0; w < B; ++w) {
      const std::uint64_t word = w0 + w;
      if (word >= s.words) {
        mask[w] = 0;
        continue;
      }
      const std::uint64_t valid = o.patterns.count - 64 * word;
      mask[w] = valid >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid) - 1;
    }
    for (const Op& in : dp.code) {
      std::uint64_t* d = cell + std::size_t{in.d} * B;
      const std::uint64_t* a = cell + std::size_t{in.a} * B;
      switch (in.kind) {
        case k_and: {
          const std::uint64_t* b = cell + std::size_t{in.b} * B;
          const V ia = splat(0 - std::uint64_t{in.ia}), ib = splat(0 - std::uint64_t{in.ib}),
                  io = splat(0 - std::uint64_t{in.io});
          for (unsigned v = 0; v < B; v += L)
            store(d + v, ((load(a + v) ^ ia) & (load(b + v) ^ ib)) ^ io);
          break;
        }
        case k_xor: {
          const std::uint64_t* b = cell + std::size_t{in.b} * B;
          const V io = splat(0 - std::uint64_t{in.io});
          for (unsigned v = 0; v < B; v += L) store(d + v, load(a + v) ^ load(b + v) ^ io);
          break;
        }
        case k_input:
          for (unsigned w = 0; w < B; ++w)
            d[w] = patterns::bool_word(o.patterns, s.first_word + w0 + w, in.b);
          break;
        case k_copy:
          for (unsigned v = 0; v < B; v += L) store(d + v, load(a + v));
          break;
        case k_output: {
          const std::uint64_t inv = 0 - std::uint64_t{in.ia};
          std::uint64_t n = 0;
          for (unsigned w = 0; w < B; ++w) n += std::popcount((a[w] ^ inv) & mask[w]);
          t.digest.ones[in.b] += n;
          if (s.stored) {
            const std::uint64_t outs = s.p->outputs;
            for (unsigned w = 0; w < B && w0 + w < s.words; ++w)
              s.stored[(w0 + w) * outs + in.b] = a[w] ^ inv;
          }
          break;
        }
        case k_compare: {
          const std::uint64_t ia = 0 - std::uint64_t{in.ia}, ib = 0 - std::uint64_t{in.ib};
          for (unsigned w = 0; w < B; ++w) {
            std::uint64_t diff = ((a[w] ^ ia) ^ (d[w] ^ ib)) & mask[w];
            if (!diff) continue;
            t.digest.mismatches[in.b] += std::popcount(diff);
            while (diff) {
              note_mismatch(t.digest, o.max_first_mismatches,
                            o.patterns.first + 64 * (w0 + w) + std::countr_zero(diff));
              diff &= diff - 1;
            }
          }
          break;
        }
        case k_thr: {
          // Σ wᵢxᵢ − θ in a bit-sliced two's-complement counter (circuits/eval/gate_ops.hpp,
          // bits::add_masked), L words at a time; d is written after its chunk is read.
          const std::int32_t* aux = s.p->aux.data() + in.a;
          const std::uint32_t* locs = dp.thr_cells.data() + in.a;
          const std::uint32_t k = in.b;
          const std::uint32_t P = static_cast<std::uint32_t>(aux[2 * k + 1]);
          std::uint64_t* planes = t.planes;
          for (unsigned v = 0; v < B; v += L) {
            for (std::uint32_t j = 0; j < P; ++j) store(planes + j * L, splat(0));
            for (std::uint32_t i = 0; i <= k; ++i) {
              const std::int64_t w = i < k ? aux[k + i] : -static_cast<std::int64_t>(aux[2 * k]);
              const V m = i < k ? load(cell + std::size_t{locs[i]} * B + v) : splat(~0ull);
              V carry = splat(0);
              for (std::uint32_t j = 0; j < P; ++j) {
                const V x = (static_cast<std::uint64_t>(w) >> (j < 63 ? j : 63) & 1) ? m : splat(0);
                const V pl = load(planes + j * L);
                store(planes + j * L, pl ^ x ^ carry);
                carry = (pl & x) | (carry & (pl ^ x));
              }
            }
            store(d + v, ~load(planes + (P - 1) * L));
          }
          break;
        }
        default:
          break;
      }
    }
  }
};

using BlockFn = void (*)(const Shared&, Thread&, std::uint64_t, std::uint32_t);

template <class V>
RNNCC_INLINE void dispatch_block(const Shared& s, Thread& t, std::uint64_t block, std::uint32_t b) {
  switch (b) {
    case 8:
      Kernel<V, 8>::run_block(s, t, block);
      break;
    case 16:
      Kernel<V, 16>::run_block(s, t, block);
      break;
    case 32:
      Kernel<V, 32>::run_block(s, t, block);
      break;
    case 64:
      Kernel<V, 64>::run_block(s, t, block);
      break;
    case 128:
      Kernel<V, 128>::run_block(s, t, block);
      break;
    default:
      Kernel<V, 256>::run_block(s, t, block);
      break;
  }
}

typedef std::uint64_t v2u __attribute__((vector_size(16)));
void block_generic(const Shared& s, Thread& t, std::uint64_t block, std::uint32_t b) {
  dispatch_block<v2u>(s, t, block, b);
}

#if RNNCC_WIDE_X86
typedef std::uint64_t v4u __attribute__((vector_size(32)));
typedef std::uint64_t v8u __attribute__((vector_size(64)));
__attribute__((target("avx2,popcnt"))) void block_avx2(const Shared& s, Thread& t,
                                                       std::uint64_t block, std::uint32_t b) {
  dispatch_block<v4u>(s, t, block, b);
}
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,popcnt"))) void block_avx512(
    const Shared& s, Thread& t, std::uint64_t block, std::uint32_t b) {
  dispatch_block<v8u>(s, t, block, b);
}
#endif

BlockFn block_function(WideIsa isa) {
  switch (isa) {
#if RNNCC_WIDE_X86
    case WideIsa::avx2:
      return block_avx2;
    case WideIsa::avx512:
      return block_avx512;
#endif
    default:
      return block_generic;
  }
}

// ---- arithmetic mode ---------------------------------------------------------------------------
//
// N = 2B lanes of 32-bit residues per cell (the same bytes as a boolean cell), one pattern a lane;
// per block, the program once per prime (algebra/mont31.hpp, Montgomery form), exactly as
// run_program's arithmetic loop: each lane loop is plain scalar code over N lanes that the
// compiler vectorises under the kernel's target (16 lanes of 32 bits per AVX-512 operation).

struct ArithShared {
  const Program* p;
  const RunOptions* o;
  std::vector<mont31::Field> fields;
  std::vector<std::vector<std::uint32_t>> constants;  // [prime][constant], Montgomery form
  std::vector<std::uint32_t> ones;                    // [prime] Montgomery form of 1
  std::vector<Op> code;                               // d, a, b as cells; kind = the ProgOp
  std::vector<std::uint32_t> thr_cells;
  std::uint32_t cells = 0, first_constant = 0;
  std::uint64_t* stored = nullptr;
};

struct ArithThread {
  std::uint32_t* cell;                           // cells × N
  std::vector<std::vector<std::uint64_t>> sums;  // [prime][output], plain mod p of Montgomery sums
  std::vector<std::uint8_t> differs;             // [pair][lane]
  Digest digest;
};

template <unsigned N>
struct ArithKernel {
  static RNNCC_INLINE void run_block(const ArithShared& s, ArithThread& t, std::uint64_t block) {
    const Program& p = *s.p;
    const RunOptions& o = *s.o;
    const std::uint64_t k0 = block * N;  // first pattern of the block (relative)
    const unsigned valid = static_cast<unsigned>(std::min<std::uint64_t>(N, o.patterns.count - k0));
    std::uint32_t* cell = t.cell;
    std::fill(t.differs.begin(), t.differs.end(), 0);
    const std::size_t np = s.fields.size();
    for (std::size_t j = 0; j < np; ++j) {
      const mont31::Field f = s.fields[j];
      const std::uint32_t one = s.ones[j];
      for (std::size_t q = 0; q < s.constants[j].size(); ++q)
        std::fill(cell + (s.first_constant + q) * N, cell + (s.first_constant + q + 1) * N,
                  s.constants[j][q]);
      for (const Op& in : s.code) {
        std::uint32_t* d = cell + std::size_t{in.d} * N;
        const std::uint32_t* a = cell + std::size_t{in.a} * N;
        const std::uint32_t* b = cell + std::size_t{in.b} * N;
        switch (static_cast<ProgOp>(in.kind)) {
          case ProgOp::input:
            for (unsigned l = 0; l < N; ++l) {
              const std::uint64_t x =
                  patterns::int_value(o.patterns, o.patterns.first + k0 + l, in.b);
              d[l] = mont31::to_mont(static_cast<std::uint32_t>(x % f.p), f);
            }
            break;
          case ProgOp::spill:
            for (unsigned l = 0; l < N; ++l) d[l] = a[l];
            break;
          case ProgOp::output: {
            std::uint64_t sum = 0;
            for (unsigned l = 0; l < valid; ++l) sum += a[l];
            std::uint64_t& acc = t.sums[j][in.b];
            acc = (acc + sum % f.p) % f.p;
            if (s.stored)
              for (unsigned l = 0; l < valid; ++l)
                s.stored[((k0 + l) * np + j) * p.outputs + in.b] = mont31::from_mont(a[l], f);
            break;
          }
          case ProgOp::compare: {
            const std::uint32_t* c = cell + std::size_t{in.d} * N;
            std::uint8_t* diff = t.differs.data() + std::size_t{in.b} * N;
            for (unsigned l = 0; l < N; ++l) diff[l] |= a[l] != c[l];
            break;
          }
          case ProgOp::thr: {
            const std::int32_t* aux = p.aux.data() + in.a;
            const std::uint32_t* locs = s.thr_cells.data() + in.a;
            const std::uint32_t k = in.b;
            std::int64_t sum[N] = {};
            for (std::uint32_t i = 0; i < k; ++i) {
              const std::uint32_t* x = cell + std::size_t{locs[i]} * N;
              const std::int64_t w = aux[k + i];
              for (unsigned l = 0; l < N; ++l) sum[l] += x[l] != 0 ? w : 0;
            }
            for (unsigned l = 0; l < N; ++l) d[l] = sum[l] >= aux[2 * k] ? one : 0;
            break;
          }
          case ProgOp::add:
            for (unsigned l = 0; l < N; ++l) d[l] = mont31::add(a[l], b[l], f);
            break;
          case ProgOp::sub:
            for (unsigned l = 0; l < N; ++l) d[l] = mont31::sub(a[l], b[l], f);
            break;
          case ProgOp::mul:
            for (unsigned l = 0; l < N; ++l) d[l] = mont31::mul(a[l], b[l], f);
            break;
          case ProgOp::neg:
            for (unsigned l = 0; l < N; ++l) d[l] = mont31::neg(a[l], f);
            break;
          case ProgOp::and2:
            for (unsigned l = 0; l < N; ++l) d[l] = (a[l] != 0 && b[l] != 0) ? one : 0;
            break;
          case ProgOp::or2:
            for (unsigned l = 0; l < N; ++l) d[l] = (a[l] != 0 || b[l] != 0) ? one : 0;
            break;
          case ProgOp::xor2:
            for (unsigned l = 0; l < N; ++l) d[l] = ((a[l] != 0) != (b[l] != 0)) ? one : 0;
            break;
          case ProgOp::not1:
          case ProgOp::is_zero:
            for (unsigned l = 0; l < N; ++l) d[l] = a[l] == 0 ? one : 0;
            break;
          default:
            break;
        }
      }
    }
    for (std::uint32_t q = 0; q < p.pairs; ++q)
      for (unsigned l = 0; l < valid; ++l)
        if (t.differs[std::size_t{q} * N + l]) {
          ++t.digest.mismatches[q];
          note_mismatch(t.digest, o.max_first_mismatches, o.patterns.first + k0 + l);
        }
  }
};

using ArithFn = void (*)(const ArithShared&, ArithThread&, std::uint64_t, std::uint32_t);

RNNCC_INLINE void dispatch_arith(const ArithShared& s, ArithThread& t, std::uint64_t block,
                                 std::uint32_t b) {
  switch (b) {
    case 8:
      ArithKernel<16>::run_block(s, t, block);
      break;
    case 16:
      ArithKernel<32>::run_block(s, t, block);
      break;
    case 32:
      ArithKernel<64>::run_block(s, t, block);
      break;
    case 64:
      ArithKernel<128>::run_block(s, t, block);
      break;
    case 128:
      ArithKernel<256>::run_block(s, t, block);
      break;
    default:
      ArithKernel<512>::run_block(s, t, block);
      break;
  }
}

void arith_generic(const ArithShared& s, ArithThread& t, std::uint64_t block, std::uint32_t b) {
  dispatch_arith(s, t, block, b);
}
#if RNNCC_WIDE_X86
__attribute__((target("avx2,popcnt"))) void arith_avx2(const ArithShared& s, ArithThread& t,
                                                       std::uint64_t block, std::uint32_t b) {
  dispatch_arith(s, t, block, b);
}
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,popcnt"))) void arith_avx512(
    const ArithShared& s, ArithThread& t, std::uint64_t block, std::uint32_t b) {
  dispatch_arith(s, t, block, b);
}
#endif

ArithFn arith_function(WideIsa isa) {
  switch (isa) {
#if RNNCC_WIDE_X86
    case WideIsa::avx2:
      return arith_avx2;
    case WideIsa::avx512:
      return arith_avx512;
#endif
    default:
      return arith_generic;
  }
}

ProgramResult run_arith_wide(const Program& p, const RunOptions& o, WideIsa isa, unsigned threads,
                             std::uint32_t B, Progress* progress);

// A block of `per_block` patterns is done: every 64th block a thread finishes (and the last),
// the patterns done so far (blocks finished × per_block, at most `patterns`) go to the progress.
void report_blocks(Progress* progress, std::atomic<std::uint64_t>& finished, std::uint64_t block,
                   std::uint64_t blocks, std::uint64_t per_block, std::uint64_t patterns) {
  if (!progress) return;
  const std::uint64_t n = finished.fetch_add(1, std::memory_order_relaxed) + 1;
  if ((block & 63) == 0 || n == blocks) progress->update(std::min(patterns, n * per_block));
}

struct AlignedFree {
  void operator()(std::uint64_t* p) const { std::free(p); }
};

}  // namespace

ProgramResult run_program_wide(const Program& p, const RunOptions& o, const WideOptions& wo) {
  // The float shadow (magnitude) is the twin's alone: run it there.
  if (!p.boolean && o.magnitude) return run_program(p, o);
  const WideIsa isa = wo.isa == WideIsa::automatic ? best_wide_isa() : wo.isa;
  if (!wide_isa_supported(isa))
    throw std::invalid_argument("this CPU does not run the " + to_string(isa) + " kernel");
  unsigned threads = wo.threads ? wo.threads : std::max(1u, std::thread::hardware_concurrency());
  const std::uint32_t B =
      wo.block_words ? wo.block_words : choose_block_words(p, o.patterns.count, threads);
  if (!valid_block(B))
    throw std::invalid_argument("wide block of " + std::to_string(B) +
                                " words: expected 8, 16, 32, 64, 128 or 256");
  if (!p.boolean) return run_arith_wide(p, o, isa, threads, B, wo.progress);
  const Decoded dp = decode(p);
  ProgramResult r;
  r.patterns = o.patterns.count;
  r.ones.assign(p.outputs, 0);
  r.mismatches.assign(p.pairs, 0);
  const std::uint64_t words = (o.patterns.count + 63) / 64;
  if (o.store) r.stored.assign(words * p.outputs, 0);
  const std::uint64_t blocks = (words + B - 1) / B;
  threads =
      static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, blocks)));
  const Shared s{&p, &dp, &o, words, o.patterns.first / 64, o.store ? r.stored.data() : nullptr};
  const BlockFn fn = block_function(isa);
  std::vector<Digest> digests(threads);
  std::atomic<std::uint64_t> next{0}, finished{0};
  auto work = [&](unsigned id) {
    // One allocation: cells, planes, lane masks; 64-byte aligned (a cell is ≥ 64 bytes).
    const std::size_t n = (std::size_t{dp.cells} + dp.max_planes + 1) * B;
    std::unique_ptr<std::uint64_t, AlignedFree> mem(
        static_cast<std::uint64_t*>(std::aligned_alloc(64, n * 8)));
    if (!mem) throw std::bad_alloc();
    Thread t{mem.get(),
             mem.get() + std::size_t{dp.cells} * B,
             mem.get() + (std::size_t{dp.cells} + dp.max_planes) * B,
             {}};
    std::fill(t.cell, t.cell + std::size_t{dp.cells} * B, 0);
    std::fill(t.cell + std::size_t{dp.zero + 1} * B, t.cell + std::size_t{dp.zero + 2} * B,
              ~std::uint64_t{0});
    t.digest.ones.assign(p.outputs, 0);
    t.digest.mismatches.assign(p.pairs, 0);
    for (std::uint64_t b; (b = next.fetch_add(1, std::memory_order_relaxed)) < blocks;) {
      fn(s, t, b, B);
      report_blocks(wo.progress, finished, b, blocks, 64 * std::uint64_t{B}, r.patterns);
    }
    digests[id] = std::move(t.digest);
  };
  run_threads(threads, work);
  for (const Digest& g : digests)
    for (std::uint32_t k = 0; k < p.outputs; ++k) r.ones[k] += g.ones[k];
  merge_mismatches(r, digests, o.max_first_mismatches);
  return r;
}

namespace {

ProgramResult run_arith_wide(const Program& p, const RunOptions& o, WideIsa isa, unsigned threads,
                             std::uint32_t B, Progress* progress) {
  const std::size_t np = o.primes.size();
  if (np == 0) throw std::invalid_argument("arithmetic programs need at least one prime");
  const std::uint32_t N = 2 * B;  // lanes (patterns) per block
  ArithShared s;
  s.p = &p;
  s.o = &o;
  s.first_constant = p.slots + p.spill_slots;
  s.cells = s.first_constant + static_cast<std::uint32_t>(p.constants.size());
  // Constants per prime in Montgomery form, as run_program converts them.
  for (std::size_t j = 0; j < np; ++j) {
    const mont31::Field f = mont31::make_field(o.primes[j]);
    s.fields.push_back(f);
    s.ones.push_back(mont31::to_mont(1, f));
    std::vector<std::uint32_t> cs;
    for (const Rational& c : p.constants) cs.push_back(montgomery_constant(c, f));
    s.constants.push_back(std::move(cs));
  }
  auto cell = [&](std::uint32_t loc) -> std::uint32_t {
    switch (loc_kind(loc)) {
      case LocKind::slot:
        return loc_index(loc);
      case LocKind::spill:
        return p.slots + loc_index(loc);
      default:
        return s.first_constant + loc_index(loc);
    }
  };
  s.thr_cells.assign(p.aux.size(), 0);
  for (const Instr& in : p.code) {
    Op op{};
    op.kind = static_cast<std::uint8_t>(in.op());
    switch (in.op()) {
      case ProgOp::input:
        op.d = cell(in.d);
        op.b = in.b;
        break;
      case ProgOp::output:
        op.a = cell(in.a);
        op.b = in.b;
        break;
      case ProgOp::compare:
        op.d = cell(in.d);
        op.a = cell(in.a);
        op.b = in.b;
        break;
      case ProgOp::thr:
        op.d = cell(in.d);
        op.a = in.a;
        op.b = in.b;
        for (std::uint32_t i = 0; i < in.b; ++i)
          s.thr_cells[in.a + i] = cell(static_cast<std::uint32_t>(p.aux[in.a + i]));
        break;
      case ProgOp::spill:
      case ProgOp::neg:
      case ProgOp::not1:
      case ProgOp::is_zero:
        op.d = cell(in.d);
        op.a = cell(in.a);
        break;
      default:
        op.d = cell(in.d);
        op.a = cell(in.a);
        op.b = cell(in.b);
        break;
    }
    s.code.push_back(op);
  }
  ProgramResult r;
  r.patterns = o.patterns.count;
  r.mismatches.assign(p.pairs, 0);
  r.max_difference_bound.assign(p.pairs, 0.0);
  if (o.store) r.stored.assign(o.patterns.count * np * p.outputs, 0);
  s.stored = o.store ? r.stored.data() : nullptr;
  const std::uint64_t blocks = (o.patterns.count + N - 1) / N;
  threads =
      static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, blocks)));
  const ArithFn fn = arith_function(isa);
  std::vector<ArithThread> done(threads);
  std::atomic<std::uint64_t> next{0}, finished{0};
  auto work = [&](unsigned id) {
    std::vector<std::uint32_t> mem(std::max<std::size_t>(1, std::size_t{s.cells} * N));
    ArithThread t;
    t.cell = mem.data();
    t.sums.assign(np, std::vector<std::uint64_t>(p.outputs, 0));
    t.differs.assign(std::size_t{p.pairs} * N, 0);
    t.digest.mismatches.assign(p.pairs, 0);
    for (std::uint64_t b; (b = next.fetch_add(1, std::memory_order_relaxed)) < blocks;) {
      fn(s, t, b, B);
      report_blocks(progress, finished, b, blocks, N, r.patterns);
    }
    t.cell = nullptr;
    done[id] = std::move(t);
  };
  run_threads(threads, work);
  r.sums.assign(np, std::vector<std::uint64_t>(p.outputs, 0));
  for (std::size_t j = 0; j < np; ++j)
    for (std::uint32_t k = 0; k < p.outputs; ++k) {
      std::uint64_t acc = 0;
      for (const ArithThread& t : done) acc = (acc + t.sums[j][k]) % s.fields[j].p;
      r.sums[j][k] = mont31::from_mont(static_cast<std::uint32_t>(acc), s.fields[j]);
    }
  std::vector<Digest> digests;
  for (ArithThread& t : done) digests.push_back(std::move(t.digest));
  merge_mismatches(r, digests, o.max_first_mismatches);
  return r;
}

}  // namespace

}  // namespace rnncc
