// Issue 14 ("Nothing crashes"), automata, machines and certificates: UTF-8 where names are
// read, counts checked before the dense WFA is allocated, the checker's own depth limit, the
// text entry points the fuzz targets call, and the 100-state WFA whose verify took minutes.
#include <catch2/catch.hpp>
#include <string>

#include "constructions/turing_machine.hpp"
#include "constructions/wfa.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/json_cursor.hpp"
#include "tests/support.hpp"
#include "verify/check_certificate.hpp"
#include "verify/subject_file.hpp"
#include "verify/verify.hpp"

using namespace rnncc;
using namespace rnncc::test;

namespace {
std::string source_file(const std::string& relative) {
  return std::string(RNNCC_SOURCE_DIR) + "/" + relative;
}
}  // namespace

TEST_CASE("AT&T WFAs: a byte that is not UTF-8 is refused at its line and column",
          "[wfa][untrusted]") {
  expect_input_error([] { (void)parse_wfa_att("0 1 a\n1 1 é\xff\n1\n", "f.att"); }, "f.att:2:6",
                     "expected UTF-8 text, got byte 0xFF");
  // In a state name too; a comment is not read.
  expect_input_error([] { (void)parse_wfa_att("\xc3( 1 a\n", "f.att"); }, "f.att:1:1",
                     "got byte 0xC3");
  CHECK(parse_wfa_att("0 1 a # \xff\n1\n", "f.att").states() == 2);
}

TEST_CASE("AT&T WFAs: state and label counts are checked before the matrices are allocated",
          "[wfa][untrusted]") {
  // 2049 states over one label: 2049² > 2^22 matrix entries.
  std::string chain;
  for (int i = 0; i < 2048; ++i) chain += std::to_string(i) + " " + std::to_string(i + 1) + " a\n";
  expect_input_error([&] { (void)parse_wfa_att(chain, "chain.att"); }, "chain.att:2048:6",
                     "1 labels × 2049² states is 4198401 matrix entries; at most 4194304");
  // 2048 states is exactly the limit.
  chain.resize(chain.rfind('\n', chain.size() - 2) + 1);
  CHECK(parse_wfa_att(chain, "chain.att").states() == 2048);
  // Labels count: 3 states, many labels.
  std::string labels;
  for (int i = 0; i < 4097; ++i) labels += "0 0 s" + std::to_string(i) + "\n";
  expect_input_error([&] { (void)parse_wfa_att(labels, "l.att"); }, "l.att:4097:5",
                     "more than 4096 distinct labels");
}

TEST_CASE("bbchallenge machines: bytes are named, files read through parse_machine_file",
          "[tm][untrusted]") {
  expect_input_error([] { (void)parse_machine("1R\xff", "machine"); }, "machine",
                     "column 3: unexpected byte 0xFF (expected a next state A-Z or '-')");
  expect_input_error([] { (void)parse_machine_file("# c\n\n1RB1L\x80_1LA1RZ\n", "m.txt"); },
                     "m.txt:3", "column 6: unexpected byte 0x80");
  const TuringMachine m = parse_machine_file("# BB(2)\n\n  1RB1LB_1LA1RZ\n", "m.txt");
  CHECK(to_string(m) == "1RB1LB_1LA1RZ");
  expect_input_error([] { (void)parse_machine_file("# only\n\n", "m.txt"); }, "m.txt",
                     "no machine in the file");
  expect_input_error([&] { (void)parse_tape_input(m, "0\xc3"); }, "--input",
                     "column 2: byte 0xC3 is not a tape symbol");
}

TEST_CASE("subject files: parse_subject_file reads what load_subject_file reads",
          "[equivalence][untrusted]") {
  const std::string att = source_file("examples/wfa_binary_value.att");
  const SubjectFile a = load_subject_file(att);
  const SubjectFile b = parse_subject_file(read_text_file(att, "WFA file"), att);
  CHECK(subject_digest(a) == subject_digest(b));
  CHECK(b.is_wfa());
  expect_input_error([] { (void)parse_subject_file(std::string(200, '['), "x.json"); },
                     "x.json:1:65", "nested deeper than 64 levels");
}

TEST_CASE("the certificate checker refuses deep nesting", "[equivalence][untrusted]") {
  const SubjectFile f = load_subject_file(source_file("examples/binary_value_wfa.json"));
  const SubjectFile g = load_subject_file(source_file("examples/wfa_binary_value.att"));
  // Deep and closed: without the limit, `c.at("format") != …` would recurse per level.
  const std::string deep =
      "{\"format\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  const CertificateCheck c = check_certificate(f, g, deep);
  CHECK_FALSE(c.ok);
  CHECK(c.not_json);
  REQUIRE(c.problems.size() == 1);
  CHECK(c.problems[0] ==
        "not a certificate: line 1, column 75: JSON nested deeper than 64 levels (the limit of "
        "every rnncc JSON format, docs/formats.md)");
  // A number beyond a double is not JSON rnncc reads (bad input, exit 2), not an invalid proof.
  const CertificateCheck n = check_certificate(f, g, "{\"outputs\": 1e400}");
  CHECK(n.not_json);
  CHECK_FALSE(n.ok);
  // The checked-in certificate still checks.
  const std::string good =
      read_text_file(source_file("tests/cli/models/binary_value.cert.json"), "certificate");
  CHECK(check_certificate(f, g, good).ok);
}

// Before, three-way compiled X at every length up to 40 (≈ 10^8 folds each): minutes. Time is
// not asserted (no wall-clock limits in tests: timings belong in bench/); the budget's note is.
TEST_CASE("verify on the 100-state sparse WFA of issue 14 answers within seconds",
          "[verify][untrusted]") {
  const Wfa a = load_wfa(source_file("tests/cli/models/sparse_100.att"));
  REQUIRE(a.states() == 100);
  VerifyOptions o;
  o.seed = 1;
  o.timing = false;
  const VerifyReport r = verify(wfa_to_lrnn(a, WfaFamily::general), o);
  CHECK(r.holds);
  REQUIRE(r.proof);
  CHECK(r.proof->proved);
  // Three-way compiled the short lengths only, and says from which length on it did not.
  CHECK(r.checked.at("three-way (lengths compiled)") > 0);
  bool noted = false;
  for (const std::string& n : r.notes)
    noted = noted || n.find("three-way agreement skipped from length") != std::string::npos;
  CHECK(noted);
}
