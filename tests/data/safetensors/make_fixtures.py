#!/usr/bin/env python3
"""Write the safetensors fixtures of this folder (seeded; rerun to regenerate, same bytes):

    /usr/bin/python3 tests/data/safetensors/make_fixtures.py

For each family (deltanet, gated_deltanet, mamba2, rwkv7), small random one-layer models over a
vocabulary of V = 3 tokens, D = 8, under the tensor names of flash-linear-attention / mamba_ssm
(examples/trained/reference.py lists them). Each NAME.safetensors has NAME.expected.json:

    {"family", "vocab": 3, "folds": "exact" | "acceptance" | "no",
     "refuse": null | {"tensor": name, "reason": why},       # when folds == "no"
     "note", "strings": [[token ids]], "logits": [[y_t]], "accept": [[y_t > 0]]}

logits are reference.py's float64 forward on the stored values (after rounding to the file's
dtype). "acceptance": a positive rescaling of the output (an RMSNorm with one head and a head
without bias) keeps the sign of y_t, so acceptance folds exactly though the values differ.
malformed.json lists the broken files and what the reader must say about each.
"""

import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "examples", "trained"))
import reference  # noqa: E402
from safetensors_io import read_safetensors, safetensors_bytes  # noqa: E402

V, D = 3, 8
STRINGS = [[0], [1, 2], [2, 0, 1, 1], [0, 0, 0, 0, 0], [2, 1, 0, 2, 1, 0, 2]]
FLA, MAMBA = reference.FLA, reference.MAMBA


def head(rng, rows, bias):
    t = {"lm_head.weight": rng.normal(0, 0.5, (rows, D))}
    if bias:
        t["lm_head.bias"] = rng.normal(0, 0.5, rows)
    return t


def delta_layer(rng, gated, H, dk, dv, conv=0, gate=False, onorm=False, rows=1, bias=False):
    n = lambda *s: rng.normal(0, 0.5, s)
    t = {"model.embeddings.weight": n(V, D), FLA + "q_proj.weight": n(H * dk, D),
         FLA + "k_proj.weight": n(H * dk, D), FLA + "v_proj.weight": n(H * dv, D),
         FLA + "b_proj.weight": n(H, D), FLA + "o_proj.weight": n(D, H * dv)}
    if gated:
        t.update({FLA + "a_proj.weight": n(H, D), FLA + "A_log": n(H), FLA + "dt_bias": n(H)})
    if conv:
        for c, size in (("q", H * dk), ("k", H * dk), ("v", H * dv)):
            t[FLA + c + "_conv1d.weight"] = n(size, 1, conv)
    if gate:
        t[FLA + "g_proj.weight"] = n(H * dv, D)
    if onorm:
        t[FLA + "o_norm.weight"] = 1.0 + n(dv)
    t.update(head(rng, rows, bias))
    return t


def mamba2_layer(rng, H, P, N, G=1, K=1, norm=False, rows=1, bias=False, d_hdim=False):
    n = lambda *s: rng.normal(0, 0.5, s)
    d_inner = H * P
    t = {"backbone.embedding.weight": n(V, D),
         MAMBA + "in_proj.weight": n(2 * d_inner + 2 * G * N + H, D),
         MAMBA + "conv1d.weight": n(d_inner + 2 * G * N, 1, K),
         MAMBA + "conv1d.bias": n(d_inner + 2 * G * N),
         MAMBA + "dt_bias": n(H), MAMBA + "A_log": n(H), MAMBA + "D": n(d_inner if d_hdim else H),
         MAMBA + "out_proj.weight": n(D, d_inner)}
    if norm:
        t[MAMBA + "norm.weight"] = 1.0 + n(d_inner)
    t.update(head(rng, rows, bias))
    return t


def rwkv7_layer(rng, H, low=2, shift=(), gnorm=False, rows=1, bias=False, shift_shape=(D,)):
    n = lambda *s: rng.normal(0, 0.5, s)
    dk = D // H  # fla: key_dim = value_dim = hidden_size
    t = {"model.embeddings.weight": n(V, D)}
    for p in ("r_proj", "k_proj", "v_proj", "o_proj"):
        t[FLA + p + ".weight"] = n(D, D)
    for lora, has_bias in (("w_lora", True), ("a_lora", True), ("g_lora", False)):
        t[FLA + lora + ".lora.0.weight"] = n(low, D)
        t[FLA + lora + ".lora.2.weight"] = n(D, low)
        if has_bias:
            t[FLA + lora + ".lora.2.bias"] = n(D)
    t.update({FLA + "k_k": 1.0 + n(D), FLA + "k_a": 1.0 + n(D), FLA + "r_k": n(H, dk)})
    for c in "rwkvag":
        t[FLA + "x_" + c] = (n(D) if c in shift else np.zeros(D)).reshape(shift_shape)
    if gnorm:
        t[FLA + "g_norm.weight"] = 1.0 + n(D)
        t[FLA + "g_norm.bias"] = n(D)
    t.update(head(rng, rows, bias))
    return t


