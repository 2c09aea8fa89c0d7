// CUDA kernels for device programs; the design is in gpu.hpp, the semantics in program.hpp
// (exec_word, exec_mod, exec_magnitude, the pattern generators), shared with the CPU twin.
#include "circuits/eval/cuda/gpu.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "circuits/eval/cuda/compiled.hpp"
#include "circuits/eval/cuda/cuda_buffer.hpp"
#include "circuits/eval/cuda/launch_driver.hpp"
#include "circuits/eval/gate_ops.hpp"

namespace rnncc::gpu {

namespace {

using detail::Buffer;
using detail::Events;

using ull = unsigned long long;

struct Common {
  const uint4* code;
  std::uint32_t ncode;
  const std::int32_t* aux;
  patterns::Spec spec;  // this chunk
  std::uint32_t outputs;
  ull* mismatches;      // [pair]
  ull* first_mismatch;  // one
  ull* samples;         // [max_samples]
  unsigned* nsamples;
  std::uint32_t max_samples;
  std::uint64_t spill_stride;  // threads in the grid
};

__device__ void note_mismatch(const Common& P, std::uint64_t pattern) {
  atomicMin(P.first_mismatch, static_cast<ull>(pattern));
  const unsigned at = atomicAdd(P.nsamples, 1u);
  if (at < P.max_samples) P.samples[at] = pattern;
}

// Runs exec on every instruction. The stream (tens to hundreds of KB) does not fit in L1, and an
// L2 round trip per instruction would dominate; staging it in shared memory puts a load that
// may alias the slot stores (so it cannot be hoisted) into every gate's dependency chain. So a
// warp loads 32 instructions at a time, one per lane (coalesced, the next 32 in flight), and
// broadcasts instruction i with register shuffles, which the compiler schedules freely. Warps
// run independently (no barrier).
template <class Exec>
__device__ __forceinline__ void for_each_instruction(const uint4* code, std::uint32_t n,
                                                     Exec&& exec) {
  const std::uint32_t lane = threadIdx.x & 31;
  uint4 cur = lane < n ? __ldg(code + lane) : uint4{0, 0, 0, 0};
  for (std::uint32_t c0 = 0; c0 < n; c0 += 32) {
    const uint4 next = c0 + 32 + lane < n ? __ldg(code + c0 + 32 + lane) : uint4{0, 0, 0, 0};
    const std::uint32_t m = min(32u, n - c0);
    for (std::uint32_t i = 0; i < m; ++i)
      exec(Instr{__shfl_sync(0xFFFFFFFFu, cur.x, static_cast<int>(i)),
                 __shfl_sync(0xFFFFFFFFu, cur.y, static_cast<int>(i)),
                 __shfl_sync(0xFFFFFFFFu, cur.z, static_cast<int>(i)),
                 __shfl_sync(0xFFFFFFFFu, cur.w, static_cast<int>(i))});
    cur = next;
  }
}

// ---- boolean: one word of 64 patterns per thread and pass ----

struct BoolParams {
  Common c;
  std::uint64_t* spill;
  ull* ones;             // [output]
  std::uint64_t* store;  // [word][output] of this chunk, or null
};

// W consecutive words per thread (W independent operations per decoded instruction). A slot holds
// the W words of a thread contiguously (W·8 bytes), so a warp's access is one contiguous run.
template <int W>
struct Words {
  std::uint64_t w[W];
};

template <int W>
__global__ void bool_kernel(BoolParams P) {
  extern __shared__ std::uint64_t raw_slots[];
  Words<W>* const slots = reinterpret_cast<Words<W>*>(raw_slots);
  const std::uint32_t tid = threadIdx.x, T = blockDim.x;
  const std::uint64_t gtid = static_cast<std::uint64_t>(blockIdx.x) * T + tid;
  const std::uint64_t words = (P.c.spec.count + 63) / 64, first_word = P.c.spec.first / 64;
  const std::uint64_t units = (words + W - 1) / W;
  Words<W>* const myspill = reinterpret_cast<Words<W>*>(P.spill) + gtid;
  const std::uint64_t stride = P.c.spill_stride;
  auto read = [&](std::uint32_t loc) -> Words<W> {
    switch (loc_kind(loc)) {
      case LocKind::slot:
        return slots[loc_index(loc) * T + tid];
      case LocKind::spill:
        return myspill[loc_index(loc) * stride];
      default: {
        Words<W> v;
#pragma unroll
        for (int j = 0; j < W; ++j) v.w[j] = loc_index(loc) ? ~std::uint64_t{0} : 0;
        return v;
      }
    }
  };
  auto write = [&](std::uint32_t loc, const Words<W>& v) {
    if (loc_kind(loc) == LocKind::slot)
      slots[loc_index(loc) * T + tid] = v;
    else
      myspill[loc_index(loc) * stride] = v;
  };
  // Every thread of a block runs the same number of passes, so warp reductions see full warps.
  for (std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * T; base < units;
       base += static_cast<std::uint64_t>(gridDim.x) * T) {
    const std::uint64_t u = base + tid;
    std::uint64_t mask[W];
#pragma unroll
    for (int j = 0; j < W; ++j) {
      const std::uint64_t w = u * W + j;
      mask[j] = 0;
      if (w < words) {
        const std::uint64_t valid = P.c.spec.count - 64 * w;
        mask[j] = valid >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid) - 1;
      }
    }
    for_each_instruction(P.c.code, P.c.ncode, [&](const Instr& in) {
      Words<W> r;
      switch (in.op()) {
        case ProgOp::input:
#pragma unroll
          for (int j = 0; j < W; ++j)
            r.w[j] = patterns::bool_word(P.c.spec, first_word + u * W + j, in.b);
          write(in.d, r);
          break;
        case ProgOp::spill:
          write(in.d, read(in.a));
          break;
        case ProgOp::output: {
          const Words<W> v = read(in.a);
          const std::uint64_t inv = in.op_flags & kInvA ? ~std::uint64_t{0} : 0;
          unsigned n = 0;
#pragma unroll
          for (int j = 0; j < W; ++j) {
            const std::uint64_t x = v.w[j] ^ inv;
            if (P.store && u * W + j < words) P.store[(u * W + j) * P.c.outputs + in.b] = x;
            n += __popcll(x & mask[j]);
          }
          n = __reduce_add_sync(0xFFFFFFFFu, n);
          if ((tid & 31) == 0 && n) atomicAdd(P.ones + in.b, static_cast<ull>(n));
          break;
        }
        case ProgOp::compare: {
          const Words<W> a = read(in.a), b = read(in.d);
          const std::uint64_t ia = in.op_flags & kInvA ? ~std::uint64_t{0} : 0;
          const std::uint64_t ib = in.op_flags & kInvB ? ~std::uint64_t{0} : 0;
          unsigned n = 0;
#pragma unroll
          for (int j = 0; j < W; ++j) {
            const std::uint64_t diff = ((a.w[j] ^ ia) ^ (b.w[j] ^ ib)) & mask[j];
            n += __popcll(diff);
            if (diff)
              note_mismatch(P.c, P.c.spec.first + 64 * (u * W + j) +
                                     (__ffsll(static_cast<long long>(diff)) - 1));
          }
          n = __reduce_add_sync(0xFFFFFFFFu, n);
          if ((tid & 31) == 0 && n) atomicAdd(P.c.mismatches + in.b, static_cast<ull>(n));
          break;
        }
        case ProgOp::thr: {
          const std::int32_t* aux = P.c.aux + in.a;
          const std::uint32_t k = in.b, B = static_cast<std::uint32_t>(aux[2 * k + 1]);
#pragma unroll
          for (int j = 0; j < W; ++j) {
            std::uint64_t planes[64];
            for (std::uint32_t q = 0; q < B; ++q) planes[q] = 0;
            for (std::uint32_t q = 0; q < k; ++q)
              bits::add_masked(planes, B, aux[k + q],
                               read(static_cast<std::uint32_t>(aux[q])).w[j]);
            bits::add_masked(planes, B, -static_cast<std::int64_t>(aux[2 * k]), ~std::uint64_t{0});
            r.w[j] = bits::nonnegative(planes, B);
          }
          write(in.d, r);
          break;
        }
        default: {
          const Words<W> a = read(in.a), b = read(in.b);
#pragma unroll
          for (int j = 0; j < W; ++j) r.w[j] = exec_word(in, a.w[j], b.w[j]);
          write(in.d, r);
          break;
        }
      }
    });
  }
}

// ---- arithmetic: one pattern per thread, once per prime ----

struct ModParams {
  Common c;
  std::uint32_t* spill;
  double2* mspill;                 // float shadow (value, error) of the spill slots
  const mont31::Field* fields;     // [prime]
  const std::uint32_t* constants;  // [prime][constant], Montgomery form
  const double2* mconstants;       // [constant] float shadows
  std::uint32_t primes, nconstants;
  ull* sums;             // [prime][output], Montgomery form, each term < p
  ull* max_bound;        // [pair], bits of a nonnegative double (|a − b| bound)
  std::uint32_t* store;  // [pattern][prime][output] of this chunk, plain residues
};

__device__ __forceinline__ std::uint64_t warp_sum(std::uint64_t v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, o);
  return v;
}
__device__ __forceinline__ double warp_max(double v) {
  for (int o = 16; o > 0; o >>= 1) v = fmax(v, __shfl_down_sync(0xFFFFFFFFu, v, o));
  return v;
}

