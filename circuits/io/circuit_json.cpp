#include "circuits/io/circuit_json.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "algebra/error.hpp"
#include "algebra/memory.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/blif.hpp"
#include "circuits/io/iscas.hpp"
#include "circuits/io/json_text.hpp"
#include "circuits/io/output_file.hpp"
#include "circuits/passes/pipeline.hpp"
#include "rnn/file_kind.hpp"
#include "rnn/json_cursor.hpp"

namespace rnncc {

namespace {
std::optional<RegionKind> parse_region_kind(std::string_view s) {
  for (RegionKind k :
       {RegionKind::input, RegionKind::leaf, RegionKind::combine, RegionKind::readout,
        RegionKind::input_map, RegionKind::chunk, RegionKind::accept, RegionKind::valid})
    if (to_string(k) == s) return k;
  return std::nullopt;
}
}  // namespace

nlohmann::ordered_json circuit_to_json(const CompiledCircuit& cc) {
  using json = nlohmann::ordered_json;
  const Circuit& c = cc.circuit;
  json j;
  j["format"] = "rnncc-circuit/1";
  json gates = json::array();
  for (GateId id = 0; id < c.size(); ++id) {
    json g;
    g["op"] = std::string(name(c.kind(id)));
    switch (c.kind(id)) {
      case GateKind::input:
        g["name"] = c.input_names()[c.input_index(id)];
        break;
      case GateKind::constant:
        g["value"] = to_string(c.constant(id));
        break;
      default: {
        auto ops = c.operands(id);
        g["in"] = std::vector<GateId>(ops.begin(), ops.end());
        if (c.kind(id) == GateKind::thr) {
          auto w = c.weights(id);
          g["weights"] = std::vector<std::int32_t>(w.begin(), w.end());
          g["threshold"] = c.threshold(id);
        }
      }
    }
    gates.push_back(std::move(g));
  }
  j["gates"] = std::move(gates);
  json outputs = json::array();
  for (std::size_t i = 0; i < c.outputs().size(); ++i) {
    json o{{"gate", c.outputs()[i]}};
    if (i < c.output_names().size()) o["name"] = c.output_names()[i];
    outputs.push_back(std::move(o));
  }
  j["outputs"] = std::move(outputs);
  if (!cc.regions.empty()) {
    json regions = json::array();
    for (const Region& r : cc.regions)
      regions.push_back({{"kind", to_string(r.kind)},
                         {"first_gate", r.first_gate},
                         {"layer", r.layer},
                         {"level", r.level},
                         {"target", r.target},
                         {"source", r.source}});
    j["regions"] = std::move(regions);
  }
  // The compiler's figure where the regions do not record it (threshold routes).
  if (cc.combine_levels != combine_levels_of(cc.regions)) j["combine_levels"] = cc.combine_levels;
  return j;
}

static CompiledCircuit circuit_from_json_unchecked(std::string_view text,
                                                   const std::string& source) {
  // parse_json reports syntax errors, nesting past its limit and numbers beyond a double
  // (4e2147483647) at line:column.
  const nlohmann::json doc = parse_json(text, source);
  JsonCursor root(doc, source, "");
  root.only({"format", "gates", "outputs", "regions", "combine_levels", "comment"});
  if (root.string_member_or("format", "rnncc-circuit/1") != "rnncc-circuit/1")
    root.at("format").fail("\"rnncc-circuit/1\"");
  CircuitBuilder b;
  JsonCursor gates = root.at("gates");
  std::vector<GateId> ops;
  std::vector<std::int32_t> weights;
  for (std::size_t i = 0; i < gates.array().size(); ++i) {
    JsonCursor g = gates[i];
    JsonCursor op = g.at("op");
    auto kind = parse_gate_kind(op.string());
    if (!kind) {
      std::string list;
      for (const auto& k : kGateKinds) list += (list.empty() ? "" : ", ") + std::string(k.name);
      op.fail("a gate kind (" + list + ")");
    }
    if (*kind == GateKind::input) {
      g.only({"op", "name"});
      b.input(g.has("name") ? g.at("name").string() : std::string());
      continue;
    }
    if (*kind == GateKind::constant) {
      g.only({"op", "value"});
      const Rational q = g.at("value").rational();
      // keep the file's gate numbering: a repeated constant is still its own gate
      if (b.size() != i) throw std::logic_error("gate numbering");
      GateId id = b.constant(q);
      if (id != i)
        g.error("constant " + to_string(q) + " repeats gate " + std::to_string(id) +
                "; each constant value appears once in a circuit file");
      continue;
    }
    g.only({"op", "in", "weights", "threshold"});
    JsonCursor in = g.at("in");
    if (in.array().size() > kUnbounded)
      in.fail("at most " + std::to_string(kUnbounded) +
              " operands (2^24 − 1, the IR's fan-in limit)");
    ops.clear();
    for (std::size_t k = 0; k < in.array().size(); ++k) {
      const std::size_t o = in[k].size_value(0, std::numeric_limits<GateId>::max() - 1);
      if (o >= i)
        in[k].error("gate " + std::to_string(o) + " is not an earlier gate (gate " +
                    std::to_string(i) +
                    (i == 0 ? " may read no gate" : " may read gates 0.." + std::to_string(i - 1)) +
                    ": circuits are topological)");
      ops.push_back(static_cast<GateId>(o));
    }
    weights.clear();
    std::int32_t threshold = 0;
    if (*kind == GateKind::thr) {
      JsonCursor w = g.at("weights");
      if (w.array().size() != ops.size())
        w.fail("one integer weight per operand (" + std::to_string(ops.size()) + ")");
      for (std::size_t k = 0; k < ops.size(); ++k) weights.push_back(w[k].int32_value());
      threshold = g.at("threshold").int32_value();
    } else if (g.has("weights") || g.has("threshold")) {
      g.error("only thr gates take \"weights\" and \"threshold\"");
    }
    try {
      b.raw(*kind, ops, weights, threshold);
    } catch (const std::invalid_argument& e) {
      in.error(e.what());
    }
  }
  JsonCursor outs = root.at("outputs");
  std::vector<GateId> outputs;
  std::vector<std::string> names;
  bool named = true;
  for (std::size_t i = 0; i < outs.array().size(); ++i) {
    JsonCursor o = outs[i];
    o.only({"gate", "name"});
    const std::size_t gid = o.at("gate").size_value(0, b.size() == 0 ? 0 : b.size() - 1);
    if (b.size() == 0) o.at("gate").error("the circuit has no gates");
    outputs.push_back(static_cast<GateId>(gid));
    if (o.has("name"))
      names.push_back(o.at("name").string());
    else
      named = false;
  }
  if (!named) names.clear();
  CompiledCircuit cc;
  if (root.has("regions")) {
    JsonCursor rs = root.at("regions");
    std::uint32_t previous = 0;
    for (std::size_t i = 0; i < rs.array().size(); ++i) {
      JsonCursor r = rs[i];
      r.only({"kind", "first_gate", "layer", "level", "target", "source"});
      auto k = parse_region_kind(r.at("kind").string());
      if (!k)
        r.at("kind").fail(
            "a region kind (input, leaf, combine, readout, input_map, chunk, accept)");
      auto u32 = [&](const char* key) {
        return r.has(key) ? static_cast<std::uint32_t>(r.at(key).size_value(0, 0xFFFFFFFFu)) : 0u;
      };
      const std::uint32_t first =
          static_cast<std::uint32_t>(r.at("first_gate").size_value(0, b.size()));
      if (i == 0 && first != 0) r.at("first_gate").error("the first region starts at gate 0");
      if (first < previous)
        r.at("first_gate")
            .error("regions are listed in gate order: expected ≥ " + std::to_string(previous));
      previous = first;
      cc.regions.push_back({.kind = *k,
                            .first_gate = first,
                            .layer = u32("layer"),
                            .level = u32("level"),
                            .target = u32("target"),
                            .source = u32("source")});
    }
    cc.combine_levels = combine_levels_of(cc.regions);
  }
  if (root.has("combine_levels"))
    cc.combine_levels = root.at("combine_levels").size_value(0, 0xFFFFFFFFu);
  cc.circuit = b.finish(std::move(outputs), std::move(names));
  return cc;
}

namespace {

// Netlist formats hold boolean (and, lowered, threshold) circuits: an arithmetic gate or a
// constant other than 0 and 1 means the circuit was compiled with the arithmetic target.
void reject_arithmetic_netlist(const Circuit& c, const std::string& path) {
  const char* format = path.ends_with(".blif")    ? "BLIF"
                       : path.ends_with(".bench") ? "ISCAS .bench"
                                                  : "AIGER";
  for (GateId id = 0; id < c.size(); ++id) {
    const GateKind k = c.kind(id);
    const GateFamily f = info(k).family;
    const bool arithmetic =
        (f == GateFamily::arithmetic && k != GateKind::input && k != GateKind::constant) ||
        f == GateFamily::test ||
        (k == GateKind::constant && c.constant(id) != Rational(0) && c.constant(id) != Rational(1));
    if (arithmetic)
      throw InputError(
          path, std::string("this is an arithmetic circuit (gate ") + std::to_string(id) + " is " +
                    (k == GateKind::constant ? "the constant " + to_string(c.constant(id))
                                             : std::string(name(k))) +
                    "); " + format +
                    " holds boolean circuits: compile with `--target boolean` (or "
                    "`--target threshold`)");
  }
}

}  // namespace

CompiledCircuit circuit_from_json(std::string_view text, const std::string& source) {
  return parse_as_kind(text, source, {FileKind::circuit},
                       [&] { return circuit_from_json_unchecked(text, source); });
}

CompiledCircuit load_circuit(const std::string& path) {
  if (path.ends_with(".aig") || path.ends_with(".aag")) {
    CompiledCircuit c;
    c.circuit = load_aiger(path);
    return c;
  }
  if (path.ends_with(".blif")) {
    CompiledCircuit c;
    c.circuit = load_blif(path);
    return c;
  }
  if (path.ends_with(".bench")) {
    CompiledCircuit c;
    c.circuit = load_bench(path);
    return c;
  }
  return circuit_from_json(read_text_file(path, "circuit file"), path);
}

namespace {

// A JSON string member's value, as json_text writes it (json_string), without the allocation in
// the common case of a printable ASCII name.
void put_string(TextSink& out, std::string_view s) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
      out << json_string(s);
      return;
    }
  }
  out << '"' << s << '"';
}

