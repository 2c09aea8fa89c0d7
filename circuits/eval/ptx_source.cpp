// A boolean device program as a LUT network and as PTX; the design is in ptx_source.hpp.
#include "circuits/eval/ptx_source.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <sstream>
#include <stdexcept>

#include "circuits/eval/gate_ops.hpp"
#include "circuits/eval/patterns.hpp"

namespace rnncc::kernels {

std::uint64_t apply_table(std::uint8_t table, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  std::uint64_t r = 0;
  for (unsigned row = 0; row < 8; ++row)
    if (table >> row & 1) r |= (row & 4 ? a : ~a) & (row & 2 ? b : ~b) & (row & 1 ? c : ~c);
  return r;
}

namespace {

constexpr std::uint8_t kA = 0xF0, kB = 0xCC, kC = 0xAA;

bool table_at(std::uint8_t t, unsigned a, unsigned b, unsigned c) {
  return t >> (4 * a + 2 * b + c) & 1;
}

// The table of f over three variables (bit 4a + 2b + c = f(a, b, c)).
template <class F>
std::uint8_t tabulate(F f) {
  std::uint8_t r = 0;
  for (unsigned row = 0; row < 8; ++row)
    if (f(row >> 2 & 1, row >> 1 & 1, row & 1)) r |= static_cast<std::uint8_t>(1u << row);
  return r;
}

// Whether table t depends on variable q (0 = a, 1 = b, 2 = c).
bool depends(std::uint8_t t, unsigned q) {
  const unsigned bit = 4u >> q;
  for (unsigned row = 0; row < 8; ++row)
    if (!(row & bit) && (t >> row & 1) != (t >> (row | bit) & 1)) return true;
  return false;
}

// An operand of a table being built: a constant or a node.
struct Src {
  bool constant = false;
  bool value = false;
  std::uint32_t node = 0;
};

class Builder {
 public:
  explicit Builder(LutNetwork& net) : net_(net) {}

  std::uint32_t constant(bool v) {
    std::uint32_t& id = v ? one_ : zero_;
    if (id == kNoNode) {
      LutNode n;
      n.kind = NodeKind::constant;
      n.index = v;
      id = push(n);
    }
    return id;
  }

  std::uint32_t input(std::uint32_t i) {
    if (i >= inputs_.size()) inputs_.resize(i + 1, kNoNode);
    if (inputs_[i] == kNoNode) {
      LutNode n;
      n.kind = NodeKind::input;
      n.index = i;
      inputs_[i] = push(n);
    }
    return inputs_[i];
  }

  Src src(std::uint32_t node) const {
    const LutNode& n = net_.nodes[node];
    if (n.kind == NodeKind::constant) return {true, n.index != 0, node};
    return {false, false, node};
  }

  // The node computing table t of (s[0], s[1], s[2]), normalised: constants substituted,
  // repeated operands merged, ignored operands dropped; a constant or a plain copy of an operand
  // returns that node instead of a new one.
  std::uint32_t make(std::uint8_t t, Src s0, Src s1, Src s2, std::uint32_t part) {
    LutNode n;
    switch (normalise(t, {s0, s1, s2}, n)) {
      case Shape::constant:
        return constant(n.index != 0);
      case Shape::copy:
        return n.in[0];
      case Shape::lut:
        break;
    }
    n.part = part;
    return push(n);
  }
  std::uint32_t make(std::uint8_t t, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                     std::uint32_t part) {
    return make(t, src(a), src(b), src(c), part);
  }

