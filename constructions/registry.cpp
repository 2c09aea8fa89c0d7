#include "constructions/registry.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <stdexcept>

#include "algebra/error.hpp"
#include "algebra/memory.hpp"
#include "algebra/suggest.hpp"
#include "rnn/model_json.hpp"

// The registrations: one line per construction file, each naming the file whose
// `register_<file>(Registry&)` adds its kinds, in the order the CLI lists them.
#define RNNCC_CONSTRUCTION_FILES(X)                     \
  X(wfa_to_lrnn)     /* wfa */                          \
  X(dwfa_pd)         /* dwfa */                         \
  X(barrington)      /* barrington */                   \
  X(ben_or_cleve)    /* ben-or-cleve */                 \
  X(matmul3)         /* matmul3 */                      \
  X(graph_walk)      /* graph-walk, dgc */              \
  X(state_tracking)  /* parity, mod-count, sn */        \
  X(state_recall)    /* state-recall */                 \
  X(retrieval)       /* selective-copy, assoc-recall */ \
  X(position_router) /* router */

namespace rnncc {

#define RNNCC_DECLARE(file) void register_##file(Registry&);
RNNCC_CONSTRUCTION_FILES(RNNCC_DECLARE)
#undef RNNCC_DECLARE

void register_all(Registry& registry) {
#define RNNCC_CALL(file) register_##file(registry);
  RNNCC_CONSTRUCTION_FILES(RNNCC_CALL)
#undef RNNCC_CALL
}

std::string one_of(const std::vector<std::string>& values, std::string_view last) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += i + 1 == values.size() ? " " + std::string(last) + " " : ", ";
    out += values[i];
  }
  return out;
}

namespace {

std::optional<std::uint64_t> parse_whole_number(std::string_view text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// The comma-separated pieces of a rational list; none for "" ("1,,2" has an empty piece).
std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> pieces;
  if (text.empty()) return pieces;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    pieces.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return pieces;
}

// InputError naming the flag when `value` is not of the option's kind.
void check_value(const OptionSpec& o, const std::string& value) {
  switch (o.kind) {
    case OptionKind::flag:
      if (!value.empty() && value != "true") throw InputError(o.name, "takes no value");
      return;
    case OptionKind::text:
      return;
    case OptionKind::choice:
      if (std::find(o.allowed.begin(), o.allowed.end(), value) == o.allowed.end())
        throw InputError(o.name, with_suggestion("'" + value + "': expected " + one_of(o.allowed),
                                                 value, o.allowed));
      return;
    case OptionKind::whole_number:
      if (!parse_whole_number(value))
        throw InputError(o.name, "'" + value + "': expected a whole number from 0 to 2^64 − 1");
      return;
    case OptionKind::rational:
      if (!value.empty() && !try_parse_rational(value))
        throw InputError(o.name, "'" + value + "' is not a rational");
      return;
    case OptionKind::rational_list:
      for (std::string_view piece : split_commas(value))
        if (!try_parse_rational(piece))
          throw InputError(o.name, "'" + std::string(piece) + "' is not a rational");
      return;
  }
}

}  // namespace

const std::vector<OptionSpec>& verify_options() {
  static const std::vector<OptionSpec> options = {
      {.name = "--model",
       .kind = OptionKind::text,
       .help = "verify the model in this file (JSON) in place of the construction's model: same "
               "alphabet, checked against the construction's f and encoding"}};
  return options;
}

namespace {
bool is_verify_option(std::string_view name) {
  for (const OptionSpec& o : verify_options())
    if (o.name == name) return true;
  return false;
}
}  // namespace

// ---- OptionValues ----

const OptionValues::Entry& OptionValues::entry(std::string_view name) const {
  for (const Entry& e : entries_)
    if (e.spec->name == name) return e;
  throw std::logic_error("construction registry: a builder read '" + std::string(name) +
                         "', an option its kind does not declare");
}

bool OptionValues::given(std::string_view name) const {
  return entry(name).given;
}

bool OptionValues::flag(std::string_view name) const {
  return entry(name).given;
}

const std::string& OptionValues::text(std::string_view name) const {
  static const std::string empty;
  const Entry& e = entry(name);
  return e.value ? *e.value : empty;
}

std::optional<std::uint64_t> OptionValues::optional_whole_number(std::string_view name) const {
  const Entry& e = entry(name);
  if (!e.value) return std::nullopt;
  return parse_whole_number(*e.value).value();  // checked by resolve
}

std::uint64_t OptionValues::whole_number(std::string_view name) const {
  const auto v = optional_whole_number(name);
  if (!v)
    throw std::logic_error("construction registry: '" + std::string(name) +
                           "' has no default; read it with optional_whole_number");
  return *v;
}