// NP primes per pass over the program: every instruction is decoded once and evaluated for NP
// primes (NP independent Montgomery operations in flight). The prime list is padded to a
// multiple of NP by repeating its last prime (`primes` counts the real ones; padded results are
// dropped). The magnitude shadow runs with the first group.
template <bool Shadow, int NP>
__global__ void mod_kernel(ModParams P, std::uint32_t S) {
  // Shared memory: S·T float shadows (double2, if Shadow), then S·NP·T residues.
  extern __shared__ double2 raw[];
  const std::uint32_t tid = threadIdx.x, T = blockDim.x;
  const std::uint64_t gtid = static_cast<std::uint64_t>(blockIdx.x) * T + tid;
  double2* const mslots = raw;
  std::uint32_t* const slots = reinterpret_cast<std::uint32_t*>(raw + (Shadow ? S * T : 0));
  std::uint32_t* const myspill = P.spill + gtid;
  double2* const mymspill = P.mspill + gtid;
  const std::uint64_t stride = P.c.spill_stride;
  const std::uint64_t count = P.c.spec.count;
  const std::uint32_t groups = (P.primes + NP - 1) / NP;
  for (std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * T; base < count;
       base += static_cast<std::uint64_t>(gridDim.x) * T) {
    const std::uint64_t k = base + tid;
    const bool active = k < count;
    const std::uint64_t pattern = P.c.spec.first + k;
    std::uint32_t differs = 0;
    for (std::uint32_t g = 0; g < groups; ++g) {
      mont31::Field f[NP];
      std::uint32_t one[NP];
      const std::uint32_t* cst[NP];
#pragma unroll
      for (int j = 0; j < NP; ++j) {
        f[j] = P.fields[g * NP + j];
        one[j] = mont31::to_mont(1, f[j]);
        cst[j] = P.constants + static_cast<std::size_t>(g * NP + j) * P.nconstants;
      }
      const bool shadow = Shadow && g == 0;
      // Value j of location loc.
      auto read = [&](std::uint32_t loc, int j) -> std::uint32_t {
        switch (loc_kind(loc)) {
          case LocKind::slot:
            return slots[(loc_index(loc) * NP + j) * T + tid];
          case LocKind::spill:
            return myspill[(loc_index(loc) * NP + j) * stride];
          default:
            return __ldg(cst[j] + loc_index(loc));
        }
      };
      auto mread = [&](std::uint32_t loc) -> Approx {
        double2 m;
        switch (loc_kind(loc)) {
          case LocKind::slot:
            m = mslots[loc_index(loc) * T + tid];
            break;
          case LocKind::spill:
            m = mymspill[loc_index(loc) * stride];
            break;
          default:
            m = __ldg(P.mconstants + loc_index(loc));
            break;
        }
        return Approx{m.x, m.y};
      };
      auto write = [&](std::uint32_t loc, const std::uint32_t(&v)[NP], Approx a) {
        const double2 m{a.v, a.e};
        if (loc_kind(loc) == LocKind::slot) {
#pragma unroll
          for (int j = 0; j < NP; ++j) slots[(loc_index(loc) * NP + j) * T + tid] = v[j];
          if (shadow) mslots[loc_index(loc) * T + tid] = m;
        } else {
#pragma unroll
          for (int j = 0; j < NP; ++j) myspill[(loc_index(loc) * NP + j) * stride] = v[j];
          if (shadow) mymspill[loc_index(loc) * stride] = m;
        }
      };
      for_each_instruction(P.c.code, P.c.ncode, [&](const Instr& in) {
        std::uint32_t r[NP];
        switch (in.op()) {
          case ProgOp::input: {
            const std::uint64_t x = patterns::int_value(P.c.spec, pattern, in.b);
#pragma unroll
            for (int j = 0; j < NP; ++j)
              r[j] = mont31::to_mont(static_cast<std::uint32_t>(x % f[j].p), f[j]);
            write(in.d, r, shadow ? approx_of_integer(x) : Approx{});
            break;
          }
          case ProgOp::spill:
#pragma unroll
            for (int j = 0; j < NP; ++j) r[j] = read(in.a, j);
            write(in.d, r, shadow ? mread(in.a) : Approx{});
            break;
          case ProgOp::output:
#pragma unroll
            for (int j = 0; j < NP; ++j) {
              if (g * NP + j >= P.primes) break;
              const std::uint32_t v = read(in.a, j);
              if (P.store && active)
                P.store[(k * P.primes + g * NP + j) * P.c.outputs + in.b] =
                    mont31::from_mont(v, f[j]);
              const std::uint64_t s = warp_sum(active ? v : 0);
              if ((tid & 31) == 0)
                atomicAdd(P.sums + (g * NP + j) * P.c.outputs + in.b, static_cast<ull>(s % f[j].p));
            }
            break;
          case ProgOp::compare: {
#pragma unroll
            for (int j = 0; j < NP; ++j)
              if (read(in.a, j) != read(in.d, j)) differs |= 1u << in.b;
            if (shadow) {
              const double m = warp_max(active ? difference_bound(mread(in.a), mread(in.d)) : 0.0);
              if ((tid & 31) == 0)
                atomicMax(P.max_bound + in.b, static_cast<ull>(__double_as_longlong(m)));
            }
            break;
          }
          case ProgOp::thr: {
            const std::int32_t* aux = P.c.aux + in.a;
#pragma unroll
            for (int j = 0; j < NP; ++j) {
              std::int64_t s = 0;
              for (std::uint32_t q = 0; q < in.b; ++q)
                if (read(static_cast<std::uint32_t>(aux[q]), j) != 0) s += aux[in.b + q];
              r[j] = s >= aux[2 * in.b] ? one[j] : 0;
            }
            write(in.d, r, Approx{0.5, 0.5});
            break;
          }
          default:
#pragma unroll
            for (int j = 0; j < NP; ++j)
              r[j] = exec_mod(in, read(in.a, j), read(in.b, j), f[j], one[j]);
            write(in.d, r, shadow ? exec_shadow(in, mread(in.a), mread(in.b)) : Approx{});
            break;
        }
      });
    }
    if (active && differs)
      for (std::uint32_t q = 0; q < 32; ++q)
        if (differs >> q & 1) {
          atomicAdd(P.c.mismatches + q, ull{1});
          note_mismatch(P.c, pattern);
        }
  }
}

