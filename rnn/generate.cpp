#include "rnn/generate.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <variant>

#include "algebra/error.hpp"
#include "algebra/saturating.hpp"
#include "rnn/file_kind.hpp"
#include "rnn/json_cursor.hpp"
#include "rnn/model_json.hpp"

namespace rnncc {

bool GenerationRule::stops_on(std::size_t token) const {
  return std::find(stop.begin(), stop.end(), token) != stop.end();
}

void check_prompt(const Model& model, const std::vector<std::size_t>& prompt) {
  if (prompt.empty()) throw InputError("prompt", "generation needs a non-empty prompt");
  for (std::size_t i = 0; i < prompt.size(); ++i)
    if (prompt[i] >= model.alphabet.size())
      throw InputError("prompt", "token " + std::to_string(i + 1) + " has id " +
                                     std::to_string(prompt[i]) + ", outside the alphabet");
}

namespace {

// ---- Number types of the incremental evaluator: exact rationals, or checked int64 -----------
// The int64 type is exact (every operation is checked for overflow, which throws IntOverflow), so
// on integer parameters both give the same values; the tests compare them.

struct IntOverflow {};
struct NotInteger {};

struct I64 {
  std::int64_t v = 0;
  friend bool operator<(I64 a, I64 b) { return a.v < b.v; }
  friend bool operator==(I64 a, I64 b) { return a.v == b.v; }
};

inline Rational add(const Rational& a, const Rational& b) {
  return a + b;
}
inline Rational mul(const Rational& a, const Rational& b) {
  return a * b;
}
inline int sign(const Rational& a) {
  return a.sign();
}
inline Rational to_rat(const Rational& a) {
  return a;
}
inline bool is_zero(const Rational& a) {
  return a == 0;
}

inline I64 add(I64 a, I64 b) {
  I64 r;
  if (__builtin_add_overflow(a.v, b.v, &r.v)) throw IntOverflow{};
  return r;
}
inline I64 mul(I64 a, I64 b) {
  I64 r;
  if (__builtin_mul_overflow(a.v, b.v, &r.v)) throw IntOverflow{};
  return r;
}
inline int sign(I64 a) {
  return (a.v > 0) - (a.v < 0);
}
inline Rational to_rat(I64 a) {
  return Rational(static_cast<long>(a.v));
}
inline bool is_zero(I64 a) {
  return a.v == 0;
}

template <class T>
T from_rat(const Rational& q);
template <>
Rational from_rat<Rational>(const Rational& q) {
  return q;
}
template <>
I64 from_rat<I64>(const Rational& q) {
  if (denominator(q) != 1) throw NotInteger{};
  const Integer& n = numerator(q);
  if (n > Integer(INT64_MAX) || n < Integer(INT64_MIN)) throw NotInteger{};
  return I64{static_cast<std::int64_t>(n)};
}

// A small integer constant, without a detour through GMP for I64 (the hot loop uses these).
template <class T>
T konst(long x) {
  if constexpr (std::is_same_v<T, I64>)
    return I64{x};
  else
    return Rational(x);
}

template <class T>
T neg(const T& a) {
  return mul(a, konst<T>(-1));
}
template <class T>
T sub(const T& a, const T& b) {
  return add(a, neg(b));
}
template <class T>
T abs_of(const T& a) {
  return sign(a) < 0 ? neg(a) : a;
}
template <class T>
T zero() {
  return konst<T>(0);
}

template <class T>
struct Entry {
  std::uint32_t i, j;
  T v;
};

// A sparse matrix of converted parameters (zeros dropped).
template <class T>
struct Sparse {
  std::size_t rows = 0, cols = 0;
  std::vector<Entry<T>> nz;
};

template <class T>
Sparse<T> sparse(const Matrix<Rational>& m) {
  Sparse<T> s{m.rows(), m.cols(), {}};
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j)
      if (m(i, j) != 0)
        s.nz.push_back(
            {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j), from_rat<T>(m(i, j))});
  return s;
}

