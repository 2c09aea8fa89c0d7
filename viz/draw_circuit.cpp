#include "viz/draw_circuit.hpp"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "circuits/analysis.hpp"
#include "viz/cgraph_ids.hpp"

namespace rnncc {

namespace {

// Fill colours by gate kind (one table, indexed like kGateKinds).
constexpr const char* kKindColour[kGateKindCount] = {
    "#eeeeee",  // const
    "#ffe9a8",  // input
    "#b9d7f7",  // add
    "#b9d7f7",  // sub
    "#b9d7f7",  // neg
    "#f7c6b9",  // mul
    "#8fc0f0",  // sum
    "#f0a08f",  // product
    "#c8ecc0",  // and
    "#c8ecc0",  // or
    "#c8ecc0",  // xor
    "#c8ecc0",  // not
    "#e2c8f0",  // maj
    "#e2c8f0",  // thr
    "#ffcf70",  // positive
    "#ffcf70",  // is_zero
};
constexpr const char* kRegionColour[] = {"#fff8e0", "#f2f7ff", "#eef5ee", "#fdf0f0",
                                         "#f5f0fd", "#f0f0f0", "#fff0d8"};

std::string symbol(const Circuit& c, GateId id) {
  switch (c.kind(id)) {
    case GateKind::constant:
      return to_string(c.constant(id));
    case GateKind::input: {
      const std::string& n = c.input_names()[c.input_index(id)];
      return n.empty() ? "x" + std::to_string(c.input_index(id)) : n;
    }
    case GateKind::add:
      return "+";
    case GateKind::sub:
      return "−";
    case GateKind::neg:
      return "neg";
    case GateKind::mul:
      return "×";
    case GateKind::sum:
      return "Σ";
    case GateKind::product:
      return "Π";
    case GateKind::and_:
      return "∧";
    case GateKind::or_:
      return "∨";
    case GateKind::xor_:
      return "⊕";
    case GateKind::not_:
      return "¬";
    case GateKind::maj:
      return "MAJ";
    case GateKind::thr:
      return fmt::format("≥{}", c.threshold(id));
    case GateKind::positive:
      return "> 0";
    case GateKind::is_zero:
      return "= 0";
  }
  return "?";
}

// The kind of the gates [first, end) (circuit_kind_name's rule), those `live` marks where given.
std::string kind_of(const Circuit& c, GateId first, GateId end,
                    const std::vector<bool>* live = nullptr) {
  bool threshold = false;
  for (GateId id = first; id < end; ++id) {
    if (live && !(*live)[id]) continue;
    const GateKind k = c.kind(id);
    if (k == GateKind::input) continue;
    if (k == GateKind::constant) {
      if (c.constant(id) != 0 && c.constant(id) != 1) return "arithmetic";
      continue;
    }
    const GateFamily f = info(k).family;
    if (f == GateFamily::arithmetic || f == GateFamily::test) return "arithmetic";
    threshold = threshold || f == GateFamily::threshold;
  }
  return threshold ? "threshold" : "boolean";
}

// The label of a region; `kind` is what its gates compute over (kind_of), named where the
// region is no step of a scan.
std::string region_label(const Region& r, const std::string& kind) {
  switch (r.kind) {
    case RegionKind::input:
      return "inputs";
    case RegionKind::leaf:
      // Level 0: one region for every position (attention's scores, keys and values; a
      // nonlinear RNN's sequential steps), no leaf of one position.
      if (r.level == 0) return "every position";
      return fmt::format("F{} = (A(x{}), B(x{}))", r.level, r.level, r.level);
    case RegionKind::combine:
      // A scan step v[target] = v[target] ∘ v[source] has target > source; compilers that
      // have no scan (threshold sums, attention's comparisons, a hybrid's inlined layers)
      // record their stages as combines with target = source: titled by their kind.
      if (r.target == r.source)
        return r.level == 0 ? kind + " circuit" : fmt::format("{} stage {}", kind, r.level);
      return fmt::format("v{}∘v{} · level {}", r.target + 1, r.source + 1, r.level);
    case RegionKind::readout:
      return fmt::format("y{} = C·S{}", r.level, r.level);
    case RegionKind::input_map:
      return fmt::format("z{} (layer {})", r.level, r.layer + 1);
    case RegionKind::chunk:
      return fmt::format("chunk {} (UT transform)", r.target + 1);
    case RegionKind::accept:
      return "accept";
    case RegionKind::valid:
      return "valid: one symbol a position";
  }
  return "?";
}

// cgraph wants char*; keep the strings alive while the graph is.
struct Graph {
  Agraph_t* g;
  std::vector<std::unique_ptr<std::string>> strings;
  char* s(const std::string& v) {
    strings.push_back(std::make_unique<std::string>(v));
    return strings.back()->data();
  }
  void set(void* obj, const std::string& key, const std::string& value) {
    agsafeset(obj, s(key), s(value), s(""));
  }