int primes_per_pass(std::size_t primes) {
  return primes >= 4 ? 4 : static_cast<int>(std::max<std::size_t>(primes, 1));
}

const void* mod_kernel_for(bool shadow, int np) {
  switch (np * 2 + (shadow ? 1 : 0)) {
    case 2:
      return reinterpret_cast<const void*>(&mod_kernel<false, 1>);
    case 3:
      return reinterpret_cast<const void*>(&mod_kernel<true, 1>);
    case 4:
      return reinterpret_cast<const void*>(&mod_kernel<false, 2>);
    case 5:
      return reinterpret_cast<const void*>(&mod_kernel<true, 2>);
    case 6:
      return reinterpret_cast<const void*>(&mod_kernel<false, 3>);
    case 7:
      return reinterpret_cast<const void*>(&mod_kernel<true, 3>);
    case 8:
      return reinterpret_cast<const void*>(&mod_kernel<false, 4>);
    default:
      return reinterpret_cast<const void*>(&mod_kernel<true, 4>);
  }
}

std::uint32_t blocks_for(const void* kernel, std::uint32_t threads, std::size_t smem,
                         const DeviceInfo& d, std::uint32_t blocks_per_sm) {
  int per_sm = 0;
  RNNCC_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                           static_cast<int>(threads), smem),
             "occupancy of " + std::to_string(threads) + " threads with " + std::to_string(smem) +
                 " bytes of shared memory");
  if (per_sm == 0)
    throw GpuError("a block of " + std::to_string(threads) + " threads with " +
                   std::to_string(smem) + " bytes of shared memory does not fit on " + d.name);
  if (blocks_per_sm) per_sm = std::min<int>(per_sm, static_cast<int>(blocks_per_sm));
  return static_cast<std::uint32_t>(per_sm * d.multiprocessors);
}

double elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  RNNCC_CUDA(cudaEventElapsedTime(&ms, a, b), "reading kernel time");
  return ms / 1000.0;
}

// 16 independent chains of Montgomery products per thread, `rounds` long.
__global__ void mont_peak_kernel(std::uint32_t* out, mont31::Field f, std::uint32_t rounds) {
  std::uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = (threadIdx.x * 16 + i + 1) % f.p;
  const std::uint32_t c = mont31::to_mont(12345, f);
  for (std::uint32_t r = 0; r < rounds; ++r)
#pragma unroll
    for (int i = 0; i < 16; ++i) x[i] = mont31::mul(x[i], c, f);
  std::uint32_t s = 0;
  for (int i = 0; i < 16; ++i) s ^= x[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

}  // namespace

double copy_bandwidth(std::size_t bytes) {
  Buffer<char> a(bytes, "copy source"), b(bytes, "copy target");
  a.fill(1, "copy source");
  Events ev;
  RNNCC_CUDA(cudaMemcpy(b.p, a.p, bytes, cudaMemcpyDeviceToDevice), "warm-up copy");
  std::vector<double> t;
  for (int i = 0; i < 5; ++i) {
    RNNCC_CUDA(cudaEventRecord(ev.start), "recording an event");
    RNNCC_CUDA(cudaMemcpy(b.p, a.p, bytes, cudaMemcpyDeviceToDevice), "timed copy");
    RNNCC_CUDA(cudaEventRecord(ev.stop), "recording an event");
    RNNCC_CUDA(cudaEventSynchronize(ev.stop), "timed copy");
    t.push_back(elapsed(ev.start, ev.stop));
  }
  std::sort(t.begin(), t.end());
  return 2.0 * static_cast<double>(bytes) / t[t.size() / 2];
}

double montgomery_multiply_rate() {
  const DeviceInfo d = probe();
  if (!d.available) throw GpuError(d.why_not);
  const std::uint32_t blocks = static_cast<std::uint32_t>(d.multiprocessors) * 8, T = 256,
                      rounds = 4096;
  Buffer<std::uint32_t> out(static_cast<std::size_t>(blocks) * T, "peak output");
  const mont31::Field f = mont31::make_field(2147483647u);
  Events ev;
  mont_peak_kernel<<<blocks, T>>>(out.p, f, 16);
  RNNCC_CUDA(cudaDeviceSynchronize(), "warm-up of the multiply-peak kernel");
  std::vector<double> t;
  for (int i = 0; i < 5; ++i) {
    RNNCC_CUDA(cudaEventRecord(ev.start), "recording an event");
    mont_peak_kernel<<<blocks, T>>>(out.p, f, rounds);
    RNNCC_CUDA(cudaGetLastError(), "launching the multiply-peak kernel");
    RNNCC_CUDA(cudaEventRecord(ev.stop), "recording an event");
    RNNCC_CUDA(cudaEventSynchronize(ev.stop), "running the multiply-peak kernel");
    t.push_back(elapsed(ev.start, ev.stop));
  }
  std::sort(t.begin(), t.end());
  return static_cast<double>(blocks) * T * 16.0 * rounds / t[t.size() / 2];
}

DeviceInfo probe() {
  DeviceInfo d;
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    d.why_not = std::string("no CUDA device: ") + cudaGetErrorString(e);
    cudaGetLastError();
    return d;
  }
  if (n == 0) {
    d.why_not = "no CUDA device";
    return d;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    d.why_not = "cannot read the properties of CUDA device 0";
    return d;
  }
  d.available = true;
  d.name = prop.name;
  d.multiprocessors = prop.multiProcessorCount;
  d.global_memory = prop.totalGlobalMem;
  d.shared_per_block = prop.sharedMemPerBlockOptin;
  return d;
}