template <class T>
std::vector<T> dense(const Matrix<Rational>& m, std::size_t size) {
  std::vector<T> v(size, zero<T>());
  for (std::size_t i = 0; i < m.data().size(); ++i) v[i] = from_rat<T>(m.data()[i]);
  return v;
}

// out (rows×m, row-major) += scale · S·x, x a (cols×m) row-major block. Counts one unit of
// `work` per entry of S and column of x visited (IncrementalModel::work).
template <class T>
void mul_add(const Sparse<T>& s, const std::vector<T>& x, std::size_t m, const T& scale,
             std::vector<T>& out, std::uint64_t& work) {
  for (const Entry<T>& e : s.nz) {
    const T f = mul(scale, e.v);
    for (std::size_t c = 0; c < m; ++c) {
      ++work;
      if (!is_zero(x[e.j * m + c]))
        out[e.i * m + c] = add(out[e.i * m + c], mul(f, x[e.j * m + c]));
    }
  }
}

template <class T>
struct LrnnStep {
  std::size_t d, m;
  std::vector<Sparse<T>> A, B, Cf;
  Sparse<T> C;
  std::vector<T> c0;  // r×m, zeros when absent
  std::vector<T> S;
};

template <class T>
struct ElmanStep {
  Activation act;
  Sparse<T> W, U, C;
  std::vector<T> bias, c0, h;
};

template <class T>
struct AttnStep {
  AttentionKind kind;
  TieRule tie;
  Sparse<T> Wq, Wk, Wv;
  std::vector<T> bq, bk, bv;
  T lambda;
  std::optional<std::size_t> window;
  bool residual;
  std::size_t features, h, r;
  // Brute force: every position's key and value.
  std::vector<std::vector<T>> keys, values;
  // The parabola index: w ↦ (position, value) of the most recent (tie rightmost) or the oldest
  // (tie leftmost) position with key (w, w²).
  bool indexed = false;
  std::map<T, std::pair<std::size_t, std::vector<T>>> index;
};

template <class T>
std::vector<T> project(const Sparse<T>& W, const std::vector<T>& b, const std::vector<T>& z,
                       std::uint64_t& work) {
  std::vector<T> out = b;
  mul_add(W, z, 1, konst<T>(1), out, work);
  return out;
}

class IndexPrecondition : public InputError {
 public:
  using InputError::InputError;
};

template <class T>
struct Engine {
  std::size_t alphabet = 0;
  std::vector<std::optional<Sparse<T>>> input_w;
  std::vector<std::vector<T>> input_b;
  std::vector<std::variant<LrnnStep<T>, ElmanStep<T>, AttnStep<T>>> layers;
  std::vector<T> last;  // last layer output, row-major
  std::size_t last_rows = 0, last_cols = 0;
  std::vector<std::optional<std::size_t>> attended;
  std::size_t t = 0;  // positions fed
  T largest = zero<T>();
  std::uint64_t work = 0;  // IncrementalModel::work

  void see(const T& x) {
    ++work;
    const T a = abs_of(x);
    if (largest < a) largest = a;
  }
  void see(const std::vector<T>& xs) {
    for (const T& x : xs) see(x);
  }