  // An HTML-like label (<table>…</table>) on an edge: cgraph keeps it as HTML only when the
  // string was interned as HTML first (agstrdup_html; agxset then finds it in the pool).
  void set_html(Agedge_t* e, const std::string& key, const std::string& html) {
    Agsym_t* sym = agattr(g, AGEDGE, s(key), s(""));
    char* text = agstrdup_html(g, s(html));
    agxset(e, sym, text);
    agstrfree(g, text);
  }
};

// An edge label with a margin of 2 points around its text: dot reserves the label's box with
// the margin, so two labels never touch ("1" beside "-1" read "1-1" before).
std::string padded_label(const std::string& text) {
  return "<table border=\"0\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"2\"><tr><td>" +
         text + "</td></tr></table>";
}

// "… — 12 gates": a label with the number of gates drawn for it.
std::string counted(const std::string& label, std::size_t gates) {
  return fmt::format("{} — {} gate{}", label, gates, gates == 1 ? "" : "s");
}

// The time step of an input named "x[t,…]" (the compilers' input_name), or none.
std::optional<std::size_t> input_time(const std::string& name) {
  const auto open = name.find('[');
  if (open == std::string::npos || open + 1 >= name.size()) return std::nullopt;
  std::size_t t = 0, at = open + 1;
  if (!std::isdigit(static_cast<unsigned char>(name[at]))) return std::nullopt;
  for (; at < name.size() && std::isdigit(static_cast<unsigned char>(name[at])); ++at)
    t = t * 10 + static_cast<std::size_t>(name[at] - '0');
  return t;
}

}  // namespace

std::string circuit_kind_name(const Circuit& c) {
  return kind_of(c, 0, static_cast<GateId>(c.size()));
}

DrawFormat draw_format_for(const std::string& path) {
  auto ends = [&](const char* ext) {
    return path.size() >= 4 && path.substr(path.size() - 4) == ext;
  };
  if (ends(".svg")) return DrawFormat::svg;
  if (ends(".png")) return DrawFormat::png;
  if (ends(".dot")) return DrawFormat::dot;
  throw InputError(path, "expected an output file ending in .svg, .png or .dot");
}

std::string draw_circuit(const CompiledCircuit& cc, const DrawOptions& o) {
  const Circuit& c = cc.circuit;
  const bool regions = !cc.regions.empty();
  const std::vector<std::uint32_t> region_of =
      regions ? cc.region_table() : std::vector<std::uint32_t>();
  if (o.collapse && !regions)
    throw InputError("--collapse",
                     "the circuit has no regions (only circuits compiled by rnncc carry them)");
  const auto live = live_table(c);
  const auto depth = depth_table(c, FaninModel::unbounded);
  std::set<GateId> critical;
  if (o.highlight_critical)
    for (GateId g : critical_path(c, FaninModel::unbounded)) critical.insert(g);

  // AIG inversions: a NOT gate that is no output and reads no constant is not drawn; its
  // readers get a marked (dashed, odot-headed) edge from its operand instead.
  std::vector<bool> is_output(c.size(), false);
  for (GateId g : c.outputs()) is_output[g] = true;
  auto elided = [&](GateId g) {
    return !o.collapse && c.kind(g) == GateKind::not_ && !is_output[g] &&
           c.kind(c.operands(g)[0]) != GateKind::constant;
  };
  auto drawn = [&](GateId g) { return live[g] && c.kind(g) != GateKind::constant && !elided(g); };

  std::size_t nodes = 0;
  if (o.collapse) {
    std::set<std::uint32_t> used;
    for (GateId id = 0; id < c.size(); ++id)
      if (live[id] && c.kind(id) != GateKind::constant && c.kind(id) != GateKind::input)
        used.insert(region_of[id]);
    nodes = used.size();
  } else {
    for (GateId id = 0; id < c.size(); ++id) nodes += drawn(id);
  }
  if (nodes > o.max_nodes)
    throw InputError("--max-nodes",
                     fmt::format("the drawing would have {} nodes, more than the limit of {} "
                                 "(raise --max-nodes to draw it anyway{})",
                                 nodes, o.max_nodes, o.collapse ? "" : ", or try --collapse"));

  // The Graphviz context first, for every format: it installs default attributes (a node's
  // label "\N") in cgraph's process-wide prototype graph, so a graph opened before the first
  // context would be written without them and one opened after with them.
  GVC_t* gvc = gvContext();
  Graph G{agopen(const_cast<char*>("circuit"), Agdirected, deterministic_cgraph_disc()), {}};
  G.set(G.g, "rankdir", "BT");
  G.set(G.g, "newrank", "true");
  G.set(G.g, "fontname", "Helvetica");
  G.set(G.g, "nodesep", "0.15");
  G.set(G.g, "ranksep", "0.3");
  // The kind of each region's live gates (kind_of's rule), for the labels of stages.
  std::vector<std::string> region_kind(cc.regions.size());
  for (std::uint32_t r = 0; r < cc.regions.size(); ++r) {
    const GateId first = cc.regions[r].first_gate;
    const GateId end =
        r + 1 < cc.regions.size() ? cc.regions[r + 1].first_gate : static_cast<GateId>(c.size());
    region_kind[r] = kind_of(c, first, end, &live);
  }
  auto label_of = [&](std::uint32_t r) { return region_label(cc.regions[r], region_kind[r]); };
  {
    // Untitled drawings (a circuit file, Python's draw()) are titled by what the circuit is.
    std::size_t gates = 0, deepest = 0;
    for (GateId id = 0; id < c.size(); ++id)
      if (live[id] && c.kind(id) != GateKind::constant && c.kind(id) != GateKind::input) {
        ++gates;
        deepest = std::max<std::size_t>(deepest, depth[id]);
      }
    G.set(G.g, "label",
          !o.title.empty() ? o.title
                           : fmt::format("{} circuit — {} gate{}, depth {}", circuit_kind_name(c),
                                         gates, gates == 1 ? "" : "s", deepest));
    G.set(G.g, "labelloc", "t");
  }

  if (!o.collapse) {
    // Inputs first, in time order (x[1,·] before x[2,·], then by index), one rank left to
    // right; then the clusters per region (inputs and constants stay outside), leaves in time
    // order; then the gates, ranked by depth.
    std::vector<GateId> inputs;
    for (GateId id : c.inputs())
      if (live[id]) inputs.push_back(id);
    std::stable_sort(inputs.begin(), inputs.end(), [&](GateId a, GateId b) {
      const auto ta = input_time(c.input_names()[c.input_index(a)]);
      const auto tb = input_time(c.input_names()[c.input_index(b)]);
      if (ta && tb && *ta != *tb) return *ta < *tb;
      return c.input_index(a) < c.input_index(b);
    });
    std::vector<GateId> order = inputs;
    for (GateId id = 0; id < c.size(); ++id)
      if (drawn(id) && c.kind(id) != GateKind::input) order.push_back(id);

    std::map<std::uint32_t, Agraph_t*> clusters;
    std::map<std::uint32_t, std::size_t> cluster_gates;  // the gates drawn in each cluster
    if (regions) {
      std::vector<std::uint32_t> used;
      for (GateId id : order)
        if (c.kind(id) != GateKind::input && !cluster_gates.count(region_of[id])) {
          cluster_gates[region_of[id]] = 0;
          used.push_back(region_of[id]);
        }
      std::stable_sort(used.begin(), used.end(), [&](std::uint32_t a, std::uint32_t b) {
        const Region &ra = cc.regions[a], &rb = cc.regions[b];
        if (ra.kind == RegionKind::leaf && rb.kind == RegionKind::leaf) return ra.level < rb.level;
        return false;
      });
      for (std::uint32_t r : used) {
        Agraph_t* sub = agsubg(G.g, G.s(fmt::format("cluster_{}", r)), 1);
        G.set(sub, "style", "filled,rounded");
        G.set(sub, "color", "#bbbbbb");
        G.set(sub, "fillcolor", kRegionColour[static_cast<int>(cc.regions[r].kind)]);
        G.set(sub, "fontsize", "10");
        clusters.emplace(r, sub);
      }
    }
    std::vector<Agnode_t*> node(c.size(), nullptr);
    std::map<std::uint32_t, std::vector<Agnode_t*>> by_depth;
    for (GateId id : order) {
      Agraph_t* parent = G.g;
      if (regions && c.kind(id) != GateKind::input) {
        parent = clusters.at(region_of[id]);
        ++cluster_gates[region_of[id]];
      }
      Agnode_t* n = agnode(parent, G.s(fmt::format("g{}", id)), 1);
      // operand constants are folded into the label: "× 3/4" (with its weight at a thr gate)
      std::string label = symbol(c, id);
      const auto ops = c.operands(id);
      for (std::size_t k = 0; k < ops.size(); ++k)
        if (c.kind(ops[k]) == GateKind::constant)
          label += c.kind(id) == GateKind::thr
                       ? fmt::format(" {:+}·{}", c.weights(id)[k], to_string(c.constant(ops[k])))
                       : " " + to_string(c.constant(ops[k]));
      G.set(n, "label", label);
      G.set(n, "tooltip", fmt::format("gate {} ({}), depth {}", id, name(c.kind(id)), depth[id]));
      G.set(n, "shape", c.kind(id) == GateKind::input ? "box" : "circle");
      G.set(n, "style", "filled");
      G.set(n, "fillcolor", kKindColour[static_cast<int>(c.kind(id))]);
      G.set(n, "fontsize", "10");
      G.set(n, "width", "0.3");
      G.set(n, "height", "0.3");
      G.set(n, "margin", "0.02");
      if (critical.count(id)) {
        G.set(n, "color", "#d62728");
        G.set(n, "penwidth", "2.5");
      }
      node[id] = n;
      by_depth[depth[id]].push_back(n);
    }
    for (auto& [r, sub] : clusters)  // the label counts the gates drawn in it
      G.set(sub, "label", counted(label_of(r), cluster_gates[r]));
    for (auto& [d, ns] : by_depth) {  // rank by depth
      Agraph_t* rank = agsubg(G.g, G.s(fmt::format("rank_{}", d)), 1);
      G.set(rank, "rank", "same");
      for (Agnode_t* n : ns) agsubnode(rank, n, 1);
    }
    // Invisible edges between consecutive inputs keep them left to right in time order.
    for (std::size_t i = 1; i < inputs.size(); ++i) {
      Agedge_t* e = agedge(G.g, node[inputs[i - 1]], node[inputs[i]], nullptr, 1);
      G.set(e, "style", "invis");
    }
    bool inversions = false;
    for (GateId id : order) {
      const auto ops = c.operands(id);
      for (std::size_t k = 0; k < ops.size(); ++k) {
        GateId from = ops[k];
        bool inverted = false;
        while (elided(from)) {  // through the NOTs that are not drawn
          inverted = !inverted;
          from = c.operands(from)[0];
        }
        if (!node[from]) continue;
        Agedge_t* e = agedge(G.g, node[from], node[id], nullptr, 1);
        G.set(e, "arrowsize", "0.5");
        if (c.kind(id) == GateKind::thr) {
          G.set_html(e, "label", padded_label(fmt::format("{}", c.weights(id)[k])));
          G.set(e, "fontsize", "9");
          G.set(e, "fontcolor", "#6a3d9a");
        }
        if (inverted) {
          G.set(e, "style", "dashed");
          G.set(e, "arrowhead", "odot");
          G.set(e, "arrowsize", "0.7");
          inversions = true;
        }
        if (critical.count(id) && critical.count(from)) {
          G.set(e, "color", "#d62728");
          G.set(e, "penwidth", "2.5");
        } else {
          G.set(e, "color", "#777777");
        }
      }
    }
    for (std::size_t i = 0; i < c.outputs().size(); ++i) {
      GateId id = c.outputs()[i];
      if (!node[id]) continue;
      G.set(node[id], "shape", "doublecircle");
      if (i < c.output_names().size()) G.set(node[id], "xlabel", c.output_names()[i]);
    }
    if (inversions) {  // the legend of the marked edges
      Agraph_t* legend = agsubg(G.g, G.s("cluster_legend"), 1);
      G.set(legend, "label", "legend");
      G.set(legend, "fontsize", "10");
      G.set(legend, "style", "rounded");
      G.set(legend, "color", "#bbbbbb");
      Agnode_t* a = agnode(legend, G.s("legend_a"), 1);
      Agnode_t* b = agnode(legend, G.s("legend_b"), 1);
      G.set(a, "label", "a");
      G.set(b, "label", "reads ¬a");
      for (Agnode_t* n : {a, b}) {
        G.set(n, "shape", "plaintext");
        G.set(n, "fontsize", "10");
      }
      Agedge_t* e = agedge(G.g, a, b, nullptr, 1);
      G.set(e, "style", "dashed");
      G.set(e, "arrowhead", "odot");
      G.set(e, "arrowsize", "0.7");
      G.set(e, "color", "#777777");
      G.set(e, "label", "NOT");
      G.set(e, "fontsize", "9");
    }
  } else {
    // One box per region; an edge where a gate of one region reads a gate of another. Inputs
    // are left out (each leaf box reads its own position's indicators); left to right, so
    // the n leaves stack vertically, one column per layer, F1 at the top.
    G.set(G.g, "rankdir", "LR");
    std::map<std::uint32_t, Agnode_t*> box;
    std::map<std::uint32_t, std::size_t> count, crit;
    for (GateId id = 0; id < c.size(); ++id)
      if (live[id] && c.kind(id) != GateKind::constant && c.kind(id) != GateKind::input) {
        ++count[region_of[id]];
        crit[region_of[id]] += critical.count(id);
      }
    auto region_box = [&](const std::string& name, RegionKind kind, const std::string& label) {
      Agnode_t* n = agnode(G.g, G.s(name), 1);
      G.set(n, "label", label);
      G.set(n, "shape", "box");
      G.set(n, "style", "filled,rounded");
      G.set(n, "fillcolor", kRegionColour[static_cast<int>(kind)]);
      G.set(n, "fontsize", "10");
      return n;
    };
    std::map<std::uint32_t, std::vector<Agnode_t*>> by_level;
    for (auto& [r, k] : count) {
      const Region& reg = cc.regions[r];
      Agnode_t* n = region_box(fmt::format("r{}", r), reg.kind, counted(label_of(r), k));
      if (crit[r]) {
        G.set(n, "color", "#d62728");
        G.set(n, "penwidth", "2.5");
      }
      box[r] = n;
      if (reg.kind == RegionKind::combine) by_level[reg.level].push_back(n);
    }
    // The leaves of each layer at positions 1…n (level 0 is a region of every position). A
    // position whose leaf drew no gate — its region holds none (the recorder drops it) or
    // none live, as F1 where the initial state folds the leaf into the first combine — gets
    // a box of 0 gates, so F1 … Fn are all there. n: the last position of an input name
    // x[t,…] or of a leaf.
    std::map<std::uint32_t, std::map<std::uint32_t, Agnode_t*>> leaves;  // layer → t → box
    std::size_t positions = 0;
    for (GateId id : c.inputs())
      if (const auto t = input_time(c.input_names()[c.input_index(id)]))
        positions = std::max(positions, *t);
    for (std::uint32_t r = 0; r < cc.regions.size(); ++r) {
      const Region& reg = cc.regions[r];
      if (reg.kind != RegionKind::leaf || reg.level == 0) continue;
      positions = std::max<std::size_t>(positions, reg.level);
      auto& at = leaves[reg.layer][reg.level];
      if (!at && box.count(r)) at = box[r];
    }
    std::set<Agnode_t*> gateless;  // the boxes of leaves that drew no gate
    for (auto& [layer, at] : leaves)
      for (std::uint32_t t = 1; t <= positions; ++t)
        if (!at[t])
          at[t] = *gateless
                       .insert(region_box(fmt::format("leaf_{}_{}", layer, t), RegionKind::leaf,
                                          counted(region_label({.kind = RegionKind::leaf,
                                                                .first_gate = 0,
                                                                .layer = layer,
                                                                .level = t,
                                                                .target = 0,
                                                                .source = 0},
                                                               ""),
                                                  0)))
                       .first;
    for (auto& [lvl, ns] : by_level) {
      Agraph_t* rank = agsubg(G.g, G.s(fmt::format("level_{}", lvl)), 1);
      G.set(rank, "rank", "same");
      for (Agnode_t* n : ns) agsubnode(rank, n, 1);
    }
    // One column per layer, held in time order by invisible edges F_t → F_t+1 within it
    // (with rankdir LR an edge inside a rank runs top to bottom).
    for (auto& [layer, at] : leaves) {
      Agraph_t* rank = agsubg(G.g, G.s(fmt::format("leaves_{}", layer)), 1);
      G.set(rank, "rank", "same");
      Agnode_t* previous = nullptr;
      for (auto& [t, n] : at) {
        agsubnode(rank, n, 1);
        if (previous) G.set(agedge(G.g, previous, n, nullptr, 1), "style", "invis");
        previous = n;
      }
    }
    std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
    std::set<std::pair<Agnode_t*, std::uint32_t>> seen_leaf;
    const auto first_layer = leaves.empty() ? leaves.end() : leaves.find(0);
    for (GateId id = 0; id < c.size(); ++id) {
      if (!live[id] || c.kind(id) == GateKind::constant || c.kind(id) == GateKind::input) continue;
      for (GateId op : c.operands(id)) {
        if (c.kind(op) == GateKind::constant) continue;
        if (c.kind(op) == GateKind::input) {
          // A region reading position t's inputs directly, where t's leaf drew no gate: the
          // edge from that leaf's box (the leaf is those inputs).
          if (first_layer == leaves.end()) continue;
          const auto t = input_time(c.input_names()[c.input_index(op)]);
          if (!t || *t == 0 || *t > positions) continue;
          Agnode_t* leaf = first_layer->second[static_cast<std::uint32_t>(*t)];
          if (!gateless.count(leaf) || !seen_leaf.insert({leaf, region_of[id]}).second) continue;
          G.set(agedge(G.g, leaf, box[region_of[id]], nullptr, 1), "color", "#777777");
          continue;
        }
        auto key = std::make_pair(region_of[op], region_of[id]);
        if (key.first == key.second || !seen.insert(key).second) continue;
        Agedge_t* e = agedge(G.g, box[key.first], box[key.second], nullptr, 1);
        const bool hot = crit[key.first] && crit[key.second];
        G.set(e, "color", hot ? "#d62728" : "#777777");
        if (hot) G.set(e, "penwidth", "2.5");
      }
    }
  }

  std::string out;
  if (o.format == DrawFormat::dot) {
    // agwrite through a memory-backed stream
    char* buffer = nullptr;
    std::size_t size = 0;
    FILE* mem = open_memstream(&buffer, &size);
    agwrite(G.g, mem);
    std::fclose(mem);
    out.assign(buffer, size);
    std::free(buffer);
  } else {
    gvLayout(gvc, G.g, "dot");
    char* data = nullptr;
    unsigned int length = 0;
    const char* format = o.format == DrawFormat::svg   ? "svg"
                         : o.format == DrawFormat::png ? "png"
                                                       : "json";
    const int rc = gvRenderData(gvc, G.g, format, &data, &length);
    if (rc == 0 && data) out.assign(data, length);
    gvFreeRenderData(data);
    gvFreeLayout(gvc, G.g);
    if (rc != 0 || out.empty()) {
      agclose(G.g);
      gvFreeContext(gvc);
      throw std::runtime_error(
          "Graphviz could not render the drawing (is the graphviz package installed?)");
    }
  }
  agclose(G.g);
  gvFreeContext(gvc);
  return out;
}

}  // namespace rnncc