std::optional<Rational> OptionValues::rational(std::string_view name) const {
  const Entry& e = entry(name);
  if (!e.value || e.value->empty()) return std::nullopt;
  return try_parse_rational(*e.value).value();
}

std::vector<Rational> OptionValues::rationals(std::string_view name) const {
  const Entry& e = entry(name);
  std::vector<Rational> out;
  if (e.value)
    for (std::string_view piece : split_commas(*e.value))
      out.push_back(try_parse_rational(piece).value());
  return out;
}

// ---- ConstructionKind ----

const OptionSpec* ConstructionKind::option(std::string_view option_name) const {
  for (const OptionSpec& o : options)
    if (o.name == option_name) return &o;
  return nullptr;
}

void ConstructionKind::check_applicable(const ConstructionArgs& args,
                                        const Registry& registry) const {
  for (const auto& [option_name, value] : args.options) {
    if (option(option_name) || is_verify_option(option_name)) continue;
    const std::string others = registry.kinds_with(option_name);
    throw InputError(option_name, others.empty() ? "not an option of " + name
                                                 : "does not apply to " + name + " (an option of " +
                                                       others + ")");
  }
}

OptionValues ConstructionKind::resolve(const ConstructionArgs& args,
                                       const Registry& registry) const {
  check_applicable(args, registry);
  OptionValues v;
  v.input_ = args.input;
  v.max_memory_mib_ = args.max_memory_mib.value_or(default_max_memory_mib());
  v.before_build_ = args.before_build;
  for (const OptionSpec& o : options) {
    OptionValues::Entry e{&o, o.default_value, false};
    for (const auto& [option_name, value] : args.options)  // the last one given counts
      if (option_name == o.name) {
        check_value(o, value);
        e.value = value;
        e.given = true;
      }
    if (o.required && !e.given) throw InputError(o.name, "required by " + name);
    v.entries_.push_back(std::move(e));
  }
  return v;
}

Construction ConstructionKind::build(const ConstructionArgs& args, const Registry& registry) const {
  ConstructionArgs own;
  own.input = args.input;
  own.max_memory_mib = args.max_memory_mib;
  std::optional<std::string> model_file;
  for (const auto& [option_name, value] : args.options) {
    if (option_name == "--model")
      model_file = value;  // the last one given counts
    else
      own.options.emplace_back(option_name, value);
  }
  if (model_file && model_file->empty()) throw InputError("--model", "expected a model file");
  // The planned shape is the construction's own model's: not that of a --model replacing it.
  if (!model_file) own.before_build = args.before_build;
  Construction c = build_from(resolve(own, registry));
  if (model_file) c = with_model(std::move(c), load_model(*model_file), *model_file);
  return c;
}

// ---- Registry ----

void Registry::add(ConstructionKind kind) {
  auto bad = [&](const std::string& what) {
    throw std::logic_error("construction registry: kind '" + kind.name + "': " + what);
  };
  if (kind.name.empty() || find(kind.name)) bad("an empty or repeated name");
  if (kind.help.empty()) bad("no help");
  if (!kind.build_from) bad("no builder");
  std::set<std::string> seen;
  for (const OptionSpec& o : kind.options) {
    if (o.name.rfind("--", 0) != 0) bad(o.name + ": option names start with --");
    if (!seen.insert(o.name).second) bad(o.name + " declared twice");
    if (is_verify_option(o.name)) bad(o.name + " is an option of every kind (verify_options)");
    if (o.help.empty()) bad(o.name + " has no help");
    if (o.kind == OptionKind::choice && o.allowed.empty()) bad(o.name + ": a choice of nothing");
    if (o.kind == OptionKind::flag && (o.default_value || o.required))
      bad(o.name + ": a flag has no default and is never required");
    if (o.default_value) try {
        check_value(o, *o.default_value);
      } catch (const InputError& e) {
        bad(std::string("its default: ") + e.what());
      }
  }
  kinds_.push_back(std::move(kind));
}

const ConstructionKind* Registry::find(std::string_view name) const {
  for (const ConstructionKind& k : kinds_)
    if (k.name == name) return &k;
  return nullptr;
}

std::vector<const OptionSpec*> Registry::all_options() const {
  std::vector<const OptionSpec*> out;
  std::set<std::string_view> seen;
  for (const ConstructionKind& k : kinds_)
    for (const OptionSpec& o : k.options)
      if (seen.insert(o.name).second) out.push_back(&o);
  return out;
}

std::string Registry::kinds_with(std::string_view option) const {
  std::vector<std::string> names;
  for (const ConstructionKind& k : kinds_)
    if (k.option(option)) names.push_back(k.name);
  return one_of(names, "and");
}

}  // namespace rnncc
