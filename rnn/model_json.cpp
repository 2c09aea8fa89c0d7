#include "rnn/model_json.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "algebra/error.hpp"
#include "rnn/families.hpp"

namespace rnncc {

using nlohmann::json;

namespace {

std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case json::value_t::string: return "the string " + v.dump();
    case json::value_t::number_float: return "the floating-point number " + v.dump();
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "the number " + v.dump();
    case json::value_t::array:
      return v.empty() ? "an empty array" : "an array of " + std::to_string(v.size());
    case json::value_t::object: return "an object";
    default: return "a value of another type";
  }
}

std::string escape_pointer(std::string_view token) {  // RFC 6901
  std::string out;
  for (char c : token) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

// A JSON value with its file and pointer, so every diagnostic can say where it is.
class Node {
 public:
  Node(const json& v, std::string source, std::string path)
      : v_(&v), source_(std::move(source)), path_(std::move(path)) {}

  const json& value() const { return *v_; }
  const std::string& path() const { return path_; }
  std::string where() const { return source_ + ": " + (path_.empty() ? "/" : path_); }
  [[noreturn]] void fail(const std::string& expected) const {
    throw InputError(where(), "expected " + expected + ", got " + describe(*v_));
  }
  [[noreturn]] void error(const std::string& what) const { throw InputError(where(), what); }

  Node child(const std::string& key, const json& v) const {
    return Node(v, source_, path_ + "/" + escape_pointer(key));
  }
  Node operator[](std::size_t i) const { return Node((*v_)[i], source_, path_ + "/" + std::to_string(i)); }

  const json& object() const {
    if (!v_->is_object()) fail("an object");
    return *v_;
  }
  bool has(const std::string& key) const { return object().contains(key); }
  std::optional<Node> find(const std::string& key) const {
    const json& o = object();
    auto it = o.find(key);
    if (it == o.end()) return std::nullopt;
    return child(key, *it);
  }
  Node at(const std::string& key) const {
    if (auto n = find(key)) return *n;
    error("expected a member \"" + key + "\"");
  }
  // Rejects members outside `allowed` — a typo must not be ignored silently.
  void only(std::initializer_list<std::string_view> allowed) const {
    for (auto it = object().begin(); it != object().end(); ++it) {
      bool ok = false;
      for (auto a : allowed) ok = ok || a == it.key();
      if (!ok) {
        std::string list;
        for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        child(it.key(), it.value()).error("unknown member \"" + it.key() + "\" (expected one of: " + list + ")");
      }
    }
  }
  const json& array() const {
    if (!v_->is_array()) fail("an array");
    return *v_;
  }
  std::string string() const {
    if (!v_->is_string()) fail("a string");
    return v_->get<std::string>();
  }
  std::size_t size_value(std::size_t min, std::size_t max) const {
    if (!v_->is_number_integer() || v_->get<long long>() < static_cast<long long>(min) ||
        v_->get<unsigned long long>() > max)
      fail("an integer in " + std::to_string(min) + ".." + std::to_string(max));
    return v_->get<std::size_t>();
  }
  Rational rational() const { return rational_from_json(*v_, where()); }

  Vector vector(std::size_t n) const {
    const json& a = array();
    if (a.size() != n) fail("a vector of " + std::to_string(n) + (n == 1 ? " entry" : " entries"));
    Vector out;
    for (std::size_t i = 0; i < n; ++i) out.push_back((*this)[i].rational());
    return out;
  }
  Matrix<Rational> matrix(std::size_t rows, std::size_t cols) const {
    const json& a = array();
    auto wrong = [&](std::size_t got_cols) {
      error("expected " + std::to_string(rows) + "×" + std::to_string(cols) + " matrix, got " +
            std::to_string(a.size()) + "×" + std::to_string(got_cols));
    };
    if (!a.empty() && !a[0].is_array())
      error("expected " + std::to_string(rows) + "×" + std::to_string(cols) +
            " matrix (an array of rows), got a flat array of " + std::to_string(a.size()));
    if (a.size() != rows) wrong(a.empty() ? 0 : a[0].size());
    Matrix<Rational> m(rows, cols);
    for (std::size_t i = 0; i < rows; ++i) {
      Node row = (*this)[i];
      if (!row.value().is_array()) row.fail("a row (an array of " + std::to_string(cols) + " rationals)");
      if (row.value().size() != cols) wrong(row.value().size());
      for (std::size_t j = 0; j < cols; ++j) m(i, j) = row[j].rational();
    }
    return m;
  }
  // A matrix with `cols` columns and any number ≥ 1 of rows.
  Matrix<Rational> matrix_any_rows(std::size_t cols) const {
    const json& a = array();
    if (a.empty()) fail("a non-empty matrix with " + std::to_string(cols) + " columns");
    return matrix(a.size(), cols);
  }
  // d×1 column given either as a vector or as a d×1 matrix; d×m otherwise.
  Matrix<Rational> state(std::size_t rows, std::size_t cols) const {
    const json& a = array();
    if (cols == 1 && (a.empty() || !a[0].is_array())) {
      Vector v = vector(rows);
      Matrix<Rational> m(rows, 1);
      for (std::size_t i = 0; i < rows; ++i) m(i, 0) = v[i];
      return m;
    }
    return matrix(rows, cols);
  }

 private:
  const json* v_;
  std::string source_, path_;
};

Matrix<Rational> zero_matrix(std::size_t r, std::size_t c) { return Matrix<Rational>(r, c, Rational(0)); }

// What a layer needs to know about its position in the stack.
struct LayerContext {
  std::size_t index;
  std::size_t features;                 // k
  const std::vector<std::string>* symbol_names;  // layer 0 only
};

// Per-feature parameter objects: "symbols" (layer 0, keyed by symbol) or "features" (array).
std::vector<Node> feature_nodes(const Node& layer, const LayerContext& ctx) {
  std::vector<Node> out;
  if (ctx.symbol_names) {
    if (layer.has("features")) layer.at("features").error("layer 0 reads symbols: use \"symbols\", not \"features\"");
    Node symbols = layer.at("symbols");
    for (auto it = symbols.object().begin(); it != symbols.object().end(); ++it)
      if (std::find(ctx.symbol_names->begin(), ctx.symbol_names->end(), it.key()) == ctx.symbol_names->end())
        symbols.child(it.key(), it.value()).error("'" + it.key() + "' is not a symbol of the alphabet");
    for (const std::string& s : *ctx.symbol_names) {
      if (!symbols.has(s)) symbols.error("expected parameters for symbol '" + s + "'");
      out.push_back(symbols.at(s));
    }
  } else {
    if (layer.has("symbols")) layer.at("symbols").error("layers above the first read features: use \"features\" (an array), not \"symbols\"");
    Node features = layer.at("features");
    if (features.array().size() != ctx.features)
      features.fail("an array of " + std::to_string(ctx.features) + " parameter objects (one per row of input_map/weights)");
    for (std::size_t i = 0; i < ctx.features; ++i) out.push_back(features[i]);
  }
  return out;
}

Matrix<Rational> optional_b(const Node& n, std::size_t d, std::size_t m) {
  if (auto b = n.find("B")) return b->state(d, m);
  return zero_matrix(d, m);
}

LrnnLayer parse_lrnn(const Node& n, const LayerContext& ctx) {
  Node family_node = n.at("family");
  auto family = parse_family(family_node.string());
  if (!family)
    family_node.fail("a family: general, diagonal, s4, mamba2, gla, pd, dplr, deltanet, gated_deltanet, kda or rwkv7");
  const bool delta = *family == Family::deltanet || *family == Family::gated_deltanet || *family == Family::kda;
  n.only({"kind", "family", "d", "m", "input_map", "initial_state", "readout", "readout_bias", "symbols",
          "features", "beta_range", "P_kind", "decay", "comment"});
  if (n.has("beta_range") && !delta) n.at("beta_range").error("\"beta_range\" applies to deltanet, gated_deltanet and kda layers only");
  if (n.has("P_kind") && *family != Family::pd) n.at("P_kind").error("\"P_kind\" applies to pd layers only");
  if (n.has("decay") && *family != Family::s4) n.at("decay").error("a layer-level \"decay\" applies to s4 layers only (others give it per symbol)");

  LayerFrame frame;
  frame.d = n.at("d").size_value(1, 4096);
  frame.m = n.has("m") ? n.at("m").size_value(1, 4096) : 1;
  frame.features = ctx.features;
  frame.initial_state = n.has("initial_state") ? n.at("initial_state").state(frame.d, frame.m)
                                               : zero_matrix(frame.d, frame.m);
  frame.readout = n.at("readout").matrix_any_rows(frame.d);
  const std::size_t r = frame.readout.rows();
  if (auto rb = n.find("readout_bias")) frame.readout_bias = rb->state(r, frame.m);

  std::vector<Node> fs = feature_nodes(n, ctx);
  const std::size_t d = frame.d, m = frame.m;
  // Per-feature readouts: all or none.
  std::size_t with_c = 0;
  for (const Node& f : fs) with_c += f.has("C");
  if (with_c != 0 && with_c != fs.size())
    for (const Node& f : fs)
      if (!f.has("C")) f.error("expected a member \"C\": per-symbol readouts are given for all symbols or for none");
  if (with_c) for (const Node& f : fs) frame.readout_feature.push_back(f.at("C").matrix(r, d));

  auto wrap = [&](auto&& build) -> LrnnLayer {
    try {
      return build();
    } catch (const ParamError& e) {
      if (e.feature() == ParamError::layer_level) {
        std::string field = e.field();
        if (field == "symbols") field = ctx.symbol_names ? "symbols" : "features";
        throw InputError(n.where() + "/" + field, e.what());
      }
      throw InputError(fs.at(e.feature()).where() + "/" + e.field(), e.what());
    }
  };

  switch (*family) {
    case Family::general: {
      std::vector<AffineStep> steps;
      for (const Node& f : fs) {
        f.only({"A", "B", "C", "comment"});
        steps.push_back({f.at("A").matrix(d, d), optional_b(f, d, m)});
      }
      return wrap([&] { return make_general(frame, steps); });
    }
    case Family::diagonal:
    case Family::gla:
    case Family::mamba2:
    case Family::s4: {
      std::vector<DecayStep> steps;
      Vector shared;
      if (*family == Family::s4) shared = n.at("decay").vector(d);
      for (const Node& f : fs) {
        if (*family == Family::s4) {
          f.only({"B", "C", "comment"});
          steps.push_back({shared, optional_b(f, d, m)});
        } else {
          f.only({"decay", "B", "C", "comment"});
          Vector decay = *family == Family::mamba2 ? Vector{f.at("decay").rational()} : f.at("decay").vector(d);
          steps.push_back({decay, optional_b(f, d, m)});
        }
      }
      return wrap([&] { return make_diagonal(*family, frame, steps); });
    }
    case Family::pd: {
      bool require_perm = false;
      if (auto k = n.find("P_kind")) {
        std::string kind = k->string();
        if (kind != "permutation" && kind != "column_one_hot") k->fail("\"permutation\" or \"column_one_hot\"");
        require_perm = kind == "permutation";
      }
      std::vector<PdStep> steps;
      for (const Node& f : fs) {
        f.only({"P", "D", "B", "C", "comment"});
        Node p = f.at("P");
        std::vector<std::size_t> image(d);
        const json& a = p.array();
        if (!a.empty() && a[0].is_array()) {  // a 0/1 matrix: each column exactly one 1
          Matrix<Rational> pm = p.matrix(d, d);
          for (std::size_t j = 0; j < d; ++j) {
            std::size_t ones = 0;
            for (std::size_t i = 0; i < d; ++i) {
              if (pm(i, j) == 1) {
                ++ones;
                image[j] = i;
              } else if (pm(i, j) != 0) {
                p.error("expected a column-one-hot 0/1 matrix: entry [" + std::to_string(i) + "][" +
                        std::to_string(j) + "] is " + to_string(pm(i, j)));
              }
            }
            if (ones != 1)
              p.error("expected a column-one-hot 0/1 matrix: column " + std::to_string(j) + " has " +
                      std::to_string(ones) + " nonzero entries");
          }
        } else {  // the image list: P e_j = e_{P[j]}
          if (a.size() != d) p.fail("a " + std::to_string(d) + "×" + std::to_string(d) + " column-one-hot matrix or a list of " +
                 std::to_string(d) + " row indices");
          for (std::size_t j = 0; j < d; ++j) image[j] = p[j].size_value(0, d - 1);
        }
        Vector diag = f.has("D") ? f.at("D").vector(d) : Vector(d, Rational(1));
        steps.push_back({image, diag, optional_b(f, d, m)});
      }
      return wrap([&] { return make_pd(frame, steps, require_perm); });
    }
    case Family::dplr: {
      std::vector<DplrStep> steps;
      for (const Node& f : fs) {
        f.only({"D", "a", "b", "B", "C", "comment"});
        steps.push_back({f.at("D").vector(d), f.at("a").vector(d), f.at("b").vector(d), optional_b(f, d, m)});
      }
      return wrap([&] { return make_dplr(frame, steps); });
    }
    case Family::deltanet:
    case Family::gated_deltanet:
    case Family::kda: {
      BetaRange range = BetaRange::any;
      if (auto br = n.find("beta_range")) {
        auto parsed = parse_beta_range(br->string());
        if (!parsed) br->fail("one of \"any\", \"(0,1)\", \"(0,1]\", \"(0,2)\", \"(0,2]\"");
        range = *parsed;
      }
      std::vector<DeltaStep> steps;
      for (const Node& f : fs) {
        DeltaStep s;
        if (*family == Family::deltanet) {
          f.only({"beta", "k", "v", "C", "comment"});
        } else {
          f.only({"alpha", "beta", "k", "v", "C", "comment"});
          s.alpha = *family == Family::gated_deltanet ? Vector{f.at("alpha").rational()} : f.at("alpha").vector(d);
        }
        s.beta = f.at("beta").rational();
        s.k = f.at("k").vector(d);
        s.v = f.at("v").vector(m);
        steps.push_back(std::move(s));
      }
      return wrap([&] { return make_delta(*family, frame, steps, range); });
    }
    case Family::rwkv7: {
      std::vector<Rwkv7Step> steps;
      for (const Node& f : fs) {
        f.only({"w", "a", "b", "B", "C", "comment"});
        steps.push_back({f.at("w").vector(d), f.at("a").vector(d), f.at("b").vector(d), optional_b(f, d, m)});
      }
      return wrap([&] { return make_rwkv7(frame, steps); });
    }
  }
  throw std::logic_error("unhandled family");
}

AffineMap parse_affine(const Node& n, std::size_t d, std::size_t k) {
  AffineMap f;
  f.W = n.at("W").matrix(d, d);
  f.U = n.at("U").matrix(d, k);
  f.bias = n.has("bias") ? n.at("bias").state(d, 1) : zero_matrix(d, 1);
  return f;
}

ElmanLayer parse_elman(const Node& n, const LayerContext& ctx) {
  n.only({"kind", "activation", "d", "input_map", "W", "U", "bias", "initial_state", "readout",
          "readout_bias", "comment"});
  ElmanLayer l;
  Node act = n.at("activation");
  auto a = parse_activation(act.string());
  if (!a) act.fail("\"relu\" or \"sign\"");
  l.activation = *a;
  l.d = n.at("d").size_value(1, 4096);
  l.features = ctx.features;
  l.pre = parse_affine(n, l.d, l.features);
  l.initial_state = n.has("initial_state") ? n.at("initial_state").state(l.d, 1) : zero_matrix(l.d, 1);
  l.readout = n.at("readout").matrix_any_rows(l.d);
  if (auto rb = n.find("readout_bias")) l.readout_bias = rb->state(l.readout.rows(), 1);
  check_layer(l);
  return l;
}

LstmLayer parse_lstm(const Node& n, const LayerContext& ctx) {
  n.only({"kind", "d", "input_map", "gates", "initial_state", "readout", "readout_bias", "comment"});
  LstmLayer l;
  l.d = n.at("d").size_value(1, 4096);
  l.features = ctx.features;
  Node gates = n.at("gates");
  gates.only({"f", "i", "o", "g"});
  auto gate = [&](const char* name) {
    Node g = gates.at(name);
    g.only({"W", "U", "bias"});
    return parse_affine(g, l.d, l.features);
  };
  l.forget = gate("f");
  l.input = gate("i");
  l.output = gate("o");
  l.cell = gate("g");
  l.initial_hidden = zero_matrix(l.d, 1);
  l.initial_cell = zero_matrix(l.d, 1);
  if (auto init = n.find("initial_state")) {
    init->only({"h", "c"});
    if (auto h = init->find("h")) l.initial_hidden = h->state(l.d, 1);
    if (auto c = init->find("c")) l.initial_cell = c->state(l.d, 1);
  }
  l.readout = n.at("readout").matrix_any_rows(l.d);
  if (auto rb = n.find("readout_bias")) l.readout_bias = rb->state(l.readout.rows(), 1);
  check_layer(l);
  return l;
}

}  // namespace

