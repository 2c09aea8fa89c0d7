#include "constructions/construction.hpp"

namespace rnncc {

Claim claim_equal(std::string name, const Integer& claimed, const Integer& measured) {
  return {std::move(name), "= " + claimed.str(), measured.str(), claimed == measured};
}

Claim claim_at_most(std::string name, const Integer& bound, const Integer& measured) {
  return {std::move(name), "≤ " + bound.str(), measured.str(), measured <= bound};
}

}  // namespace rnncc
