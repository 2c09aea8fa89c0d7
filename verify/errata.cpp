#include <algorithm>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "verify/verify.hpp"

namespace rnncc {

// ---- Errata as results (verify.hpp, docs/errata.md) ----

const std::vector<Erratum>& errata() {
  static const std::vector<Erratum> list = {
      {.kinds = {"matmul3"},
       .source = "[MJLLS26, Thm 5] (RWKV-7 layer that multiplies 3×3 matrices)",
       .paper = "the overwrite schedule starts from the zero state and initializes the product "
                "buffer with the first data token (no BOS token)",
       .correction = "a BOS token resets buffer 0 to vec(I) (an affine RWKV-7 step); the printed "
                     "reset is a property of a token, so it fires again at every odd matrix",
       .printed = {{"--no-bos", ""}},
       .corrected = {}},
      {.kinds = {"graph-walk", "dgc"},
       .source = "[MJLLS26, Thm 2] (sorted deterministic graph connectivity by a ReLU RNN)",
       .paper = "the RNN accepts iff its final counter S equals the target t, on every instance",
       .correction = "accept iff S ever equals t (--variant ever), or claim the final test only "
                     "under the promise that t is a sink (--variant final)",
       .printed = {{"--variant", "final-no-promise"}},
       .corrected = {{"--variant", "ever"}}},
      {.kinds = {"router"},
       .source = "[MJLLS26, Thm 5, DeltaNet version] (the position router)",
       .paper = "a position router of period 1404 whose transitions are products of 2×2 "
                "rational reflections",
       .correction = "over Q a 2×2 matrix of finite order has order 1, 2, 3, 4 or 6, so no such "
                     "router exists; cyclic shifts of prime-power sizes (1404: 4 + 27 + 13 = 44 "
                     "coordinates) by transposition reflections I − 2vvᵀ have period exactly P",
       .printed = {},
       .corrected = {{"--permutation", ""}}},
  };
  return list;
}

const Erratum* find_erratum(std::string_view kind) {
  for (const Erratum& e : errata())
    if (std::find(e.kinds.begin(), e.kinds.end(), kind) != e.kinds.end()) return &e;
  return nullptr;
}

namespace {

std::string command_text(const std::string& kind, const ConstructionArgs& a) {
  std::string out = "verify " + kind;
  if (!a.input.empty()) out += " " + a.input;
  for (const auto& [name, value] : a.options)
    out += " " + name + (value.empty() ? "" : " " + value);
  return out;
}

}  // namespace

AsPrintedReport verify_as_printed(const std::string& kind, const ConstructionArgs& args,
                                  const Registry& registry, const VerifyOptions& options,
                                  const std::function<void(const Construction&)>& before_check) {
  const Erratum* e = find_erratum(kind);
  if (!e) {
    std::vector<std::string> kinds;
    for (const Erratum& x : errata()) kinds.insert(kinds.end(), x.kinds.begin(), x.kinds.end());
    throw InputError("--as-printed",
                     kind + " has no erratum (kinds with one: " + one_of(kinds, "and") + ")");
  }
  const ConstructionKind* k = registry.find(kind);
  if (!k) throw std::logic_error("verify_as_printed: no kind " + kind);
  auto named = [](const std::vector<std::pair<std::string, std::string>>& list,
                  const std::string& name) {
    return std::any_of(list.begin(), list.end(), [&](const auto& p) { return p.first == name; });
  };
  ConstructionArgs printed, corrected;
  printed.input = corrected.input = args.input;
  for (const auto& opt : args.options) {
    if (!named(e->printed, opt.first) && !named(e->corrected, opt.first))
      printed.options.push_back(opt);
    if (std::find(e->printed.begin(), e->printed.end(), opt) == e->printed.end())
      corrected.options.push_back(opt);
  }
  for (const auto& opt : e->printed) printed.options.push_back(opt);
  for (const auto& opt : e->corrected)
    if (!named(corrected.options, opt.first)) corrected.options.push_back(opt);

  AsPrintedReport r;
  r.kind = kind;
  r.erratum = *e;
  r.printed_command = command_text(kind, printed);
  r.corrected_command = command_text(kind, corrected);
  const Construction cp = k->build(printed, registry);
  const Construction cc = k->build(corrected, registry);
  before_check(cp);
  before_check(cc);
  r.printed = verify(cp, options);
  r.corrected = verify(cc, options);
  r.reproduced = !r.printed.holds && r.corrected.holds;
  return r;
}

std::string as_printed_summary(const VerifyReport& r) {
  if (r.counterexample) {
    const Counterexample& c = *r.counterexample;
    return fmt::format("{}: refuted — {} counterexample {}: expected {}, got {}", r.construction,
                       c.minimal ? "shortest" : "locally minimal", c.input_text, c.expected, c.got);
  }
  for (const Claim& cl : r.claims)
    if (!cl.ok)
      return fmt::format("{}: refuted — claim '{}': claimed {}, measured {}", r.construction,
                         cl.name, cl.claimed, cl.measured);
  return verdict_text(r);
}

nlohmann::ordered_json to_json(const AsPrintedReport& r) {
  nlohmann::ordered_json j;
  j["kind"] = r.kind;
  j["erratum"] = {{"source", r.erratum.source},
                  {"paper", r.erratum.paper},
                  {"correction", r.erratum.correction}};
  j["reproduced"] = r.reproduced;
  j["as_printed"] = {{"command", r.printed_command},
                     {"summary", as_printed_summary(r.printed)},
                     {"report", to_json(r.printed)}};
  j["corrected"] = {{"command", r.corrected_command},
                    {"summary", verdict_text(r.corrected)},
                    {"report", to_json(r.corrected)}};
  return j;
}

std::string format_text(const AsPrintedReport& r) {
  std::string out = fmt::format("erratum of {}: {}\n", r.kind, r.erratum.source);
  out += "  the paper:      " + r.erratum.paper + "\n";
  out += "  the correction: " + r.erratum.correction + "\n";
  out += fmt::format("as printed ({}):\n  {}\n", r.printed_command, as_printed_summary(r.printed));
  out += fmt::format("corrected ({}):\n  {}\n", r.corrected_command, verdict_text(r.corrected));
  out += fmt::format("erratum {}reproduced: the printed version is {}, the corrected one {}\n",
                     r.reproduced ? "" : "NOT ", verdict(r.printed), verdict(r.corrected));
  out += "\n--- as printed ---\n" + format_text(r.printed);
  out += "\n--- corrected ---\n" + format_text(r.corrected);
  return out;
}

}  // namespace rnncc
