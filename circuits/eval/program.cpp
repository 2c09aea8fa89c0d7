#include "circuits/eval/program.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <set>
#include <stdexcept>

#include "algebra/error.hpp"
#include "algebra/modp_ops.hpp"
#include "circuits/analysis.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/gate_ops.hpp"

namespace rnncc {

std::string to_string(ProgOp op) {
  switch (op) {
#define RNNCC_X(n) \
  case ProgOp::n:  \
    return #n;
    RNNCC_PROGRAM_OPS(RNNCC_X)
#undef RNNCC_X
  }
  return "?";
}

std::uint32_t threshold_planes(std::span<const std::int32_t> weights, std::int32_t theta) {
  std::int64_t span = std::abs(static_cast<std::int64_t>(theta));
  for (std::int32_t w : weights) span += std::abs(static_cast<std::int64_t>(w));
  return static_cast<std::uint32_t>(std::bit_width(static_cast<std::uint64_t>(span))) + 2;
}

Approx approx_of(const Rational& r) {
  if (r == 0) return {0.0, 0.0};
  const double v = r.convert_to<double>();
  return {v, up(dadd(up(dmul(kTwoU, std::abs(v))), 0x1p-1074))};
}

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// A reader's view of a value: the gate computing it and whether it is inverted (boolean mode).
struct Ref {
  GateId gate = kNoGate;  // a computed gate, or kNoGate for a constant
  bool inv = false;
  std::uint32_t constant = 0;  // constant table index when gate == kNoGate
};

class Lowering {
 public:
  Lowering(const Circuit& c, const ProgramOptions& o) : c_(c), o_(o) {
    p_.boolean = !o.arithmetic && is_boolean(c);
    p_.inputs = static_cast<std::uint32_t>(c.inputs().size());
    p_.outputs = static_cast<std::uint32_t>(c.outputs().size());
    p_.pairs = static_cast<std::uint32_t>(o.compare_pairs.size());
    if (o.compare_pairs.size() > 32)
      throw std::invalid_argument("at most 32 compared pairs per program");
    if (o.slot_capacity < 3) throw std::invalid_argument("slot capacity must be at least 3");
    for (auto [x, y] : o.compare_pairs)
      if (x >= c.outputs().size() || y >= c.outputs().size())
        throw std::invalid_argument("compare pair names an output that does not exist");
    if (p_.boolean) {
      p_.constants = {Rational(0), Rational(1)};
    }
  }

  Program run() {
    build_refs();
    // Three schedules; the one with the smallest peak of live values is emitted.
    std::vector<std::vector<GateId>> schedules = {dfs_schedule(true), dfs_schedule(false),
                                                  id_schedule()};
    std::size_t best = 0;
    std::uint32_t best_peak = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t k = 0; k < schedules.size(); ++k) {
      const std::uint32_t pk = peak(schedules[k]);
      if (pk < best_peak) {
        best_peak = pk;
        best = k;
      }
    }
    emit(schedules[best]);
    p_.peak_live = best_peak;
    p_.gate_operations = compute_stats(c_).operations();
    for (const Instr& in : p_.code)
      if (in.op() != ProgOp::input && in.op() != ProgOp::spill && in.op() != ProgOp::output &&
          in.op() != ProgOp::compare)
        ++p_.gate_instructions;
    return std::move(p_);
  }

 private:
  // Whether gate g gets an instruction (and a value slot) of its own.
  bool computed(GateId g) const {
    const GateKind k = c_.kind(g);
    if (k == GateKind::constant) return false;
    if (k == GateKind::not_ && p_.boolean) return false;
    if (k == GateKind::positive)
      throw DomainError("gate " + std::to_string(g) +
                        " (positive) has no meaning modulo a prime: the device program computes "
                        "mod p");
    return true;
  }

