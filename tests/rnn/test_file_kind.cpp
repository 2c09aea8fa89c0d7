// File kinds (rnn/file_kind.hpp): recognition by "format", by members, by extension and by the
// first line; the message; and a loader's error path (parse_model) refusing another kind while
// keeping its own diagnostic for a broken file of its own kind.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "algebra/error.hpp"
#include "rnn/file_kind.hpp"
#include "rnn/json_cursor.hpp"
#include "rnn/model_json.hpp"

using namespace rnncc;

TEST_CASE("file kinds by the format member, by members, by extension", "[rnn][file_kind]") {
  CHECK(file_kind(R"({"format": "rnncc-model/1"})", "x") == FileKind::model);
  CHECK(file_kind(R"({"format": "rnncc-model/2"})", "x") == FileKind::model);  // any version
  CHECK(file_kind(R"({"format": "rnncc-circuit/1"})", "x.json") == FileKind::circuit);
  CHECK(file_kind(R"({"format": "rnncc-wfa/1"})", "x.json") == FileKind::wfa);
  CHECK(file_kind(R"({"format": "rnncc-generators"})", "x.json") == FileKind::generators);
  CHECK(file_kind(R"({"format": "rnncc-equivalence-certificate/1"})", "x") ==
        FileKind::certificate);
  // the format wins over the extension; a format and members of two kinds: mislabelled, unknown
  CHECK(file_kind(R"({"format": "rnncc-circuit/1", "gates": []})", "m.aig") == FileKind::circuit);
  CHECK(file_kind(R"({"format": "rnncc-circuit/1", "layers": []})", "m.json") == FileKind::unknown);
  CHECK(file_kind(R"({"format": "rnncc-model", "matrices": []})", "g.json") == FileKind::unknown);
  // without a format: the members
  CHECK(file_kind(R"({"alphabet": ["a"], "layers": []})", "x.json") == FileKind::model);
  CHECK(file_kind(R"({"gates": [], "outputs": []})", "x.json") == FileKind::circuit);
  CHECK(file_kind(R"({"matrices": []})", "x.json") == FileKind::generators);
  CHECK(file_kind(R"({"states": 2, "initial": [], "final": []})", "x.json") == FileKind::wfa);
  CHECK(file_kind(R"({"something": 1})", "x.json") == FileKind::unknown);
  CHECK(file_kind(R"({"format": "other"})", "x.json") == FileKind::unknown);
  CHECK(file_kind("[1, 2]", "x.json") == FileKind::unknown);
  // extensions, when the text does not say
  CHECK(file_kind("aig 0 0 0 0 0\n", "c.aig") == FileKind::circuit);
  CHECK(file_kind("", "c.aag") == FileKind::circuit);
  CHECK(file_kind(".model x\n", "c.blif") == FileKind::circuit);
  CHECK(file_kind("INPUT(a)\n", "c.bench") == FileKind::circuit);
  CHECK(file_kind("0 1 a 1\n", "w.att") == FileKind::wfa);
  CHECK(file_kind("(and x1 x2)\n", "f.sexp") == FileKind::formula);
  CHECK(file_kind("0 1 a 1\n", "w.txt") == FileKind::unknown);
  CHECK(file_kind("{ not json", "x.json") == FileKind::unknown);
  CHECK(file_kind("{ not json", "x.bench") == FileKind::circuit);
}

TEST_CASE("Turing machines by their first line", "[rnn][file_kind]") {
  CHECK(file_kind("# BB(2)\n\n1RB1LB_1LA1RZ\n", "m.txt") == FileKind::machine);
  CHECK(file_kind("1RB---_1LA1RZ", "m") == FileKind::machine);
  CHECK(file_kind("  1RB1LB_1LA1RZ  \r\n", "m") == FileKind::machine);
  CHECK(file_kind("1RB", "m") == FileKind::machine);
  CHECK(file_kind("1RB1LB_", "m") == FileKind::unknown);         // a trailing separator
  CHECK(file_kind("1RB1LB__1LA1RZ", "m") == FileKind::unknown);  // an empty state
  CHECK(file_kind("1XB1LB", "m") == FileKind::unknown);          // X is no direction
  CHECK(file_kind("1Rb1LB", "m") == FileKind::unknown);          // states are capitals
  CHECK(file_kind("1RB1L", "m") == FileKind::unknown);           // a short transition
  CHECK(file_kind("# only a comment\n", "m") == FileKind::unknown);
}