template <class Range>
void put_numbers(TextSink& out, const Range& values) {
  out << '[';
  bool first = true;
  for (const auto v : values) {
    if (!first) out << ',';
    first = false;
    out << v;
  }
  out << ']';
}

}  // namespace

void write_circuit_json(const CompiledCircuit& cc, TextSink& out) {
  // The members in circuit_to_json's order, written as nlohmann's dump(-1) writes them.
  const Circuit& c = cc.circuit;
  out << "{\"format\":\"rnncc-circuit/1\",\"gates\":[";
  for (GateId id = 0; id < c.size(); ++id) {
    if (id != 0) out << ',';
    out << "{\"op\":";
    put_string(out, name(c.kind(id)));
    switch (c.kind(id)) {
      case GateKind::input:
        out << ",\"name\":";
        put_string(out, c.input_names()[c.input_index(id)]);
        break;
      case GateKind::constant:
        out << ",\"value\":";
        put_string(out, to_string(c.constant(id)));
        break;
      default:
        out << ",\"in\":";
        put_numbers(out, c.operands(id));
        if (c.kind(id) == GateKind::thr) {
          out << ",\"weights\":";
          put_numbers(out, c.weights(id));
          out << ",\"threshold\":" << c.threshold(id);
        }
    }
    out << '}';
  }
  out << "],\"outputs\":[";
  for (std::size_t i = 0; i < c.outputs().size(); ++i) {
    out << (i ? ",{\"gate\":" : "{\"gate\":") << c.outputs()[i];
    if (i < c.output_names().size()) {
      out << ",\"name\":";
      put_string(out, c.output_names()[i]);
    }
    out << '}';
  }
  out << ']';
  if (!cc.regions.empty()) {
    out << ",\"regions\":[";
    for (std::size_t i = 0; i < cc.regions.size(); ++i) {
      const Region& r = cc.regions[i];
      out << (i ? ",{\"kind\":" : "{\"kind\":");
      put_string(out, to_string(r.kind));
      out << ",\"first_gate\":" << r.first_gate << ",\"layer\":" << r.layer
          << ",\"level\":" << r.level << ",\"target\":" << r.target << ",\"source\":" << r.source
          << '}';
    }
    out << ']';
  }
  if (cc.combine_levels != combine_levels_of(cc.regions))
    out << ",\"combine_levels\":" << cc.combine_levels;
  out << "}\n";
}

