// The inner loop of exhaustive checks of nonlinear and hybrid models by prefix sharing
// (verify/model_walk_check.hpp), one definition for the CPU and the GPU
// (verify/cuda/model_walk.cu): the same functions run on both, so the two agree bit for bit.
//
// The subject is a model X with integer parameters whose layers are LRNN layers (any family:
// S_t = A(z_t)·S_{t−1} + B(z_t), y_t = (C + Σ_f z_f C_f)·S_t + c₀), Elman layers
// (h_t = act(W h_{t−1} + U z_t + b), act = ReLU or sign, y_t = C h_t + c₀) and unique-hard
// attention layers (q, k, v affine in z_t; score(t, s) = q_tᵀk_s + λ·s over the window;
// argmax with the tie rule; optionally residual), stacked as rnn/model.hpp says: layer 1 reads
// the one-hot x_t, layer ℓ > 1 reads W·vec(y_t^{ℓ−1}) + b. These are the semantics of
// rnn/evaluate.hpp; with integer parameters every value is an integer and exact in 64 bits
// until a multiplication or addition overflows, which the walk detects (checked arithmetic)
// and reports per string instead of comparing.
//
// The walk: frame p holds every layer's state and output after position p (frame 0: the
// initial states), and for attention layers the key k_p and value v_p. Strings of Σ^L are
// taken in lexicographic order (w₁ the most significant digit); stepping n → n + 1 changes the
// digits from the lowest carried position t on, so only frames t..L are recomputed. Attention at
// position p reads the keys and values of the frames of its window, which are exactly the
// prefix's: the incremental KV state is the stack itself. Over |Σ|^s aligned strings that is
// Σ_j |Σ|^j ≈ |Σ|^s·|Σ|/(|Σ| − 1) steps instead of L·|Σ|^s (walk_plain, the plain twin).
//
// At the leaf (|w| = L) the compared output y_L[out_row][out_col] goes against f(w), computed
// from the digits by the task's own definition (Spec below, each written from the
// construction's f and tested equal to Target::value); strings outside f's promise are counted
// and skipped, as the CPU checker skips them.
#pragma once

#include <cstdint>

#include "algebra/host_device.hpp"
#include "verify/prefix_walk.hpp"