TEST_CASE("every example file is recognized as its kind", "[rnn][file_kind]") {
  const std::filesystem::path dir = std::filesystem::path(RNNCC_SOURCE_DIR) / "examples";
  std::map<FileKind, int> seen;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string path = e.path().string(), name = e.path().filename().string();
    const FileKind want = name.ends_with(".att") || name.ends_with(".wfa.json") ? FileKind::wfa
                          : name.starts_with("tm_") && name.ends_with(".txt")   ? FileKind::machine
                          : name.ends_with(".sexp")                             ? FileKind::formula
                          : name.ends_with(".json")                             ? FileKind::model
                                                                                : FileKind::unknown;
    INFO(path);
    CHECK(file_kind(read_text_file(path, "example"), path) == want);
    ++seen[want];
  }
  CHECK(seen[FileKind::model] >= 10);
  CHECK(seen[FileKind::wfa] >= 3);
  CHECK(seen[FileKind::machine] >= 5);
  CHECK(seen[FileKind::formula] >= 2);
}

TEST_CASE("the wrong-kind message says what the file is and which command reads it",
          "[rnn][file_kind]") {
  CHECK(wrong_kind_message(FileKind::model, {FileKind::circuit}) ==
        "this is a model file, not a circuit file; `rnncc compile` makes a circuit from it");
  CHECK(wrong_kind_message(FileKind::circuit, {FileKind::model, FileKind::wfa}) ==
        "this is a circuit file, not a model or WFA file; `rnncc stats`, `eval`, `convert` and "
        "`draw` read circuits; this command takes the model a circuit is compiled from");
  CHECK(wrong_kind_message(FileKind::model, {FileKind::certificate})
            .starts_with("this is a model file, not an equivalence certificate file; "));
  CHECK(wrong_kind_message(FileKind::machine, {FileKind::model}).find("`rnncc construct tm") !=
        std::string::npos);
  for (FileKind k : {FileKind::model, FileKind::circuit, FileKind::wfa, FileKind::machine,
                     FileKind::generators, FileKind::certificate, FileKind::formula})
    for (FileKind w : {FileKind::model, FileKind::circuit})
      if (k != w) CHECK(wrong_kind_message(k, {w}).find("; `rnncc ") != std::string::npos);
}

TEST_CASE("a loader refuses another kind on its error path only", "[rnn][file_kind]") {
  const std::string circuit = R"({"format": "rnncc-circuit/1", "gates": [], "outputs": []})";
  CHECK_THROWS_WITH(parse_model(circuit, "c.json"),
                    "c.json: this is a circuit file, not a model file; `rnncc stats`, `eval`, "
                    "`convert` and `draw` read circuits; this command takes the model a circuit "
                    "is compiled from");
  CHECK_THROWS_WITH(parse_model("# a machine\n1RB1LB_1LA1RZ\n", "bb2.txt"),
                    Catch::StartsWith("bb2.txt: this is a Turing machine file, not a model file"));
  // a broken model keeps its own diagnostic
  CHECK_THROWS_WITH(parse_model(R"({"format": "rnncc-model/1", "alphabet": ["a"]})", "m.json"),
                    Catch::Contains("expected a member \"layers\""));
  CHECK_THROWS_WITH(parse_model("{ oops", "m.json"), Catch::Contains("malformed JSON"));
  CHECK_THROWS_AS(parse_as_kind("", "x.blif", {FileKind::model},
                                []() -> int { throw InputError("x.blif", "own"); }),
                  InputError);
  CHECK(parse_as_kind("", "x.blif", {FileKind::model}, [] { return 7; }) == 7);
}