  Engine(const Model& model, bool use_index) : alphabet(model.alphabet.size()) {
    for (std::size_t li = 0; li < model.layers.size(); ++li) {
      const StackLayer& sl = model.layers[li];
      const std::string where = "layer " + std::to_string(li);
      if (sl.input) {
        input_w.push_back(sparse<T>(sl.input->weights));
        input_b.push_back(dense<T>(sl.input->bias, sl.input->weights.rows()));
      } else {
        input_w.push_back(std::nullopt);
        input_b.push_back({});
      }
      if (auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
        LrnnStep<T> s;
        s.d = l->d;
        s.m = l->m;
        for (std::size_t f = 0; f < l->features; ++f) {
          s.A.push_back(sparse<T>(l->A[f]));
          s.B.push_back(sparse<T>(l->B[f]));
          if (!l->readout_feature.empty()) s.Cf.push_back(sparse<T>(l->readout_feature[f]));
        }
        s.C = sparse<T>(l->readout);
        s.c0 = dense<T>(l->readout_bias, l->readout.rows() * l->m);
        s.S = dense<T>(l->initial_state, l->d * l->m);
        layers.push_back(std::move(s));
      } else if (auto* e = std::get_if<ElmanLayer>(&sl.layer)) {
        ElmanStep<T> s;
        s.act = e->activation;
        s.W = sparse<T>(e->pre.W);
        s.U = sparse<T>(e->pre.U);
        s.C = sparse<T>(e->readout);
        s.bias = dense<T>(e->pre.bias, e->d);
        s.c0 = dense<T>(e->readout_bias, e->readout.rows());
        s.h = dense<T>(e->initial_state, e->d);
        layers.push_back(std::move(s));
      } else if (auto* a = std::get_if<AttentionLayer>(&sl.layer)) {
        if (a->kind == AttentionKind::softmax)
          throw InputError(where,
                           "softmax attention has no exact semantics; generation here is "
                           "exact (exp of a nonzero rational is irrational)");
        if (a->kind == AttentionKind::averaging_hard && !std::is_same_v<T, Rational>)
          throw NotInteger{};  // a mean needs division: run on rationals
        AttnStep<T> s{a->kind,
                      a->tie,
                      sparse<T>(a->query.weights),
                      sparse<T>(a->key.weights),
                      sparse<T>(a->value.weights),
                      dense<T>(a->query.bias, a->key_size()),
                      dense<T>(a->key.bias, a->key_size()),
                      dense<T>(a->value.bias, a->value_size()),
                      from_rat<T>(a->position_bias),
                      a->window,
                      a->residual,
                      a->features,
                      a->key_size(),
                      a->value_size(),
                      {},
                      {},
                      false,
                      {}};
        s.indexed = use_index && a->kind == AttentionKind::unique_hard && !a->window &&
                    a->position_bias == 0 && a->key_size() == 2;
        layers.push_back(std::move(s));
      } else {
        throw InputError(where, "the incremental evaluator has no " + layer_kind(sl.layer) +
                                    " layers; use the plain evaluator");
      }
    }
  }

  std::vector<T> step(LrnnStep<T>& l, const std::vector<T>& z) {
    std::vector<T> S(l.d * l.m, zero<T>());
    for (std::size_t f = 0; f < z.size(); ++f) {
      if (is_zero(z[f])) continue;
      mul_add(l.A[f], l.S, l.m, z[f], S, work);  // A(z) S = Σ z_f A_f S
      for (const Entry<T>& e : l.B[f].nz) {      // + B(z)
        ++work;
        S[e.i * l.m + e.j] = add(S[e.i * l.m + e.j], mul(z[f], e.v));
      }
    }
    l.S = std::move(S);
    see(l.S);
    std::vector<T> y = l.c0;
    mul_add(l.C, l.S, l.m, konst<T>(1), y, work);
    if (!l.Cf.empty())
      for (std::size_t f = 0; f < z.size(); ++f)
        if (!is_zero(z[f])) mul_add(l.Cf[f], l.S, l.m, z[f], y, work);
    last_rows = l.C.rows;
    last_cols = l.m;
    return y;
  }

  std::vector<T> step(ElmanStep<T>& l, const std::vector<T>& z) {
    std::vector<T> x = l.bias;
    const T one = konst<T>(1);
    mul_add(l.W, l.h, 1, one, x, work);
    mul_add(l.U, z, 1, one, x, work);
    see(x);
    for (T& v : x) {
      const int s = sign(v);
      if (l.act == Activation::relu)
        v = s > 0 ? v : zero<T>();
      else
        v = konst<T>(s);
    }
    l.h = std::move(x);
    std::vector<T> y = l.c0;
    mul_add(l.C, l.h, 1, one, y, work);
    last_rows = l.C.rows;
    last_cols = 1;
    return y;
  }