namespace rnncc::mwalk {

inline constexpr std::uint32_t kMaxLayers = 8;
inline constexpr std::uint32_t kMaxVector = 64;  // any z, state, output, key or value
inline constexpr std::uint32_t kMaxLength = 64;
inline constexpr std::uint32_t kNoTable = ~std::uint32_t{0};
inline constexpr std::uint64_t kNone = ~std::uint64_t{0};
// The GPU keeps the parameters in constant memory (64 KiB): 8 192 words less the layer table.
inline constexpr std::uint32_t kGpuMaxParameters = 7680;

enum class Kind : std::uint32_t { lrnn = 0, elman_relu = 1, elman_sign = 2, attention = 3 };

// f's definition, per task (constructions/retrieval.hpp has the tasks):
//   selective_copy  a = K data symbols (ids 0..K−1), b = N number tokens (ids K..K+N−1);
//                   n = the value of the latest number token; promise 1 ≤ n ≤ L;
//                   f = id(w_{L+1−n}).
//   assoc_recall    a = k keys (ids 0..k−1), b = v values (k..k+v−1), queries k+v..2k+v−1,
//                   c = span; s* = the latest value position bound to the key of the latest
//                   query (a value is bound to the latest key before it); promise s* exists and
//                   s* > L − span; f = the value's index.
enum class Spec : std::uint32_t { selective_copy = 0, assoc_recall = 1 };

// Parameters are int64 words in one flat array P; a matrix is row-major at an offset.
struct LayerTable {
  Kind kind = Kind::lrnn;
  std::uint32_t features = 0;  // k: the size of z_t (layer 1: |Σ|, one-hot)
  // z = W·y_below + b (k × below.out; b: k words or kNoTable); in_w = kNoTable: the z below
  std::uint32_t in_w = kNoTable, in_b = kNoTable;
  std::uint32_t d = 0, m = 1;  // LRNN state d×m; Elman d; attention: the key size h in d
  std::uint32_t r = 0;         // readout rows (LRNN, Elman) or value size (attention)
  std::uint32_t out = 0;       // output words: r·m, r, or (residual ? k : 0) + r
  // LRNN: A (per feature: d diagonal entries if diag, else d×d), B (per feature d×m), C (r×d),
  // Cf (per feature r×d, or kNoTable), c0 (r×m or kNoTable), S0 (d×m).
  // Elman: A = W (d×d), B = U (d×k), C (r×d), c0 (r or kNoTable), S0 = h0 (d), bias (d).
  // Attention: A = W_Q (h×k), B = W_K (h×k), C = W_V (r×k), bq, bk, bv; lambda, window (0:
  // none), tie (1: rightmost), residual.
  std::uint32_t diag = 0;
  std::uint32_t A = kNoTable, B = kNoTable, C = kNoTable, Cf = kNoTable, c0 = kNoTable;
  std::uint32_t S0 = kNoTable, bias = kNoTable;
  std::uint32_t bq = kNoTable, bk = kNoTable, bv = kNoTable;
  std::int64_t lambda = 0;
  std::uint32_t window = 0, tie_rightmost = 1, residual = 0;
  std::uint32_t state_at = 0, out_at = 0, key_at = 0, value_at = 0;  // offsets in a frame
};

struct Tables {
  std::uint32_t symbols = 0, length = 0, layers = 0, frame_words = 0;
  std::uint32_t compared = 0;  // index of y[out_row][out_col] in the last layer's output
  Spec spec = Spec::selective_copy;
  std::uint32_t spec_a = 0, spec_b = 0, spec_c = 0;
  LayerTable layer[kMaxLayers];
  const std::int64_t* P = nullptr;
};

struct WalkResult {
  std::uint64_t mismatches = 0;
  std::uint64_t first = kNone;   // the least mismatching string number
  std::uint64_t skipped = 0;     // outside f's promise
  std::uint64_t overflowed = 0;  // a value left 64 bits: not compared
  std::uint64_t first_overflow = kNone;
  std::uint64_t steps = 0;  // model steps (one position through every layer)
};

// ---- checked 64-bit arithmetic: `bad` records an overflow ----------------------------------

RNNCC_HD std::int64_t add_c(std::int64_t a, std::int64_t b, bool& bad) {
  const std::int64_t r =
      static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
  bad = bad || ((a ^ r) & (b ^ r)) < 0;
  return r;
}
RNNCC_HD std::int64_t mul_c(std::int64_t a, std::int64_t b, bool& bad) {
#ifdef __CUDA_ARCH__
  const std::int64_t lo =
      static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
  const std::int64_t hi = __mul64hi(a, b);
  bad = bad || hi != (lo >> 63);
  return lo;
#else
  std::int64_t r;
  const bool over = __builtin_mul_overflow(a, b, &r);
  bad = bad || over;
  return r;
#endif
}

// y = W·x + b (rows × cols; b may be kNoTable), checked.
RNNCC_HD void affine(const std::int64_t* P, std::uint32_t W, std::uint32_t b, std::uint32_t rows,
                     std::uint32_t cols, const std::int64_t* x, std::int64_t* y, bool& bad) {
  for (std::uint32_t i = 0; i < rows; ++i) {
    std::int64_t acc = b == kNoTable ? 0 : P[b + i];
    const std::int64_t* w = P + W + static_cast<std::uint64_t>(i) * cols;
    for (std::uint32_t j = 0; j < cols; ++j)
      if (x[j] != 0 && w[j] != 0) acc = add_c(acc, mul_c(w[j], x[j], bad), bad);
    y[i] = acc;
  }
}

// Frame p (position p, 1-based) from frame p − 1 and, for attention, the frames of its window.
// `stack` holds frames 0..L, frame_words each. Returns false when a value overflowed.
RNNCC_HD bool step(const Tables& t, std::int64_t* stack, std::uint32_t p, std::uint32_t sigma) {
  bool bad = false;
  const std::uint32_t F = t.frame_words;
  std::int64_t* cur = stack + static_cast<std::uint64_t>(p) * F;
  const std::int64_t* prev = cur - F;
  const std::int64_t* P = t.P;
  std::int64_t z[kMaxVector];
  for (std::uint32_t l = 0; l < t.layers; ++l) {
    const LayerTable& L = t.layer[l];
    const std::uint32_t k = L.features;
    if (l == 0) {
      for (std::uint32_t f = 0; f < k; ++f) z[f] = f == sigma ? 1 : 0;
    } else if (L.in_w != kNoTable) {
      const LayerTable& below = t.layer[l - 1];
      affine(P, L.in_w, L.in_b, k, below.out, cur + below.out_at, z, bad);
    }  // no input map: the layer reads the z of the layer below (rnn/evaluate.hpp)
    std::int64_t* y = cur + L.out_at;
    if (L.kind == Kind::lrnn) {
      const std::uint32_t d = L.d, m = L.m;
      const std::int64_t* S = prev + L.state_at;
      std::int64_t* Sn = cur + L.state_at;
      for (std::uint32_t i = 0; i < d * m; ++i) Sn[i] = 0;
      for (std::uint32_t f = 0; f < k; ++f) {  // S' = Σ_f z_f (A_f S + B_f)
        if (z[f] == 0) continue;
        const std::int64_t* B = P + L.B + static_cast<std::uint64_t>(f) * d * m;
        for (std::uint32_t i = 0; i < d; ++i)
          for (std::uint32_t j = 0; j < m; ++j) {
            std::int64_t acc = B[i * m + j];
            if (L.diag) {
              const std::int64_t a = P[L.A + static_cast<std::uint64_t>(f) * d + i];
              if (a != 0) acc = add_c(acc, mul_c(a, S[i * m + j], bad), bad);
            } else {
              const std::int64_t* A = P + L.A + static_cast<std::uint64_t>(f) * d * d + i * d;
              for (std::uint32_t a = 0; a < d; ++a)
                if (A[a] != 0) acc = add_c(acc, mul_c(A[a], S[a * m + j], bad), bad);
            }
            Sn[i * m + j] = add_c(Sn[i * m + j], mul_c(z[f], acc, bad), bad);
          }
      }
      for (std::uint32_t i = 0; i < L.r; ++i)  // y = (C + Σ_f z_f C_f) S' + c₀
        for (std::uint32_t j = 0; j < m; ++j) {
          std::int64_t acc = L.c0 == kNoTable ? 0 : P[L.c0 + i * m + j];
          for (std::uint32_t a = 0; a < d; ++a) {
            std::int64_t c = P[L.C + i * d + a];
            if (L.Cf != kNoTable)
              for (std::uint32_t f = 0; f < k; ++f)
                if (z[f] != 0)
                  c = add_c(
                      c,
                      mul_c(z[f], P[L.Cf + (static_cast<std::uint64_t>(f) * L.r + i) * d + a], bad),
                      bad);
            if (c != 0) acc = add_c(acc, mul_c(c, Sn[a * m + j], bad), bad);
          }
          y[i * m + j] = acc;
        }
    } else if (L.kind == Kind::elman_relu || L.kind == Kind::elman_sign) {
      const std::uint32_t d = L.d;
      const std::int64_t* h = prev + L.state_at;
      std::int64_t* hn = cur + L.state_at;
      for (std::uint32_t i = 0; i < d; ++i) {  // h' = act(W h + U z + b)
        std::int64_t acc = P[L.bias + i];
        for (std::uint32_t a = 0; a < d; ++a)
          if (h[a] != 0) acc = add_c(acc, mul_c(P[L.A + i * d + a], h[a], bad), bad);
        for (std::uint32_t f = 0; f < k; ++f)
          if (z[f] != 0) acc = add_c(acc, mul_c(P[L.B + i * k + f], z[f], bad), bad);
        hn[i] = L.kind == Kind::elman_relu ? (acc > 0 ? acc : 0) : (acc > 0) - (acc < 0);
      }
      affine(P, L.C, L.c0, L.r, d, hn, y, bad);
    } else {  // unique-hard attention
      const std::uint32_t h = L.d, r = L.r;
      std::int64_t q[kMaxVector];
      affine(P, L.A, L.bq, h, k, z, q, bad);
      affine(P, L.B, L.bk, h, k, z, cur + L.key_at, bad);
      affine(P, L.C, L.bv, r, k, z, cur + L.value_at, bad);
      const std::uint32_t first = L.window && p > L.window ? p - L.window + 1 : 1;
      std::int64_t best = 0;
      std::uint32_t pick = 0;
      for (std::uint32_t s = first; s <= p; ++s) {
        const std::int64_t* key = stack + static_cast<std::uint64_t>(s) * F + L.key_at;
        std::int64_t score = mul_c(L.lambda, static_cast<std::int64_t>(s), bad);
        for (std::uint32_t i = 0; i < h; ++i) score = add_c(score, mul_c(q[i], key[i], bad), bad);
        if (pick == 0 || score > best || (score == best && L.tie_rightmost)) {
          best = score;
          pick = s;
        }
      }
      const std::uint32_t off = L.residual ? k : 0;
      for (std::uint32_t i = 0; i < off; ++i) y[i] = z[i];
      const std::int64_t* v = stack + static_cast<std::uint64_t>(pick) * F + L.value_at;
      for (std::uint32_t i = 0; i < r; ++i) y[off + i] = v[i];
    }
  }
  return !bad;
}

// f(w) for w = digits[0..L) by the task's definition; false: w is outside the promise.
RNNCC_HD bool spec_value(const Tables& t, const std::uint32_t* w, std::uint32_t L,
                         std::int64_t& value) {
  if (t.spec == Spec::selective_copy) {
    const std::uint32_t K = t.spec_a, N = t.spec_b;
    std::uint32_t n = 0;
    for (std::uint32_t i = L; i-- > 0 && n == 0;)
      if (w[i] >= K && w[i] < K + N) n = w[i] - K + 1;
    if (n < 1 || n > L) return false;
    value = w[L - n];
    return true;
  }
  const std::uint32_t keys = t.spec_a, values = t.spec_b, span = t.spec_c;
  std::uint32_t want = 0;  // the key (1-based) of the latest query
  for (std::uint32_t i = L; i-- > 0 && want == 0;)
    if (w[i] >= keys + values) want = w[i] - keys - values + 1;
  if (want == 0) return false;
  std::uint32_t bound = 0, found = 0;  // the latest key so far; s* (1-based)
  for (std::uint32_t i = 0; i < L; ++i) {
    if (w[i] < keys) bound = w[i] + 1;
    if (w[i] >= keys && w[i] < keys + values && bound == want) found = i + 1;
  }
  if (found == 0 || found + span <= L) return false;
  value = static_cast<std::int64_t>(w[found - 1]) - keys;
  return true;
}

// digits[0..L) of string number n (digits[0] = w₁, the most significant): the linear walk's.
using prefix::digits_of;

// Frame 0: the initial states (LRNN S₀, Elman h₀); nothing else of it is read.
RNNCC_HD void initial_frame(const Tables& t, std::int64_t* frame) {
  for (std::uint32_t i = 0; i < t.frame_words; ++i) frame[i] = 0;
  for (std::uint32_t l = 0; l < t.layers; ++l) {
    const LayerTable& L = t.layer[l];
    if (L.kind == Kind::attention) continue;
    for (std::uint32_t i = 0; i < L.d * L.m; ++i) frame[L.state_at + i] = t.P[L.S0 + i];
  }
}

// One leaf: the string whose digits and last frame are given; `overflow` from its steps.
RNNCC_HD void leaf(const Tables& t, const std::uint32_t* digits, const std::int64_t* frame,
                   bool overflow, std::uint64_t n, WalkResult& r) {
  if (overflow) {
    if (r.overflowed++ == 0) r.first_overflow = n;
    return;
  }
  std::int64_t f = 0;
  if (!spec_value(t, digits, t.length, f)) {
    ++r.skipped;
    return;
  }
  const LayerTable& last = t.layer[t.layers - 1];
  if (frame[last.out_at + t.compared] != f && r.mismatches++ == 0) r.first = n;
}

// The strings [first, first + count) of Σ^L, L ≥ 1, by prefix sharing. `stack` holds
// (L + 1)·frame_words words, `digits` L words, `bad` L + 1 flags (bad[p]: some step ≤ p
// overflowed).
RNNCC_HD WalkResult walk(const Tables& t, std::uint64_t first, std::uint64_t count,
                         std::int64_t* stack, std::uint32_t* digits, bool* bad) {
  WalkResult r;
  if (count == 0) return r;
  const std::uint32_t L = t.length, S = t.symbols, F = t.frame_words;
  digits_of(first, S, L, digits);
  initial_frame(t, stack);
  bad[0] = false;
  std::uint32_t from = 1;  // positions from..L need recomputing
  for (std::uint64_t n = first;; ++n) {
    for (std::uint32_t p = from; p <= L; ++p)
      bad[p] = !step(t, stack, p, digits[p - 1]) || bad[p - 1];
    r.steps += L - from + 1;
    leaf(t, digits, stack + static_cast<std::uint64_t>(L) * F, bad[L], n, r);
    if (n - first + 1 == count) break;
    std::uint32_t j = L - 1;  // n + 1: the lowest changed digit is where the carry stops
    while (digits[j] == S - 1) digits[j--] = 0;
    ++digits[j];
    from = j + 1;  // position j + 1 reads digits[j]
  }
  return r;
}

// The plain twin: every string from scratch (L steps each), no sharing.
RNNCC_HD WalkResult walk_plain(const Tables& t, std::uint64_t first, std::uint64_t count,
                               std::int64_t* stack, std::uint32_t* digits) {
  WalkResult r;
  const std::uint32_t L = t.length;
  for (std::uint64_t n = first; n - first < count; ++n) {
    digits_of(n, t.symbols, L, digits);
    initial_frame(t, stack);
    bool ok = true;
    for (std::uint32_t p = 1; p <= L; ++p) ok = step(t, stack, p, digits[p - 1]) && ok;
    r.steps += L;
    leaf(t, digits, stack + static_cast<std::uint64_t>(L) * t.frame_words, !ok, n, r);
  }
  return r;
}

}  // namespace rnncc::mwalk
