#include "rnn/model_json.hpp"

#include "algebra/error.hpp"
#include "rnn/families.hpp"

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
  frame.d = n.at("d").size_value(1, 4096);
  frame.m = n.has("m") ? n.at("m").size_value(1, 4096) : 1;
  frame.features = ctx.features;
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

}  // namespace

Model parse_model(std::string_view text, const std::string& source) {
  json doc = parse_json(text, source);
  JsonCursor root(doc, source, "");
  root.only({"format", "name", "description", "alphabet", "layers", "accept", "comment"});
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
      else
        kind.fail("a layer kind: \"lrnn\", \"elman\" or \"lstm\"");
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

Model load_model(const std::string& path) {
  return parse_model(read_text_file(path, "model file"), path);
}

}  // namespace rnncc