std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t byte) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {  // count code points
      ++column;
    }
  }
  return {line, column};
}

Rational rational_from_json(const json& v, const std::string& where) {
  if (v.is_number_integer()) return Rational(decimal_integer(v.dump()));
  if (v.is_string()) {
    if (auto q = try_parse_rational(v.get<std::string>())) return *q;
    throw InputError(where, "expected a rational such as \"3/4\", \"-2\" or \"0.125\", got " + describe(v));
  }
  if (v.is_number_float()) {
    std::string hint = try_parse_rational(v.dump()) ? ", e.g. \"" + v.dump() + "\"" : " such as \"3/4\" or \"0.125\"";
    throw InputError(where, "expected an exact rational as a string, got " + describe(v) +
                                " (JSON numbers with a fraction or exponent, or beyond 64 bits, are read as "
                                "inexact floats: write the value as a string" + hint + ")");
  }
  throw InputError(where, "expected a rational such as \"3/4\", got " + describe(v));
}

namespace {

// Rejects duplicate object members while parsing (nlohmann keeps the last one silently), and
// names them by JSON pointer. Frames track the pointer: an object's current key, an array's
// next index.
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(std::string source) : source_(std::move(source)) {}
  bool operator()(int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: frames_.push_back({true, {}, 0, {}}); break;
      case json::parse_event_t::array_start: frames_.push_back({false, {}, 0, {}}); break;
      case json::parse_event_t::key: {
        Frame& f = frames_.back();
        f.key = parsed.get<std::string>();
        if (!f.seen.insert(f.key).second)
          throw InputError(source_ + ": " + pointer(), "duplicate member \"" + f.key + "\"");
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        element_done();
        break;
      case json::parse_event_t::value: element_done(); break;
    }
    return true;
  }

