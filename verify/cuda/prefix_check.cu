// The GPU walk of exhaustive checks by prefix sharing (prefix_gpu.hpp). The same arithmetic as
// verify/prefix_walk.hpp's walk() (Montgomery residues; residues are unique, so the two agree
// bit for bit), specialised for the device:
//   - the tables live in constant memory: every thread of a warp walks its suffixes in lock
//     step (aligned tasks of |Σ|^s strings share the low digits), so σ is uniform across the
//     warp; for the small kernels (padded d·k ≤ 16) a switch on σ makes every matrix entry a
//     compile-time constant-bank operand of its multiply (no load at all);
//   - the dimension is padded to D ∈ {8, 16, 32} with zero rows and columns and the prime count
//     to K ∈ {1, 2, 4} by repeating the last prime (the same residues twice), D·K ≤ 32, so the
//     mat-vec unrolls fully with the state in registers; the stack of prefix states is a local
//     array (L1), level j rewritten once per change of w_j.
// Measured (bench/gpu_headline.cpp, DPLR count_ab, d = 7 → 8, one prime, 2026-12-01): 2.28·10¹⁰
// strings/s on one H200, 1.3·10¹² Montgomery multiply-adds/s.
#include <cuda_runtime.h>

#include <chrono>
#include <string>
#include <vector>

#include "circuits/eval/cuda/cuda_buffer.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "verify/cuda/prefix_gpu.hpp"

