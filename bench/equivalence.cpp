// Equivalence decider benchmark (issues 13 and 24): matmul3 (121 tokens, d = 18, over Z and mod
// 29) against its target automaton; then random rational WFA pairs, d = 16 … 1024 states each,
// 16 symbols, generated in memory:
//   f: α, β with entries in {−2, …, 2}; each M_σ entry nonzero with probability 1/4, a value
//      n/4, n ∈ {±1, …, ±4} (so the weights are rationals with denominators 1, 2, 4);
//   g = f under a change of basis P = E_1⋯E_{d/2}·Π: d/2 elementary operations
//      E = I + c·e_i·e_jᵀ (c = ±1, i ≠ j random; unimodular, so the entries stay small) and a
//      random permutation Π: α_g = α_f·P, M^g_σ = P⁻¹·M^f_σ·P, β_g = P⁻¹·β_f — equal to f;
//   g' = g with one entry of M^g_15 changed by 1/4 — not equal.
// For each d: decide f ≡ g (multimodular path, with the certificate), write the certificate,
// check it (the independent checker), decide f ≡ g'; and for d ≤ 64 the exact plain twin on both
// pairs (same verdicts and counterexample required). For d = 256 also the time to read the two
// WFA files from JSON (written to a temporary directory). Prints a table and writes JSON
// (argv[1], default equivalence.json); argv[2] = the largest d (default 1024).
// Goals (issue 24): d = 256 ≤ 2 s and d = 1024 ≤ 30 s to decide; certificate ≤ 2× that; the
// check no slower than deciding.
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algebra/exact.hpp"
#include "algebra/matrix.hpp"
#include "constructions/matmul3.hpp"
#include "verify/certificate.hpp"
#include "verify/check_certificate.hpp"
#include "verify/equivalence.hpp"

using namespace rnncc;

namespace {

double cpu_seconds() {  // this process, all threads
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct IntWfa {  // numerators over the common denominator 4
  std::size_t d = 0;
  std::vector<std::int64_t> alpha, beta;
  std::vector<std::vector<std::int64_t>> M;  // [σ] d×d row-major
};

Wfa to_wfa(const IntWfa& x, std::size_t S) {
  Wfa w;
  std::vector<std::string> syms, states;
  for (std::size_t s = 0; s < S; ++s) syms.push_back(fmt::format("s{}", s));
  w.alphabet = Alphabet(syms, "alphabet");
  for (std::size_t i = 0; i < x.d; ++i) states.push_back(fmt::format("q{}", i));
  w.state_names = states;
  for (std::size_t i = 0; i < x.d; ++i) {
    w.initial.push_back(Rational(x.alpha[i]));
    w.final.push_back(Rational(x.beta[i]));
  }
  for (std::size_t s = 0; s < S; ++s) {
    Matrix<Rational> m(x.d, x.d, Rational(0));
    for (std::size_t i = 0; i < x.d * x.d; ++i)
      if (x.M[s][i]) m(i / x.d, i % x.d) = Rational(x.M[s][i], 4);
    w.transition.push_back(std::move(m));
  }
  return w;
}

struct Pair {
  Wfa f, g;
  std::size_t bad_i = 0, bad_j = 0;  // g' = g with M^g_15[i][j] + 1/4
};

Pair random_pair(std::size_t d, std::size_t S, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  IntWfa f;
  f.d = d;
  for (std::size_t i = 0; i < d; ++i) {
    f.alpha.push_back(static_cast<std::int64_t>(rng() % 5) - 2);
    f.beta.push_back(static_cast<std::int64_t>(rng() % 5) - 2);
  }
  for (std::size_t s = 0; s < S; ++s) {
    std::vector<std::int64_t> m(d * d, 0);
    for (auto& x : m)
      if (rng() % 4 == 0) x = (rng() % 2 ? 1 : -1) * static_cast<std::int64_t>(1 + rng() % 4);
    f.M.push_back(std::move(m));
  }
  IntWfa g = f;
  for (std::size_t t = 0; t < d / 2; ++t) {
    const std::size_t i = rng() % d, j = (i + 1 + rng() % (d - 1)) % d;
    const std::int64_t c = rng() % 2 ? 1 : -1;
    // Right factor E = I + c·e_i·e_jᵀ: column j += c·column i; left factor E⁻¹: row i −= c·row j.
    g.alpha[j] += c * g.alpha[i];
    g.beta[i] -= c * g.beta[j];
    for (auto& m : g.M) {
      for (std::size_t r = 0; r < d; ++r) m[r * d + j] += c * m[r * d + i];
      for (std::size_t k = 0; k < d; ++k) m[i * d + k] -= c * m[j * d + k];
    }
  }
  std::vector<std::size_t> pi(d);
  for (std::size_t i = 0; i < d; ++i) pi[i] = i;
  std::shuffle(pi.begin(), pi.end(), rng);
  IntWfa h = g;
  for (std::size_t a = 0; a < d; ++a) {
    h.alpha[pi[a]] = g.alpha[a];
    h.beta[pi[a]] = g.beta[a];
    for (std::size_t s = 0; s < S; ++s)
      for (std::size_t b = 0; b < d; ++b) h.M[s][pi[a] * d + pi[b]] = g.M[s][a * d + b];
  }
  const std::size_t bi = rng() % d, bj = rng() % d;
  return {to_wfa(f, S), to_wfa(h, S), bi, bj};
}

std::string wfa_json(const Wfa& w) {
  nlohmann::ordered_json j;
  j["format"] = "rnncc-wfa/1";
  j["alphabet"] = w.alphabet.symbols();
  j["states"] = w.state_names;
  auto row = [](const std::vector<Rational>& v) {
    std::vector<std::string> out;
    for (const Rational& x : v) out.push_back(to_string(x));
    return out;
  };
  j["initial"] = row(w.initial);
  j["final"] = row(w.final);
  j["transitions"] = nlohmann::ordered_json::object();
  for (std::size_t s = 0; s < w.transition.size(); ++s) {
    const Matrix<Rational>& m = w.transition[s];
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < m.rows(); ++i) {
      std::vector<Rational> r(m.data().begin() + i * m.cols(),
                              m.data().begin() + (i + 1) * m.cols());
      rows.push_back(row(r));
    }
    j["transitions"][w.alphabet.symbols()[s]] = std::move(rows);
  }
  return j.dump();
}

}  // namespace

