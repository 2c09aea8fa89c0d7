// Measurements behind the size and depth tables of docs/circuits.md (formerly hidden test cases).
// Each run prints one markdown table, exactly as the doc shows it (docs/check-figures reruns the
// command in the table's marker and compares):
//   measure_circuits threshold    time-invariant LRNNs → threshold circuits (iterated addition)
//   measure_circuits attention    unique-hard attention → threshold circuits
//   measure_circuits lrnn-boolean LRNNs at log precision → boolean circuits
//   measure_circuits finite-state finite-state LRNNs (tracked, orbit DFA, mod-3) → boolean
//   measure_circuits nonlinear    nonlinear RNNs by composition of their finite-state machine
// The rows are given on the command line, read left to right: options set the model, precision,
// scan, …; each `--lengths LIST` then emits one row per length (per level, for threshold) with
// the settings given so far. LIST: comma-separated lengths n or ranges A..B (A, 2A, 4A, … ≤ B).
// E.g. `measure_circuits threshold --model examples/s4_decay.json --precision exact
// --lengths 2..64 --levels 2 --lengths 128`.
// Every row is built, measured and compared with its estimate or stated bound (a built size
// above its estimate or a depth above its bound is a failure: reported on stderr, exit 1). Run
// from the repository root; figures depend on nothing but the code, except the build times.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "algebra/error.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/attention.hpp"
#include "circuits/compile/finite_state.hpp"
#include "circuits/compile/lrnn_boolean.hpp"
#include "circuits/compile/nonlinear.hpp"
#include "circuits/compile/threshold.hpp"
#include "rnn/model_json.hpp"

namespace {

using namespace rnncc;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::size_t wires(const Circuit& c) {
  std::size_t w = 0;
  for (GateId g = 0; g < c.size(); ++g) w += c.operands(g).size();
  return w;
}

// 1 570 189: thousands set off by spaces, as the docs write them.
std::string group(std::size_t v) {
  std::string s = std::to_string(v), out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) out += ' ';
    out += s[i];
  }
  return out;
}

// Decimal units, two significant figures below 10: 3.5 kB, 21 kB, 2.2 MB, 761 MB.
std::string bytes_text(std::size_t b) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  double v = static_cast<double>(b);
  std::size_t u = 0;
  while (v >= 1000 && u + 1 < std::size(units)) v /= 1000, ++u;
  char buf[32];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%zu B", b);
  else
    std::snprintf(buf, sizeof buf, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
  return buf;
}

std::string seconds_text(double s, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f s", decimals, s);
  return buf;
}

std::size_t parse_count(const std::string& text, const char* flag) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || text[0] == '-')
    throw UsageError(std::string(flag) + ": '" + text + "' is not a non-negative integer");
  return static_cast<std::size_t>(v);
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(sep, start);
    out.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

// "2..128,512": 2, 4, 8, …, 128, 512.
std::vector<std::size_t> parse_lengths(const std::string& text) {
  std::vector<std::size_t> out;
  for (const std::string& item : split(text, ',')) {
    const std::size_t dots = item.find("..");
    if (dots == std::string::npos) {
      out.push_back(parse_count(item, "--lengths"));
      continue;
    }
    const std::size_t a = parse_count(item.substr(0, dots), "--lengths");
    const std::size_t b = parse_count(item.substr(dots + 2), "--lengths");
    if (a == 0 || a > b)
      throw UsageError("--lengths: '" + item + "' is not a range A..B, 1 ≤ A ≤ B");
    for (std::size_t n = a; n <= b; n *= 2) out.push_back(n);
  }
  for (std::size_t n : out)
    if (n == 0) throw UsageError("--lengths: n = 0");
  return out;
}

Precision parse_precision_arg(const std::string& text) {
  if (text == "exact") return Precision{};
  if (text.rfind("log:", 0) == 0)
    return Precision::log(static_cast<unsigned>(parse_count(text.substr(4), "--precision")));
  throw UsageError("--precision: '" + text + "': expected exact or log:C");
}

ScanKind parse_scan_arg(const std::string& text) {
  for (ScanKind k : {ScanKind::sequential, ScanKind::sklansky, ScanKind::kogge_stone,
                     ScanKind::brent_kung, ScanKind::ladner_fischer})
    if (to_string(k) == text) return k;
  throw UsageError("--scan: '" + text +
                   "': expected sequential, sklansky, kogge-stone, "
                   "brent-kung or ladner-fischer");
}

void print_row(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const std::string& c : cells) line += c.empty() ? " |" : " " + c + " |";
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