namespace rnncc::prefix {

namespace {

// Three constant arrays, so that with σ, the prime index and the entry known at compile time
// (step_dev<σ>) a matrix entry is an immediate constant-bank operand of the multiply (no load):
// M[((σ·K + i)·D + a)·D + b], O[(σ·K + i)·D + a], alpha[i·D + a] for the padded D and K.
__constant__ std::uint32_t c_M[kGpuMatrixWords];
__constant__ std::uint32_t c_O[kGpuOutputWords];
__constant__ std::uint32_t c_alpha[kGpuMaxStateWords];
__constant__ std::uint32_t c_field[4][3];  // p, −p⁻¹ mod 2^32, R² mod p (mont31::Field)

__device__ __forceinline__ mont31::Field field_of(int i) {
  return mont31::Field{c_field[i][0], c_field[i][1], c_field[i][2]};
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw gpu::GpuError(std::string(what) + " failed: " + cudaGetErrorString(e));
}

struct Params {
  std::uint64_t first, end, chunk, task0, tasks;
  std::uint32_t S, L;
};

struct Out {
  unsigned long long mismatches, first, steps;
};

// out = v·M_σ for every prime (state words prime-major, i·D + a).
template <int D, int K>
__device__ __forceinline__ void step_at(const std::uint32_t* __restrict__ v,
                                        const std::uint32_t* __restrict__ M,
                                        std::uint32_t* __restrict__ out) {
#pragma unroll
  for (int i = 0; i < K; ++i) {
    const mont31::Field f = field_of(i);
    std::uint32_t vr[D];
#pragma unroll
    for (int a = 0; a < D; ++a) vr[a] = v[i * D + a];
    const std::uint32_t* m = M + i * D * D;
#pragma unroll
    for (int b = 0; b < D; ++b) {
      std::uint32_t acc = 0;
#pragma unroll
      for (int a = 0; a < D; ++a) acc = mont31::add(acc, mont31::mul(vr[a], m[a * D + b], f), f);
      out[i * D + b] = acc;
    }
  }
}

// σ is uniform across a warp (aligned tasks walk in lock step), so the switch does not diverge.
template <int D, int K>
__device__ __forceinline__ void step_dev(const std::uint32_t* __restrict__ v, std::uint32_t sigma,
                                         std::uint32_t* __restrict__ out) {
  if constexpr (D * K > 16) {  // the larger kernels take the entries by address (compile time)
    step_at<D, K>(v, c_M + sigma * K * D * D, out);
    return;
  }
  switch (sigma) {
    case 0:
      step_at<D, K>(v, c_M, out);
      break;
    case 1:
      step_at<D, K>(v, c_M + 1 * K * D * D, out);
      break;
    case 2:
      step_at<D, K>(v, c_M + 2 * K * D * D, out);
      break;
    default:
      step_at<D, K>(v, c_M + sigma * K * D * D, out);
      break;
  }
}

template <int D, int K>
__device__ __forceinline__ bool differs_dev(const std::uint32_t* __restrict__ v,
                                            std::uint32_t sigma) {
  bool any = false;
#pragma unroll
  for (int i = 0; i < K; ++i) {
    const mont31::Field f = field_of(i);
    const std::uint32_t* o = c_O + (sigma * K + i) * D;
    std::uint32_t y = 0;
#pragma unroll
    for (int a = 0; a < D; ++a) y = mont31::add(y, mont31::mul(v[i * D + a], o[a], f), f);
    any = any || y != 0;
  }
  return any;
}

template <int D, int K>
__global__ void __launch_bounds__(256) walk_kernel(Params p, Out* out) {
  const std::uint64_t task =
      p.task0 + blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  std::uint64_t mism = 0, first = kNone;
  std::uint32_t steps = 0;
  if (task < p.tasks) {
    const std::uint64_t base = p.first / p.chunk * p.chunk + task * p.chunk;
    const std::uint64_t lo = base > p.first ? base : p.first;
    const std::uint64_t hi = base + p.chunk < p.end ? base + p.chunk : p.end;
    constexpr int W = D * K;
    std::uint32_t stack[kMaxLength * W];
    std::uint32_t digits[kMaxLength];
    const std::uint32_t L = p.L, S = p.S;
    std::uint64_t n = lo;
    for (std::uint32_t j = L; j-- > 0;) {
      digits[j] = static_cast<std::uint32_t>(n % S);
      n /= S;
    }
#pragma unroll
    for (int a = 0; a < W; ++a) stack[a] = c_alpha[a];
    std::uint32_t from = 1;
    for (n = lo;; ++n) {
      for (std::uint32_t j = from; j < L; ++j)
        step_dev<D, K>(stack + (j - 1) * W, digits[j - 1], stack + j * W);
      steps += L - from;
      if (differs_dev<D, K>(stack + (L - 1) * W, digits[L - 1]) && mism++ == 0) first = n;
      if (n + 1 == hi) break;
      std::uint32_t j = L - 1;
      while (digits[j] == S - 1) digits[j--] = 0;
      ++digits[j];
      from = j + 1;
    }
  }
  // Warp reductions, then one atomic per warp.
  unsigned long long s = steps, m = mism, f = first;
  for (int o = 16; o > 0; o >>= 1) {
    s += __shfl_down_sync(0xffffffffu, s, o);
    m += __shfl_down_sync(0xffffffffu, m, o);
    const unsigned long long g = __shfl_down_sync(0xffffffffu, f, o);
    f = g < f ? g : f;
  }
  if ((threadIdx.x & 31) == 0) {
    if (s) atomicAdd(&out->steps, s);
    if (m) {
      atomicAdd(&out->mismatches, m);
      atomicMin(&out->first, f);
    }
  }
}

template <int D, int K>
void launch(const Params& p, std::uint32_t threads, Out* out) {
  const std::uint64_t blocks = (p.tasks - p.task0 + threads - 1) / threads;
  walk_kernel<D, K><<<static_cast<unsigned>(blocks), threads>>>(p, out);
}

}  // namespace

GpuRun walk_gpu(const Tables& t, std::uint64_t first, std::uint64_t count, std::uint64_t chunk,
                std::uint32_t threads) {
  const gpu::DeviceInfo dev = gpu::probe();
  if (!dev.available) throw gpu::GpuError(dev.why_not);
  if (threads == 0 || threads % 32 != 0 || threads > 256)
    throw gpu::GpuError("prefix sharing: threads per block must be a multiple of 32 up to 256");
  if (!gpu_fits(t.dim, t.primes, t.symbols))
    throw gpu::GpuError("prefix sharing on the GPU: dimension " + std::to_string(t.dim) + " with " +
                        std::to_string(t.primes) + " primes and " + std::to_string(t.symbols) +
                        " symbols exceeds the kernels (prefix_walk.hpp, gpu_fits)");
  const std::uint32_t D = gpu_padded_dim(t.dim), K = gpu_padded_primes(t.primes);
  const std::uint32_t S = t.symbols, d = t.dim;
  // Pad: rows and columns d..D zero; primes t.primes..K repeat the last one.
  std::vector<std::uint32_t> M(static_cast<std::size_t>(S) * K * D * D, 0),
      O(static_cast<std::size_t>(S) * K * D, 0), alpha(static_cast<std::size_t>(K) * D, 0),
      fields(12, 0);
  for (std::uint32_t i = 0; i < K; ++i) {
    const std::uint32_t src = i < t.primes ? i : t.primes - 1;
    fields[3 * i] = t.field[src].p;
    fields[3 * i + 1] = t.field[src].p_neg_inv;
    fields[3 * i + 2] = t.field[src].r2;
    for (std::uint32_t a = 0; a < d; ++a) alpha[i * D + a] = t.alpha[src * d + a];
    for (std::uint32_t c = 0; c < S; ++c)
      for (std::uint32_t a = 0; a < d; ++a) {
        for (std::uint32_t b = 0; b < d; ++b)
          M[((c * K + i) * D + a) * D + b] = t.M[((src * S + c) * d + a) * d + b];
        O[(c * K + i) * D + a] = t.O[(src * S + c) * d + a];
      }
  }
  check(cudaMemcpyToSymbol(c_M, M.data(), M.size() * 4), "cudaMemcpyToSymbol(M)");
  check(cudaMemcpyToSymbol(c_O, O.data(), O.size() * 4), "cudaMemcpyToSymbol(O)");
  check(cudaMemcpyToSymbol(c_alpha, alpha.data(), alpha.size() * 4), "cudaMemcpyToSymbol(alpha)");
  check(cudaMemcpyToSymbol(c_field, fields.data(), fields.size() * 4),
        "cudaMemcpyToSymbol(fields)");
  gpu::detail::Buffer<Out> dout(1, "the prefix walk's result");
  const Out init{0, kNone, 0};
  dout.upload(&init, "the prefix walk's result");
  Params p{first, first + count, chunk, 0, 0, S, t.length};
  p.tasks = (first + count - 1) / chunk - first / chunk + 1;
  // Launches of at most 2^24 tasks each (a grid of 2^16 blocks of 256).
  const std::uint64_t per_launch = std::uint64_t{1} << 24;
  const double seconds = gpu::detail::timed_launches("the prefix walk kernels", [&] {
    for (std::uint64_t t0 = 0; t0 < p.tasks; t0 += per_launch) {
      Params q = p;
      q.task0 = t0;
      q.tasks = std::min(p.tasks, t0 + per_launch);
      if (D == 8 && K == 1)
        launch<8, 1>(q, threads, dout.p);
      else if (D == 8 && K == 2)
        launch<8, 2>(q, threads, dout.p);
      else if (D == 8 && K == 4)
        launch<8, 4>(q, threads, dout.p);
      else if (D == 16 && K == 1)
        launch<16, 1>(q, threads, dout.p);
      else if (D == 16 && K == 2)
        launch<16, 2>(q, threads, dout.p);
      else
        launch<32, 1>(q, threads, dout.p);
      check(cudaGetLastError(), "walk_kernel launch");
    }
  });
  const Out res = dout.download("the prefix walk's result")[0];
  GpuRun r;
  r.result.mismatches = res.mismatches;
  r.result.first = res.first;
  r.result.steps = res.steps;
  r.kernel_seconds = seconds;
  r.device = dev.name;
  return r;
}

}  // namespace rnncc::prefix