  std::uint32_t constant_index(const Rational& v) {
    if (p_.boolean) return v == 0 ? 0 : 1;
    for (std::uint32_t i = 0; i < p_.constants.size(); ++i)
      if (p_.constants[i] == v) return i;
    p_.constants.push_back(v);
    return static_cast<std::uint32_t>(p_.constants.size() - 1);
  }

  void build_refs() {
    ref_.resize(c_.size());
    for (GateId g = 0; g < c_.size(); ++g) {
      const GateKind k = c_.kind(g);
      if (k == GateKind::constant) {
        ref_[g] = Ref{kNoGate, false, constant_index(c_.constant(g))};
      } else if (k == GateKind::not_ && p_.boolean) {
        ref_[g] = ref_[c_.operands(g)[0]];
        ref_[g].inv = !ref_[g].inv;
      } else {
        computed(g);  // rejects positive
        ref_[g] = Ref{g, false, 0};
      }
    }
  }

  // Computed gates read by g (through not-chains in boolean mode), with multiplicity.
  template <class F>
  void for_each_operand(GateId g, F&& f) const {
    for (GateId o : c_.operands(g))
      if (ref_[o].gate != kNoGate) f(ref_[o].gate);
  }

  std::vector<GateId> roots() const {
    std::vector<GateId> r;
    for (GateId o : c_.outputs())
      if (ref_[o].gate != kNoGate) r.push_back(ref_[o].gate);
    return r;
  }

  // Depth-first post-order from the outputs. With deepest_first, a gate's operands are visited
  // in decreasing order of depth (the Sethi–Ullman idea: evaluate the subtree that needs the
  // most registers first), so in a sequential scan the long state chain is evaluated before
  // each step's shallow parameter gates, which then live only briefly.
  std::vector<GateId> dfs_schedule(bool deepest_first) const {
    std::vector<std::uint32_t> depth(c_.size(), 0);
    if (deepest_first)
      for (GateId g = 0; g < c_.size(); ++g)
        for (GateId o : c_.operands(g)) depth[g] = std::max(depth[g], depth[o] + 1);
    std::vector<GateId> order;
    std::vector<std::uint8_t> state(c_.size(), 0);  // 0 new, 1 open, 2 done
    std::vector<std::pair<GateId, std::size_t>> stack;
    std::vector<std::vector<GateId>> sorted(deepest_first ? c_.size() : 0);
    auto operands = [&](GateId g) -> std::span<const GateId> {
      if (!deepest_first) return c_.operands(g);
      auto& v = sorted[g];
      if (v.empty() && !c_.operands(g).empty()) {
        v.assign(c_.operands(g).begin(), c_.operands(g).end());
        std::stable_sort(v.begin(), v.end(),
                         [&](GateId x, GateId y) { return depth[x] > depth[y]; });
      }
      return v;
    };
    for (GateId r : roots()) {
      if (state[r]) continue;
      stack.push_back({r, 0});
      state[r] = 1;
      while (!stack.empty()) {
        auto& [g, i] = stack.back();
        const auto ops = operands(g);
        if (i < ops.size()) {
          const GateId o = ref_[ops[i++]].gate;
          if (o != kNoGate && state[o] == 0) {
            state[o] = 1;
            stack.push_back({o, 0});
          }
        } else {
          state[g] = 2;
          order.push_back(g);
          if (deepest_first) std::vector<GateId>().swap(sorted[g]);
          stack.pop_back();
        }
      }
    }
    return order;
  }

  std::vector<GateId> id_schedule() const {
    std::vector<bool> need(c_.size(), false);
    for (GateId r : roots()) need[r] = true;
    for (GateId g = static_cast<GateId>(c_.size()); g-- > 0;)
      if (need[g]) for_each_operand(g, [&](GateId o) { need[o] = true; });
    std::vector<GateId> order;
    for (GateId g = 0; g < c_.size(); ++g)
      if (need[g]) order.push_back(g);
    return order;
  }