std::vector<PassRecord> write_circuit_file(const CompiledCircuit& cc, const std::string& path,
                                           TextSink& out) {
  const Circuit& c = cc.circuit;
  (void)netlist_writer(path);  // an InputError for an extension no writer has
  // The netlists' passes (netlist_pipeline, circuits/passes/pipeline.hpp) run on a copy: cc's
  // own records are not repeated in what this returns.
  CompiledCircuit written;
  if (path.ends_with(".aig") || path.ends_with(".aag") || path.ends_with(".blif") ||
      path.ends_with(".bench"))
    reject_arithmetic_netlist(c, path);
  try {
    if (path.ends_with(".json")) {
      write_circuit_json(cc, out);
    } else if (path.ends_with(".aig") || path.ends_with(".aag")) {
      const AigerFormat f = path.ends_with(".aag") ? AigerFormat::ascii : AigerFormat::binary;
      written = run_pipeline(cc, netlist_pipeline(path, has_threshold_gates(c)));
      write_aiger(written.circuit, f, out);
    } else if (path.ends_with(".blif")) {
      written = run_pipeline(cc, netlist_pipeline(path, false));
      write_blif(written.circuit, std::filesystem::path(path).stem().string(), out);
    } else if (path.ends_with(".bench")) {
      written = run_pipeline(cc, netlist_pipeline(path, false));
      write_bench(written.circuit, out);
    } else {
      throw std::logic_error("write_circuit_file: netlist_writer accepted " + path);
    }
    out.flush();
    std::vector<PassRecord> passes(
        written.passes.begin() + std::min(written.passes.size(), cc.passes.size()),
        written.passes.end());
    return passes;
  } catch (const InputError& e) {
    if (e.where() == path) throw;
    // The writers name their format ("blif: gate 3 is add: …"); name the file instead.
    std::string what = e.what();
    if (!e.where().empty() && what.starts_with(e.where() + ": "))
      what = what.substr(e.where().size() + 2);
    throw InputError(path, what);
  }
}

