// Checking model-file diagnostics: parse_model must throw an InputError at `where` whose
// message contains `what`.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "algebra/error.hpp"
#include "rnn/model_json.hpp"

namespace rnncc::testing {

inline void expect_model_error(const std::string& text, const std::string& where,
                               const std::string& what) {
  try {
    parse_model(text, "m.json");
    FAIL("expected an InputError for: " << text);
  } catch (const InputError& e) {
    INFO(e.what());
    CHECK(e.where() == where);
    CHECK_THAT(e.what(), Catch::Contains(what));
  }
}

}  // namespace rnncc::testing
