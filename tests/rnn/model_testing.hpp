// Checking model-file diagnostics: parse_model must throw an InputError at `where` whose
// message contains `what`.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "algebra/error.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

namespace rnncc::testing {

inline void expect_model_error(const std::string& text, const std::string& where,
                               const std::string& what) {
  test::expect_input_error([&] { parse_model(text, "m.json"); }, where, what);
}

}  // namespace rnncc::testing