  // Time at which each output / pair becomes ready: the latest schedule position of its gates.
  void ready_times(const std::vector<std::uint32_t>& time, std::vector<std::uint32_t>& out_ready,
                   std::vector<std::uint32_t>& pair_ready) const {
    auto t = [&](GateId o) { return ref_[o].gate == kNoGate ? 0u : time[ref_[o].gate]; };
    out_ready.clear();
    pair_ready.clear();
    if (o_.emit_outputs)
      for (GateId o : c_.outputs()) out_ready.push_back(t(o));
    for (auto [x, y] : o_.compare_pairs)
      pair_ready.push_back(std::max(t(c_.outputs()[x]), t(c_.outputs()[y])));
  }

  // Uses of every computed value, as sorted schedule times.
  void collect_uses(const std::vector<GateId>& order, std::vector<std::uint32_t>& time) {
    time.assign(c_.size(), kNone);
    for (std::uint32_t s = 0; s < order.size(); ++s) time[order[s]] = s;
    uses_.assign(c_.size(), {});
    for (std::uint32_t s = 0; s < order.size(); ++s)
      for_each_operand(order[s], [&](GateId o) { uses_[o].push_back(s); });
    std::vector<std::uint32_t> out_ready, pair_ready;
    ready_times(time, out_ready, pair_ready);
    auto use = [&](GateId o, std::uint32_t s) {
      if (ref_[o].gate != kNoGate) uses_[ref_[o].gate].push_back(s);
    };
    for (std::size_t k = 0; k < out_ready.size(); ++k) use(c_.outputs()[k], out_ready[k]);
    for (std::size_t k = 0; k < pair_ready.size(); ++k) {
      use(c_.outputs()[o_.compare_pairs[k].first], pair_ready[k]);
      use(c_.outputs()[o_.compare_pairs[k].second], pair_ready[k]);
    }
    for (auto& u : uses_) std::sort(u.begin(), u.end());
  }

  std::uint32_t peak(const std::vector<GateId>& order) {
    std::vector<std::uint32_t> time;
    collect_uses(order, time);
    std::vector<std::int32_t> delta(order.size() + 1, 0);
    for (std::uint32_t s = 0; s < order.size(); ++s) {
      const auto& u = uses_[order[s]];
      const std::uint32_t last = u.empty() ? s : u.back();
      ++delta[s];
      --delta[last + 1];
    }
    std::int32_t live = 0, best = 0;
    for (std::int32_t d : delta) best = std::max(best, live += d);
    return static_cast<std::uint32_t>(best);
  }

  // ---- emission with slot allocation ----

  std::uint32_t next_use(GateId v) const {
    return cursor_[v] < uses_[v].size() ? uses_[v][cursor_[v]] : kNone;
  }

  std::uint32_t loc_of(const Ref& r) {
    if (r.gate == kNoGate) return make_loc(LocKind::constant, r.constant);
    const std::uint32_t l = loc_[r.gate];
    if (loc_kind(l) == LocKind::spill) ++p_.spill_reads;
    return l;
  }

  std::uint32_t take_spill() {
    if (!free_spill_.empty()) {
      const std::uint32_t s = free_spill_.back();
      free_spill_.pop_back();
      return s;
    }
    return p_.spill_slots++;
  }

  // A location for the value of g, computed at time t.
  std::uint32_t allocate(GateId g, std::uint32_t t) {
    if (!free_slots_.empty()) {
      const std::uint32_t s = free_slots_.back();
      free_slots_.pop_back();
      resident_.insert({next_use(g), g});
      return make_loc(LocKind::slot, s);
    }
    if (slots_used_ < o_.slot_capacity) {
      resident_.insert({next_use(g), g});
      p_.slots = std::max(p_.slots, slots_used_ + 1);
      return make_loc(LocKind::slot, slots_used_++);
    }
    // Belady: the resident value used furthest in the future, unless that is g itself or a
    // value read at time t (an operand of the instruction being emitted).
    auto victim = std::prev(resident_.end());
    if (victim->first > t && victim->first > next_use(g)) {
      const GateId v = victim->second;
      resident_.erase(victim);
      const std::uint32_t slot = loc_index(loc_[v]);
      const std::uint32_t sp = make_loc(LocKind::spill, take_spill());
      p_.code.push_back(Instr{static_cast<std::uint32_t>(ProgOp::spill), sp, loc_[v], 0});
      ++p_.spill_stores;
      loc_[v] = sp;
      resident_.insert({next_use(g), g});
      return make_loc(LocKind::slot, slot);
    }
    return make_loc(LocKind::spill, take_spill());
  }