  // Normalises t over sources s into n: a lut node, a copy of the operand n.in[0], or the
  // constant n.index. Adds no node (covering calls it while it holds references).
  enum class Shape : std::uint8_t { lut, copy, constant };
  Shape normalise(std::uint8_t t, const std::array<Src, 3>& s, LutNode& n) {
    std::vector<std::uint32_t> vars;  // distinct nodes, first appearance order
    int pos[3] = {-1, -1, -1};
    for (unsigned q = 0; q < 3; ++q) {
      if (s[q].constant) continue;
      auto it = std::find(vars.begin(), vars.end(), s[q].node);
      pos[q] = static_cast<int>(it - vars.begin());
      if (it == vars.end()) vars.push_back(s[q].node);
    }
    std::uint8_t u = tabulate([&](unsigned a, unsigned b, unsigned c) {
      const unsigned v[3] = {a, b, c};
      unsigned x[3];
      for (unsigned q = 0; q < 3; ++q) x[q] = s[q].constant ? s[q].value : v[pos[q]];
      return table_at(t, x[0], x[1], x[2]);
    });
    // Drop the variables u ignores (last first, so earlier positions keep their place).
    for (int q = static_cast<int>(vars.size()) - 1; q >= 0; --q) {
      if (depends(u, static_cast<unsigned>(q))) continue;
      vars.erase(vars.begin() + q);
      u = tabulate([&](unsigned a, unsigned b, unsigned c) {
        unsigned v[3] = {a, b, c}, x[3];
        // Old position q reads 0; positions after it shift down by one.
        for (int k = 0, j = 0; k < 3; ++k) x[k] = k == q ? 0 : v[j++];
        return table_at(u, x[0], x[1], x[2]);
      });
    }
    if (vars.empty()) {
      n.index = u & 1;
      return Shape::constant;
    }
    if (vars.size() == 1 && u == kA) {
      n.in[0] = vars[0];
      return Shape::copy;
    }
    n.kind = NodeKind::lut;
    n.table = u;
    n.arity = static_cast<std::uint8_t>(vars.size());
    for (unsigned q = 0; q < 3; ++q) n.in[q] = q < vars.size() ? vars[q] : vars[0];
    return Shape::lut;
  }

 private:
  std::uint32_t push(const LutNode& n) {
    net_.nodes.push_back(n);
    return static_cast<std::uint32_t>(net_.nodes.size() - 1);
  }

  LutNetwork& net_;
  std::uint32_t zero_ = kNoNode, one_ = kNoNode;
  std::vector<std::uint32_t> inputs_;
};

// The truth table of a two-input program gate with its inversion flags, over (a, b).
std::uint8_t gate_table(const Instr& in) {
  const std::uint8_t a = in.op_flags & kInvA ? static_cast<std::uint8_t>(~kA) : kA;
  const std::uint8_t b = in.op_flags & kInvB ? static_cast<std::uint8_t>(~kB) : kB;
  std::uint8_t r = in.op() == ProgOp::and2 ? a & b : in.op() == ProgOp::or2 ? a | b : a ^ b;
  if (in.op_flags & kInvOut) r = static_cast<std::uint8_t>(~r);
  return r;
}

// bits::add_masked(plane, B, w, mask) as full adders over nodes (gate_ops.hpp): plane j gets
// plane ⊕ a ⊕ carry, carry = maj(plane, a, carry), with a = mask where bit j of w is set.
void add_masked(Builder& b, std::vector<std::uint32_t>& plane, std::int64_t w, std::uint32_t mask,
                std::uint32_t part) {
  std::uint32_t carry = b.constant(false);
  for (unsigned j = 0; j < plane.size(); ++j) {
    const std::uint32_t a =
        (static_cast<std::uint64_t>(w) >> (j < 63 ? j : 63) & 1) ? mask : b.constant(false);
    const std::uint32_t s = b.make(kA ^ kB ^ kC, plane[j], a, carry, part);
    carry = b.make(static_cast<std::uint8_t>((kA & kB) | (kA & kC) | (kB & kC)), plane[j], a, carry,
                   part);
    plane[j] = s;
  }
}

// Nodes read by live nodes or by sinks; readers of each node among the live ones.
void liveness(LutNetwork& net, std::vector<std::uint32_t>& readers) {
  const std::size_t n = net.nodes.size();
  std::vector<bool> live(n, false);
  for (std::uint32_t s : net.outputs)
    if (s != kNoNode) live[s] = true;
  for (std::uint32_t s : net.pairs)
    if (s != kNoNode) live[s] = true;
  for (std::size_t i = n; i-- > 0;) {
    const LutNode& x = net.nodes[i];
    if (!live[i] || x.kind != NodeKind::lut || net.dead[i]) continue;
    for (unsigned q = 0; q < x.arity; ++q) live[x.in[q]] = true;
  }
  readers.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!live[i]) net.dead[i] = true;
    const LutNode& x = net.nodes[i];
    if (net.dead[i] || x.kind != NodeKind::lut) continue;
    for (unsigned q = 0; q < x.arity; ++q) ++readers[x.in[q]];
  }
}