def compact_json(obj):
    """One top-level key a line, values on one line (floats as Python's shortest round trip)."""
    lines = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in obj.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def cases(rng):
    """(name, family, tensors, dtype, metadata, folds, refuse, note) for every fixture."""
    yield ("deltanet_h1", "deltanet", delta_layer(rng, False, 1, 4, 4), "F32", {}, "exact", None,
           "one head, dk = dv = 4, no short convolution, one-row head without bias")
    yield ("deltanet_h2_neg", "deltanet", delta_layer(rng, False, 2, 2, 2, rows=2, bias=True), "F64",
           {"allow_neg_eigval": "true"}, "exact", None,
           "two heads (dk = dv = 2), allow_neg_eigval (β ∈ (0, 2)), two-row head with bias, F64")
    yield ("deltanet_conv1", "deltanet", delta_layer(rng, False, 1, 4, 4, conv=1), "BF16", {}, "exact", None,
           "width-1 short convolutions on q, k, v (a per-channel scale: folds), BF16")
    yield ("deltanet_conv4", "deltanet", delta_layer(rng, False, 1, 4, 4, conv=4), "F32", {}, "no",
           {"tensor": FLA + "q_conv1d.weight",
            "reason": "a short convolution of width 4 makes the step depend on a window of 4 tokens"},
           "width-4 short convolutions: refused")
    yield ("deltanet_onorm", "deltanet", delta_layer(rng, False, 1, 4, 4, onorm=True), "F32", {}, "acceptance",
           None, "o_norm (RMSNorm of the output) with one head and a head without bias: a positive rescaling "
           "of o_t, so the sign of y_t (acceptance) folds exactly, the values do not")
    yield ("deltanet_onorm_bias", "deltanet", delta_layer(rng, False, 1, 4, 4, onorm=True, rows=2, bias=True),
           "F32", {}, "no",
           {"tensor": FLA + "o_norm.weight",
            "reason": "an RMSNorm of the output divides by a state-dependent quantity, and the head has a bias"},
           "o_norm with a head bias: refused")
    yield ("gated_deltanet_h1", "gated_deltanet", delta_layer(rng, True, 1, 4, 4), "F32", {}, "exact", None,
           "one head, dk = dv = 4, no short convolution, no gate, one-row head without bias")
    yield ("gated_deltanet_h2_gate_neg", "gated_deltanet",
           delta_layer(rng, True, 2, 2, 2, gate=True, rows=2, bias=True), "F16",
           {"allow_neg_eigval": "true"}, "exact", None,
           "two heads (dk = dv = 2), output gate silu(g_proj x) (per token: folds), allow_neg_eigval, "
           "two-row head with bias, F16")
    yield ("gated_deltanet_conv1", "gated_deltanet", delta_layer(rng, True, 1, 4, 4, conv=1), "F32", {},
           "exact", None, "width-1 short convolutions on q, k, v (folds)")
    yield ("gated_deltanet_conv4", "gated_deltanet", delta_layer(rng, True, 1, 4, 4, conv=4), "F32", {}, "no",
           {"tensor": FLA + "q_conv1d.weight",
            "reason": "a short convolution of width 4 makes the step depend on a window of 4 tokens"},
           "width-4 short convolutions: refused")
    yield ("mamba2_h1", "mamba2", mamba2_layer(rng, 1, 4, 2), "F32", {"ngroups": "1"}, "exact", None,
           "one head (headdim 4, d_state 2, one group), width-1 conv1d with bias, no norm.weight "
           "(y ⊙ silu(z) only), one-row head without bias")
    yield ("mamba2_h2", "mamba2", mamba2_layer(rng, 2, 2, 2, rows=2, bias=True), "F64", {"ngroups": "1"},
           "exact", None, "two heads (headdim 2), d_state 2, one group, width-1 conv1d, two-row head with bias, F64")
    yield ("mamba2_norm", "mamba2", mamba2_layer(rng, 1, 4, 2, norm=True), "F32", {"ngroups": "1"},
           "acceptance", None, "gated RMSNorm (norm.weight) with one group and a head without bias: "
           "acceptance folds exactly, the values do not")
    yield ("mamba2_norm_bias", "mamba2", mamba2_layer(rng, 1, 4, 2, norm=True, rows=2, bias=True), "F32",
           {"ngroups": "1"}, "no",
           {"tensor": MAMBA + "norm.weight",
            "reason": "the gated RMSNorm divides by a state-dependent quantity, and the head has a bias"},
           "gated RMSNorm with a head bias: refused")
    yield ("mamba2_conv4", "mamba2", mamba2_layer(rng, 1, 4, 2, K=4), "F32", {"ngroups": "1"}, "no",
           {"tensor": MAMBA + "conv1d.weight",
            "reason": "a convolution of width 4 makes the step depend on a window of 4 tokens"},
           "width-4 conv1d: refused")
    yield ("rwkv7_h1", "rwkv7", rwkv7_layer(rng, 1), "F32", {}, "exact", None,
           "one head (head_dim 8), token-shift mixes x_r … x_g all zero, no g_norm, low-rank 2, "
           "one-row head without bias")
    yield ("rwkv7_h2", "rwkv7", rwkv7_layer(rng, 2, rows=2, bias=True), "F32", {}, "exact", None,
           "two heads (head_dim 4), no token shift, no g_norm, two-row head with bias")
    yield ("rwkv7_shift", "rwkv7", rwkv7_layer(rng, 1, shift="k"), "F32", {}, "no",
           {"tensor": FLA + "x_k",
            "reason": "a nonzero token-shift mix makes the step depend on the previous token"},
           "x_k nonzero (token shift): refused")
    yield ("rwkv7_gnorm_bias", "rwkv7", rwkv7_layer(rng, 1, gnorm=True, rows=2, bias=True), "F32", {}, "no",
           {"tensor": FLA + "g_norm.weight",
            "reason": "the GroupNorm of the output divides by a state-dependent quantity (and subtracts its mean)"},
           "g_norm (GroupNorm) with a head bias: refused")
    yield ("deltanet_v_identity", "deltanet", delta_layer(rng, False, 1, 4, 4), "F32",
           {"v_activation": "identity"}, "exact", None,
           "metadata v_activation = identity: v = v_proj x (fla's default, silu(v_proj x), in every other "
           "deltanet / gated_deltanet fixture)")
    yield ("rwkv7_fla_shapes", "rwkv7", rwkv7_layer(rng, 1, shift_shape=(1, 1, D)), "F32", {}, "exact", None,
           "token-shift mixes x_r … x_g stored as fla does, [1, 1, D] (all zero)")
    yield ("mamba2_d_hdim", "mamba2", mamba2_layer(rng, 2, 2, 2, d_hdim=True), "F32", {"ngroups": "1"},
           "exact", None, "two heads (headdim 2), D per channel [d_inner] (mamba_ssm's D_has_hdim)")


