// The checks part of `rnncc._rnncc` (bindings.hpp): `rnncc verify`, `equiv`,
// `check-certificate`, `minimize` and `depth`, on objects (Model, Wfa) or paths, each returning
// the document the command's --json prints.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "bindings.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/io/output_file.hpp"
#include "circuits/measure/depth_growth.hpp"
#include "cli/limits.hpp"
#include "constructions/registry.hpp"
#include "constructions/wfa.hpp"
#include "rnn/model_json.hpp"
#include "verify/acceptance_equivalence.hpp"
#include "verify/certificate.hpp"
#include "verify/certificate_claim.hpp"
#include "verify/check_certificate.hpp"
#include "verify/check_product_certificate.hpp"
#include "verify/equivalence_report.hpp"
#include "verify/finite_equivalence.hpp"
#include "verify/minimize.hpp"
#include "verify/product_certificate.hpp"
#include "verify/subject_file.hpp"
#include "verify/subjects.hpp"
#include "verify/verify.hpp"

namespace rnncc::bindings {
namespace {

// A subject of equiv, minimize and depth: a Model or a Wfa object (in memory, named by the
// Python argument `name`) or a file's path (read as `rnncc equiv` reads it).
// The text of a path argument; a TypeError (not pybind11's RuntimeError) for anything else.
std::string path_of(const py::handle& x, const std::string& name, const std::string& expected) {
  if (!py::isinstance<py::str>(x))
    throw py::type_error(name + ": expected " + expected + ", got " +
                         py::str(py::type::handle_of(x).attr("__name__")).cast<std::string>());
  return x.cast<std::string>();
}

SubjectFile subject_of(const py::handle& x, const std::string& name) {
  if (py::isinstance<Model>(x)) return SubjectFile{name, x.cast<Model>()};
  if (py::isinstance<Wfa>(x)) return SubjectFile{name, x.cast<Wfa>()};
  return load_subject_file(path_of(x, name, "a Model, a Wfa or a file's path"));
}

// `rnncc verify KIND [INPUT] [options] --json`. Options: name → value ("" for a flag), in order.
// `model` and `against` (kind "model" only): a Model and a Wfa (or a WFA file's path) in memory,
// instead of INPUT and --against.
py::object verify_report(const std::string& kind_name, const std::string& input,
                         const std::vector<std::pair<std::string, std::string>>& options,
                         std::size_t random, bool random_given, std::size_t max_length,
                         std::optional<std::size_t> exhaustive, std::size_t identity,
                         std::size_t identity_length, std::optional<std::uint64_t> seed, bool prove,
                         bool three_way, bool timing, bool gpu, std::uint64_t max_work,
                         std::optional<Model> model, const py::object& against,
                         const std::string& certificate_path) {
  const Registry& registry = verify_registry();
  const ConstructionKind* kind = nullptr;
  std::vector<std::string> names;
  for (const ConstructionKind& k : registry.kinds()) {
    names.push_back(k.name);
    if (k.name == kind_name) kind = &k;
  }
  if (!kind) throw InputError("kind", "'" + kind_name + "': expected " + one_of(names));
  std::optional<Construction> built;
  if (model) {  // the `model` kind, on objects: the same construction as its builder makes
    if (kind_name != "model")
      throw InputError("input",
                       "a Model object is the input of kind 'model' only, not '" + kind_name + "'");
    if (!options.empty()) throw InputError(options[0].first, "does not apply to kind 'model'");
    if (against.is_none())
      throw InputError("against", "give the WFA the model should compute (a WFA or a file)");
    const Wfa wfa = py::isinstance<Wfa>(against)
                        ? against.cast<Wfa>()
                        : load_wfa(path_of(against, "against", "a Wfa or a WFA file's path"));
    built = model_against_wfa(*model, wfa);
  } else {
    if (input.empty() && !kind->input_help.empty())
      throw InputError("input", "verify " + kind_name + " needs an input: " + kind->input_help);
    if (!input.empty() && kind->input_help.empty())  // the CLI's parser refuses it too
      throw InputError("input", "verify " + kind_name +
                                    " takes no input (its options say what "
                                    "to build)");
    ConstructionArgs args;
    args.input = input;
    for (const auto& [name, value] : options) args.set(name, value);
    kind->check_applicable(args, registry);
    py::gil_scoped_release unlocked;
    built = kind->build(args, registry);
  }
  VerifyOptions o;
  o.random = random;
  if (random_given) o.random_after_proof.reset();
  o.max_random_length = max_length;
  o.exhaustive = exhaustive;
  o.identity_rounds = identity;
  o.identity_max_length = identity_length;
  o.seed = seed;
  o.prove = prove;
  o.three_way = three_way;
  o.timing = timing;
  o.gpu = gpu;
  o.certificate = !certificate_path.empty();
  // As `rnncc verify --certificate FILE`: opened before the work (an unwritable path is refused
  // at once), committed only when a proof wrote a certificate.
  std::optional<OutputFile> certificate;
  if (o.certificate) certificate.emplace(certificate_path);
  VerifyReport r;
  {
    py::gil_scoped_release unlocked;
    const Construction& c = *built;
    if (o.exhaustive && *o.exhaustive == 0 && !c.target.fixed_length)
      throw InputError("exhaustive", "give a length: every string of length 1..L");
    cli::check_verify_work(c, o, max_work, "max_work");
    r = verify(c, o);
  }
  if (r.proof && !r.proof->certificate_json.empty()) {
    certificate->write(r.proof->certificate_json);
    certificate->commit();
    r.proof->certificate = certificate_path;
  } else if (o.certificate && !(r.proof && r.proof->no_certificate)) {
    r.notes.push_back("no certificate written: nothing was proved for every length");
  }
  return to_python(to_json(r));
}

// `rnncc equiv A B [--method] [--modulus] [--certificate] [--no-timing] --json`: the same
// procedures and the same document as cli/equiv_command.cpp. A and B: objects or paths.
py::object equiv_report(const py::object& subject_a, const py::object& subject_b,
                        const std::string& method, std::optional<std::uint64_t> modulus,
                        const std::string& certificate_path, bool timing, std::uint64_t max_work,
                        const std::string& compare, std::optional<std::size_t> accept_length) {
  if (method != "linear" && method != "product" && method != "auto")
    throw InputError("method", "'" + method + "': expected linear, product or auto");
  if (compare != "outputs" && compare != "accept")
    throw InputError("compare", "'" + compare + "': expected outputs or accept");
  if (accept_length && compare != "accept")
    throw InputError("accept_length", "applies to compare='accept'");
  const SubjectFile a = subject_of(subject_a, "a"), b = subject_of(subject_b, "b");
  if (!certificate_path.empty())
    for (const SubjectFile* s : {&a, &b})
      if (auto why = not_certifiable(*s); why && not_product_certifiable(*s))
        throw InputError("certificate", *why);
  auto refuse_product_flags = [&] {
    if (modulus)
      throw InputError("modulus",
                       "the product search compares exact rational outputs; modulus applies to "
                       "the linear decider (method='linear')");
  };
  auto linear = [&](const LinearRepresentation& ra, const LinearRepresentation& rb) {
    EquivalenceParams params{modulus, !certificate_path.empty()};
    params.max_exact_work = max_work;
    cli::check_forward_basis_work(
        ra.dim + rb.dim, ra.symbols.size(), max_work, "equiv",
        uses_multimodular(ra.dim, rb.dim, ra.modulus || rb.modulus, params));
    std::optional<OutputFile> certificate;
    if (!certificate_path.empty()) certificate.emplace(certificate_path);
    EquivalenceResult r;
    {
      py::gil_scoped_release unlocked;
      r = decide_equivalence(ra, rb, params);
    }
    std::optional<std::string> written;
    if (r.equivalent && certificate) {
      certificate->write(equivalence_certificate(r, a, b).dump(1) + "\n");
      certificate->commit();
      written = certificate_path;
    }
    return to_python(equivalence_json(r, ra, timing, written));
  };
  auto product = [&](const FiniteMachine& ma, const FiniteMachine& mb) {
    std::optional<OutputFile> certificate;
    if (!certificate_path.empty()) certificate.emplace(certificate_path);
    FiniteEquivalenceResult r;
    {
      py::gil_scoped_release unlocked;
      r = decide_finite_equivalence(ma, mb);
    }
    ojson j = finite_equivalence_json(r, ma, timing);
    if (r.equivalent && certificate) {
      certificate->write(product_certificate(ma, mb, a, b).dump(1) + "\n");
      certificate->commit();
      j["certificate"] = certificate_path;
    }
    return to_python(j);
  };
  if (method == "product" && compare == "outputs") refuse_product_flags();
  const EquivalenceInputs in = equivalence_inputs(a, b, method);
  if (in.reordered && !certificate_path.empty())
    throw InputError("certificate",
                     "b's alphabet is a's in another order: symbols were matched by name, but a "
                     "certificate needs the same order (the checker compares symbol by symbol)");
  for (const SubjectFile* s : {&a, &b})
    if (!certificate_path.empty() && compare == "outputs")
      if (auto why = in.linear() ? not_certifiable(*s) : not_product_certifiable(*s))
        throw InputError("certificate", *why);
  if (compare == "accept") {
    if (modulus) throw InputError("modulus", "compare='accept' reads the sign of exact outputs");
    if (!certificate_path.empty())
      throw InputError("certificate", "certificates prove equal outputs (compare='outputs')");
    if (in.linear())
      cli::check_forward_basis_work(in.f->dim + in.g->dim, in.f->symbols.size(), max_work, "equiv");
    AcceptanceParams params;
    params.max_length = accept_length;
    AcceptanceResult r;
    {
      py::gil_scoped_release unlocked;
      r = decide_acceptance(a, b, in, params);
    }
    return to_python(acceptance_json(r, in.linear() ? in.f->symbols : in.mf->symbols, timing));
  }
  if (in.linear()) return linear(*in.f, *in.g);
  refuse_product_flags();
  return product(*in.mf, *in.mg);
}

// `rnncc minimize MODEL --json` on an object or a path: (the minimized Model, the document).
std::pair<Model, py::object> minimize_report(const py::object& subject, std::uint64_t max_work) {
  const SubjectFile s = subject_of(subject, "subject");
  const LinearRepresentation rep = minimize_input(s);
  cli::check_forward_basis_work(2 * rep.dim, rep.symbols.size(), max_work, "minimize");
  std::optional<ProvedMinimization> p;
  {
    py::gil_scoped_release unlocked;
    p = minimize_and_prove(rep, "minimized");
  }
  return {p->minimized.model, to_python(minimize_json(*p, std::nullopt))};
}

// `rnncc depth`: the measured points, and (fits) the fitted growth laws as `--json` prints them.
// `models`: Model objects or paths. A path is read and labelled as `--model` does (its stem, or
// the path where the stem is taken); an object by its name ("model" when unnamed), with "#k"
// (its place in `models`, from 1) where that is taken.
py::object depth_report(const std::optional<std::string>& arch,
                        const std::vector<py::object>& models, const py::object& lengths_given,
                        const std::string& target_text, std::size_t max_gates,
                        const std::optional<bool>& fits_given) {
  const CircuitTarget target = parse_target(target_text, "target");
  const auto archs =
      !models.empty() && !arch
          ? std::vector<std::string>{}
          : parse_architectures(arch.value_or(
                "diagonal,s4,pd,dplr,deltanet,gdn,rwkv7,relu-rnn,uhat,hybrid,counter"));
  // lengths: "A..B" as --lengths reads it, or the lengths themselves (a list or a range).
  std::vector<std::size_t> lengths;
  if (lengths_given.is_none())
    lengths = parse_lengths(default_depth_lengths(target));
  else if (py::isinstance<py::str>(lengths_given))
    lengths = parse_lengths(lengths_given.cast<std::string>(), "lengths");
  else {
    // Integers (not bools, not floats: 2.5 is no length), at most kMaxDepthLengths of them (as
    // many as "A..B" gives at most): each is a compilation of every architecture.
    constexpr std::size_t kMaxDepthLengths = 64;
    for (const py::handle& x : lengths_given) {
      if (!py::isinstance<py::int_>(x) || py::isinstance<py::bool_>(x))
        throw py::type_error("lengths: expected integers, got " +
                             py::str(py::type::handle_of(x).attr("__name__")).cast<std::string>());
      const py::int_ value = py::reinterpret_borrow<py::int_>(x);
      if (value < py::int_(1) || value > py::int_(std::uint64_t{1} << 62))
        throw InputError("lengths", py::str(x).cast<std::string>() + ": a length is in 1..2^62");
      lengths.push_back(value.cast<std::size_t>());
      if (lengths.size() > kMaxDepthLengths)
        throw InputError("lengths", "more than " + std::to_string(kMaxDepthLengths) +
                                        " lengths (\"A..B\" doubles from A to B)");
    }
    if (lengths.empty()) throw InputError("lengths", "no lengths given");
    std::sort(lengths.begin(), lengths.end());
    lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  }
  // fits: True fits (refusing too few lengths), False does not, None fits when there are enough.
  bool fits_wanted = fits_given.value_or(true);
  if (fits_given.value_or(false)) {
    check_fit_lengths(lengths);
  } else if (!fits_given) {
    try {
      check_fit_lengths(lengths);
    } catch (const InputError&) {
      fits_wanted = false;
    }
  }
  std::vector<std::pair<std::string, DepthSubject>> subjects;
  for (std::size_t k = 0; k < models.size(); ++k) {
    const py::object& x = models[k];
    const bool object = py::isinstance<Model>(x);
    const std::string path =
        object ? std::string()
               : path_of(x, "models[" + std::to_string(k) + "]", "a Model or a model file's path");
    std::string label = object ? x.cast<const Model&>().name : model_label(path);
    if (label.empty()) label = "model";
    bool taken = std::find(archs.begin(), archs.end(), label) != archs.end();
    for (const auto& s : subjects) taken = taken || s.first == label;
    if (taken) label = object ? label + "#" + std::to_string(k + 1) : path;
    subjects.emplace_back(label, object
                                     ? model_depth_subject(x.cast<Model>(), label, target, "models")
                                     : model_depth_subject(path, target));
  }
  std::vector<std::string> skipped;
  std::vector<DepthPoint> points;
  std::vector<DepthFit> fits;
  {
    py::gil_scoped_release unlocked;
    if (!archs.empty()) points = measure_depths(archs, lengths, target, max_gates, &skipped);
    const auto more = measure_subjects(subjects, lengths, target, max_gates);
    points.insert(points.end(), more.begin(), more.end());
    if (fits_wanted) fits = fit_depths(points);
  }
  return to_python(depth_json(points, fits, skipped, target));
}

}  // namespace

void bind_checks(py::module_& m) {
  m.def("verify", &verify_report);
  m.def("verify_kinds", [] {
    std::vector<std::string> names;
    for (const ConstructionKind& k : verify_registry().kinds()) names.push_back(k.name);
    return names;
  });
  m.def("equiv", &equiv_report);
  // `rnncc check-certificate F G FILE`: the independent checker's verdict and every broken rule.
  // The claim's field (verify/certificate_claim.hpp): "Q" refuses a certificate over F_p.
  m.def("check_certificate", [](const py::object& f, const py::object& g, const std::string& path,
                                const std::string& field) {
    const ClaimField claim = parse_claim_field(field, "field");
    const std::string text = read_certificate_file(path);
    // Product, promise and input-map certificates: their own checkers, by "format"
    // (verify/check_product_certificate.hpp); a promise or input-map certificate with g = None
    // is checked against f alone (its specification is in it).
    const std::string format = certificate_format(text);
    if (format == "rnncc-product-certificate/1" || format == "rnncc-promise-certificate/1" ||
        format == "rnncc-input-map-certificate/1" || g.is_none()) {
      ProductCertificateCheck c;
      if (format == "rnncc-promise-certificate/1") {
        if (!g.is_none())
          throw InputError(path, "a promise certificate is checked against one model (g=None)");
        c = check_promise_certificate(subject_of(f, "f"), text);
      } else if (format == "rnncc-input-map-certificate/1") {
        c = g.is_none() ? check_input_map_certificate(std::nullopt, subject_of(f, "f"), text)
                        : check_input_map_certificate(subject_of(f, "f"), subject_of(g, "g"), text);
      } else if (format == "rnncc-product-certificate/1" && !g.is_none()) {
        c = check_product_certificate(subject_of(f, "f"), subject_of(g, "g"), text);
      } else {
        throw InputError(path,
                         "g=None is for promise and input-map certificates; this one "
                         "needs both subjects");
      }
      if (c.other_models || c.not_json)
        throw InputError(path, c.problems.empty() ? std::string("not a certificate of these models")
                                                  : c.problems.front());
      std::vector<std::string> problems = c.problems;
      const bool weaker = c.ok && claim == ClaimField::q && c.field != "Q";
      if (weaker)
        problems.push_back(
            "the certificate proves agreement modulo p = " + std::to_string(*c.modulus) +
            " only; a claim over Q needs a certificate over Q");
      return py::make_tuple(c.ok && !weaker, py::str(c.field),
                            c.modulus ? py::object(py::int_(*c.modulus)) : py::object(py::none()),
                            problems);
    }
    const SubjectFile a = subject_of(f, "f"), b = subject_of(g, "g");
    CertificateVerdict v;
    {
      py::gil_scoped_release unlocked;
      v = check_certificate_claim(a, b, text, claim);
    }
    const CertificateCheck& c = v.check;
    if (c.other_models || c.not_json)
      throw InputError(path, c.problems.empty() ? std::string("not a certificate of these models")
                                                : c.problems.front());
    return py::make_tuple(v.valid, c.field.empty() ? py::object(py::none()) : py::str(c.field),
                          c.modulus ? py::object(py::int_(*c.modulus)) : py::object(py::none()),
                          c.problems);
  });
  m.def("depth", &depth_report);
  m.def("minimize", &minimize_report);
}

}  // namespace rnncc::bindings