// Covering (ptx_source.hpp, step 2): absorbs single-reader lut nodes of the same partition into
// their reader while the union of inputs has at most three nodes.
void cover(LutNetwork& net, Builder& b) {
  std::vector<std::uint32_t> readers;
  liveness(net, readers);
  std::vector<bool> sink(net.nodes.size(), false);
  for (std::uint32_t s : net.outputs)
    if (s != kNoNode) sink[s] = true;
  for (std::uint32_t s : net.pairs)
    if (s != kNoNode) sink[s] = true;
  for (std::size_t g = 0; g < net.nodes.size(); ++g) {
    if (net.dead[g] || net.nodes[g].kind != NodeKind::lut) continue;
    for (bool merged = true; merged;) {
      merged = false;
      const LutNode x = net.nodes[g];
      for (unsigned q = 0; q < x.arity && !merged; ++q) {
        const std::uint32_t o = x.in[q];
        const LutNode y = net.nodes[o];
        if (y.kind != NodeKind::lut || readers[o] != 1 || sink[o] || y.part != x.part) continue;
        // The union of g's other inputs and o's inputs.
        std::vector<std::uint32_t> vars;
        for (unsigned k = 0; k < x.arity; ++k)
          if (k != q) vars.push_back(x.in[k]);
        for (unsigned k = 0; k < y.arity; ++k)
          if (std::find(vars.begin(), vars.end(), y.in[k]) == vars.end()) vars.push_back(y.in[k]);
        if (vars.size() > 3) continue;
        auto value = [&](std::uint32_t node, const unsigned v[3]) -> unsigned {
          return v[std::find(vars.begin(), vars.end(), node) - vars.begin()];
        };
        const std::uint8_t t = tabulate([&](unsigned a, unsigned bb, unsigned c) {
          const unsigned v[3] = {a, bb, c};
          const unsigned yv =
              table_at(y.table, value(y.in[0], v), value(y.in[1], v), value(y.in[2], v));
          unsigned xv[3];
          for (unsigned k = 0; k < 3; ++k) xv[k] = x.in[k] == o ? yv : value(x.in[k], v);
          return table_at(x.table, xv[0], xv[1], xv[2]);
        });
        Src s[3];
        for (unsigned k = 0; k < 3; ++k) s[k] = b.src(k < vars.size() ? vars[k] : vars[0]);
        LutNode m;
        // A merge that leaves a copy or a constant would need g's readers rewired: keep both.
        if (b.normalise(t, {s[0], s[1], s[2]}, m) != Builder::Shape::lut) continue;
        m.part = x.part;
        // Readers: o's inputs now read by g (once), o dead, g's dropped inputs lose a reader.
        std::vector<std::uint32_t> before, after;
        for (unsigned k = 0; k < x.arity; ++k) before.push_back(x.in[k]);
        for (unsigned k = 0; k < y.arity; ++k) before.push_back(y.in[k]);
        for (unsigned k = 0; k < m.arity; ++k) after.push_back(m.in[k]);
        for (std::uint32_t v : before) --readers[v];
        for (std::uint32_t v : after) ++readers[v];  // readers[o] is now 0: o is gone
        net.dead[o] = true;
        ++net.absorbed;
        net.nodes[g] = m;
        merged = true;
      }
    }
  }
}

}  // namespace

