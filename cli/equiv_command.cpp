// rnncc equiv A B [--modulus P] [--certificate FILE] [--json] [--no-timing]: decide whether two
// models / WFAs agree on every nonempty prefix (verify/equivalence.hpp). Exit 0 proved
// equivalent, 1 refuted (with the shortest, llex-least counterexample), 2 bad input.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "circuits/io/circuit_json.hpp"
#include "cli/commands.hpp"
#include "verify/certificate.hpp"

namespace rnncc::cli {
namespace {

LinearRepresentation representation_or_refuse(const SubjectFile& s) {
  try {
    return subject_representation(s);
  } catch (const NotLinearError& e) {
    throw InputError(s.path, std::string(e.what()));
  }
}

std::string vector_text(const std::vector<std::string>& v) {
  if (v.size() == 1) return v[0];
  std::string out;
  for (const std::string& x : v) out += (out.empty() ? "" : ", ") + x;
  return "(" + out + ")";
}

}  // namespace

Action add_equiv_command(CLI::App& app) {
  struct Flags {
    std::string a, b, certificate;
    std::optional<std::uint64_t> modulus;
    bool json = false, no_timing = false;
  };
  auto f = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "equiv",
      "Prove two models/WFAs equal on every string (every prefix's output), or refute "
      "them with the shortest counterexample");
  cmd->add_option("A", f->a, "model or WFA file (f)")->required();
  cmd->add_option("B", f->b, "model or WFA file (g)")->required();
  cmd->add_option("--modulus", f->modulus, "decide over F_p instead of Q (p prime)");
  cmd->add_option("--certificate", f->certificate, "write the proof (JSON) to this file");
  cmd->add_flag("--json", f->json, "print JSON");
  cmd->add_flag("--no-timing", f->no_timing, "leave the time out (reproducible output)");
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    const SubjectFile a = load_subject_file(f->a), b = load_subject_file(f->b);
    if (!f->certificate.empty())
      for (const SubjectFile* s : {&a, &b})
        if (auto why = not_certifiable(*s)) throw InputError("--certificate", *why);
    const LinearRepresentation ra = representation_or_refuse(a), rb = representation_or_refuse(b);
    const EquivalenceResult r = decide_equivalence(ra, rb, {f->modulus, !f->certificate.empty()});
    std::optional<std::string> written;
    if (r.equivalent && !f->certificate.empty()) {
      write_file_atomically(f->certificate, equivalence_certificate(r, a, b).dump(1) + "\n");
      written = f->certificate;
    }
    const Alphabet alphabet(ra.symbols, "alphabet");
    const std::string visited =
        std::to_string(r.candidates) + (r.candidates == 1 ? " word" : " words") + " visited";
    auto word = [&](const std::vector<std::size_t>& w) {
      return w.empty() ? std::string("ε") : alphabet.join(w);
    };
    if (f->json) {
      nlohmann::ordered_json j;
      j["proved"] = r.equivalent;
      j["method"] = r.method;
      j["field"] = r.field;
      j["dimensions"] = {r.dim_f, r.dim_g};
      j["basis_size"] = r.basis_size;
      j["candidates"] = r.candidates;
      if (!f->no_timing) j["seconds"] = r.seconds;
      j["max_bits"] = r.max_bits;
      j["certificate"] = written ? nlohmann::ordered_json(*written) : nlohmann::ordered_json();
      if (r.counterexample) {
        const auto& c = *r.counterexample;
        j["counterexample"] = {{"input", word(c.input)},
                               {"position", c.position},
                               {"expected", c.expected},
                               {"got", c.got}};
      } else {
        j["counterexample"] = nullptr;
      }
      std::cout << j.dump(2) << "\n";
    } else {
      std::cout << "equiv: " << f->a << " (d = " << r.dim_f << ") vs " << f->b
                << " (d = " << r.dim_g << "), over " << r.field << "\n";
      const std::string timing = f->no_timing ? "" : fmt::format(", {:.3f} s", r.seconds);
      if (r.equivalent) {
        std::cout << "proved: every length — equal on every nonempty prefix"
                  << (ra.empty && rb.empty ? " and on ε" : "") << " (" << r.method
                  << ", basis size " << r.basis_size << " of at most " << r.dim_f + r.dim_g << ", "
                  << visited << timing << ", max bits " << r.max_bits << ")\n";
        if (written) std::cout << "certificate: " << *written << "\n";
      } else {
        const auto& c = *r.counterexample;
        std::cout << "refuted: shortest counterexample (least of its length) \"" << word(c.input)
                  << "\", position " << c.position << ": " << f->a << " gives "
                  << vector_text(c.expected) << ", " << f->b << " gives " << vector_text(c.got)
                  << " (" << r.method << ", " << visited << timing << ")\n";
      }
    }
    return r.equivalent ? 0 : 1;
  };
}

}  // namespace rnncc::cli
