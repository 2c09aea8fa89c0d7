#include "circuits/eval/bitparallel.hpp"

#include <algorithm>
#include <bit>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace rnncc {

using bits::Word;

bool is_boolean(const Circuit& c) {
  for (GateId id = 0; id < c.size(); ++id) {
    const GateKind k = c.kind(id);
    if (k == GateKind::constant) {
      if (c.constant(id) != 0 && c.constant(id) != 1) return false;
    } else if (k != GateKind::input && info(k).family != GateFamily::boolean &&
               info(k).family != GateFamily::threshold) {
      return false;
    }
  }
  return true;
}

namespace {

Word threshold_word(std::span<const GateId> ops, std::span<const std::int32_t> w,
                    std::int64_t theta, const std::vector<Word>& v, std::vector<Word>& planes) {
  std::int64_t span = std::abs(theta);
  for (std::int32_t x : w) span += std::abs(static_cast<std::int64_t>(x));
  const unsigned B = static_cast<unsigned>(std::bit_width(static_cast<std::uint64_t>(span))) + 2;
  planes.assign(B, 0);
  for (std::size_t i = 0; i < ops.size(); ++i) bits::add_masked(planes.data(), B, w[i], v[ops[i]]);
  bits::add_masked(planes.data(), B, -theta, ~Word{0});
  return bits::nonnegative(planes.data(), B);
}

void evaluate_into(const Circuit& c, std::span<const Word> inputs, std::vector<Word>& v,
                   std::vector<Word>& planes, std::vector<std::int32_t>& ones) {
  v.resize(c.size());
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    Word r = 0;
    switch (c.kind(id)) {
      case GateKind::constant:
        if (c.constant(id) != 0 && c.constant(id) != 1)
          throw std::invalid_argument("bit-parallel evaluation: constant gate " +
                                      std::to_string(id) + " is not 0 or 1");
        r = c.constant(id) == 1 ? ~Word{0} : 0;
        break;
      case GateKind::input:
        r = inputs[c.input_index(id)];
        break;
      case GateKind::and_:
        r = ~Word{0};
        for (GateId o : ops) r &= v[o];
        break;
      case GateKind::or_:
        for (GateId o : ops) r |= v[o];
        break;
      case GateKind::xor_:
        for (GateId o : ops) r ^= v[o];
        break;
      case GateKind::not_:
        r = ~v[ops[0]];
        break;
      case GateKind::maj:  // [Σ xᵢ > k/2] = [Σ xᵢ ≥ ⌊k/2⌋ + 1]
        ones.assign(ops.size(), 1);
        r = threshold_word(ops, ones, static_cast<std::int64_t>(ops.size() / 2 + 1), v, planes);
        break;
      case GateKind::thr:
        r = threshold_word(ops, c.weights(id), c.threshold(id), v, planes);
        break;
      default:
        throw std::invalid_argument("bit-parallel evaluation: gate " + std::to_string(id) + " is " +
                                    std::string(name(c.kind(id))) +
                                    ", not a boolean or threshold gate");
    }
    v[id] = r;
  }
}

}  // namespace

std::vector<Word> evaluate_bits(const Circuit& c, std::span<const Word> inputs) {
  if (inputs.size() != c.inputs().size())
    throw std::invalid_argument("one word per input expected");
  std::vector<Word> v, planes;
  std::vector<std::int32_t> ones;
  evaluate_into(c, inputs, v, planes, ones);
  std::vector<Word> out;
  for (GateId o : c.outputs()) out.push_back(v[o]);
  return out;
}

std::vector<Word> evaluate_bits_batch(const Circuit& c, std::span<const Word> patterns,
                                      unsigned threads) {
  const std::size_t ni = c.inputs().size(), no = c.outputs().size();
  if (ni == 0 || patterns.size() % ni != 0)
    throw std::invalid_argument("patterns must hold whole words per input");
  const std::size_t words = patterns.size() / ni;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Word> out(words * no);
  std::vector<std::thread> pool;
  std::exception_ptr failure;
  std::mutex m;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        std::vector<Word> v, planes;
        std::vector<std::int32_t> ones;
        for (std::size_t w = t; w < words; w += threads) {
          evaluate_into(c, patterns.subspan(w * ni, ni), v, planes, ones);
          for (std::size_t o = 0; o < no; ++o) out[w * no + o] = v[c.outputs()[o]];
        }
      } catch (...) {
        std::lock_guard lock(m);
        if (!failure) failure = std::current_exception();
      }
    });
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);
  return out;
}

}  // namespace rnncc
