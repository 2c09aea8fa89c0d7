// Certificates (verify/certificate.hpp) and their independent checker
// (verify/check_certificate.hpp): accepted when written by the decider, rejected after any
// single number in them is changed, and rejected for other models.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "rnn/model_json.hpp"
#include "tests/support.hpp"
#include "verify/certificate.hpp"
#include "verify/check_certificate.hpp"

using namespace rnncc;

namespace {

std::filesystem::path temp_dir() {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("rnncc_cert_test_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  return dir;
}

std::string write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p) << text;
  return p.string();
}

// A WFA file: states x, y; weights given row-major.
std::string wfa_text(const std::vector<std::string>& init, const std::vector<std::string>& fin,
                     const std::vector<std::vector<std::vector<std::string>>>& m) {
  nlohmann::ordered_json j;
  j["format"] = "rnncc-wfa/1";
  j["alphabet"] = {"a", "b"};
  j["states"] = {"x", "y"};
  j["initial"] = init;
  j["final"] = fin;
  j["transitions"] = {{"a", m[0]}, {"b", m[1]}};
  return j.dump();
}

// Every number of the certificate (JSON numbers and numeric strings), changed in turn.
void tamper_each(const nlohmann::json& cert, const SubjectFile& f, const SubjectFile& g,
                 std::size_t& count) {
  std::vector<nlohmann::json::json_pointer> leaves;
  const nlohmann::json flat = cert.flatten();
  for (const auto& [key, value] : flat.items()) {
    const bool numeric =
        value.is_number() || (value.is_string() && try_parse_rational(value.get<std::string>()));
    const bool is_symbol =
        key.find("/word/") != std::string::npos || key.find("/alphabet/") != std::string::npos;
    if (numeric && !is_symbol) leaves.emplace_back(key);
  }
  for (const auto& ptr : leaves) {
    nlohmann::json t = cert;
    if (t[ptr].is_number())
      t[ptr] = t[ptr].get<std::uint64_t>() + 1;
    else
      t[ptr] = to_string(*try_parse_rational(t[ptr].get<std::string>()) + 1);
    const CertificateCheck c = check_certificate(f, g, t.dump());
    INFO("tampered " + ptr.to_string());
    REQUIRE(!c.ok);
    ++count;
  }
  // Digests too.
  for (int i = 0; i < 2; ++i) {
    nlohmann::json t = cert;
    std::string d = t["models"][i]["digest"];
    d.back() = d.back() == '0' ? '1' : '0';
    t["models"][i]["digest"] = d;
    REQUIRE(!check_certificate(f, g, t.dump()).ok);
  }
}

}  // namespace

TEST_CASE(
    "certificate of two WFAs equal by a change of basis: checked, and every tampering fails") {
  const auto dir = temp_dir();
  // f: x --a/1--> x, x --a/1--> y, y --b/2--> y; g = f with states mixed by P = [[1,1],[0,1]].
  const std::string fa =
      write(dir / "f.json",
            wfa_text({"1", "0"}, {"1", "3"}, {{{"1", "1"}, {"0", "0"}}, {{"0", "0"}, {"0", "2"}}}));
  // α' = αP = (1, 1); M' = P⁻¹MP; β' = P⁻¹β with P⁻¹ = [[1,−1],[0,1]].
  const std::string ga = write(
      dir / "g.json",
      wfa_text({"1", "1"}, {"-2", "3"}, {{{"1", "2"}, {"0", "0"}}, {{"0", "-2"}, {"0", "2"}}}));
  const SubjectFile f = load_subject_file(fa), g = load_subject_file(ga);
  // The forward-basis form (the exact decider's; the multimodular one writes a morphism,
  // tests/verify/test_equivalence_multimodular.cpp).
  EquivalenceParams plain;
  plain.method = EquivalenceParams::Method::exact;
  const EquivalenceResult r =
      decide_equivalence(subject_representation(f), subject_representation(g), plain);
  REQUIRE(r.equivalent);
  const nlohmann::ordered_json cert = equivalence_certificate(r, f, g);
  REQUIRE(cert["basis"][0]["word"].empty());
  const CertificateCheck ok = check_certificate(f, g, cert.dump());
  INFO((ok.problems.empty() ? "" : ok.problems[0]));
  REQUIRE(ok.ok);
  std::size_t count = 0;
  tamper_each(nlohmann::json::parse(cert.dump()), f, g, count);
  REQUIRE(count >= 10);
  // A certificate for other models: g with one weight changed is refused by its digest.
  const std::string other = write(
      dir / "h.json",
      wfa_text({"1", "1"}, {"-2", "3"}, {{{"1", "2"}, {"0", "0"}}, {{"0", "-2"}, {"0", "3"}}}));
  const CertificateCheck wrong = check_certificate(f, load_subject_file(other), cert.dump());
  REQUIRE(!wrong.ok);
  REQUIRE_THAT(wrong.problems[0], Catch::Contains("another model"));
  // Swapped models: refused too.
  REQUIRE(!check_certificate(g, f, cert.dump()).ok);
  std::filesystem::remove_all(dir);
}