void print_header(const std::vector<std::string>& names, const char* sep) {
  print_row(names);
  std::string line = "|";
  for (std::size_t i = 0; i < names.size(); ++i) line += std::string(sep) + "|";
  std::printf("%s\n", line.c_str());
}

int failures = 0;

void fail(const std::string& what) {
  std::fprintf(stderr, "measure_circuits: FAILS: %s\n", what.c_str());
  ++failures;
}

// Reads the options left to right: `setters` take the next argument; `--lengths` calls `emit`
// with each length. At least one --lengths is required.
void run_rows(int argc, char** argv,
              const std::map<std::string, std::function<void(const std::string&)>>& setters,
              const std::function<void(std::size_t)>& emit) {
  bool any = false;
  for (int i = 2; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw UsageError(flag + ": needs a value");
    const std::string value = argv[++i];
    if (flag == "--lengths") {
      for (std::size_t n : parse_lengths(value)) emit(n);
      any = true;
    } else if (auto it = setters.find(flag); it != setters.end()) {
      it->second(value);
    } else {
      throw UsageError("unknown option '" + flag + "'");
    }
  }
  if (!any) throw UsageError("no --lengths: no rows to measure");
}

Model need(const std::optional<Model>& m) {
  if (!m) throw UsageError("--model must come before --lengths");
  return *m;
}

// Time-invariant LRNN → threshold circuit, at each length for each number of levels.
void threshold_table(int argc, char** argv) {
  std::optional<Model> model;
  Precision precision = Precision::log(1);
  std::vector<unsigned> levels = {1, 2};
  print_header({"n", "levels", "W", "depth", "gates", "wires", "est. gates", "est. wires", "build"},
               "---:");
  run_rows(argc, argv,
           {{"--model", [&](const std::string& v) { model = load_model(v); }},
            {"--precision", [&](const std::string& v) { precision = parse_precision_arg(v); }},
            {"--levels",
             [&](const std::string& v) {
               levels.clear();
               for (const std::string& l : split(v, ','))
                 levels.push_back(static_cast<unsigned>(parse_count(l, "--levels")));
             }}},
           [&](std::size_t n) {
             const Model m = need(model);
             for (unsigned level : levels) {
               ThresholdOptions o;
               o.precision = precision;
               o.sum.levels = level;
               const std::string ns = std::to_string(n), ls = std::to_string(level);
               ThresholdEstimate e;
               try {
                 e = estimate_time_invariant_threshold_size(m, n, o);
               } catch (const InputError&) {
                 print_row(
                     {ns, ls, "—", "—", "—", "—", "—", "—", "refused (a block of too many terms)"});
                 continue;
               }
               if (e.wires > o.max_wires || e.gates > o.budget.max_gates) {
                 print_row({ns, ls, std::to_string(e.width), "—", "—", "—", std::to_string(e.gates),
                            std::to_string(e.wires), "refused"});
                 continue;
               }
               const auto t0 = std::chrono::steady_clock::now();
               const CompiledCircuit cc = compile_time_invariant_threshold(m, n, o);
               const double secs = seconds_since(t0);
               print_row({ns, ls, std::to_string(cc.circuit.outputs().size() - 1),
                          std::to_string(compute_stats(cc.circuit).depth),
                          std::to_string(cc.circuit.size()), std::to_string(wires(cc.circuit)),
                          std::to_string(e.gates), std::to_string(e.wires), seconds_text(secs, 3)});
               if (cc.circuit.size() > e.gates)
                 fail("n = " + ns + ", levels " + ls + ": built " +
                      std::to_string(cc.circuit.size()) + " gates, above the estimate " +
                      std::to_string(e.gates));
             }
           });
}

// One unique-hard attention layer → threshold circuit.
void attention_table(int argc, char** argv) {
  std::optional<Model> model;
  Precision precision = Precision::log(1);
  print_header({"\\|Σ\\|", "n", "F", "size", "thr gates", "depth", "fan-in-2 depth", "max fan-in",
                "memory", "build"},
               "---");
  run_rows(argc, argv,
           {{"--model", [&](const std::string& v) { model = load_model(v); }},
            {"--precision", [&](const std::string& v) { precision = parse_precision_arg(v); }}},
           [&](std::size_t n) {
             const Model m = need(model);
             AttentionCompileOptions o;
             o.precision = precision;
             const auto t0 = std::chrono::steady_clock::now();
             const CompiledCircuit cc = compile_unique_hard_threshold(m, n, o);
             const double secs = seconds_since(t0);
             const CircuitStats st = compute_stats(cc.circuit);
             const std::size_t estimate = estimate_unique_hard_threshold_gates(m, n, o);
             print_row({std::to_string(m.alphabet.size()), std::to_string(n),
                        std::to_string(o.precision.format(n).frac_bits), std::to_string(st.size),
                        std::to_string(st.by_kind[static_cast<std::size_t>(GateKind::thr)]),
                        std::to_string(st.depth), std::to_string(st.bounded_fanin_depth),
                        std::to_string(st.max_fanin), bytes_text(cc.circuit.memory_bytes()),
                        seconds_text(secs, 2)});
             if (st.size > estimate)
               fail("n = " + std::to_string(n) + ": " + std::to_string(st.size) +
                    " gates, above the estimate " + std::to_string(estimate));
           });
}

