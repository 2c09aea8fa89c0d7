// A program built against an installed rnncc (find_package(rnncc) or pkg-config): compiles a
// model file for inputs of length n as the tool does (compile_as_written: the dead gates swept)
// and prints what `rnncc compile MODEL -n N` prints as its first lines, so the check can compare
// the library's figures with the installed tool's.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "circuits/analysis.hpp"
#include "circuits/compile/target.hpp"
#include "rnn/model_json.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer MODEL.json N\n");
    return 2;
  }
  const rnncc::Model m = rnncc::load_model(argv[1]);
  const auto cc = rnncc::compile_as_written(m, std::stoul(argv[2]),
                                            rnncc::parse_target_options(rnncc::TargetText{}));
  const rnncc::CircuitStats s = rnncc::compute_stats(cc.circuit);
  std::printf("size %zu operations %zu inputs %zu outputs %zu depth %u\n", s.size, s.operations(),
              s.inputs, s.outputs, s.depth);
  return 0;
}