  std::vector<T> step(AttnStep<T>& l, const std::vector<T>& z, std::optional<std::size_t>& at) {
    const std::size_t pos = t + 1;  // 1-based position of this query
    const std::vector<T> q = project(l.Wq, l.bq, z, work), k = project(l.Wk, l.bk, z, work),
                         v = project(l.Wv, l.bv, z, work);
    see(q);
    see(k);
    see(v);
    // One score: h products and the position term, then one comparison in the argmax (or the
    // index's choice): h + 2 units of work.
    auto score_of = [&](const std::vector<T>& key, std::size_t s) {
      work += l.h + 2;
      T acc = mul(l.lambda, konst<T>(static_cast<long>(s)));
      for (std::size_t i = 0; i < l.h; ++i) acc = add(acc, mul(q[i], key[i]));
      return acc;
    };
    std::vector<T> a;
    if (l.indexed) {
      // Insert this position first: it is visible to its own query.
      if (!(k[1] == mul(k[0], k[0])))
        throw IndexPrecondition("attention index precondition",
                                "position " + std::to_string(pos) +
                                    ": key is not of the form (w, w²); run without the index");
      // find and upper_bound: about log2 of the index's size each.
      work += 2 * (static_cast<std::uint64_t>(std::bit_width(l.index.size())) + 1);
      auto it = l.index.find(k[0]);
      if (it == l.index.end())
        l.index.emplace(k[0], std::make_pair(pos, v));
      else if (l.tie == TieRule::rightmost)
        it->second = {pos, v};
      if (sign(q[1]) >= 0)
        throw IndexPrecondition("attention index precondition",
                                "position " + std::to_string(pos) +
                                    ": query has q₂ ≥ 0 (the score is not concave in w)");
      // pred = max{w : w ≤ w*}, succ = min{w : w > w*}, w* = q₁/(−2q₂).
      const T D = mul(q[1], konst<T>(-2));
      auto succ = l.index.end();
      if constexpr (std::is_same_v<T, Rational>) {
        succ = l.index.upper_bound(q[0] / D);
      } else {
        // floor(q₁ / D), D > 0
        std::int64_t fl = q[0].v / D.v;
        if (q[0].v % D.v != 0 && q[0].v < 0) --fl;
        succ = l.index.upper_bound(I64{fl});
      }
      std::optional<std::pair<T, std::size_t>> best;  // score, position
      const std::vector<T>* value = nullptr;
      auto consider = [&](auto iter) {
        const T key0 = iter->first;
        const std::vector<T> key{key0, mul(key0, key0)};
        const T sc = score_of(key, iter->second.first);
        const std::size_t s = iter->second.first;
        const bool better = !best || best->first < sc ||
                            (best->first == sc &&
                             (l.tie == TieRule::rightmost ? s > best->second : s < best->second));
        if (better) {
          best = {sc, s};
          value = &iter->second.second;
        }
      };
      if (succ != l.index.end()) consider(succ);
      if (succ != l.index.begin()) consider(std::prev(succ));
      see(best->first);
      for (auto end : {l.index.begin(), std::prev(l.index.end())}) {  // extreme scores
        const T key0 = end->first;
        see(score_of({key0, mul(key0, key0)}, end->second.first));
      }
      at = best->second;
      a = *value;
    } else {
      l.keys.push_back(k);
      l.values.push_back(v);
      std::size_t first = 1;
      if (l.window && pos > *l.window) first = pos - *l.window + 1;
      std::vector<T> score;
      for (std::size_t s = first; s <= pos; ++s) {
        score.push_back(score_of(l.keys[s - 1], s));
        const T size = abs_of(score.back());  // see(), counted in score_of's units
        if (largest < size) largest = size;
      }
      T best = score[0];
      for (const T& x : score)
        if (best < x) best = x;
      std::vector<std::size_t> argmax;
      for (std::size_t s = first; s <= pos; ++s)
        if (score[s - first] == best) argmax.push_back(s);
      if (l.kind == AttentionKind::unique_hard) {
        const std::size_t pick = l.tie == TieRule::leftmost ? argmax.front() : argmax.back();
        at = pick;
        a = l.values[pick - 1];
      } else {
        if constexpr (std::is_same_v<T, Rational>) {
          a.assign(l.r, Rational(0));
          work += argmax.size() * l.r;
          for (std::size_t s : argmax)
            for (std::size_t i = 0; i < l.r; ++i) a[i] += l.values[s - 1][i];
          for (Rational& x : a) x /= Rational(static_cast<long>(argmax.size()));
        }
        at = std::nullopt;
      }
    }
    std::vector<T> y;
    if (l.residual) y = z;
    y.insert(y.end(), a.begin(), a.end());
    last_rows = y.size();
    last_cols = 1;
    return y;
  }