// One LRNN layer at log precision → boolean circuit (compile_lrnn_boolean).
void lrnn_boolean_table(int argc, char** argv) {
  std::optional<Model> model;
  Precision precision = Precision::log(1);
  ScanKind scan = ScanKind::brent_kung;
  print_header({"scan", "n", "W", "size", "estimate", "depth", "stated depth", "build"}, "---");
  run_rows(
      argc, argv,
      {{"--model", [&](const std::string& v) { model = load_model(v); }},
       {"--precision", [&](const std::string& v) { precision = parse_precision_arg(v); }},
       {"--scan", [&](const std::string& v) { scan = parse_scan_arg(v); }}},
      [&](std::size_t n) {
        const Model m = need(model);
        BooleanLrnnOptions o;
        o.precision = precision;
        o.scan = scan;
        o.budget.max_gates = std::size_t{1} << 30;
        const auto t0 = std::chrono::steady_clock::now();
        const CompiledCircuit cc = compile_lrnn_boolean(m, n, o);
        const double secs = seconds_since(t0);
        const CircuitStats s = compute_stats(cc.circuit);
        const FixedFormat f = boolean_lrnn_format(n, o);
        const std::size_t estimate = estimate_lrnn_boolean_gates(m, n, o);
        const std::size_t bound = lrnn_boolean_depth_bound(m, n, o);
        print_row({to_string(scan), std::to_string(n), std::to_string(1 + f.int_bits + f.frac_bits),
                   group(s.size), group(estimate), group(s.bounded_fanin_depth), group(bound),
                   seconds_text(secs, 2)});
        if (s.size > estimate || s.bounded_fanin_depth > bound)
          fail(to_string(scan) + " n = " + std::to_string(n) +
               ": size or depth above the estimate or bound");
      });
}

// A mod-3 counter over {0, 1, 2}: symbol i adds i; accept a sum ≡ 0 (mod 3) (as in
// tests/circuits/compile/test_finite_state.cpp).
FiniteStateMachine mod3_counter() {
  FiniteStateMachine m;
  m.symbols = 3;
  for (std::size_t q = 0; q < 3; ++q) m.delta.push_back({q, (q + 1) % 3, (q + 2) % 3});
  m.start = 0;
  m.accepting = {true, false, false};
  return m;
}

