#include "rnn/model_json.hpp"

#include <cstdint>
#include <optional>
#include <utility>

#include "algebra/error.hpp"
#include "rnn/families.hpp"
#include "rnn/file_kind.hpp"

namespace rnncc {

using nlohmann::json;

namespace {

Matrix<Rational> zero_matrix(std::size_t r, std::size_t c) {
  return Matrix<Rational>(r, c, Rational(0));
}

// What a layer needs to know about its position in the stack.
struct LayerContext {
  std::size_t index;
  std::size_t features;                          // k
  const std::vector<std::string>* symbol_names;  // layer 0 only
};

// Per-feature parameter objects: "symbols" (layer 0, keyed by symbol) or "features" (array).
std::vector<JsonCursor> feature_nodes(const JsonCursor& layer, const LayerContext& ctx) {
  std::vector<JsonCursor> out;
  if (ctx.symbol_names) {
    if (layer.has("features"))
      layer.at("features").error("layer 0 reads symbols: use \"symbols\", not \"features\"");
    JsonCursor symbols = layer.at("symbols");
    for (auto it = symbols.object().begin(); it != symbols.object().end(); ++it)
      if (std::find(ctx.symbol_names->begin(), ctx.symbol_names->end(), it.key()) ==
          ctx.symbol_names->end())
        symbols.child(it.key(), it.value())
            .error("'" + it.key() + "' is not a symbol of the alphabet");
    for (const std::string& s : *ctx.symbol_names) {
      if (!symbols.has(s)) symbols.error("expected parameters for symbol '" + s + "'");
      out.push_back(symbols.at(s));
    }
  } else {
    if (layer.has("symbols"))
      layer.at("symbols").error(
          "layers above the first read features: use \"features\" (an array), not \"symbols\"");
    JsonCursor features = layer.at("features");
    if (features.array().size() != ctx.features)
      features.fail("an array of " + std::to_string(ctx.features) +
                    " parameter objects (one per row of input_map/weights)");
    for (std::size_t i = 0; i < ctx.features; ++i) out.push_back(features[i]);
  }
  return out;
}

Matrix<Rational> optional_b(const JsonCursor& n, std::size_t d, std::size_t m) {
  if (auto b = n.find("B")) return b->state(d, m);
  return zero_matrix(d, m);
}

LrnnLayer parse_lrnn(const JsonCursor& n, const LayerContext& ctx) {
  JsonCursor family_node = n.at("family");
  auto family = parse_family(family_node.string());
  if (!family)
    family_node.fail(
        "a family: general, diagonal, s4, mamba2, gla, pd, dplr, deltanet, gated_deltanet, kda or "
        "rwkv7");
  const bool delta =
      *family == Family::deltanet || *family == Family::gated_deltanet || *family == Family::kda;
  n.only({"kind", "family", "d", "m", "input_map", "initial_state", "readout", "readout_bias",
          "symbols", "features", "beta_range", "P_kind", "decay", "comment"});
  if (n.has("beta_range") && !delta)
    n.at("beta_range")
        .error("\"beta_range\" applies to deltanet, gated_deltanet and kda layers only");
  if (n.has("P_kind") && *family != Family::pd)
    n.at("P_kind").error("\"P_kind\" applies to pd layers only");
  if (n.has("decay") && *family != Family::s4)
    n.at("decay").error(
        "a layer-level \"decay\" applies to s4 layers only (others give it per symbol)");

  LayerFrame frame;
  frame.d = n.at("d").size_value(1, model_dimension_limit);
  frame.m = n.has("m") ? n.at("m").size_value(1, model_dimension_limit) : 1;
  frame.features = ctx.features;
  // A layer is stored densely whatever its family: per feature A (d×d) and B (d×m), plus S_0.
  // A diagonal family gives d numbers per feature, so the file's size does not bound this:
  // check it before anything is built (docs/formats.md, "Limits").
  {
    const std::size_t d = frame.d, m = frame.m, k = ctx.features;  // each ≤ 4096: no overflow
    const std::size_t entries = k * (d * d + d * m) + d * m;
    if (entries > model_layer_entry_limit)
      n.at("d").error("a layer of d = " + std::to_string(d) + ", m = " + std::to_string(m) +
                      " over " + std::to_string(k) + " features stores " + std::to_string(entries) +
                      " matrix entries; at most " + std::to_string(model_layer_entry_limit));
  }
  frame.initial_state = n.has("initial_state") ? n.at("initial_state").state(frame.d, frame.m)
                                               : zero_matrix(frame.d, frame.m);
  frame.readout = n.at("readout").matrix_any_rows(frame.d);
  const std::size_t r = frame.readout.rows();
  if (auto rb = n.find("readout_bias")) frame.readout_bias = rb->state(r, frame.m);

  std::vector<JsonCursor> fs = feature_nodes(n, ctx);
  const std::size_t d = frame.d, m = frame.m;
  // Per-feature readouts: all or none.
  std::size_t with_c = 0;
  for (const JsonCursor& f : fs) with_c += f.has("C");
  if (with_c != 0 && with_c != fs.size())
    for (const JsonCursor& f : fs)
      if (!f.has("C"))
        f.error(
            "expected a member \"C\": per-symbol readouts are given for all symbols or for none");
  if (with_c)
    for (const JsonCursor& f : fs) frame.readout_feature.push_back(f.at("C").matrix(r, d));

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
      for (const JsonCursor& f : fs) {
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
      for (const JsonCursor& f : fs) {
        if (*family == Family::s4) {
          f.only({"B", "C", "comment"});
          steps.push_back({shared, optional_b(f, d, m)});
        } else {
          f.only({"decay", "B", "C", "comment"});
          Vector decay = *family == Family::mamba2 ? Vector{f.at("decay").rational()}
                                                   : f.at("decay").vector(d);
          steps.push_back({decay, optional_b(f, d, m)});
        }
      }
      return wrap([&] { return make_diagonal(*family, frame, steps); });
    }
    case Family::pd: {
      bool require_perm = false;
      if (auto k = n.find("P_kind")) {
        std::string kind = k->string();
        if (kind != "permutation" && kind != "column_one_hot")
          k->fail("\"permutation\" or \"column_one_hot\"");
        require_perm = kind == "permutation";
      }
      std::vector<PdStep> steps;
      for (const JsonCursor& f : fs) {
        f.only({"P", "D", "B", "C", "comment"});
        JsonCursor p = f.at("P");
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
              p.error("expected a column-one-hot 0/1 matrix: column " + std::to_string(j) +
                      " has " + std::to_string(ones) + " nonzero entries");
          }
        } else {  // the image list: P e_j = e_{P[j]}
          if (a.size() != d)
            p.fail("a " + std::to_string(d) + "×" + std::to_string(d) +
                   " column-one-hot matrix or a list of " + std::to_string(d) + " row indices");
          for (std::size_t j = 0; j < d; ++j) image[j] = p[j].size_value(0, d - 1);
        }
        Vector diag = f.has("D") ? f.at("D").vector(d) : Vector(d, Rational(1));
        steps.push_back({image, diag, optional_b(f, d, m)});
      }
      return wrap([&] { return make_pd(frame, steps, require_perm); });
    }
    case Family::dplr: {
      std::vector<DplrStep> steps;
      for (const JsonCursor& f : fs) {
        f.only({"D", "a", "b", "B", "C", "comment"});
        steps.push_back(
            {f.at("D").vector(d), f.at("a").vector(d), f.at("b").vector(d), optional_b(f, d, m)});
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
      for (const JsonCursor& f : fs) {
        DeltaStep s;
        if (*family == Family::deltanet) {
          f.only({"beta", "k", "v", "C", "comment"});
        } else {
          f.only({"alpha", "beta", "k", "v", "C", "comment"});
          s.alpha = *family == Family::gated_deltanet ? Vector{f.at("alpha").rational()}
                                                      : f.at("alpha").vector(d);
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
      for (const JsonCursor& f : fs) {
        f.only({"w", "a", "b", "B", "C", "comment"});
        steps.push_back(
            {f.at("w").vector(d), f.at("a").vector(d), f.at("b").vector(d), optional_b(f, d, m)});
      }
      return wrap([&] { return make_rwkv7(frame, steps); });
    }
  }
  throw std::logic_error("unhandled family");
}

AffineMap parse_affine(const JsonCursor& n, std::size_t d, std::size_t k) {
  AffineMap f;
  f.W = n.at("W").matrix(d, d);
  f.U = n.at("U").matrix(d, k);
  f.bias = n.has("bias") ? n.at("bias").state(d, 1) : zero_matrix(d, 1);
  return f;
}

ElmanLayer parse_elman(const JsonCursor& n, const LayerContext& ctx) {
  n.only({"kind", "activation", "d", "input_map", "W", "U", "bias", "initial_state", "readout",
          "readout_bias", "comment"});
  ElmanLayer l;
  JsonCursor act = n.at("activation");
  auto a = parse_activation(act.string());
  if (!a) act.fail("\"relu\" or \"sign\"");
  l.activation = *a;
  l.d = n.at("d").size_value(1, 4096);
  l.features = ctx.features;
  l.pre = parse_affine(n, l.d, l.features);
  l.initial_state =
      n.has("initial_state") ? n.at("initial_state").state(l.d, 1) : zero_matrix(l.d, 1);
  l.readout = n.at("readout").matrix_any_rows(l.d);
  if (auto rb = n.find("readout_bias")) l.readout_bias = rb->state(l.readout.rows(), 1);
  check_layer(l);
  return l;
}

LstmLayer parse_lstm(const JsonCursor& n, const LayerContext& ctx) {
  n.only(
      {"kind", "d", "input_map", "gates", "initial_state", "readout", "readout_bias", "comment"});
  LstmLayer l;
  l.d = n.at("d").size_value(1, 4096);
  l.features = ctx.features;
  JsonCursor gates = n.at("gates");
  gates.only({"f", "i", "o", "g"});
  auto gate = [&](const char* name) {
    JsonCursor g = gates.at(name);
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

// Query / key / value maps: {"weights": out×k, "bias": out (default 0)}.
LinearMap parse_linear(const JsonCursor& n, std::size_t k, std::optional<std::size_t> rows) {
  n.only({"weights", "bias"});
  LinearMap f;
  f.weights = rows ? n.at("weights").matrix(*rows, k) : n.at("weights").matrix_any_rows(k);
  f.bias =
      n.has("bias") ? n.at("bias").state(f.weights.rows(), 1) : zero_matrix(f.weights.rows(), 1);
  return f;
}

AttentionLayer parse_attention(const JsonCursor& n, const LayerContext& ctx) {
  n.only({"kind", "attention", "tie", "input_map", "query", "key", "value", "position_bias",
          "window", "residual", "comment"});
  AttentionLayer l;
  JsonCursor kind = n.at("attention");
  auto parsed = parse_attention_kind(kind.string());
  if (!parsed) kind.fail("an attention kind: \"unique_hard\", \"averaging_hard\" or \"softmax\"");
  l.kind = *parsed;
  if (auto tie = n.find("tie")) {
    if (l.kind != AttentionKind::unique_hard)
      tie->error("\"tie\" applies to unique_hard attention only (the others use every maximizer)");
    auto rule = parse_tie_rule(tie->string());
    if (!rule) tie->fail("\"leftmost\" or \"rightmost\"");
    l.tie = *rule;
  }
  l.features = ctx.features;
  l.query = parse_linear(n.at("query"), l.features, std::nullopt);
  l.key = parse_linear(n.at("key"), l.features, l.query.weights.rows());
  l.value = parse_linear(n.at("value"), l.features, std::nullopt);
  if (auto pb = n.find("position_bias")) l.position_bias = pb->rational();
  if (auto w = n.find("window")) l.window = w->size_value(1, std::size_t{1} << 32);
  if (auto r = n.find("residual")) {
    if (!r->value().is_boolean()) r->fail("true or false");
    l.residual = r->value().get<bool>();
  }
  check_layer(l);
  return l;
}

}  // namespace

// The model of a parsed model file.
static Model model_from_json(const json& doc, const std::string& source) {
  JsonCursor root(doc, source, "");
  // "generation" (the rule of rnncc run --generate) is read by parse_generative_model; the model
  // itself does not depend on it.
  root.only(
      {"format", "name", "description", "alphabet", "layers", "accept", "comment", "generation"});
  if (auto f = root.find("format"); f && f->string() != "rnncc-model/1")
    f->fail("\"rnncc-model/1\"");

  Model model;
  if (auto n = root.find("name")) model.name = n->string();
  if (auto d = root.find("description")) model.description = d->string();

  JsonCursor alphabet = root.at("alphabet");
  std::vector<std::string> symbols;
  for (std::size_t i = 0; i < alphabet.array().size(); ++i) symbols.push_back(alphabet[i].string());
  model.alphabet = Alphabet(symbols, alphabet.where());

  JsonCursor layers = root.at("layers");
  if (layers.array().empty()) layers.fail("a non-empty array of layers");
  std::size_t features = model.alphabet.size(), rows = 0, cols = 0;
  for (std::size_t i = 0; i < layers.array().size(); ++i) {
    JsonCursor ln = layers[i];
    StackLayer sl;
    if (i == 0) {
      if (ln.has("input_map"))
        ln.at("input_map")
            .error("layer 0 reads the one-hot symbols directly and takes no \"input_map\"");
    } else {
      JsonCursor im = ln.at("input_map");
      im.only({"weights", "bias"});
      InputMap map;
      map.weights = im.at("weights").matrix_any_rows(rows * cols);
      if (auto b = im.find("bias")) map.bias = b->state(map.weights.rows(), 1);
      features = map.weights.rows();
      sl.input = std::move(map);
    }
    LayerContext ctx{i, features, i == 0 ? &model.alphabet.symbols() : nullptr};
    JsonCursor kind = ln.at("kind");
    const std::string k = kind.string();
    try {
      if (k == "lrnn")
        sl.layer = parse_lrnn(ln, ctx);
      else if (k == "elman")
        sl.layer = parse_elman(ln, ctx);
      else if (k == "lstm")
        sl.layer = parse_lstm(ln, ctx);
      else if (k == "attention")
        sl.layer = parse_attention(ln, ctx);
      else
        kind.fail("a layer kind: \"lrnn\", \"elman\", \"lstm\" or \"attention\"");
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
      if (m == "positive")
        model.accept.mode = Acceptance::Mode::positive;
      else if (m == "zero")
        model.accept.mode = Acceptance::Mode::zero;
      else
        mode->fail("\"positive\" or \"zero\"");
    }
    if (auto out = acc->find("output")) {
      if (out->array().size() != 2) out->fail("[row, column] of the last layer's output");
      model.accept.row = (*out)[0].size_value(0, rows - 1);
      model.accept.col = (*out)[1].size_value(0, cols - 1);
    }
  }
  return model;
}

Model parse_model(std::string_view text, const std::string& source) {
  return parse_as_kind(text, source, {FileKind::model}, [&] {
    return model_from_json(parse_json(text, source), source);  // malformed: source:line:column
  });
}

void check_layer_size(std::size_t d, std::size_t m, std::size_t features,
                      const std::string& where) {
  for (const auto& [name, value] : {std::pair{"d", d}, std::pair{"m", m}})
    if (value < 1 || value > model_dimension_limit)
      throw InputError(where, std::string(name) + " = " + std::to_string(value) + ": expected 1.." +
                                  std::to_string(model_dimension_limit));
  // d, m ≤ 4096: d² + d·m < 2^25, so only the product with `features` can overflow.
  const std::size_t per_feature = d * d + d * m;
  const bool over = features > (model_layer_entry_limit - d * m) / per_feature;
  if (over)
    throw InputError(where, "a layer of d = " + std::to_string(d) + ", m = " + std::to_string(m) +
                                " over " + std::to_string(features) + " features stores " +
                                (features > SIZE_MAX / per_feature - 1
                                     ? std::string("more than 2^64")
                                     : std::to_string(features * per_feature + d * m)) +
                                " matrix entries; at most " +
                                std::to_string(model_layer_entry_limit));
}

Model load_model(const std::string& path) {
  return parse_model(read_text_file(path, "model file"), path);
}

// The "generation" member of a parsed model file, if any; `model` is the file's model.
static std::optional<GenerationRule> generation_from_json(const json& doc, const Model& model,
                                                          const std::string& source) {
  if (!doc.is_object() || !doc.contains("generation")) return std::nullopt;
  JsonCursor g(doc.at("generation"), source, "/generation");
  g.object();
  g.only({"rule", "stop"});
  if (auto r = g.find("rule"); r && r->string() != "argmax")
    r->fail("\"argmax\" (the only generation rule)");
  GenerationRule rule;
  if (auto stop = g.find("stop")) {
    const auto& arr = stop->value();
    if (!arr.is_array()) stop->fail("an array of alphabet symbols");
    for (std::size_t i = 0; i < arr.size(); ++i) {
      JsonCursor s = (*stop)[i];
      auto id = model.alphabet.find(s.string());
      if (!id) s.error("'" + s.string() + "' is not a symbol of the alphabet");
      rule.stop.push_back(*id);
    }
  }
  return rule;
}

GenerativeModel parse_generative_model(std::string_view text, const std::string& source) {
  return parse_as_kind(text, source, {FileKind::model}, [&] {
    const json doc = parse_json(text, source);  // malformed: source:line:column
    GenerativeModel out{model_from_json(doc, source), std::nullopt};
    out.rule = generation_from_json(doc, out.model, source);
    return out;
  });
}

GenerativeModel load_generative_model(const std::string& path) {
  return parse_generative_model(read_text_file(path, "model file"), path);
}

}  // namespace rnncc

namespace rnncc {

namespace {

using ojson = nlohmann::ordered_json;

ojson rational_json(const Rational& q) {
  return to_string(q);
}

ojson vector_json(const std::vector<Rational>& v) {
  ojson a = ojson::array();
  for (const Rational& q : v) a.push_back(rational_json(q));
  return a;
}

ojson matrix_json(const Matrix<Rational>& m) {
  ojson a = ojson::array();
  for (std::size_t i = 0; i < m.rows(); ++i) {
    ojson row = ojson::array();
    for (std::size_t j = 0; j < m.cols(); ++j) row.push_back(rational_json(m(i, j)));
    a.push_back(std::move(row));
  }
  return a;
}

ojson column_json(const Matrix<Rational>& m) {  // d×1 as a vector, else a matrix
  if (m.cols() != 1) return matrix_json(m);
  ojson a = ojson::array();
  for (std::size_t i = 0; i < m.rows(); ++i) a.push_back(rational_json(m(i, 0)));
  return a;
}

ojson lrnn_json(const LrnnLayer& l, const std::vector<std::string>* names) {
  ojson j;
  j["kind"] = "lrnn";
  j["family"] = to_string(l.family);
  j["d"] = l.d;
  j["m"] = l.m;
  if (l.family == Family::deltanet || l.family == Family::gated_deltanet || l.family == Family::kda)
    j["beta_range"] = to_string(l.beta_range);
  if (l.family == Family::pd) {
    bool all_perm = true;
    for (const auto& r : l.record) all_perm = all_perm && std::get<PdParams>(r).permutation;
    j["P_kind"] = all_perm ? "permutation" : "column_one_hot";
  }
  if (l.family == Family::s4)
    j["decay"] = vector_json(std::get<DiagonalParams>(l.record.at(0)).decay);
  j["initial_state"] = column_json(l.initial_state);
  ojson per = names ? ojson::object() : ojson::array();
  for (std::size_t k = 0; k < l.features; ++k) {
    ojson f = ojson::object();
    const FeatureParams& rec = l.record[k];
    const bool has_b = l.family != Family::deltanet && l.family != Family::gated_deltanet &&
                       l.family != Family::kda;
    if (std::holds_alternative<NoParams>(rec)) {
      f["A"] = matrix_json(l.A[k]);
    } else if (const auto* diag = std::get_if<DiagonalParams>(&rec)) {
      if (l.family == Family::mamba2)
        f["decay"] = rational_json(diag->decay.at(0));
      else if (l.family != Family::s4)
        f["decay"] = vector_json(diag->decay);
    } else if (const auto* pd = std::get_if<PdParams>(&rec)) {
      f["P"] = pd->image;
      f["D"] = vector_json(pd->diag);
    } else if (const auto* dplr = std::get_if<DplrParams>(&rec)) {
      f["D"] = vector_json(dplr->D);
      f["a"] = vector_json(dplr->a);
      f["b"] = vector_json(dplr->b);
    } else if (const auto* delta = std::get_if<DeltaParams>(&rec)) {
      if (l.family == Family::gated_deltanet) f["alpha"] = rational_json(delta->alpha.at(0));
      if (l.family == Family::kda) f["alpha"] = vector_json(delta->alpha);
      f["beta"] = rational_json(delta->beta);
      f["k"] = vector_json(delta->k);
      f["v"] = vector_json(delta->v);
    } else if (const auto* rwkv = std::get_if<Rwkv7Params>(&rec)) {
      f["w"] = vector_json(rwkv->w);
      f["a"] = vector_json(rwkv->a);
      f["b"] = vector_json(rwkv->b);
    }
    if (has_b) f["B"] = column_json(l.B[k]);
    if (!l.readout_feature.empty()) f["C"] = matrix_json(l.readout_feature[k]);
    if (names)
      per[(*names)[k]] = std::move(f);
    else
      per.push_back(std::move(f));
  }
  j[names ? "symbols" : "features"] = std::move(per);
  j["readout"] = matrix_json(l.readout);
  if (!l.readout_bias.empty()) j["readout_bias"] = column_json(l.readout_bias);
  return j;
}

ojson affine_json(const AffineMap& f) {
  return {{"W", matrix_json(f.W)}, {"U", matrix_json(f.U)}, {"bias", column_json(f.bias)}};
}

ojson attention_json(const AttentionLayer& a) {
  auto linear = [](const LinearMap& f) {
    return ojson{{"weights", matrix_json(f.weights)}, {"bias", column_json(f.bias)}};
  };
  ojson j{{"kind", "attention"}, {"attention", to_string(a.kind)}};
  if (a.kind == AttentionKind::unique_hard) j["tie"] = to_string(a.tie);
  j["query"] = linear(a.query);
  j["key"] = linear(a.key);
  j["value"] = linear(a.value);
  if (a.position_bias != 0) j["position_bias"] = rational_json(a.position_bias);
  if (a.window) j["window"] = *a.window;
  if (a.residual) j["residual"] = true;
  return j;
}

}  // namespace

nlohmann::ordered_json model_to_json(const Model& model) {
  ojson j;
  j["format"] = "rnncc-model/1";
  if (!model.name.empty()) j["name"] = model.name;
  if (!model.description.empty()) j["description"] = model.description;
  j["alphabet"] = model.alphabet.symbols();
  j["layers"] = ojson::array();
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const StackLayer& sl = model.layers[i];
    ojson lj;
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
      lj = lrnn_json(*l, i == 0 ? &model.alphabet.symbols() : nullptr);
    } else if (const auto* e = std::get_if<ElmanLayer>(&sl.layer)) {
      lj = {{"kind", "elman"},
            {"activation", to_string(e->activation)},
            {"d", e->d},
            {"W", matrix_json(e->pre.W)},
            {"U", matrix_json(e->pre.U)},
            {"bias", column_json(e->pre.bias)},
            {"initial_state", column_json(e->initial_state)},
            {"readout", matrix_json(e->readout)}};
      if (!e->readout_bias.empty()) lj["readout_bias"] = column_json(e->readout_bias);
    } else if (const auto* s = std::get_if<LstmLayer>(&sl.layer)) {
      lj = {{"kind", "lstm"},
            {"d", s->d},
            {"gates",
             {{"f", affine_json(s->forget)},
              {"i", affine_json(s->input)},
              {"o", affine_json(s->output)},
              {"g", affine_json(s->cell)}}},
            {"initial_state",
             {{"h", column_json(s->initial_hidden)}, {"c", column_json(s->initial_cell)}}},
            {"readout", matrix_json(s->readout)}};
      if (!s->readout_bias.empty()) lj["readout_bias"] = column_json(s->readout_bias);
    } else if (const auto* a = std::get_if<AttentionLayer>(&sl.layer)) {
      lj = attention_json(*a);
    }
    if (sl.input) {
      ojson im{{"weights", matrix_json(sl.input->weights)}};
      if (!sl.input->bias.empty()) im["bias"] = column_json(sl.input->bias);
      lj["input_map"] = std::move(im);
    }
    j["layers"].push_back(std::move(lj));
  }
  j["accept"] = {{"mode", model.accept.mode == Acceptance::Mode::positive ? "positive" : "zero"},
                 {"output", {model.accept.row, model.accept.col}}};
  return j;
}

nlohmann::ordered_json generative_model_to_json(const Model& model, const GenerationRule& rule) {
  ojson j = model_to_json(model);
  ojson stop = ojson::array();
  for (std::size_t id : rule.stop) stop.push_back(model.alphabet.symbol(id));
  j["generation"] = {{"rule", "argmax"}, {"stop", stop}};
  return j;
}

}  // namespace rnncc