LutNetwork lut_network(const Program& p, const PtxOptions& o) {
  if (!p.boolean) throw std::invalid_argument("PTX kernels evaluate boolean programs only");
  LutNetwork net;
  Builder b(net);
  net.outputs.assign(p.outputs, kNoNode);
  net.pairs.assign(p.pairs, kNoNode);
  std::vector<std::uint32_t> slot(p.slots, kNoNode), spill(p.spill_slots, kNoNode);
  auto def = [&](std::uint32_t loc) -> std::uint32_t& {
    return loc_kind(loc) == LocKind::slot ? slot.at(loc_index(loc)) : spill.at(loc_index(loc));
  };
  auto read = [&](std::uint32_t loc) -> std::uint32_t {
    if (loc_kind(loc) == LocKind::constant) return b.constant(loc_index(loc) != 0);
    const std::uint32_t v = def(loc);
    if (v == kNoNode) throw std::invalid_argument("program reads a location before writing it");
    return v;
  };
  PartitionOptions po;
  po.rule = o.partition;
  po.max_gates = o.max_gate_instructions;
  po.inputs_cross = false;
  const std::vector<std::size_t> cuts = partition_cuts(p, po);  // {0, …, n}
  std::uint32_t part = 0;
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    const Instr& in = p.code[i];
    while (i >= cuts[part + 1]) ++part;
    switch (in.op()) {
      case ProgOp::input:
        def(in.d) = b.input(in.b);
        break;
      case ProgOp::spill:
        def(in.d) = read(in.a);
        break;
      case ProgOp::output: {
        const std::uint32_t a = read(in.a);
        net.outputs.at(in.b) =
            b.make(in.op_flags & kInvA ? static_cast<std::uint8_t>(~kA) : kA, a, a, a, part);
        break;
      }
      case ProgOp::compare: {
        const std::uint32_t a = read(in.a), d = read(in.d);
        std::uint8_t t = kA ^ kB;
        if (in.op_flags & kInvA) t = static_cast<std::uint8_t>(~t);
        if (in.op_flags & kInvB) t = static_cast<std::uint8_t>(~t);
        net.pairs.at(in.b) = b.make(t, a, d, d, part);
        break;
      }
      case ProgOp::thr: {
        // The counter of run_program (program.cpp, case thr), node by node.
        const std::int32_t* aux = p.aux.data() + in.a;
        const std::uint32_t k = in.b, planes = static_cast<std::uint32_t>(aux[2 * k + 1]);
        std::vector<std::uint32_t> plane(planes, b.constant(false));
        for (std::uint32_t q = 0; q < k; ++q)
          add_masked(b, plane, aux[k + q], read(static_cast<std::uint32_t>(aux[q])), part);
        add_masked(b, plane, -static_cast<std::int64_t>(aux[2 * k]), b.constant(true), part);
        const std::uint32_t sign = plane[planes - 1];
        def(in.d) = b.make(static_cast<std::uint8_t>(~kA), sign, sign, sign, part);
        break;
      }
      case ProgOp::and2:
      case ProgOp::or2:
      case ProgOp::xor2: {
        const std::uint32_t a = read(in.a), c = read(in.b);
        def(in.d) = b.make(gate_table(in), a, c, c, part);
        break;
      }
      default:
        throw std::invalid_argument("PTX kernels: " + to_string(in.op()) +
                                    " is not a boolean program instruction");
    }
  }
  net.parts = p.code.empty() ? 0 : part + 1;
  net.dead.assign(net.nodes.size(), false);
  if (o.cover) cover(net, b);
  std::vector<std::uint32_t> readers;
  liveness(net, readers);
  for (std::size_t i = 0; i < net.nodes.size(); ++i)
    if (!net.dead[i] && net.nodes[i].kind == NodeKind::lut) ++net.luts;
  return net;
}

ProgramResult run_lut_network(const LutNetwork& net, const RunOptions& o) {
  ProgramResult r;
  r.patterns = o.patterns.count;
  r.ones.assign(net.outputs.size(), 0);
  r.mismatches.assign(net.pairs.size(), 0);
  const std::uint64_t first_word = o.patterns.first / 64;
  const std::uint64_t words = (o.patterns.count + 63) / 64;
  if (o.store) r.stored.assign(words * net.outputs.size(), 0);
  std::vector<std::uint64_t> v(net.nodes.size());
  for (std::uint64_t w = 0; w < words; ++w) {
    const std::uint64_t valid = o.patterns.count - 64 * w;
    const std::uint64_t mask = valid >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid) - 1;
    for (std::size_t i = 0; i < net.nodes.size(); ++i) {
      const LutNode& x = net.nodes[i];
      if (net.dead[i]) continue;
      switch (x.kind) {
        case NodeKind::input:
          v[i] = patterns::bool_word(o.patterns, first_word + w, x.index);
          break;
        case NodeKind::constant:
          v[i] = x.index ? ~std::uint64_t{0} : 0;
          break;
        case NodeKind::lut:
          v[i] = apply_table(x.table, v[x.in[0]], v[x.in[1]], v[x.in[2]]);
          break;
      }
    }
    for (std::size_t k = 0; k < net.outputs.size(); ++k) {
      if (net.outputs[k] == kNoNode) continue;
      const std::uint64_t x = v[net.outputs[k]];
      r.ones[k] += static_cast<std::uint64_t>(std::popcount(x & mask));
      if (o.store) r.stored[w * net.outputs.size() + k] = x;
    }
    for (std::size_t k = 0; k < net.pairs.size(); ++k) {
      if (net.pairs[k] == kNoNode) continue;
      std::uint64_t diff = v[net.pairs[k]] & mask;
      r.mismatches[k] += static_cast<std::uint64_t>(std::popcount(diff));
      for (; diff; diff &= diff - 1) {
        const std::uint64_t at = o.patterns.first + 64 * w + std::countr_zero(diff);
        // As run_program: the smallest max_first_mismatches patterns, sorted.
        if (!r.first_mismatch || at < *r.first_mismatch) r.first_mismatch = at;
        auto& f = r.first_mismatches;
        if (std::find(f.begin(), f.end(), at) != f.end()) continue;
        f.insert(std::upper_bound(f.begin(), f.end(), at), at);
        if (f.size() > o.max_first_mismatches) f.pop_back();
      }
    }
  }
  return r;
}

