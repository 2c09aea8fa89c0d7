// Fuzz target: every text reader at sizes up to 1 MB, trapping on super-linear time (issue 25,
// item 7). An input is a reader byte, a size byte and a template: PREFIX \0 UNIT \0 SUFFIX (no
// \0: all of it is the unit). The text read is PREFIX · UNIT(0) · UNIT(1) ⋯ UNIT(N−1) · SUFFIX,
// where UNIT(i) is the unit with placeholders replaced (substitute below: \x01 by i, \x02 by N,
// \x03 by i + 1, …: distinct names, counts, AIGER literals), so that a small template spells a
// large file of the shape a reader may be slow on — 300 000 `{},` in a certificate's "basis"
// took the old certificate reader 53 s.
//
// The test: the reader's time on the text of about B bytes (B = 64 KiB · 2^k, k = 0..4, from the
// size byte: up to 1 MiB) against its time on the text of N/8 units, each per unit of the work
// the format documents (its bytes; for a WFA also its dense matrix entries, at most 2^22). A
// linear reader spends about the same time per unit on both; the target aborts when the large
// text takes more than 3 times as long per unit and at least 50 ms (n log n stays near 1.2; a
// quadratic reader is near 8). Times are the thread's CPU time, the least of three runs of the
// small text and two of the large one, so other load on the machine hardly moves them. Without
// libFuzzer (the corpus replay of ordinary builds) nothing is timed: the texts are only read (a
// test never asserts on time).
//
// A diagnostic is an answer, as in every target; the time is measured either way.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <string_view>

#include "algebra/error.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/blif.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/iscas.hpp"
#include "circuits/io/sexpr.hpp"
#include "constructions/generators_file.hpp"
#include "constructions/position_router.hpp"
#include "constructions/turing_machine.hpp"
#include "constructions/wfa.hpp"
#include "rnn/generate.hpp"
#include "rnn/json_cursor.hpp"
#include "rnn/model_json.hpp"
#include "verify/check_certificate.hpp"
#include "verify/subject_file.hpp"