 private:
  struct Frame {
    bool object;
    std::string key;
    std::size_t index;
    std::set<std::string> seen;
  };
  void element_done() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }
  std::string pointer() const {
    std::string p;
    for (const Frame& f : frames_) p += "/" + (f.object ? escape_pointer(f.key) : std::to_string(f.index));
    return p;
  }
  std::string source_;
  std::vector<Frame> frames_;
};

}  // namespace

Model parse_model(std::string_view text, const std::string& source) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end(), DuplicateKeyCheck(source));
  } catch (const json::parse_error& e) {
    auto [line, col] = line_column(text, e.byte == 0 ? 0 : e.byte - 1);
    // nlohmann's own text counts bytes ("at line 1, column 28"); keep only its reason.
    std::string msg = e.what();
    if (auto p = msg.find(": syntax error"); p != std::string::npos) msg = msg.substr(p + 2);
    else if (auto q = msg.find("parse error"); q != std::string::npos) msg = msg.substr(q);
    throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(col), "malformed JSON: " + msg);
  }
  Node root(doc, source, "");
  root.only({"format", "name", "description", "alphabet", "layers", "accept", "comment"});
  if (auto f = root.find("format"); f && f->string() != "rnncc-model/1") f->fail("\"rnncc-model/1\"");

  Model model;
  if (auto n = root.find("name")) model.name = n->string();
  if (auto d = root.find("description")) model.description = d->string();

  Node alphabet = root.at("alphabet");
  std::vector<std::string> symbols;
  for (std::size_t i = 0; i < alphabet.array().size(); ++i) symbols.push_back(alphabet[i].string());
  model.alphabet = Alphabet(symbols, alphabet.where());

  Node layers = root.at("layers");
  if (layers.array().empty()) layers.fail("a non-empty array of layers");
  std::size_t features = model.alphabet.size(), rows = 0, cols = 0;
  for (std::size_t i = 0; i < layers.array().size(); ++i) {
    Node ln = layers[i];
    StackLayer sl;
    if (i == 0) {
      if (ln.has("input_map")) ln.at("input_map").error("layer 0 reads the one-hot symbols directly and takes no \"input_map\"");
    } else {
      Node im = ln.at("input_map");
      im.only({"weights", "bias"});
      InputMap map;
      map.weights = im.at("weights").matrix_any_rows(rows * cols);
      if (auto b = im.find("bias")) map.bias = b->state(map.weights.rows(), 1);
      features = map.weights.rows();
      sl.input = std::move(map);
    }
    LayerContext ctx{i, features, i == 0 ? &model.alphabet.symbols() : nullptr};
    Node kind = ln.at("kind");
    const std::string k = kind.string();
    try {
      if (k == "lrnn") sl.layer = parse_lrnn(ln, ctx);
      else if (k == "elman") sl.layer = parse_elman(ln, ctx);
      else if (k == "lstm") sl.layer = parse_lstm(ln, ctx);
      else kind.fail("a layer kind: \"lrnn\", \"elman\" or \"lstm\"");
    } catch (const ParamError& e) {  // nonlinear layers' shape checks
      throw InputError(ln.where() + "/" + e.field(), e.what());
    }
    rows = output_rows(sl.layer);
    cols = output_cols(sl.layer);
    model.layers.push_back(std::move(sl));
  }

  if (auto acc = root.find("accept")) {
    acc->only({"mode", "output"});
    if (auto mode = acc->find("mode")) {
      std::string m = mode->string();
      if (m == "positive") model.accept.mode = Acceptance::Mode::positive;
      else if (m == "zero") model.accept.mode = Acceptance::Mode::zero;
      else mode->fail("\"positive\" or \"zero\"");
    }
    if (auto out = acc->find("output")) {
      if (out->array().size() != 2) out->fail("[row, column] of the last layer's output");
      model.accept.row = (*out)[0].size_value(0, rows - 1);
      model.accept.col = (*out)[1].size_value(0, cols - 1);
    }
  }
  return model;
}

Model load_model(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "is a directory, not a model file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the model file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_model(buffer.str(), path);
}

}  // namespace rnncc