namespace {

// The text of one partition's kernel.
class PtxWriter {
 public:
  PtxWriter(const PtxProgram& prog, const std::vector<std::uint32_t>& row, const PtxOptions& o)
      : prog_(prog), row_(row), o_(o) {}

  PtxPartition write(std::uint32_t q) {
    const LutNetwork& net = prog_.net;
    PtxPartition part;
    std::ostringstream body;
    reg_.assign(net.nodes.size(), 0);
    std::uint32_t next = 1;
    // The partition's LUTs in order, and each loaded row's first reader among them; a load is
    // issued load_lookahead LUTs before that reader (0: right before it).
    std::vector<std::uint32_t> order;
    for (std::size_t i = 0; i < net.nodes.size(); ++i) {
      const LutNode& x = net.nodes[i];
      if (!net.dead[i] && x.kind == NodeKind::lut && x.part == q)
        order.push_back(static_cast<std::uint32_t>(i));
    }
    // Values this partition does not compute as LUTs: rows of earlier partitions (loaded) and
    // the inputs it computes, each placed before its first reader.
    std::vector<std::vector<std::uint32_t>> loads_at(order.size() + 1);
    {
      std::vector<bool> seen(net.nodes.size(), false);
      for (std::size_t k = 0; k < order.size(); ++k) {
        const LutNode& x = net.nodes[order[k]];
        for (unsigned j = 0; j < x.arity; ++j) {
          const std::uint32_t v = x.in[j];
          const LutNode& y = net.nodes[v];
          if (seen[v] || (y.kind == NodeKind::lut && y.part == q)) continue;
          seen[v] = true;
          loads_at[k > o_.load_lookahead ? k - o_.load_lookahead : 0].push_back(v);
        }
      }
      // Inputs computed here that no LUT reads (an output is the input itself).
      for (std::size_t i = 0; i < net.nodes.size(); ++i)
        if (!net.dead[i] && !seen[i] && net.nodes[i].kind == NodeKind::input &&
            net.nodes[i].part == q)
          loads_at[order.size()].push_back(static_cast<std::uint32_t>(i));
    }
    auto bring = [&](std::uint32_t v) {
      reg_[v] = next++;
      const LutNode& y = net.nodes[v];
      if (y.kind == NodeKind::input && y.part == q) {
        input(body, y.index, reg_[v]);
        if (row_[v] != kNoNode) {
          body << "\tmad.wide.u32 %rd4, %r0, " << row_[v] << ", %rd3;\n\tst.global.u32 [%rd4], %r"
               << reg_[v] << ";\n";
          ++part.stores;
        }
        ++part.inputs;
        return;
      }
      body << "\tmad.wide.u32 %rd4, %r0, " << row_[v] << ", %rd3;\n\tld.global.nc.u32 %r" << reg_[v]
           << ", [%rd4];\n";
      ++part.loads;
    };
    for (std::uint32_t v : loads_at[order.size()]) bring(v);
    for (std::size_t k = 0; k < order.size(); ++k) {
      for (std::uint32_t v : loads_at[k]) bring(v);
      const std::uint32_t i = order[k];
      const LutNode& x = net.nodes[i];
      reg_[i] = next++;
      body << "\tlop3.b32 %r" << reg_[i] << ", %r" << reg_[x.in[0]] << ", %r" << reg_[x.in[1]]
           << ", %r" << reg_[x.in[2]] << ", 0x" << std::hex << static_cast<unsigned>(x.table)
           << std::dec << ";\n";
      ++part.luts;
      if (row_[i] != kNoNode) {
        body << "\tmad.wide.u32 %rd4, %r0, " << row_[i] << ", %rd3;\n\tst.global.u32 [%rd4], %r"
             << reg_[i] << ";\n";
        ++part.stores;
      }
    }
    std::ostringstream s;
    s << "// rnncc LUT kernel: partition " << q + 1 << " of " << net.parts << ", " << part.luts
      << " lop3, " << part.loads << " row loads, " << part.stores
      << " row stores (circuits/eval/ptx_source.cpp)\n"
      << ".version 8.0\n.target sm_" << o_.arch << "\n.address_size 64\n\n"
      << ".visible .entry " << kPtxEntry
      << "(\n\t.param .u64 X,\n\t.param .u64 stride,\n\t.param .u64 units,\n\t.param .u64 "
         "first_word,\n\t.param .u64 seed\n)\n"
      << ".maxntid " << o_.threads << ", 1, 1\n.minnctapersm " << o_.min_blocks_per_sm << "\n{\n"
      << "\t.reg .pred %p<2>;\n\t.reg .b32 %r<" << next << ">;\n\t.reg .b32 %t<4>;\n"
      << "\t.reg .b64 %rd<8>;\n\t.reg .b64 %x<5>;\n\t.reg .b64 %w<4>;\n"
      // u = blockIdx.x · blockDim.x + threadIdx.x; one unit (32 patterns) per thread.
      << "\tmov.u32 %t0, %ctaid.x;\n\tmov.u32 %t1, %ntid.x;\n\tmov.u32 %t2, %tid.x;\n"
      << "\tmul.wide.u32 %rd1, %t0, %t1;\n\tcvt.u64.u32 %rd2, %t2;\n"
      << "\tadd.u64 %rd1, %rd1, %rd2;\n\tld.param.u64 %rd2, [units];\n"
      << "\tsetp.ge.u64 %p1, %rd1, %rd2;\n\t@%p1 bra $done;\n"
      // %rd3 = &X[0 · stride + u]; %r0 = bytes per row (stride < 2³⁰ units: run_ptx's chunks).
      << "\tld.param.u64 %rd3, [X];\n\tcvta.to.global.u64 %rd3, %rd3;\n"
      << "\tshl.b64 %rd2, %rd1, 2;\n\tadd.u64 %rd3, %rd3, %rd2;\n"
      << "\tld.param.u64 %rd2, [stride];\n\tcvt.u32.u64 %r0, %rd2;\n\tshl.b32 %r0, %r0, 2;\n"
      // The inputs' operands (patterns::bool_word): %w0 = word w = first_word + u / 2, %t3 = 32·h
      // (h = u mod 2, the half of the word this thread owns), %w1 = seed · 0x100000001B3,
      // %w2 = w + 0x9E3779B97F4A7C15 (the first mix's v + constant).
      << "\tld.param.u64 %w0, [first_word];\n\tshr.u64 %rd2, %rd1, 1;\n"
         "\tadd.u64 %w0, %w0, %rd2;\n\tcvt.u32.u64 %t3, %rd1;\n\tand.b32 %t3, %t3, 1;\n"
         "\tshl.b32 %t3, %t3, 5;\n\tld.param.u64 %w1, [seed];\n"
         "\tmul.lo.u64 %w1, %w1, 0x100000001B3;\n\tadd.u64 %w2, %w0, 0x9E3779B97F4A7C15;\n"
      << body.str() << "$done:\n\tret;\n}\n";
    part.ptx = s.str();
    return part;
  }