  // After every reader at time t has been emitted: advance the use cursors of v.
  void consume(GateId v, std::uint32_t t) {
    if (next_use(v) != t) return;  // already consumed (an operand read twice)
    const bool resident = loc_kind(loc_[v]) == LocKind::slot;
    if (resident) resident_.erase({next_use(v), v});
    while (cursor_[v] < uses_[v].size() && uses_[v][cursor_[v]] == t) ++cursor_[v];
    if (next_use(v) == kNone) {  // dead: free its location
      if (resident)
        free_slots_.push_back(loc_index(loc_[v]));
      else
        free_spill_.push_back(loc_index(loc_[v]));
    } else if (resident) {
      resident_.insert({next_use(v), v});
    }
  }

  std::uint32_t flags(const Ref& r, std::uint32_t bit) const { return r.inv ? bit : 0; }

  void emit_gate(GateId g, std::uint32_t d) {
    const GateKind k = c_.kind(g);
    const auto ops = c_.operands(g);
    auto op_word = [](ProgOp op, std::uint32_t f = 0) {
      return static_cast<std::uint32_t>(op) | f;
    };
    auto chain = [&](ProgOp op) {  // d = o₁ ∘ o₂, then d = d ∘ oᵢ
      const Ref r0 = ref_[ops[0]], r1 = ref_[ops[1]];
      p_.code.push_back(
          Instr{op_word(op, flags(r0, kInvA) | flags(r1, kInvB)), d, loc_of(r0), loc_of(r1)});
      for (std::size_t i = 2; i < ops.size(); ++i) {
        const Ref ri = ref_[ops[i]];
        p_.code.push_back(Instr{op_word(op, flags(ri, kInvB)), d, d, loc_of(ri)});
      }
    };
    switch (k) {
      case GateKind::input:
        p_.code.push_back(Instr{op_word(ProgOp::input), d, 0, c_.input_index(g)});
        return;
      case GateKind::and_:
        chain(ProgOp::and2);
        return;
      case GateKind::or_:
        chain(ProgOp::or2);
        return;
      case GateKind::xor_:
        chain(ProgOp::xor2);
        return;
      case GateKind::add:
        chain(ProgOp::add);
        return;
      case GateKind::sum:
        chain(ProgOp::add);
        return;
      case GateKind::mul:
        chain(ProgOp::mul);
        return;
      case GateKind::product:
        chain(ProgOp::mul);
        return;
      case GateKind::sub:
        p_.code.push_back(
            Instr{op_word(ProgOp::sub), d, loc_of(ref_[ops[0]]), loc_of(ref_[ops[1]])});
        return;
      case GateKind::neg:
        p_.code.push_back(Instr{op_word(ProgOp::neg), d, loc_of(ref_[ops[0]]), 0});
        return;
      case GateKind::not_:  // arithmetic mode only (boolean folds it)
        p_.code.push_back(Instr{op_word(ProgOp::not1), d, loc_of(ref_[ops[0]]), 0});
        return;
      case GateKind::is_zero:
        p_.code.push_back(Instr{op_word(ProgOp::is_zero), d, loc_of(ref_[ops[0]]), 0});
        return;
      case GateKind::maj:
      case GateKind::thr: {
        std::vector<std::int32_t> w(ops.size(), 1);
        std::int64_t theta = static_cast<std::int64_t>(ops.size() / 2 + 1);
        if (k == GateKind::thr) {
          const auto cw = c_.weights(g);
          w.assign(cw.begin(), cw.end());
          theta = c_.threshold(g);
        }
        const std::uint32_t at = static_cast<std::uint32_t>(p_.aux.size());
        std::vector<std::int32_t> locs;
        bool out_of_range = false;
        for (std::size_t i = 0; i < ops.size(); ++i) {
          const Ref r = ref_[ops[i]];
          locs.push_back(static_cast<std::int32_t>(loc_of(r)));
          if (r.inv) {  // w·(1 − x) = w − w·x
            out_of_range |= w[i] == std::numeric_limits<std::int32_t>::min();
            theta -= w[i];
            w[i] = out_of_range ? 0 : -w[i];
          }
        }
        // The program's threshold instruction holds 32-bit weights and threshold (the GPU kernel
        // shares it); folding an inverted operand can leave that range (−(−2^31) = 2^31). Such a
        // gate is refused with a diagnostic rather than wrapped around.
        if (out_of_range || theta < std::numeric_limits<std::int32_t>::min() ||
            theta > std::numeric_limits<std::int32_t>::max())
          throw DomainError("gate " + std::to_string(g) + " (" + std::string(name(k)) +
                            "): with its inverted operands folded in (w·(1 − x) = w − w·x), the "
                            "weights and threshold leave the 32-bit range of the evaluator's "
                            "threshold instruction");
        p_.aux.insert(p_.aux.end(), locs.begin(), locs.end());
        p_.aux.insert(p_.aux.end(), w.begin(), w.end());
        p_.aux.push_back(static_cast<std::int32_t>(theta));
        const std::uint32_t planes = threshold_planes(w, static_cast<std::int32_t>(theta));
        p_.aux.push_back(static_cast<std::int32_t>(planes));
        p_.max_threshold_planes = std::max(p_.max_threshold_planes, planes);
        p_.code.push_back(
            Instr{op_word(ProgOp::thr), d, at, static_cast<std::uint32_t>(ops.size())});
        return;
      }
      default:
        throw std::invalid_argument("gate " + std::to_string(g) + " (" + std::string(name(k)) +
                                    ") cannot be lowered");
    }
  }