  void feed(std::size_t token) {
    std::vector<T> z(alphabet, zero<T>());
    z[token] = konst<T>(1);
    attended.assign(layers.size(), std::nullopt);
    std::vector<T> y;
    for (std::size_t li = 0; li < layers.size(); ++li) {
      if (input_w[li]) {
        std::vector<T> zz = input_b[li];
        mul_add(*input_w[li], y, 1, konst<T>(1), zz, work);
        z = std::move(zz);
      } else if (li > 0) {
        z = y;
      }
      y = std::visit(
          [&](auto& l) {
            if constexpr (std::is_same_v<std::decay_t<decltype(l)>, AttnStep<T>>)
              return step(l, z, attended[li]);
            else
              return step(l, z);
          },
          layers[li]);
      see(y);
    }
    last = std::move(y);
    ++t;
  }
};

}  // namespace

struct IncrementalModel::Impl {
  Model model;
  IncrementalOptions options;
  std::variant<Engine<Rational>, Engine<I64>> engine;
  std::uint64_t replayed_work = 0;     // work of an engine given up after an overflow
  std::vector<std::uint32_t> history;  // the tokens fed, for a replay on rationals

  static std::variant<Engine<Rational>, Engine<I64>> make(const Model& m,
                                                          const IncrementalOptions& o) {
    if (o.integer_fast_path) {
      try {
        return Engine<I64>(m, o.attention_index);
      } catch (const NotInteger&) {
      }
    }
    return Engine<Rational>(m, o.attention_index);
  }
  Impl(const Model& m, const IncrementalOptions& o) : model(m), options(o), engine(make(m, o)) {}
};

IncrementalModel::IncrementalModel(const Model& model, const IncrementalOptions& options)
    : impl_(std::make_unique<Impl>(model, options)) {}
IncrementalModel::~IncrementalModel() = default;
IncrementalModel::IncrementalModel(IncrementalModel&&) noexcept = default;
IncrementalModel& IncrementalModel::operator=(IncrementalModel&&) noexcept = default;

void IncrementalModel::feed(std::size_t token) {
  if (token >= impl_->model.alphabet.size())
    throw InputError("generation",
                     "token id " + std::to_string(token) + " is outside the alphabet");
  impl_->history.push_back(static_cast<std::uint32_t>(token));
  try {
    std::visit([&](auto& e) { e.feed(token); }, impl_->engine);
  } catch (const IntOverflow&) {
    // Exactness first: replay every token on rationals.
    impl_->replayed_work += std::visit([](const auto& old) { return old.work; }, impl_->engine);
    Engine<Rational> e(impl_->model, impl_->options.attention_index);
    for (std::uint32_t u : impl_->history) e.feed(u);
    impl_->engine = std::move(e);
  }
}

