// The certificates of proofs by product search, by promise-restricted product search and
// through input maps (issue 24, item 6; docs/formats.md, "Product, promise and input-map
// certificates"), written from the deciders' results; re-checked by the independent checkers
// of verify/check_product_certificate.hpp.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "constructions/encoding_grammar.hpp"
#include "verify/equivalence.hpp"
#include "verify/finite_equivalence.hpp"
#include "verify/linear_representation.hpp"
#include "verify/promise_search.hpp"
#include "verify/subject_file.hpp"

namespace rnncc {

// Whether the product checker steps this file: a WFA, or a model of LRNN and Elman layers.
// Otherwise the reason (naming the file).
std::optional<std::string> not_product_certifiable(const SubjectFile& s);

// The state vector of every state q of `fm` (read from `s`, the file fm was built from): a
// model's configuration flattened layer by layer, a WFA's α·M_u, u the BFS word of q. Each
// state is stepped once from its BFS parent's (parent[q] < q: states are numbered in the order
// the search reached them), one step per state; machine_states_by_replay is the plain twin that
// replays every word from the start (quadratic along a chain: 150 s for a 5 003-state cycle).
std::vector<std::vector<Rational>> machine_states(const FiniteMachine& fm, const SubjectFile& s);
std::vector<std::vector<Rational>> machine_states_by_replay(const FiniteMachine& fm,
                                                            const SubjectFile& s);

// rnncc-product-certificate/1 of an equivalence proved by decide_finite_equivalence(mf, mg),
// mf = finite_machine(a.content), mg = finite_machine(b.content).
nlohmann::ordered_json product_certificate(const FiniteMachine& mf, const FiniteMachine& mg,
                                           const SubjectFile& a, const SubjectFile& b);

// rnncc-promise-certificate/1 of a proved promise_search(x.content, output, g, keep_pairs=true).
nlohmann::ordered_json promise_certificate(const PromiseSearchResult& r, const EncodingGrammar& g,
                                           const SubjectFile& x, std::size_t output);

// rnncc-input-map-certificate/1 of decide_equivalence(from_wfa(spec), select_outputs(
// through_input_map(from_model(x), map), {output})) proved with certificate data.
nlohmann::ordered_json input_map_certificate(const EquivalenceResult& r, const Wfa& spec,
                                             const SubjectFile& x, const InputMapSpec& map,
                                             std::size_t output);

}  // namespace rnncc