  void emit(const std::vector<GateId>& order) {
    std::vector<std::uint32_t> time;
    collect_uses(order, time);
    cursor_.assign(c_.size(), 0);
    loc_.assign(c_.size(), 0);
    std::vector<std::uint32_t> out_ready, pair_ready;
    ready_times(time, out_ready, pair_ready);
    // Outputs/pairs grouped by ready time.
    std::vector<std::vector<std::uint32_t>> outs_at(order.size() + 1), pairs_at(order.size() + 1);
    for (std::uint32_t k = 0; k < out_ready.size(); ++k) outs_at[out_ready[k]].push_back(k);
    for (std::uint32_t k = 0; k < pair_ready.size(); ++k) pairs_at[pair_ready[k]].push_back(k);
    auto out_loc = [&](std::size_t k, std::uint32_t& f, std::uint32_t bit) {
      const Ref r = ref_[c_.outputs()[k]];
      if (r.inv) f |= bit;
      return loc_of(r);
    };
    auto emit_ready = [&](std::uint32_t t) {
      for (std::uint32_t k : outs_at[t]) {
        std::uint32_t f = 0;
        const std::uint32_t a = out_loc(k, f, kInvA);
        p_.code.push_back(Instr{static_cast<std::uint32_t>(ProgOp::output) | f, 0, a, k});
      }
      for (std::uint32_t k : pairs_at[t]) {
        std::uint32_t f = 0;
        const std::uint32_t a = out_loc(o_.compare_pairs[k].first, f, kInvA);
        const std::uint32_t b = out_loc(o_.compare_pairs[k].second, f, kInvB);
        p_.code.push_back(Instr{static_cast<std::uint32_t>(ProgOp::compare) | f, b, a, k});
      }
    };
    auto consume_ready = [&](std::uint32_t t) {
      for (std::uint32_t k : outs_at[t]) {
        const Ref r = ref_[c_.outputs()[k]];
        if (r.gate != kNoGate) consume(r.gate, t);
      }
      for (std::uint32_t k : pairs_at[t])
        for (std::size_t o : {o_.compare_pairs[k].first, o_.compare_pairs[k].second}) {
          const Ref r = ref_[c_.outputs()[o]];
          if (r.gate != kNoGate) consume(r.gate, t);
        }
    };
    if (order.empty()) {  // every output a constant
      emit_ready(0);
      return;
    }
    for (std::uint32_t t = 0; t < order.size(); ++t) {
      const GateId g = order[t];
      loc_[g] = allocate(g, t);
      emit_gate(g, loc_[g]);
      emit_ready(t);
      for_each_operand(g, [&](GateId o) { consume(o, t); });
      consume_ready(t);
      if (uses_[g].empty()) {  // computed but never read (an output with no instruction)
        if (loc_kind(loc_[g]) == LocKind::slot) {
          resident_.erase({kNone, g});
          free_slots_.push_back(loc_index(loc_[g]));
        } else {
          free_spill_.push_back(loc_index(loc_[g]));
        }
      }
    }
  }