std::size_t IncrementalModel::positions() const {
  return std::visit([](const auto& e) { return e.t; }, impl_->engine);
}

Matrix<Rational> IncrementalModel::output() const {
  return std::visit(
      [](const auto& e) {
        Matrix<Rational> y(e.last_rows, e.last_cols);
        for (std::size_t i = 0; i < e.last.size(); ++i)
          y(i / e.last_cols, i % e.last_cols) = to_rat(e.last[i]);
        return y;
      },
      impl_->engine);
}

std::size_t IncrementalModel::next_token() const {
  return std::visit(
      [&](const auto& e) -> std::size_t {
        if (e.last_rows != e.alphabet || e.last_cols != 1)
          return rnncc::next_token(RationalField{}, output(), e.alphabet);  // throws
        std::size_t best = 0;
        for (std::size_t i = 1; i < e.last.size(); ++i)
          if (e.last[best] < e.last[i]) best = i;
        return best;
      },
      impl_->engine);
}

std::vector<std::optional<std::size_t>> IncrementalModel::attended() const {
  return std::visit([](const auto& e) { return e.attended; }, impl_->engine);
}

Rational IncrementalModel::largest() const {
  return std::visit([](const auto& e) { return to_rat(e.largest); }, impl_->engine);
}

std::uint64_t IncrementalModel::work() const {
  return saturating_add(impl_->replayed_work,
                        std::visit([](const auto& e) { return e.work; }, impl_->engine));
}

namespace {

std::uint64_t nonzeros(const Matrix<Rational>& m) {
  std::uint64_t n = 0;
  for (const Rational& x : m.data()) n += x != 0;
  return n;
}

// Σ_{p=1}^{P} min(p, w): the positions brute-force attention scores over P positions.
std::uint64_t visible_sum(std::uint64_t P, std::optional<std::size_t> window) {
  auto triangle = [](std::uint64_t n) {
    return saturating_mul(n % 2 == 0 ? n / 2 : n, n % 2 == 0 ? n + 1 : (n + 1) / 2);
  };
  if (!window || *window >= P) return triangle(P);
  const std::uint64_t w = *window;
  return saturating_add(triangle(w), saturating_mul(P - w, w));
}

}  // namespace

std::uint64_t estimate_incremental_work(const Model& model, std::uint64_t positions,
                                        const IncrementalOptions& options) {
  std::uint64_t per_position = 0, total = 0;  // linear terms; attention's own sum in total
  auto add = [&](std::uint64_t x) { per_position = saturating_add(per_position, x); };
  for (std::size_t li = 0; li < model.layers.size(); ++li) {
    const StackLayer& sl = model.layers[li];
    if (sl.input) add(nonzeros(sl.input->weights));
    const bool one_hot = li == 0 && !sl.input;  // one feature a position
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
      std::uint64_t features = 0;
      for (std::size_t f = 0; f < l->features; ++f) {
        std::uint64_t c =
            saturating_add(saturating_mul(nonzeros(l->A[f]), l->m), nonzeros(l->B[f]));
        if (!l->readout_feature.empty())
          c = saturating_add(c, saturating_mul(nonzeros(l->readout_feature[f]), l->m));
        features = one_hot ? std::max(features, c) : saturating_add(features, c);
      }
      add(features);
      add(saturating_mul(l->d, l->m));                  // see(S)
      add(saturating_mul(nonzeros(l->readout), l->m));  // C·S
      add(saturating_mul(l->readout.rows(), l->m));     // see(y)
    } else if (const auto* e = std::get_if<ElmanLayer>(&sl.layer)) {
      add(nonzeros(e->pre.W) + nonzeros(e->pre.U) + e->d + nonzeros(e->readout) +
          e->readout.rows());
    } else if (const auto* a = std::get_if<AttentionLayer>(&sl.layer)) {
      const std::uint64_t h = a->key_size(), r = a->value_size();
      add(nonzeros(a->query.weights) + nonzeros(a->key.weights) + nonzeros(a->value.weights) +
          2 * h + r + (a->residual ? a->features : 0) + r);
      const bool indexed = options.attention_index && a->kind == AttentionKind::unique_hard &&
                           !a->window && a->position_bias == 0 && h == 2;
      if (indexed) {  // lookups and four scores a position
        add(2 * (static_cast<std::uint64_t>(std::bit_width(positions)) + 1) + 4 * (h + 2) + 1);
      } else {
        std::uint64_t score = h + 2;
        if (a->kind == AttentionKind::averaging_hard) score += r;  // every visible one may tie
        total = saturating_add(total, saturating_mul(score, visible_sum(positions, a->window)));
      }
    } else {
      add(0);  // LSTM: the incremental evaluator refuses it (InputError)
    }
  }
  return saturating_add(total, saturating_mul(per_position, positions));
}