def last_in_file(data):
    """The name of the tensor whose bytes come last in the file."""
    n = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + n])
    header.pop("__metadata__", None)
    return max(header, key=lambda k: header[k]["data_offsets"][1])


def main():
    rng = np.random.default_rng(20261202)
    written = {}
    for name, family, tensors, dtype, metadata, folds, refuse, note in cases(rng):
        meta = {"family": family, **metadata}
        data = safetensors_bytes(tensors, dtype=dtype, metadata=meta)
        path = os.path.join(HERE, name + ".safetensors")
        with open(path, "wb") as f:
            f.write(data)
        written[name] = data
        stored, stored_meta = read_safetensors(path)
        logits = [reference.forward(family, stored, s, stored_meta).tolist() for s in STRINGS]
        expected = {"family": family, "vocab": V, "folds": folds, "refuse": refuse, "note": note,
                    "strings": STRINGS, "logits": logits, "accept": [[y > 0 for y in ys] for ys in logits]}
        with open(os.path.join(HERE, name + ".expected.json"), "w") as f:
            f.write(compact_json(expected))

    # Malformed files, all from deltanet_h1's tensors.
    t, meta = read_safetensors(os.path.join(HERE, "deltanet_h1.safetensors"))
    missing = {k: v for k, v in t.items() if k != FLA + "k_proj.weight"}
    misshaped = dict(t)
    misshaped[FLA + "q_proj.weight"] = np.zeros((4, D - 1), dtype=np.float32)
    good = written["deltanet_h1"]
    broken = {
        "missing_tensor": (safetensors_bytes(missing, "F32", meta),
                           {"tensor": FLA + "k_proj.weight", "error": "a tensor the family needs is missing"}),
        "misshaped_tensor": (safetensors_bytes(misshaped, "F32", meta),
                             {"tensor": FLA + "q_proj.weight",
                              "error": "shape [4, 7], expected [H·dk, D] = [4, 8]"}),
        "truncated": (good[:-10], {"tensor": last_in_file(good),
                                   "error": "the file ends 10 bytes early: this tensor's data_offsets run "
                                            "past the end"}),
        "header_past_end": (len(good).to_bytes(8, "little") + good[8:],
                            {"tensor": None, "error": f"header length {len(good)} runs past the end of the file "
                                                      f"({len(good)} bytes)"}),
    }
    index = {}
    for name, (data, what) in broken.items():
        with open(os.path.join(HERE, name + ".safetensors"), "wb") as f:
            f.write(data)
        index[name + ".safetensors"] = {"family": "deltanet", **what}
    with open(os.path.join(HERE, "malformed.json"), "w") as f:
        f.write(compact_json(index))


if __name__ == "__main__":
    main()