TEST_CASE("certificate of a model against a WFA, over Q and over F_p, with tampering") {
  const SubjectFile m = load_subject_file(test::example("binary_value_wfa.json"));
  const SubjectFile a = load_subject_file(test::example("wfa_binary_value.wfa.json"));
  REQUIRE(!m.is_wfa());
  REQUIRE(a.is_wfa());
  REQUIRE(!not_certifiable(m));
  for (std::optional<std::uint64_t> p :
       {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(7)}) {
    const EquivalenceResult r =
        decide_equivalence(subject_representation(m), subject_representation(a), {p});
    REQUIRE(r.equivalent);
    const nlohmann::ordered_json cert = equivalence_certificate(r, m, a);
    REQUIRE(!cert.contains("empty_word"));  // a model has no output at t = 0
    REQUIRE(cert["field"] == (p ? "F_p" : "Q"));
    const CertificateCheck ok = check_certificate(m, a, cert.dump());
    INFO((ok.problems.empty() ? "" : ok.problems[0]));
    REQUIRE(ok.ok);
    std::size_t count = 0;
    tamper_each(nlohmann::json::parse(cert.dump()), m, a, count);
    REQUIRE(count >= 8);
  }
}

TEST_CASE("checker refusals: malformed, not ε first, not prefix-closed") {
  const SubjectFile m = load_subject_file(test::example("binary_value_wfa.json"));
  const SubjectFile a = load_subject_file(test::example("wfa_binary_value.wfa.json"));
  EquivalenceParams plain;  // the forward-basis form
  plain.method = EquivalenceParams::Method::exact;
  const EquivalenceResult r =
      decide_equivalence(subject_representation(m), subject_representation(a), plain);
  nlohmann::json cert = nlohmann::json::parse(equivalence_certificate(r, m, a).dump());
  const CertificateCheck not_json = check_certificate(m, a, "{");
  REQUIRE(!not_json.ok);
  CHECK(not_json.not_json);  // bad input (exit 2), not a failed proof
  CHECK_FALSE(check_certificate(m, a, "{}").not_json);
  nlohmann::json swapped = cert;
  std::swap(swapped["basis"][0], swapped["basis"][1]);
  const CertificateCheck c = check_certificate(m, a, swapped.dump());
  REQUIRE(!c.ok);
  REQUIRE_THAT(c.problems[0], Catch::Contains("first basis word must be ε"));
  nlohmann::json gap = cert;
  gap["basis"].back()["word"] = {"1", "1", "1"};
  REQUIRE(!check_certificate(m, a, gap.dump()).ok);
  // A two-layer model is not certifiable.
  const SubjectFile stacked = load_subject_file(test::example("hybrid_counter_attention.json"));
  REQUIRE(not_certifiable(stacked));
}