std::uint32_t slot_capacity(const DeviceInfo& d, bool boolean, bool magnitude,
                            std::uint32_t threads, std::size_t primes, std::uint32_t words) {
  const std::size_t bytes =
      boolean ? 8 * words : 4 * primes_per_pass(primes) + (magnitude ? 16 : 0);
  return static_cast<std::uint32_t>(
      std::min<std::size_t>(d.shared_per_block / (bytes * threads), kLocIndexMask));
}

ProgramResult run_program_interpreter(const Program& p, const RunOptions& o,
                                      const LaunchConfig& config, Timing* timing) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint32_t T = config.threads;
  const DeviceInfo d = detail::launch_device(p, o, T);
  const std::uint32_t S = std::max<std::uint32_t>(p.slots, 1);
  const bool shadow = !p.boolean && o.magnitude;
  const int NP = p.boolean ? 1 : primes_per_pass(o.primes.size());
  const std::uint32_t W = config.words_per_thread;
  if (W != 1 && W != 2) throw GpuError("words per thread must be 1 or 2, got " + std::to_string(W));
  const std::size_t slot_bytes = p.boolean ? 8 * W : 4 * NP + (shadow ? 16 : 0);
  const std::size_t smem = static_cast<std::size_t>(S) * T * slot_bytes;
  if (smem > d.shared_per_block)
    throw GpuError("the program's " + std::to_string(S) + " slots × " + std::to_string(T) +
                   " threads need " + std::to_string(smem) + " bytes of shared memory; " + d.name +
                   " allows " + std::to_string(d.shared_per_block) +
                   " (lower it with slot_capacity())");
  const void* kernel = !p.boolean ? mod_kernel_for(shadow, NP)
                       : W == 2   ? reinterpret_cast<const void*>(&bool_kernel<2>)
                                  : reinterpret_cast<const void*>(&bool_kernel<1>);
  RNNCC_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(smem)),
             "raising the shared-memory limit to " + std::to_string(smem) + " bytes");
  const std::uint32_t blocks = blocks_for(kernel, T, smem, d, config.blocks_per_sm);
  const std::uint64_t threads_total = static_cast<std::uint64_t>(blocks) * T;

  // The program and its threshold data; the accumulators and the digest are the driver's.
  std::vector<uint4> code(p.code.size());
  for (std::size_t i = 0; i < code.size(); ++i)
    code[i] = uint4{p.code[i].op_flags, p.code[i].d, p.code[i].a, p.code[i].b};
  Buffer<uint4> dcode(std::max<std::size_t>(code.size(), 1), "the program");
  if (!code.empty()) dcode.upload(code.data(), "the program");
  Buffer<std::int32_t> daux(std::max<std::size_t>(p.aux.size(), 1), "threshold data");
  if (!p.aux.empty()) daux.upload(p.aux.data(), "threshold data");
  detail::LaunchDriver driver(p, o);
  const detail::DigestBuffers& dg = driver.digest();

  Common c{dcode.p,       static_cast<std::uint32_t>(p.code.size()),
           daux.p,        o.patterns,
           p.outputs,     dg.mismatches.p,
           dg.first.p,    dg.samples.p,
           dg.nsamples.p, static_cast<std::uint32_t>(o.max_first_mismatches),
           threads_total};

  // Chunks: launches of at most chunk_patterns, whole words, stored outputs within the driver's
  // bound.
  std::uint64_t chunk = std::max<std::uint64_t>(config.chunk_patterns, 64);
  chunk = std::max<std::uint64_t>(std::min(chunk, driver.store_limit()), 64) / 64 * 64;
  const std::string what = "the evaluation kernel (" + std::to_string(blocks) + " blocks × " +
                           std::to_string(T) + " threads, " + std::to_string(smem) +
                           " bytes of shared memory)";

  ProgramResult r;
  if (p.boolean) {
    Buffer<std::uint64_t> dspill(std::max<std::uint64_t>(p.spill_slots, 1) * threads_total * W,
                                 "spill slots");
    driver.run(chunk, what, [&](const detail::Chunk& k) -> std::uint64_t {
      BoolParams bp{c, dspill.p, driver.output_counts(), static_cast<std::uint64_t*>(k.store)};
      bp.c.spec = k.spec;
      void* args[] = {&bp};
      RNNCC_CUDA(cudaLaunchKernel(kernel, dim3(blocks), dim3(T), args, smem, nullptr),
                 "launching the boolean kernel");
      return 1;
    });
    r = driver.result();
  } else {
    const std::size_t np = o.primes.size();
    std::vector<double2> mconstants;
    for (const Rational& k : p.constants) {
      const Approx a = approx_of(k);
      mconstants.push_back(double2{a.v, a.e});
    }
    std::vector<std::uint32_t> padded = o.primes;  // a multiple of NP (gpu.cu, mod_kernel)
    while (padded.size() % NP) padded.push_back(o.primes.back());
    const std::vector<mont31::Field> fields = detail::prime_fields(padded);
    const std::vector<std::uint32_t> constants = detail::montgomery_constants(p, fields);
    Buffer<mont31::Field> dfields(fields.size(), "prime fields");
    dfields.upload(fields.data(), "prime fields");
    Buffer<std::uint32_t> dconst(std::max<std::size_t>(constants.size(), 1), "constants");
    if (!constants.empty()) dconst.upload(constants.data(), "constants");
    Buffer<double2> dmconst(std::max<std::size_t>(mconstants.size(), 1), "constant shadows");
    if (!mconstants.empty()) dmconst.upload(mconstants.data(), "constant shadows");
    Buffer<std::uint32_t> dspill(std::max<std::uint64_t>(p.spill_slots, 1) * NP * threads_total,
                                 "spill slots");
    Buffer<double2> dmspill(shadow ? std::max<std::uint64_t>(p.spill_slots, 1) * threads_total : 1,
                            "spill shadows");
    Buffer<ull> dbound(std::max<std::uint32_t>(p.pairs, 1), "magnitude bounds");
    dbound.fill(0, "magnitude bounds");
    driver.run(chunk, what, [&](const detail::Chunk& k) -> std::uint64_t {
      ModParams mp{c,
                   dspill.p,
                   dmspill.p,
                   dfields.p,
                   dconst.p,
                   dmconst.p,
                   static_cast<std::uint32_t>(np),
                   static_cast<std::uint32_t>(p.constants.size()),
                   driver.output_sums(),
                   dbound.p,
                   static_cast<std::uint32_t*>(k.store)};
      mp.c.spec = k.spec;
      void* args[] = {&mp, const_cast<std::uint32_t*>(&S)};
      RNNCC_CUDA(cudaLaunchKernel(kernel, dim3(blocks), dim3(T), args, smem, nullptr),
                 "launching the arithmetic kernel");
      return 1;
    });
    r = driver.result(fields);
    const auto bounds = dbound.download("magnitude bounds");
    for (std::uint32_t q = 0; q < p.pairs; ++q) {
      double m;
      std::memcpy(&m, &bounds[q], sizeof m);
      r.max_difference_bound.push_back(m);
    }
  }
  if (timing) {
    timing->kernel_seconds = driver.kernel_seconds();
    timing->total_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    timing->blocks = blocks;
    timing->threads = T;
    timing->slots = S;
    timing->launches = driver.launches();
    timing->path = "interpreter";
  }
  return r;
}

}  // namespace rnncc::gpu
