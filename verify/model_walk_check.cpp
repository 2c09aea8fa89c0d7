#include "verify/model_walk_check.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/task_pool.hpp"
#include "verify/cuda/model_walk_gpu.hpp"

namespace rnncc {

namespace {

// Why a subject is refused, thrown inside the builder and turned into std::nullopt.
struct NotWalkable {
  std::string why;
};

// Appends matrices to the flat parameter array, row-major; every entry an integer below 2^62
// in magnitude (so a product's check, not its operands', decides overflow).
struct Params {
  std::vector<std::int64_t> words;
  std::uint32_t put(const Matrix<Rational>& m, const std::string& what) {
    const auto at = static_cast<std::uint32_t>(words.size());
    for (std::size_t i = 0; i < m.rows(); ++i)
      for (std::size_t j = 0; j < m.cols(); ++j) words.push_back(integer(m(i, j), what));
    return at;
  }
  std::uint32_t zeros(std::size_t n) {
    const auto at = static_cast<std::uint32_t>(words.size());
    words.resize(words.size() + n, 0);
    return at;
  }
  static std::int64_t integer(const Rational& x, const std::string& what) {
    if (denominator(x) != 1)
      throw NotWalkable{fmt::format("{} has the non-integer entry {}", what, to_string(x))};
    const Integer z = numerator(x);
    if (abs(z) >= (Integer(1) << 62))
      throw NotWalkable{fmt::format("{} has an entry of {} bits", what, bit_length(z))};
    return z.convert_to<std::int64_t>();
  }
};

void fits(std::size_t n, const std::string& what) {
  if (n == 0 || n > mwalk::kMaxVector)
    throw NotWalkable{
        fmt::format("{} has {} entries (the walk takes 1..{})", what, n, mwalk::kMaxVector)};
}

mwalk::LayerTable lrnn_table(const LrnnLayer& l, Params& P, const std::string& at) {
  mwalk::LayerTable t;
  t.kind = mwalk::Kind::lrnn;
  t.d = static_cast<std::uint32_t>(l.d);
  t.m = static_cast<std::uint32_t>(l.m);
  t.r = static_cast<std::uint32_t>(l.readout.rows());
  t.out = t.r * t.m;
  fits(l.d * l.m, at + "'s state");
  fits(t.out, at + "'s output");
  // Diagonal storage only where every A_k is diagonal (then A(z)·S is entrywise).
  bool diagonal = true;
  for (const auto& A : l.A)
    for (std::size_t i = 0; i < l.d && diagonal; ++i)
      for (std::size_t j = 0; j < l.d && diagonal; ++j) diagonal = i == j || A(i, j) == 0;
  t.diag = diagonal;
  for (std::size_t f = 0; f < l.features; ++f) {
    const std::string what = fmt::format("{} A of feature {}", at, f);
    if (diagonal) {
      const std::uint32_t off = P.zeros(0);
      for (std::size_t i = 0; i < l.d; ++i) P.words.push_back(Params::integer(l.A[f](i, i), what));
      if (f == 0) t.A = off;
    } else {
      const std::uint32_t off = P.put(l.A[f], what);
      if (f == 0) t.A = off;
    }
  }
  for (std::size_t f = 0; f < l.features; ++f) {
    const std::uint32_t off = P.put(l.B[f], fmt::format("{} B of feature {}", at, f));
    if (f == 0) t.B = off;
  }
  t.C = P.put(l.readout, at + " readout");
  for (std::size_t f = 0; f < l.readout_feature.size(); ++f) {
    const std::uint32_t off = P.put(l.readout_feature[f], fmt::format("{} C of feature {}", at, f));
    if (f == 0) t.Cf = off;
  }
  if (!l.readout_bias.empty()) t.c0 = P.put(l.readout_bias, at + " readout_bias");
  t.S0 = P.put(l.initial_state, at + " initial_state");
  return t;
}

mwalk::LayerTable elman_table(const ElmanLayer& l, Params& P, const std::string& at) {
  mwalk::LayerTable t;
  t.kind = l.activation == Activation::relu ? mwalk::Kind::elman_relu : mwalk::Kind::elman_sign;
  t.d = static_cast<std::uint32_t>(l.d);
  t.m = 1;
  t.r = static_cast<std::uint32_t>(l.readout.rows());
  t.out = t.r;
  fits(l.d, at + "'s state");
  fits(t.out, at + "'s output");
  t.A = P.put(l.pre.W, at + " W");
  t.B = P.put(l.pre.U, at + " U");
  t.bias = l.pre.bias.empty() ? P.zeros(l.d) : P.put(l.pre.bias, at + " bias");
  t.C = P.put(l.readout, at + " readout");
  if (!l.readout_bias.empty()) t.c0 = P.put(l.readout_bias, at + " readout_bias");
  t.S0 = P.put(l.initial_state, at + " initial_state");
  return t;
}

mwalk::LayerTable attention_table(const AttentionLayer& l, Params& P, const std::string& at) {
  if (l.kind != AttentionKind::unique_hard)
    throw NotWalkable{
        fmt::format("{} is {} attention (the walk takes unique_hard: averaging "
                    "divides, softmax is not exact)",
                    at, to_string(l.kind))};
  mwalk::LayerTable t;
  t.kind = mwalk::Kind::attention;
  t.d = static_cast<std::uint32_t>(l.key_size());
  t.m = 0;
  t.r = static_cast<std::uint32_t>(l.value_size());
  t.out = static_cast<std::uint32_t>(l.output_rows());
  fits(t.d, at + "'s key");
  fits(t.r, at + "'s value");
  fits(t.out, at + "'s output");
  t.A = P.put(l.query.weights, at + " query/weights");
  t.bq = P.put(l.query.bias, at + " query/bias");
  t.B = P.put(l.key.weights, at + " key/weights");
  t.bk = P.put(l.key.bias, at + " key/bias");
  t.C = P.put(l.value.weights, at + " value/weights");
  t.bv = P.put(l.value.bias, at + " value/bias");
  t.lambda = Params::integer(l.position_bias, at + " position_bias");
  t.window = l.window ? static_cast<std::uint32_t>(std::min<std::size_t>(*l.window, 1u << 30)) : 0;
  t.tie_rightmost = l.tie == TieRule::rightmost;
  t.residual = l.residual;
  return t;
}

void build_layers(const Construction& c, ModelWalkSubject& s) {
  const Model& model = c.model;
  if (model.layers.empty()) throw NotWalkable{"X has no layers"};
  if (model.layers.size() > mwalk::kMaxLayers)
    throw NotWalkable{fmt::format("X has {} layers (the walk takes up to {})", model.layers.size(),
                                  mwalk::kMaxLayers)};
  Params P;
  mwalk::Tables& t = s.tables;
  std::uint32_t frame = 0, z_size = static_cast<std::uint32_t>(model.alphabet.size());
  fits(z_size, "the alphabet");
  for (std::size_t l = 0; l < model.layers.size(); ++l) {
    const StackLayer& sl = model.layers[l];
    const std::string at = fmt::format("layer {}", l);
    std::uint32_t in_w = mwalk::kNoTable, in_b = mwalk::kNoTable;
    if (sl.input && l > 0) {
      in_w = P.put(sl.input->weights, at + " input_map/weights");
      if (!sl.input->bias.empty()) in_b = P.put(sl.input->bias, at + " input_map/bias");
      z_size = static_cast<std::uint32_t>(sl.input->weights.rows());
      fits(z_size, at + "'s input");
    }
    mwalk::LayerTable lt;
    if (const auto* lr = std::get_if<LrnnLayer>(&sl.layer))
      lt = lrnn_table(*lr, P, at);
    else if (const auto* el = std::get_if<ElmanLayer>(&sl.layer))
      lt = elman_table(*el, P, at);
    else if (const auto* al = std::get_if<AttentionLayer>(&sl.layer))
      lt = attention_table(*al, P, at);
    else
      throw NotWalkable{at + " is an LSTM cell (hard sigmoids halve: not integer)"};
    if (input_features(sl.layer) != z_size)
      throw NotWalkable{fmt::format("{} reads {} features, its input has {}", at,
                                    input_features(sl.layer), z_size)};
    lt.features = z_size;
    lt.in_w = in_w;
    lt.in_b = in_b;
    // The frame: [state][output] for LRNN and Elman layers, [key][value][output] for attention.
    if (lt.kind == mwalk::Kind::attention) {
      lt.key_at = frame;
      lt.value_at = frame + lt.d;
      frame += lt.d + lt.r;
    } else {
      lt.state_at = frame;
      frame += lt.d * lt.m;
    }
    lt.out_at = frame;
    frame += lt.out;
    t.layer[l] = lt;
  }
  t.layers = static_cast<std::uint32_t>(model.layers.size());
  t.frame_words = frame;
  const mwalk::LayerTable& last = t.layer[t.layers - 1];
  const std::uint32_t cols = last.kind == mwalk::Kind::lrnn ? last.m : 1;
  if (c.out_row * cols + c.out_col >= last.out || c.out_col >= cols)
    throw NotWalkable{"the compared output is not in X's last layer"};
  t.compared = static_cast<std::uint32_t>(c.out_row * cols + c.out_col);
  t.symbols = static_cast<std::uint32_t>(model.alphabet.size());
  s.parameters = std::move(P.words);
  s.fix_pointer();
}

void build_spec(const Construction& c, ModelWalkSubject& s) {
  const auto& spec = c.target.boolean_spec;
  auto param = [&](const char* name) {
    const auto it = spec.parameters.find(name);
    if (it == spec.parameters.end())
      throw NotWalkable{fmt::format("f's {} parameters lack {}", spec.kind, name)};
    return static_cast<std::uint32_t>(it->second);
  };
  mwalk::Tables& t = s.tables;
  if (spec.kind == "selective-copy") {
    t.spec = mwalk::Spec::selective_copy;
    t.spec_a = param("K");
    t.spec_b = param("N");
    if (t.spec_a + t.spec_b != c.target.alphabet.size())
      throw NotWalkable{"f's alphabet is not K data symbols and N numbers"};
  } else if (spec.kind == "assoc-recall") {
    t.spec = mwalk::Spec::assoc_recall;
    t.spec_a = param("keys");
    t.spec_b = param("values");
    t.spec_c = param("span");
    if (2 * t.spec_a + t.spec_b != c.target.alphabet.size())
      throw NotWalkable{"f's alphabet is not k keys, v values and k queries"};
  } else {
    throw NotWalkable{spec.kind.empty()
                          ? "f is not one of the walk's tasks (selective-copy, assoc-recall)"
                          : "f (" + spec.kind +
                                ") is not one of the walk's tasks "
                                "(selective-copy, assoc-recall)"};
  }
  s.spec = spec.kind;
}

void merge(mwalk::WalkResult& into, const mwalk::WalkResult& w) {
  into.first = std::min(into.first, w.first);
  into.first_overflow = std::min(into.first_overflow, w.first_overflow);
  into.mismatches += w.mismatches;
  into.skipped += w.skipped;
  into.overflowed += w.overflowed;
  into.steps += w.steps;
}

// Every core over the tasks (|Σ|^s aligned strings each; algebra/task_pool.hpp), merged in any
// order: counts add, the least string wins.
mwalk::WalkResult walk_cpu(const mwalk::Tables& t, std::uint64_t first, std::uint64_t count,
                           std::uint64_t chunk, unsigned threads) {
  const std::uint64_t end = first + count;
  const std::uint64_t first_chunk = first / chunk, last_chunk = (end - 1) / chunk;
  struct Worker {
    std::vector<std::int64_t> stack;
    std::vector<std::uint32_t> digits;
    std::unique_ptr<bool[]> bad;
    mwalk::WalkResult r;
  };
  const auto workers = run_tasks(
      last_chunk - first_chunk + 1, threads,
      [&] {
        return Worker{
            std::vector<std::int64_t>(static_cast<std::size_t>(t.length + 1) * t.frame_words),
            std::vector<std::uint32_t>(t.length),
            std::make_unique<bool[]>(t.length + 1),
            {}};
      },
      [&](Worker& w, std::uint64_t k) {
        const std::uint64_t lo = std::max(first, (first_chunk + k) * chunk);
        const std::uint64_t hi = std::min(end, (first_chunk + k + 1) * chunk);
        merge(w.r, mwalk::walk(t, lo, hi - lo, w.stack.data(), w.digits.data(), w.bad.get()));
      });
  mwalk::WalkResult all;
  for (const auto& w : workers) merge(all, w.r);
  return all;
}

}  // namespace

std::optional<ModelWalkSubject> model_walk_subject(const Construction& c, std::string* why) {
  try {
    if (c.modulus) throw NotWalkable{"X computes mod a prime"};
    if (c.target.fixed_length) throw NotWalkable{"f has a fixed length"};
    if (c.model.alphabet.symbols() != c.target.alphabet.symbols())
      throw NotWalkable{"X's alphabet is not f's"};
    // encode must be the identity: every symbol alone, and a string of every symbol in turn.
    std::vector<std::size_t> all;
    for (std::size_t s = 0; s < c.target.alphabet.size(); ++s) {
      all.push_back(s);
      if (c.encode({s}) != std::vector<std::size_t>{s})
        throw NotWalkable{"encode is not the identity"};
    }
    if (c.encode(all) != all) throw NotWalkable{"encode is not the identity"};
    ModelWalkSubject s;
    build_spec(c, s);
    build_layers(c, s);
    return s;
  } catch (const NotWalkable& e) {
    if (why) *why = e.why;
    return std::nullopt;
  }
}

std::optional<std::string> model_walk_not_applicable(const ModelWalkSubject& s, std::size_t length,
                                                     CheckDevice device) {
  if (length == 0) return std::string("X has no output at length 0");
  if (length > mwalk::kMaxLength)
    return fmt::format("length {} is over the walk's {}", length, mwalk::kMaxLength);
  if (device == CheckDevice::gpu && s.parameters.size() > mwalk::kGpuMaxParameters)
    return fmt::format("{} parameters are over the GPU's constant memory ({})", s.parameters.size(),
                       mwalk::kGpuMaxParameters);
  return std::nullopt;
}

std::uint32_t model_walk_suffix_depth(std::uint64_t symbols, std::size_t length, CheckDevice device,
                                      std::uint32_t asked) {
  std::uint32_t sd = asked;
  if (sd == 0) {  // |Σ|^s ≈ 2^16 strings a CPU task, 2^10 a GPU thread
    const double log2_want = device == CheckDevice::gpu ? 10 : 16;
    sd = static_cast<std::uint32_t>(std::max(
        1.0, std::floor(log2_want * std::log(2.0) / std::log(static_cast<double>(symbols)))));
  }
  return static_cast<std::uint32_t>(std::min<std::size_t>(sd, length == 0 ? 0 : length - 1));
}

DeviceCheckReport model_walk_check(const ModelWalkSubject& subject, const ModelWalkOptions& o) {
  const std::size_t L = o.length;
  if (auto no = model_walk_not_applicable(subject, L, o.device))
    throw InputError("--exhaustive", "the model walk does not apply: " + *no);
  const std::uint64_t S = subject.tables.symbols;
  const std::uint64_t count = slice_of_strings(S, L, o.first, o.count);
  mwalk::Tables t = subject.tables;
  t.P = subject.parameters.data();
  t.length = static_cast<std::uint32_t>(L);

  const std::uint32_t sd = model_walk_suffix_depth(S, L, o.device, o.suffix_depth);
  std::uint64_t chunk = 1;
  for (std::uint32_t j = 0; j < sd; ++j) chunk *= S;

  DeviceCheckReport rep;
  rep.method = kModelWalkMethod;
  rep.strings = count;
  rep.runs = 1;
  rep.gates = t.frame_words;
  const auto t0 = std::chrono::steady_clock::now();
  mwalk::WalkResult r;
  if (o.device == CheckDevice::gpu) {
    const mwalk::GpuRun g =
        mwalk::walk_gpu(t, subject.parameters.size(), o.first, count, chunk, o.gpu_threads);
    r = g.result;
    rep.device = g.device;
    rep.kernel_seconds = g.kernel_seconds;
  } else if (o.plain) {
    std::vector<std::int64_t> stack(static_cast<std::size_t>(L + 1) * t.frame_words);
    std::vector<std::uint32_t> digits(L);
    r = mwalk::walk_plain(t, o.first, count, stack.data(), digits.data());
    rep.device = "cpu (plain twin, per string from scratch)";
  } else {
    const unsigned th =
        o.cpu_threads ? o.cpu_threads : std::max(1u, std::thread::hardware_concurrency());
    r = walk_cpu(t, o.first, count, chunk, th);
    rep.device = fmt::format("cpu ({} thread{})", th, th == 1 ? "" : "s");
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rep.mismatches = r.mismatches;
  rep.skipped = r.skipped;
  rep.overflowed = r.overflowed;
  rep.exact = r.overflowed == 0;
  auto string_of = [&](std::uint64_t n) {
    std::vector<std::uint32_t> dg(L);
    mwalk::digits_of(n, static_cast<std::uint32_t>(S), static_cast<std::uint32_t>(L), dg.data());
    return std::vector<std::size_t>(dg.begin(), dg.end());
  };
  if (r.mismatches) rep.first_counterexample = string_of(r.first);
  if (r.overflowed) rep.first_overflow = string_of(r.first_overflow);
  rep.steps = r.steps;  // model steps (one position through every layer)
  const double secs = o.device == CheckDevice::gpu ? rep.kernel_seconds : rep.seconds;
  rep.gate_evaluations_per_second = secs > 0 ? static_cast<double>(r.steps) / secs : 0;
  return rep;
}

}  // namespace rnncc
