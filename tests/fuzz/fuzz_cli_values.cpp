// Fuzz target: the library functions behind the CLI's value options — `--lengths` and `--arch`
// (rnncc depth), `--scan`, `--precision`, `--rounding`, `--overflow`, `--target` and the rest of
// `compile`'s options (parse_target_options), `--field`, a model's input string (Alphabet::
// tokenize), and the registry's option values of `rnncc construct/verify KIND`
// (ConstructionKind::resolve and the typed accessors). The first byte picks the function, the
// rest is the text (for the registry: a kind byte, then lines of an option byte and its value).
// A diagnostic (InputError) is the expected answer; anything else escaping is a finding, and so
// is a value that does not survive its own spelling (to_string, then parse again) or a prefix
// network of a parsed --scan that is not a valid prefix network of its stated depth.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "algebra/error.hpp"
#include "algebra/precision.hpp"
#include "circuits/arith/prefix.hpp"
#include "circuits/compile/common.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/measure/depth_growth.hpp"
#include "constructions/registry.hpp"
#include "rnn/alphabet.hpp"
#include "tests/fuzz/fuzz_stats.hpp"
#include "verify/certificate_claim.hpp"

namespace {

using namespace rnncc;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "cli values: %s\n", what.c_str());
  std::abort();
}

void scan(const std::string& text) {
  const Scan s = parse_scan(text);
  const Scan again = parse_scan(to_string(s));
  if (again.kind != s.kind || again.ladner_fischer_k != s.ladner_fischer_k ||
      again.chunk != s.chunk)
    finding("--scan '" + text + "' does not survive to_string: " + to_string(s));
  if (s.chunk > 0) return;
  for (std::size_t n = 1; n <= 33; n += 4) {
    const PrefixShape shape = analyse(s.network(n), n);
    if (!shape.valid || shape.chain_depth != s.chain_depth(n))
      finding("--scan " + to_string(s) + ": the network for n = " + std::to_string(n) +
              " is not a valid prefix network of the stated depth");
  }
}

void precision(const std::string& text) {
  const PrecisionSpec p = parse_precision(text);
  const PrecisionSpec q = parse_precision(to_string(p));
  if (q.kind != p.kind || q.log_c != p.log_c || q.modulus != p.modulus)
    finding("--precision '" + text + "' does not survive to_string: " + to_string(p));
}

void lengths(const std::string& text) {
  const std::vector<std::size_t> n = parse_lengths(text);
  if (n.empty() || n.front() < 1) finding("--lengths '" + text + "': no lengths, or a length 0");
  for (std::size_t i = 1; i < n.size(); ++i)
    if (n[i] <= n[i - 1]) finding("--lengths '" + text + "': not increasing");
}

// The text split at newlines: compile's options in TargetText order.
void target_options(const std::string& text) {
  std::vector<std::string> v;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == '\n')
      v.push_back(text.substr(start, i - start)), start = i + 1;
  v.resize(7);
  TargetText t;
  t.target = v[0], t.precision = v[1], t.scan = v[2], t.outputs = v[3], t.structure = v[4];
  t.rounding = v[5], t.overflow = v[6];
  (void)parse_target_options(t);
}

void tokens(const std::string& text) {
  static const Alphabet single({"a", "b", "0", "1"}, "fuzz");
  static const Alphabet words({"push", "pop", "a", "1RZ", "---"}, "fuzz");
  for (const Alphabet* a : {&single, &words}) {
    std::vector<std::size_t> ids;
    try {
      ids = a->tokenize(text, "INPUT", true);
    } catch (const InputError&) {
      continue;
    }
    if (a->tokenize(a->join(ids), "joined", true) != ids)
      finding("tokenize(join(ids)) ≠ ids for '" + text + "'");
  }
}

// A kind (first byte), then lines: an option (first byte, modulo the kind's options) and its
// value; resolved as `rnncc verify KIND --OPTION VALUE …` would, then every value read back.
void registry_values(const std::string& text) {
  static const Registry registry = [] {
    Registry r;
    register_all(r);
    return r;
  }();
  if (text.empty() || registry.kinds().empty()) return;
  const ConstructionKind& kind =
      registry.kinds()[static_cast<unsigned char>(text[0]) % registry.kinds().size()];
  ConstructionArgs args;
  std::size_t start = 1;
  for (std::size_t i = 1; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\n') continue;
    const std::string line = text.substr(start, i - start);
    start = i + 1;
    if (line.empty()) continue;
    const auto& options = kind.options;
    if (options.empty()) {
      args.input = line;
      continue;
    }
    const OptionSpec& o = options[static_cast<unsigned char>(line[0]) % options.size()];
    args.set(o.name, line.substr(1));
  }
  const OptionValues values = kind.resolve(args, registry);
  for (const OptionSpec& o : kind.options) {
    switch (o.kind) {
      case OptionKind::flag:
        (void)values.flag(o.name);
        break;
      case OptionKind::text:
      case OptionKind::choice:
        (void)values.text(o.name);
        break;
      case OptionKind::whole_number:
        (void)values.optional_whole_number(o.name);
        break;
      case OptionKind::rational:
        (void)values.rational(o.name);
        break;
      case OptionKind::rational_list:
        (void)values.rationals(o.name);
        break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  fuzz::stats().input();
  try {
    switch (data[0] % 11) {
      case 0:
        lengths(text);
        break;
      case 1:
        (void)parse_architectures(text);
        break;
      case 2:
        scan(text);
        break;
      case 3:
        precision(text);
        break;
      case 4:
        (void)parse_rounding(text);
        break;
      case 5:
        (void)parse_overflow(text);
        break;
      case 6:
        (void)parse_target(text);
        break;
      case 7:
        target_options(text);
        break;
      case 8:
        (void)parse_claim_field(text, "--field");
        break;
      case 9:
        tokens(text);
        break;
      default:
        registry_values(text);
        break;
    }
  } catch (const InputError&) {
    return 0;
  }
  fuzz::stats().accept();
  return 0;
}