  const Circuit& c_;
  const ProgramOptions& o_;
  Program p_;
  std::vector<Ref> ref_;
  std::vector<std::vector<std::uint32_t>> uses_;
  std::vector<std::uint32_t> cursor_, loc_;
  std::set<std::pair<std::uint32_t, GateId>> resident_;  // (next use, value) of slot residents
  std::vector<std::uint32_t> free_slots_, free_spill_;
  std::uint32_t slots_used_ = 0;
};

// ---- the CPU twin ----

struct WordMachine {
  const Program& p;
  std::vector<std::uint64_t> slot, spill;
  std::vector<std::uint64_t> planes;
  std::uint64_t read(std::uint32_t loc) const {
    switch (loc_kind(loc)) {
      case LocKind::slot:
        return slot[loc_index(loc)];
      case LocKind::spill:
        return spill[loc_index(loc)];
      default:
        return loc_index(loc) ? ~std::uint64_t{0} : 0;
    }
  }
  void write(std::uint32_t loc, std::uint64_t v) {
    (loc_kind(loc) == LocKind::slot ? slot[loc_index(loc)] : spill[loc_index(loc)]) = v;
  }
};

struct ModMachine {
  const Program& p;
  std::vector<std::uint32_t> slot, spill, constants;
  std::vector<Approx> mslot, mspill, mconstants;
  std::uint32_t read(std::uint32_t loc) const {
    switch (loc_kind(loc)) {
      case LocKind::slot:
        return slot[loc_index(loc)];
      case LocKind::spill:
        return spill[loc_index(loc)];
      default:
        return constants[loc_index(loc)];
    }
  }
  Approx magnitude(std::uint32_t loc) const {
    switch (loc_kind(loc)) {
      case LocKind::slot:
        return mslot[loc_index(loc)];
      case LocKind::spill:
        return mspill[loc_index(loc)];
      default:
        return mconstants[loc_index(loc)];
    }
  }
  void write(std::uint32_t loc, std::uint32_t v, Approx m) {
    if (loc_kind(loc) == LocKind::slot) {
      slot[loc_index(loc)] = v;
      mslot[loc_index(loc)] = m;
    } else {
      spill[loc_index(loc)] = v;
      mspill[loc_index(loc)] = m;
    }
  }
};

void note_mismatch(ProgramResult& r, std::size_t cap, std::uint64_t pattern) {
  if (!r.first_mismatch || pattern < *r.first_mismatch) r.first_mismatch = pattern;
  auto& f = r.first_mismatches;
  if (std::find(f.begin(), f.end(), pattern) != f.end()) return;
  f.insert(std::upper_bound(f.begin(), f.end(), pattern), pattern);
  if (f.size() > cap) f.pop_back();
}

}  // namespace

