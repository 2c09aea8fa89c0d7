#pragma once
// Internal to rnncc_equiv: the multimodular fast path of decide_equivalence over Q
// (equivalence.hpp, "Over Q at scale").

#include <optional>

#include "verify/equivalence.hpp"

namespace rnncc::equivalence_internal {

// The fast path over Q, or std::nullopt when it cannot conclude (numbers beyond int64, no
// morphism in either direction, too many primes): then the exact decider runs.
std::optional<EquivalenceResult> decide_multimodular(const LinearRepresentation& f,
                                                     const LinearRepresentation& g);

}  // namespace rnncc::equivalence_internal