// Finite-state machines → boolean prefix circuits (compile_finite_state), with the stated depth
// bound and, on request, the sequential reference circuit.
void finite_state_table(int argc, char** argv) {
  std::string machine_kind = "tracked", name, model_path;
  ScanKind scan = ScanKind::brent_kung;
  OutputMode outputs = OutputMode::last;
  bool reference = false;
  std::string last_label;
  print_header(
      {"machine", "n", "outputs", "size", "depth", "stated bound", "reference size / depth"},
      "---");
  run_rows(
      argc, argv,
      {{"--machine",
        [&](const std::string& v) {
          if (v != "tracked" && v != "orbit" && v != "mod3-counter")
            throw UsageError("--machine: '" + v + "': expected tracked, orbit or mod3-counter");
          machine_kind = v;
        }},
       {"--model", [&](const std::string& v) { model_path = v; }},
       {"--name", [&](const std::string& v) { name = v; }},
       {"--scan", [&](const std::string& v) { scan = parse_scan_arg(v); }},
       {"--outputs",
        [&](const std::string& v) {
          if (v != "last" && v != "all") throw UsageError("--outputs: expected last or all");
          outputs = v == "last" ? OutputMode::last : OutputMode::all;
        }},
       {"--reference",
        [&](const std::string& v) {
          if (v != "yes" && v != "no") throw UsageError("--reference: expected yes or no");
          reference = v == "yes";
        }}},
      [&](std::size_t n) {
        FiniteStateOptions o;
        o.scan = scan;
        o.outputs = outputs;
        std::string label;
        CompiledCircuit cc;
        std::size_t bound = 0;
        Circuit ref;
        if (machine_kind == "tracked") {
          if (model_path.empty()) throw UsageError("--machine tracked needs --model");
          const TrackedMachine m = tracked_fsm_from_model(load_model(model_path));
          label = name + ", " + std::to_string(m.tracks.size()) + " tracks × " +
                  std::to_string(m.states()) + " coordinates";
          cc = compile_finite_state(m, n, o);
          bound = finite_state_depth_bound(m, n, o);
          if (reference) ref = reference_sequential_fsm(m, n, outputs);
        } else {
          FiniteStateMachine m;
          if (machine_kind == "orbit") {
            if (model_path.empty()) throw UsageError("--machine orbit needs --model");
            m = fsm_from_model(load_model(model_path));
            label = name + ", " + std::to_string(m.states()) + "-state DFA (orbit)";
          } else {
            m = mod3_counter();
            label = "mod-3 counter, Q = " + std::to_string(m.states()) +
                    ", \\|Σ\\| = " + std::to_string(m.symbols);
          }
          cc = compile_finite_state(m, n, o);
          bound = finite_state_depth_bound(m, n, o);
          if (reference) ref = reference_sequential_fsm(m, n, outputs);
        }
        const CircuitStats s = compute_stats(cc.circuit);
        std::string ref_cell;
        if (reference) {
          const CircuitStats r = compute_stats(ref);
          ref_cell = group(r.size) + " / " + group(r.bounded_fanin_depth);
        }
        print_row({label == last_label ? "" : label, std::to_string(n),
                   outputs == OutputMode::last ? "last" : "all", group(s.size),
                   group(s.bounded_fanin_depth), group(bound), ref_cell});
        last_label = label;
        if (s.bounded_fanin_depth > bound)
          fail(label + " n = " + std::to_string(n) + ": depth above the stated bound");
      });
}

// A nonlinear RNN by composition: its finite-state machine at log precision, compiled by
// compile_finite_state; against the sequential route's depth (y_n, no acceptance test).
void nonlinear_table(int argc, char** argv) {
  std::optional<Model> model;
  Precision precision = Precision::log(1);
  ScanKind scan = ScanKind::brent_kung;
  print_header({"n", "reachable states (+ sink)", "size", "depth", "stated bound",
                "sequential depth (4n + 2)", "build time"},
               "---");
  run_rows(argc, argv,
           {{"--model", [&](const std::string& v) { model = load_model(v); }},
            {"--precision", [&](const std::string& v) { precision = parse_precision_arg(v); }},
            {"--scan", [&](const std::string& v) { scan = parse_scan_arg(v); }}},
           [&](std::size_t n) {
             const Model m = need(model);
             ComposedOptions o;
             o.precision = precision;
             o.circuit.scan = scan;
             const auto t0 = std::chrono::steady_clock::now();
             const CompiledCircuit cc = compile_nonlinear_composed(m, n, o);
             const double secs = seconds_since(t0);
             const FiniteStateMachine fsm = nonlinear_state_machine(m, n, o);
             const CircuitStats s = compute_stats(cc.circuit);
             const std::size_t bound = finite_state_depth_bound(fsm, n, o.circuit);
             CompileOptions so;
             so.acceptance = false;
             const CircuitStats seq = compute_stats(compile_nonlinear_sequential(m, n, so).circuit);
             print_row({std::to_string(n), group(fsm.states()), group(s.size),
                        group(s.bounded_fanin_depth), group(bound), group(seq.depth),
                        seconds_text(secs, 2)});
             if (s.bounded_fanin_depth > bound)
               fail("n = " + std::to_string(n) + ": depth above the stated bound");
           });
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  const std::map<std::string, void (*)(int, char**)> tables = {{"threshold", threshold_table},
                                                               {"attention", attention_table},
                                                               {"lrnn-boolean", lrnn_boolean_table},
                                                               {"finite-state", finite_state_table},
                                                               {"nonlinear", nonlinear_table}};
  const auto it = tables.find(what);
  if (it == tables.end()) {
    std::fprintf(stderr,
                 "usage: measure_circuits threshold|attention|lrnn-boolean|finite-state|nonlinear "
                 "[--model FILE] [options] --lengths LIST [[options] --lengths LIST]…\n");
    return 2;
  }
  try {
    it->second(argc, argv);
    if (failures)
      std::fprintf(stderr, "measure_circuits: %d rows above their estimate or bound\n", failures);
    return failures ? 1 : 0;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "measure_circuits %s: %s\n", what.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "measure_circuits: %s\n", e.what());
    return 2;
  }
}