bool IncrementalModel::on_integers() const {
  return std::holds_alternative<Engine<I64>>(impl_->engine);
}

bool IncrementalModel::indexed() const {
  return std::visit(
      [](const auto& e) {
        for (const auto& l : e.layers)
          if (const auto* a = std::get_if<2>(&l); a && a->indexed) return true;
        return false;
      },
      impl_->engine);
}

Generation generate(const Model& model, const RationalField&,
                    const std::vector<std::size_t>& prompt, std::size_t max_new_tokens,
                    const GenerationRule& rule, const IncrementalOptions& options) {
  check_prompt(model, prompt);
  IncrementalModel im(model, options);
  for (std::size_t u : prompt) im.feed(u);
  Generation g;
  while (g.tokens.size() < max_new_tokens) {
    const std::size_t next = im.next_token();
    g.tokens.push_back(next);
    if (rule.stops_on(next)) {
      g.stopped = true;
      break;
    }
    im.feed(next);
  }
  g.largest = im.largest();
  return g;
}

// ---- Model files with a generation rule -----------------------------------------------------

static GenerativeModel parse_generative_unchecked(std::string_view text,
                                                  const std::string& source) {
  nlohmann::json j = parse_json(text, source);  // malformed: source:line:column
  if (!j.is_object() || !j.contains("generation")) return {parse_model(text, source), {}};
  const nlohmann::json gen = j["generation"];
  j.erase("generation");
  GenerativeModel out{parse_model(j.dump(), source), GenerationRule{}};
  JsonCursor g(gen, source, "/generation");
  g.object();
  g.only({"rule", "stop"});
  if (auto r = g.find("rule"); r && r->string() != "argmax")
    r->fail("\"argmax\" (the only generation rule)");
  if (auto stop = g.find("stop")) {
    const auto& arr = stop->value();
    if (!arr.is_array()) stop->fail("an array of alphabet symbols");
    for (std::size_t i = 0; i < arr.size(); ++i) {
      JsonCursor s = (*stop)[i];
      auto id = out.model.alphabet.find(s.string());
      if (!id) s.error("'" + s.string() + "' is not a symbol of the alphabet");
      out.rule->stop.push_back(*id);
    }
  }
  return out;
}

GenerativeModel parse_generative_model(std::string_view text, const std::string& source) {
  return parse_as_kind(text, source, {FileKind::model},
                       [&] { return parse_generative_unchecked(text, source); });
}

GenerativeModel load_generative_model(const std::string& path) {
  return parse_generative_model(read_text_file(path, "model file"), path);
}

nlohmann::ordered_json generative_model_to_json(const Model& model, const GenerationRule& rule) {
  nlohmann::ordered_json j = model_to_json(model);
  nlohmann::ordered_json stop = nlohmann::ordered_json::array();
  for (std::size_t id : rule.stop) stop.push_back(model.alphabet.symbol(id));
  j["generation"] = {{"rule", "argmax"}, {"stop", stop}};
  return j;
}

}  // namespace rnncc