namespace {

struct FileMemoryFactor {
  const char* format;
  std::uint64_t read, stats, eval;  // peak RSS per byte of file
};

// Peak RSS (less the process's own) per byte of file, measured with /usr/bin/time -f %M on the
// s5_word_problem boolean circuits for n = 5000 and 20000 (12.6 and 52.3 MB of JSON; 1.4 and
// 5.7 MB of binary AIGER; 32.7 MB of ASCII AIGER, 55.7 MB of BLIF, 46.9 MB of .bench) and the
// dplr_d3 arithmetic circuit for n = 32000 (69.9 MB of JSON), rounded up
// (docs/reliability.md, "Memory estimates").
FileMemoryFactor file_memory_factor(const std::string& path) {
  if (path.ends_with(".aig")) return {"binary AIGER", 24, 64, 72};
  if (path.ends_with(".aag")) return {"ASCII AIGER", 6, 11, 13};
  if (path.ends_with(".blif")) return {"BLIF", 8, 8, 8};
  if (path.ends_with(".bench")) return {"ISCAS .bench", 8, 8, 8};
  return {"circuit JSON", 16, 16, 16};
}

}  // namespace

std::uint64_t estimate_circuit_file_memory(const std::string& path, CircuitFileUse use) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return 0;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return 0;
  const FileMemoryFactor f = file_memory_factor(path);
  const std::uint64_t factor = use == CircuitFileUse::read    ? f.read
                               : use == CircuitFileUse::stats ? f.stats
                                                              : f.eval;
  return size > UINT64_MAX / factor ? UINT64_MAX : size * factor;
}

void check_circuit_file_memory(const std::string& path, CircuitFileUse use, std::size_t limit_mib,
                               const std::string& what) {
  const std::uint64_t bytes = estimate_circuit_file_memory(path, use);
  if (bytes == 0) return;
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  const FileMemoryFactor f = file_memory_factor(path);
  const char* used = use == CircuitFileUse::read    ? "reading"
                     : use == CircuitFileUse::stats ? "reading and measuring"
                                                    : "reading and evaluating";
  check_memory("--max-memory", bytes, limit_mib, what + " would take",
               std::to_string(size) + " bytes of " + f.format + " × " +
                   std::to_string(bytes / std::max<std::uint64_t>(size, 1)) + ", measured for " +
                   used);
}

std::string circuit_file_text(const CompiledCircuit& cc, const std::string& path) {
  TextSink text;
  write_circuit_file(cc, path, text);
  return text.take();
}

std::vector<PassRecord> write_circuit(const CompiledCircuit& cc, OutputFile& out) {
  TextSink sink([&out](std::string_view bytes) { out.write(bytes); });
  std::vector<PassRecord> passes = write_circuit_file(cc, out.path(), sink);
  out.commit();
  return passes;
}

void write_circuit(const CompiledCircuit& cc, const std::string& path) {
  OutputFile out(path);
  write_circuit(cc, out);
}

void write_circuit(const Circuit& c, const std::string& path) {
  CompiledCircuit cc;
  cc.circuit = c;
  write_circuit(cc, path);
}

}  // namespace rnncc