int main(int argc, char** argv) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const std::size_t max_d = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1024;
  fmt::print("{:<34} {:>6} {:>6} {:>8} {:>10} {:>9} {:>6}\n", "case", "d_f", "d_g", "basis",
             "seconds", "max bits", "proved");
  auto report = [&](const std::string& name, const EquivalenceResult& r, double build) {
    fmt::print("{:<34} {:>6} {:>6} {:>8} {:>10.3f} {:>9} {:>6}\n", name, r.dim_f, r.dim_g,
               r.basis_size, r.seconds, r.max_bits, r.equivalent ? "yes" : "no");
    out.push_back({{"case", name},
                   {"dim_f", r.dim_f},
                   {"dim_g", r.dim_g},
                   {"basis_size", r.basis_size},
                   {"seconds", r.seconds},
                   {"build_seconds", build},
                   {"max_bits", r.max_bits},
                   {"max_bits_vectors", r.max_bits_vectors},
                   {"proved", r.equivalent}});
  };
  for (std::optional<std::uint64_t> p :
       {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(29)}) {
    const auto t0 = std::chrono::steady_clock::now();
    Matmul3Options opt;
    opt.modulus = p;
    const Construction c = matmul3(opt);
    const LinearRepresentation model = through_input_map(
        from_model(c.model), input_map_from_encode(c.target.alphabet.symbols(), c.encode, 2));
    const LinearRepresentation target = from_wfa(*c.target.automaton);
    report(p ? "matmul3 vs target, mod 29" : "matmul3 vs target, over Z (Q)",
           decide_equivalence(target, model, {p}), since(t0));
  }

  fmt::print(
      "\nrandom rational WFA pairs, |Σ| = 16 (seconds; certificate = write it, check = "
      "the independent checker)\n");
  fmt::print("wall-clock seconds, CPU seconds of all threads in parentheses\n");
  fmt::print("{:>5} {:>16} {:>7} {:>16} {:>10} {:>16} {:>4} {:>6} {:>6} {:>9} {:>9}\n", "d",
             "decide", "cert", "check", "cert size", "refute", "|w|", "basis", "build", "plain eq",
             "plain ne");
  bool all_ok = true;
  for (std::size_t d = 16; d <= max_d; d *= 2) {
    const std::size_t S = 16;
    auto t0 = std::chrono::steady_clock::now();
    Pair pr = random_pair(d, S, 1000 + d);
    const LinearRepresentation f = from_wfa(pr.f);
    LinearRepresentation g = from_wfa(pr.g);
    const double build = since(t0);
    const double cpu0 = cpu_seconds();
    EquivalenceParams fast;
    fast.method = EquivalenceParams::Method::multimodular;
    EquivalenceParams exact;
    exact.method = EquivalenceParams::Method::exact;
    exact.certificate = false;
    const EquivalenceResult eq = decide_equivalence(f, g, fast);
    const double eq_cpu = cpu_seconds() - cpu0;
    double plain_eq = -1, plain_ne = -1;
    bool agree = eq.equivalent && eq.morphism;
    if (d <= 64) {  // the exact plain twin
      const EquivalenceResult a = decide_equivalence(f, g, exact);
      plain_eq = a.seconds;
      agree = agree && a.equivalent;
    }
    const SubjectFile sf{"f.json", std::move(pr.f)}, sg{"g.json", std::move(pr.g)};
    t0 = std::chrono::steady_clock::now();
    const std::string cert = equivalence_certificate(eq, sf, sg).dump() + "\n";
    const double cert_s = since(t0);
    t0 = std::chrono::steady_clock::now();
    double cpu1 = cpu_seconds();
    const CertificateCheck check = check_certificate(sf, sg, cert);
    const double check_s = since(t0), check_cpu = cpu_seconds() - cpu1;
    // g': one weight of M^g_15 changed by 1/4 (and O^g_15 = M^g_15·β_g with it).
    const Rational delta(1, 4);
    g.transition[S - 1](pr.bad_i, pr.bad_j) += delta;
    g.output[S - 1](pr.bad_i, 0) += delta * std::get<Wfa>(sg.content).final[pr.bad_j];
    const LinearRepresentation& bad = g;
    cpu1 = cpu_seconds();
    const EquivalenceResult ne = decide_equivalence(f, bad, fast);
    const double ne_cpu = cpu_seconds() - cpu1;
    agree = agree && !ne.equivalent && check.ok;
    if (d <= 64) {
      const EquivalenceResult b = decide_equivalence(f, bad, exact);
      plain_ne = b.seconds;
      agree = agree && !b.equivalent && b.counterexample->input == ne.counterexample->input &&
              b.counterexample->expected == ne.counterexample->expected &&
              b.counterexample->got == ne.counterexample->got;
    }
    all_ok = all_ok && agree;
    const std::size_t w = ne.counterexample ? ne.counterexample->input.size() : 0;
    auto both = [](double wall, double cpu) { return fmt::format("{:.3f} ({:.3f})", wall, cpu); };
    fmt::print("{:>5} {:>16} {:>7.3f} {:>16} {:>10} {:>16} {:>4} {:>6} {:>6.1f} {:>9} {:>9}{}\n", d,
               both(eq.seconds, eq_cpu), cert_s, both(check_s, check_cpu), cert.size(),
               both(ne.seconds, ne_cpu), w, eq.basis_size, build,
               plain_eq < 0 ? "—" : fmt::format("{:.3f}", plain_eq),
               plain_ne < 0 ? "—" : fmt::format("{:.3f}", plain_ne), agree ? "" : "  MISMATCH");
    out.push_back({{"case", fmt::format("random WFA pair d={}", d)},
                   {"d", d},
                   {"symbols", S},
                   {"decide_seconds", eq.seconds},
                   {"decide_cpu_seconds", eq_cpu},
                   {"check_cpu_seconds", check_cpu},
                   {"refute_cpu_seconds", ne_cpu},
                   {"certificate_seconds", cert_s},
                   {"check_seconds", check_s},
                   {"certificate_bytes", cert.size()},
                   {"refute_seconds", ne.seconds},
                   {"counterexample_length", w},
                   {"build_seconds", build},
                   {"plain_decide_seconds", plain_eq},
                   {"plain_refute_seconds", plain_ne},
                   {"basis_size", eq.basis_size},
                   {"morphism", static_cast<bool>(eq.morphism)},
                   {"check_ok", check.ok},
                   {"agree", agree}});
    if (d == 256) {  // reading the two files from JSON, for comparison
      const auto dir = std::filesystem::temp_directory_path() / "rnncc_bench_equivalence";
      std::filesystem::create_directories(dir);
      std::ofstream(dir / "f.json") << wfa_json(std::get<Wfa>(sf.content));
      std::ofstream(dir / "g.json") << wfa_json(std::get<Wfa>(sg.content));
      t0 = std::chrono::steady_clock::now();
      const SubjectFile rf = load_subject_file((dir / "f.json").string());
      const SubjectFile rg = load_subject_file((dir / "g.json").string());
      const double read_s = since(t0);
      const auto bytes =
          std::filesystem::file_size(dir / "f.json") + std::filesystem::file_size(dir / "g.json");
      fmt::print("      d = 256: reading the two WFA files ({} bytes of JSON) takes {:.3f} s\n",
                 bytes, read_s);
      out.push_back({{"case", "read two d=256 WFA files"}, {"bytes", bytes}, {"seconds", read_s}});
      std::filesystem::remove_all(dir);
    }
  }
  const std::string path = argc > 1 ? argv[1] : "equivalence.json";
  std::ofstream(path) << out.dump(2) << "\n";
  std::cout << "wrote " << path << (all_ok ? "" : " — MISMATCH (see above)") << "\n";
  return all_ok ? 0 : 1;
}