 private:
  // %r<reg> = the 32 patterns of input i this thread owns: patterns::bool_word(spec, w, i) >> 32h,
  // for the run's mode (PtxOptions::mode).
  //   bits_random: mix(mix(seed · 0x100000001B3 + i, w), 0x2545F4914F6CDD1D) with
  //     mix(h, v) = (h ⊕ (v + 0x9E3779B97F4A7C15 + (h ≪ 6) + (h ≫ 2))) · 0xBF58476D1CE4E5B9;
  //   bits_exhaustive: input i < 6 is bit i of the lane (a fixed word), input i ≥ 6 is all ones
  //     where bit i − 6 of w is set.
  void input(std::ostringstream& body, std::uint32_t i, std::uint32_t reg) const {
    if (o_.mode == patterns::Mode::bits_random) {
      body << "\tadd.u64 %x1, %w1, " << i << ";\n"
           << "\tshl.b64 %x2, %x1, 6;\n\tshr.u64 %x3, %x1, 2;\n\tadd.u64 %x4, %w2, %x2;\n"
              "\tadd.u64 %x4, %x4, %x3;\n\txor.b64 %x1, %x1, %x4;\n"
              "\tmul.lo.u64 %x1, %x1, 0xBF58476D1CE4E5B9;\n"
              "\tshl.b64 %x2, %x1, 6;\n\tshr.u64 %x3, %x1, 2;\n"
              // 0x2545F4914F6CDD1D + 0x9E3779B97F4A7C15 mod 2⁶⁴
              "\tadd.u64 %x4, %x2, 0xC37D6E4ACEB75932;\n\tadd.u64 %x4, %x4, %x3;\n"
              "\txor.b64 %x1, %x1, %x4;\n\tmul.lo.u64 %x1, %x1, 0xBF58476D1CE4E5B9;\n";
    } else {
      static constexpr const char* kLanes[6] = {"0xAAAAAAAAAAAAAAAA", "0xCCCCCCCCCCCCCCCC",
                                                "0xF0F0F0F0F0F0F0F0", "0xFF00FF00FF00FF00",
                                                "0xFFFF0000FFFF0000", "0xFFFFFFFF00000000"};
      if (i < 6)
        body << "\tmov.b64 %x1, " << kLanes[i] << ";\n";
      else if (i - 6 < 64)
        body << "\tshr.u64 %x1, %w0, " << i - 6
             << ";\n\tand.b64 %x1, %x1, 1;\n\tneg.s64 %x1, %x1;\n";
      else
        body << "\tmov.b64 %x1, 0;\n";
    }
    body << "\tshr.u64 %x1, %x1, %t3;\n\tcvt.u32.u64 %r" << reg << ", %x1;\n";
  }

