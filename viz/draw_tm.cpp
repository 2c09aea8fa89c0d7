#include "viz/draw_tm.hpp"

#include <graphviz/gvc.h>

#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace rnncc {

std::string tm_state_diagram_dot(const TuringMachine& m) {
  std::string out =
      "digraph machine {\n  rankdir=LR;\n  node [shape=circle, fontname=\"Helvetica\"];\n";
  out += fmt::format("  label=\"{}\";\n  labelloc=t;\n", to_string(m));
  out += "  start [shape=point];\n  start -> A;\n";
  bool halts = false, undefined = false;
  // Parallel edges q → q' are merged into one edge with the labels stacked.
  std::map<std::pair<std::string, std::string>, std::string> edges;
  std::vector<std::pair<std::string, std::string>> order;
  for (std::size_t q = 0; q < m.states; ++q) {
    out += fmt::format("  {};\n", state_name(q));
    for (std::size_t a = 0; a < m.symbols; ++a) {
      const TmTransition& t = m.at(q, a);
      std::string to, label;
      if (!t.defined) {
        to = "undefined";
        label = fmt::format("{}/---", a);
        undefined = true;
      } else {
        to = t.next ? state_name(*t.next) : "Z";
        halts = halts || !t.next;
        label = fmt::format("{}/{},{}", a, t.write, t.move < 0 ? "L" : "R");
      }
      auto key = std::make_pair(state_name(q), to);
      if (!edges.count(key)) order.push_back(key);
      edges[key] += (edges[key].empty() ? "" : "\\n") + label;
    }
  }
  if (halts) out += "  Z [shape=doublecircle, label=\"Z\\nhalt\"];\n";
  if (undefined)
    out += "  undefined [shape=box, style=dashed, color=grey50, label=\"halt\\n(undefined)\"];\n";
  for (const auto& key : order)
    out += fmt::format("  {} -> {} [label=\"{}\"];\n", key.first, key.second, edges[key]);
  out += "}\n";
  return out;
}

std::string tm_layer_diagram_dot(const TuringMachine& m, const TmHybrid& h) {
  const auto& l1 = std::get<LrnnLayer>(h.model.layers[0].layer);
  const auto& l3 = std::get<ElmanLayer>(h.model.layers[2].layer);
  const auto& l4 = std::get<ElmanLayer>(h.model.layers[3].layer);
  std::string out =
      "digraph hybrid {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\"];\n";
  out += fmt::format("  label=\"hybrid model of {} [WDL24]\";\n  labelloc=t;\n", to_string(m));
  out += fmt::format(
      "  tokens [shape=note, label=\"token u_t (|Σ| = {}): ^, x0..x{}, transitions bDq\"];\n",
      h.model.alphabet.size(), m.symbols - 1);
  out += fmt::format(
      "  lrnn [label=\"LRNN (general), d = {}\\nS = (p, p², c, c², w, w², q, s)\\n"
      "transition bDq: p += D, w = p_old, q = e_q', s = e_b\\ninput x_a: w = c, c += 1, s = "
      "e_a\"];\n",
      l1.d);
  out += fmt::format(
      "  attention [label=\"attention, unique-hard, 1 head, tie {}\\nquery (2p, −1), key (w, w²)\\n"
      "score = p² − (p − w)²: the latest write at the head\\nvalue (w, s), residual\"];\n",
      to_string(std::get<AttentionLayer>(h.model.layers[1].layer).tie));
  out += fmt::format("  relu1 [label=\"ReLU, {} units\\ne± = [±(w* − p)]₊, q, s*\"];\n", l3.d);
  out += fmt::format(
      "  relu2 [label=\"ReLU, {} units\\n[q_i + s*_j − e⁺ − e⁻ − 1]₊ = [state i ∧ read j]\\n"
      "readout: one row per token (δ)\"];\n",
      l4.d);
  out += "  argmax [shape=ellipse, label=\"argmax → u_{t+1}\\nstop on a halting token\"];\n";
  out +=
      "  tokens -> lrnn;\n  lrnn -> attention;\n  attention -> relu1;\n  relu1 -> relu2;\n"
      "  relu2 -> argmax;\n  argmax -> tokens [style=dashed, label=\"chain of thought\"];\n}\n";
  return out;
}

std::string render_dot(const std::string& dot, DrawFormat format) {
  if (format == DrawFormat::dot) return dot;
  // The context first: it installs the default attributes (a node's label "\N" = its name)
  // that a graph read before it would lack.
  GVC_t* gvc = gvContext();
  Agraph_t* g = agmemread(dot.c_str());
  if (!g) {
    gvFreeContext(gvc);
    throw std::runtime_error("Graphviz could not read the generated DOT");
  }
  gvLayout(gvc, g, "dot");
  char* data = nullptr;
  unsigned int length = 0;
  const int rc = gvRenderData(gvc, g, format == DrawFormat::svg ? "svg" : "png", &data, &length);
  std::string out;
  if (rc == 0 && data) out.assign(data, length);
  gvFreeRenderData(data);
  gvFreeLayout(gvc, g);
  agclose(g);
  gvFreeContext(gvc);
  if (rc != 0 || out.empty())
    throw std::runtime_error(
        "Graphviz could not render the drawing (is the graphviz package installed?)");
  return out;
}

}  // namespace rnncc