Program lower_program(const Circuit& c, const ProgramOptions& options) {
  return Lowering(c, options).run();
}

std::uint32_t montgomery_constant(const Rational& c, const mont31::Field& f) {
  const std::uint64_t p = f.p;
  const Integer num = numerator(c), den = denominator(c);
  const auto dn = static_cast<std::uint64_t>(Integer(((den % p) + p) % p));
  if (dn == 0) throw std::invalid_argument("prime " + std::to_string(p) + " divides a denominator");
  const auto nm = static_cast<std::uint64_t>(Integer(((num % p) + p) % p));
  return mont31::to_mont(static_cast<std::uint32_t>(modp::mul(nm, modp::inv(dn, p), p)), f);
}

ProgramResult run_program(const Program& p, const RunOptions& o) {
  ProgramResult r;
  r.patterns = o.patterns.count;
  r.mismatches.assign(p.pairs, 0);
  if (p.boolean) {
    r.ones.assign(p.outputs, 0);
    WordMachine m{p, std::vector<std::uint64_t>(p.slots), std::vector<std::uint64_t>(p.spill_slots),
                  std::vector<std::uint64_t>(p.max_threshold_planes)};
    const std::uint64_t first_word = o.patterns.first / 64;
    const std::uint64_t words = (o.patterns.count + 63) / 64;
    if (o.store) r.stored.assign(words * p.outputs, 0);
    for (std::uint64_t w = 0; w < words; ++w) {
      const std::uint64_t valid = o.patterns.count - 64 * w;
      const std::uint64_t mask = valid >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid) - 1;
      for (const Instr& in : p.code) {
        switch (in.op()) {
          case ProgOp::input:
            m.write(in.d, patterns::bool_word(o.patterns, first_word + w, in.b));
            break;
          case ProgOp::spill:
            m.write(in.d, m.read(in.a));
            break;
          case ProgOp::output: {
            const std::uint64_t v = m.read(in.a) ^ (in.op_flags & kInvA ? ~std::uint64_t{0} : 0);
            r.ones[in.b] += std::popcount(v & mask);
            if (o.store) r.stored[w * p.outputs + in.b] = v;
            break;
          }
          case ProgOp::compare: {
            const std::uint64_t a = m.read(in.a) ^ (in.op_flags & kInvA ? ~std::uint64_t{0} : 0);
            const std::uint64_t b = m.read(in.d) ^ (in.op_flags & kInvB ? ~std::uint64_t{0} : 0);
            std::uint64_t diff = (a ^ b) & mask;
            r.mismatches[in.b] += std::popcount(diff);
            while (diff) {
              note_mismatch(r, o.max_first_mismatches,
                            o.patterns.first + 64 * w + std::countr_zero(diff));
              diff &= diff - 1;
            }
            break;
          }
          case ProgOp::thr: {
            const std::int32_t* aux = p.aux.data() + in.a;
            const std::uint32_t k = in.b;
            const std::uint32_t B = static_cast<std::uint32_t>(aux[2 * k + 1]);
            std::fill(m.planes.begin(), m.planes.begin() + B, 0);
            for (std::uint32_t i = 0; i < k; ++i)
              bits::add_masked(m.planes.data(), B, aux[k + i],
                               m.read(static_cast<std::uint32_t>(aux[i])));
            bits::add_masked(m.planes.data(), B, -static_cast<std::int64_t>(aux[2 * k]),
                             ~std::uint64_t{0});
            m.write(in.d, bits::nonnegative(m.planes.data(), B));
            break;
          }
          default:
            m.write(in.d, exec_word(in, m.read(in.a), m.read(in.b)));
            break;
        }
      }
    }
    return r;
  }
  // Arithmetic: per pattern, the program once per prime; the shadow with the first prime.
  const std::size_t np = o.primes.size();
  if (np == 0) throw std::invalid_argument("arithmetic programs need at least one prime");
  r.sums.assign(np, std::vector<std::uint64_t>(p.outputs, 0));
  r.max_difference_bound.assign(p.pairs, 0.0);
  ModMachine m{p,  std::vector<std::uint32_t>(p.slots), std::vector<std::uint32_t>(p.spill_slots),
               {}, std::vector<Approx>(p.slots),        std::vector<Approx>(p.spill_slots),
               {}};
  for (const Rational& c : p.constants) m.mconstants.push_back(approx_of(c));
  std::vector<mont31::Field> fields;
  std::vector<std::vector<std::uint32_t>> constants(np);
  for (std::size_t j = 0; j < np; ++j) {
    fields.push_back(mont31::make_field(o.primes[j]));
    for (const Rational& c : p.constants) constants[j].push_back(montgomery_constant(c, fields[j]));
  }
  std::vector<std::vector<std::uint64_t>> sums(np, std::vector<std::uint64_t>(p.outputs, 0));
  std::vector<char> differs(p.pairs);
  if (o.store) r.stored.assign(o.patterns.count * np * p.outputs, 0);
  for (std::uint64_t k = 0; k < o.patterns.count; ++k) {
    const std::uint64_t pattern = o.patterns.first + k;
    std::fill(differs.begin(), differs.end(), 0);
    for (std::size_t j = 0; j < np; ++j) {
      const mont31::Field& f = fields[j];
      const std::uint32_t one = mont31::to_mont(1, f);
      const bool shadow = o.magnitude && j == 0;
      m.constants = constants[j];
      for (const Instr& in : p.code) {
        switch (in.op()) {
          case ProgOp::input: {
            const std::uint64_t x = patterns::int_value(o.patterns, pattern, in.b);
            m.write(in.d, mont31::to_mont(static_cast<std::uint32_t>(x % f.p), f),
                    shadow ? approx_of_integer(x) : Approx{});
            break;
          }
          case ProgOp::spill:
            m.write(in.d, m.read(in.a), m.magnitude(in.a));
            break;
          case ProgOp::output: {
            const std::uint32_t v = m.read(in.a);
            sums[j][in.b] = (sums[j][in.b] + v) % f.p;
            if (o.store) r.stored[(k * np + j) * p.outputs + in.b] = mont31::from_mont(v, f);
            break;
          }
          case ProgOp::compare: {
            if (m.read(in.a) != m.read(in.d)) differs[in.b] = 1;
            if (shadow)
              r.max_difference_bound[in.b] =
                  std::max(r.max_difference_bound[in.b],
                           difference_bound(m.magnitude(in.a), m.magnitude(in.d)));
            break;
          }
          case ProgOp::thr: {
            const std::int32_t* aux = p.aux.data() + in.a;
            std::int64_t s = 0;
            for (std::uint32_t i = 0; i < in.b; ++i)
              if (m.read(static_cast<std::uint32_t>(aux[i])) != 0) s += aux[in.b + i];
            m.write(in.d, s >= aux[2 * in.b] ? one : 0, Approx{0.5, 0.5});
            break;
          }
          default:
            m.write(in.d, exec_mod(in, m.read(in.a), m.read(in.b), f, one),
                    shadow ? exec_shadow(in, m.magnitude(in.a), m.magnitude(in.b)) : Approx{});
            break;
        }
      }
    }
    for (std::uint32_t q = 0; q < p.pairs; ++q)
      if (differs[q]) {
        ++r.mismatches[q];
        note_mismatch(r, o.max_first_mismatches, pattern);
      }
  }
  for (std::size_t j = 0; j < np; ++j)
    for (std::uint32_t k = 0; k < p.outputs; ++k)
      r.sums[j][k] = mont31::from_mont(static_cast<std::uint32_t>(sums[j][k]), fields[j]);
  return r;
}

}  // namespace rnncc