namespace {

using namespace rnncc;

const SubjectFile& pair_f() {
  static const SubjectFile f = [] {
    Wfa w;
    w.alphabet = Alphabet({"0", "1"}, "fuzz");
    w.initial = {Rational(1)};
    w.final = {Rational(1)};
    w.transition = {Matrix<Rational>(1, 1, Rational(1)), Matrix<Rational>(1, 1, Rational(1))};
    return SubjectFile{"f.att", w};
  }();
  return f;
}

// The work a WFA's reader does by design beyond its text: it stores the WFA densely, one
// states × states matrix per symbol (docs/formats.md: at most 2^22 entries), so a file of
// n arcs "p q a" naming 2n states is read in time ∝ n² — linear in the bytes plus the entries.
std::size_t dense_entries(const Wfa& a) {
  return a.alphabet.size() * a.states() * a.states();
}

// The readers, as the CLI calls them: each returns the work its format documents (the bytes
// read, plus a WFA's matrix entries), diagnostics aside (then the bytes).
using Reader = std::function<std::size_t(const std::string&)>;
const Reader readers[] = {
    [](const std::string& t) { return (void)parse_json(t, "s.json"), t.size(); },
    [](const std::string& t) { return (void)parse_model(t, "s.json"), t.size(); },
    [](const std::string& t) { return (void)circuit_from_json(t, "s.json"), t.size(); },
    [](const std::string& t) { return (void)parse_aiger(t, "s.aag"), t.size(); },
    [](const std::string& t) { return (void)parse_blif(t, "s.blif"), t.size(); },
    [](const std::string& t) { return (void)parse_bench(t, "s.bench"), t.size(); },
    [](const std::string& t) { return (void)parse_formula(t, "s.sexp"), t.size(); },
    [](const std::string& t) { return t.size() + dense_entries(parse_wfa_att(t, "s.att")); },
    [](const std::string& t) { return t.size() + dense_entries(parse_wfa_json(t, "s.json")); },
    [](const std::string& t) { return (void)parse_machine_file(t, "s.txt", true), t.size(); },
    [](const std::string& t) { return (void)parse_generators(t, "s.json"), t.size(); },
    [](const std::string& t) { return (void)parse_router_spec(t, "s.json"), t.size(); },
    [](const std::string& t) { return (void)check_certificate(pair_f(), pair_f(), t), t.size(); },
    [](const std::string& t) { return (void)parse_generative_model(t, "s.json"), t.size(); },
};
constexpr std::size_t kReaders = sizeof(readers) / sizeof(readers[0]);

// `text` with its placeholders replaced: \x01 by i, \x02 by n, \x03 by i + 1, \x04 by 2(i + 1),
// \x05 by n + 1, \x06 by 2(i + 2), \x07 by 2(n + 1).
void substitute(std::string& out, std::string_view text, std::size_t i, std::size_t n) {
  for (char c : text) {
    switch (c) {
      case '\x01':
        out += std::to_string(i);
        break;
      case '\x02':
        out += std::to_string(n);
        break;
      case '\x03':
        out += std::to_string(i + 1);
        break;
      case '\x04':
        out += std::to_string(2 * (i + 1));
        break;
      case '\x05':
        out += std::to_string(n + 1);
        break;
      case '\x06':
        out += std::to_string(2 * (i + 2));
        break;
      case '\x07':
        out += std::to_string(2 * (n + 1));
        break;
      default:
        out += c;
    }
  }
}

// PREFIX · UNIT(0) ⋯ UNIT(n − 1) · SUFFIX (the prefix and the suffix with i = 0).
std::string expand(std::string_view prefix, std::string_view unit, std::string_view suffix,
                   std::size_t n) {
  std::string out;
  substitute(out, prefix, 0, n);
  for (std::size_t i = 0; i < n; ++i) substitute(out, unit, i, n);
  substitute(out, suffix, 0, n);
  return out;
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The least CPU time of `runs` reads of `text`, and the work the reader reported.
std::pair<double, std::size_t> timed(const Reader& read, const std::string& text, int runs) {
  double best = 1e30;
  std::size_t work = text.size();
  for (int r = 0; r < runs; ++r) {
    const double start = cpu_seconds();
    try {
      work = read(text);
    } catch (const InputError&) {
    } catch (const DomainError&) {
    }
    best = std::min(best, cpu_seconds() - start);
  }
  return {best, std::max<std::size_t>(work, 1)};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const auto& read = readers[data[0] % kReaders];
  const std::size_t target = (std::size_t{64} << 10) << (data[1] % 5);
  const std::string_view t(reinterpret_cast<const char*>(data) + 2, size - 2);
  std::string_view prefix, unit = t, suffix;
  if (const auto a = t.find('\0'); a != std::string_view::npos) {
    const auto b = t.find('\0', a + 1);
    prefix = t.substr(0, a);
    unit = b == std::string_view::npos ? t.substr(a + 1) : t.substr(a + 1, b - a - 1);
    suffix = b == std::string_view::npos ? std::string_view() : t.substr(b + 1);
  }
  if (unit.empty()) return 0;
  // Units so that the text is about `target` bytes (a unit's substitutions grow with i; the
  // estimate uses its length at i = 0).
  std::string one;
  substitute(one, unit, 0, 1);
  const std::size_t n = std::max<std::size_t>(8, target / std::max<std::size_t>(one.size(), 1));
  const std::string large = expand(prefix, unit, suffix, n);
  const std::string small = expand(prefix, unit, suffix, n / 8);
#ifdef RNNCC_FUZZ_TIMING
  const auto [t_large, w_large] = timed(read, large, 1);
  if (t_large < 0.05) return 0;
  const auto [t_small, w_small] = timed(read, small, 3);
  const double t_best = std::min(t_large, timed(read, large, 1).first);
  // Time per unit of work, large against small: about 1 when linear; a finding above 3.
  const double ratio = (t_best / static_cast<double>(w_large)) /
                       (std::max(t_small, 1e-4) / static_cast<double>(w_small));
  if (t_best > 0.05 && ratio > 3) {
    std::fprintf(stderr,
                 "size scaling: reader %d: %.3f s CPU for %zu bytes (%zu units, work %zu), "
                 "%.4f s for %zu bytes (%zu units, work %zu): %.1f times the time per unit of "
                 "work\n",
                 data[0] % static_cast<int>(kReaders), t_best, large.size(), n, w_large, t_small,
                 small.size(), n / 8, w_small, ratio);
    std::abort();
  }
#else
  (void)timed(read, small, 1);
  (void)timed(read, large, 1);
#endif
  return 0;
}