  const PtxProgram& prog_;
  const std::vector<std::uint32_t>& row_;
  const PtxOptions& o_;
  std::vector<std::uint32_t> reg_;
};

}  // namespace

PtxProgram ptx_program(const Program& p, const PtxOptions& o) {
  PtxProgram prog;
  prog.net = lut_network(p, o);
  const LutNetwork& net = prog.net;
  const std::size_t n = net.nodes.size();
  // An input is computed by the first partition that reads it (partition 0 when only an output
  // reads it); rows: values read by a later partition than their own, and sinks.
  for (std::size_t i = 0; i < n; ++i)
    if (net.nodes[i].kind == NodeKind::input) prog.net.nodes[i].part = kNoNode;
  for (std::size_t i = 0; i < n; ++i) {
    const LutNode& x = net.nodes[i];
    if (net.dead[i] || x.kind != NodeKind::lut) continue;
    for (unsigned q = 0; q < x.arity; ++q) {
      LutNode& y = prog.net.nodes[x.in[q]];
      if (y.kind == NodeKind::input) y.part = std::min(y.part, x.part);
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (net.nodes[i].kind == NodeKind::input && net.nodes[i].part == kNoNode)
      prog.net.nodes[i].part = 0;
  std::vector<std::uint32_t> row(n, kNoNode);
  auto give_row = [&](std::uint32_t i) {
    if (row[i] == kNoNode) row[i] = prog.rows++;
    return row[i];
  };
  for (std::size_t i = 0; i < n; ++i) {
    const LutNode& x = net.nodes[i];
    if (net.dead[i] || x.kind != NodeKind::lut) continue;
    for (unsigned q = 0; q < x.arity; ++q) {
      const LutNode& y = net.nodes[x.in[q]];
      if (y.kind != NodeKind::constant && y.part != x.part) give_row(x.in[q]);
    }
  }
  auto sink_row = [&](std::uint32_t s) -> std::uint32_t {
    if (s == kNoNode) return kNoNode;
    const LutNode& x = net.nodes[s];
    if (x.kind == NodeKind::constant) return x.index ? kRowOne : kRowZero;
    return give_row(s);
  };
  for (std::uint32_t s : net.outputs) prog.output_rows.push_back(sink_row(s));
  for (std::uint32_t s : net.pairs) prog.pair_rows.push_back(sink_row(s));
  PtxWriter writer(prog, row, o);
  for (std::uint32_t q = 0; q < net.parts; ++q) prog.parts.push_back(writer.write(q));
  return prog;
}

}  // namespace rnncc::kernels
