// Claim helpers shared by the construction tests.
#pragma once

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "constructions/construction.hpp"

namespace rnncc::test {

// The claim whose name starts with `prefix` (the test fails when there is none).
inline const Claim& claim(const Construction& c, const std::string& prefix) {
  for (const Claim& k : c.claims)
    if (k.name.starts_with(prefix)) return k;
  FAIL("no claim named " << prefix);
  throw std::logic_error("unreachable");
}

inline void check_all_claims(const Construction& c) {
  for (const Claim& k : c.claims) {
    INFO(c.name << ": " << k.name << ": claimed " << k.claimed << ", measured " << k.measured);
    CHECK(k.ok);
  }
}

}  // namespace rnncc::test
