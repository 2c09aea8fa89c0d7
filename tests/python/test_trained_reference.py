"""examples/trained: reference.py against small cases computed by hand (one scalar state per
family), against the committed fixtures, and train_gdn.py's hand-written gradient against
finite differences."""

import json
import math
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="examples/trained is numpy code")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "trained"))
import reference  # noqa: E402
from safetensors_io import read_safetensors  # noqa: E402

FLA, MAMBA = reference.FLA, reference.MAMBA
A = np.array


def delta_scalar(gated):
    """D = dk = dv = 1, E = [[1], [−1]]: token 0 has silu(1) > 0 so k = q = +1, token 1 has
    k = q = −1; W_v = 3, so v = silu(±3) (fla's default) or ±3 (v_activation "identity");
    β = sigmoid(0) = 1/2."""
    t = {"model.embeddings.weight": A([[1.0], [-1.0]]), FLA + "q_proj.weight": A([[1.0]]),
         FLA + "k_proj.weight": A([[1.0]]), FLA + "v_proj.weight": A([[3.0]]),
         FLA + "b_proj.weight": A([[0.0]]), FLA + "o_proj.weight": A([[1.0]]), "lm_head.weight": A([[1.0]])}
    if gated:  # α = exp(−e^0 · softplus(0 + log(e − 1))) = exp(−1)
        t.update({FLA + "a_proj.weight": A([[0.0]]), FLA + "A_log": A([0.0]),
                  FLA + "dt_bias": A([math.log(math.e - 1)])})
    return t


SILU_3 = 3.0 / (1.0 + math.exp(-3.0))  # v for token 0
SILU_M3 = -3.0 / (1.0 + math.exp(3.0))  # v for token 1


def test_deltanet_by_hand():
    # S_t = (1 − β) S_{t−1} + β k v = S/2 + k v/2; tokens 0, 0, 1: S = a/2, 3a/4, 3a/8 − b/2 with
    # a = silu(3), b = silu(−3); y_t = q S_t (q = −1 for token 1)
    a, b = SILU_3, SILU_M3
    y = reference.forward("deltanet", delta_scalar(False), [0, 0, 1])
    assert np.allclose(y, [a / 2, 3 * a / 4, b / 2 - 3 * a / 8], rtol=1e-15)
    # allow_neg_eigval: β = 1, S_t = k v whatever came before, y = q k v = v
    y = reference.forward("deltanet", delta_scalar(False), [0, 0, 1], {"allow_neg_eigval": "true"})
    assert np.allclose(y, [a, a, b], rtol=1e-15)
    # v_activation "identity": v = ±3, k v = 3 for both tokens: S = 3/2, 9/4, 9/8 + 3/2
    y = reference.forward("deltanet", delta_scalar(False), [0, 0, 1], {"v_activation": "identity"})
    assert np.allclose(y, [1.5, 2.25, -2.625], rtol=1e-15)


def test_reference_refuses_unknown_v_activation():
    with pytest.raises(ValueError, match="v_activation: expected one of silu, identity, got 'relu'"):
        reference.forward("deltanet", delta_scalar(False), [0], {"v_activation": "relu"})


def test_gated_deltanet_by_hand():
    # S_t = e^{−1} S_{t−1} / 2 + k v / 2
    a, b = SILU_3, SILU_M3
    y = reference.forward("gated_deltanet", delta_scalar(True), [0, 0, 1])
    s1 = a / 2
    s2 = s1 / (2 * math.e) + a / 2
    s3 = s2 / (2 * math.e) - b / 2
    assert np.allclose(y, [s1, s2, -s3], rtol=1e-14)


def test_mamba2_by_hand():
    # d_inner = H = N = G = 1; in_proj rows (z, x, B, C, dt) = (1, 1, 1, 1, 0), x_emb = 1, width-1
    # conv of weight 1, bias 0: x = B = C = silu(1) =: σ, z gate silu(1) = σ; dt = softplus(0 +
    # log(e − 1)) = 1; a = exp(−1 · log 2) = 1/2; D = 0. h_t = h/2 + σ², y_t = σ · σ · h_t.
    t = {"backbone.embedding.weight": A([[1.0]]), MAMBA + "in_proj.weight": A([[1.0], [1.0], [1.0], [1.0], [0.0]]),
         MAMBA + "conv1d.weight": np.ones((3, 1, 1)), MAMBA + "conv1d.bias": np.zeros(3),
         MAMBA + "dt_bias": A([math.log(math.e - 1)]), MAMBA + "A_log": A([math.log(math.log(2))]),
         MAMBA + "D": A([0.0]), MAMBA + "out_proj.weight": A([[1.0]]), "lm_head.weight": A([[1.0]])}
    s = 1 / (1 + math.exp(-1))
    y = reference.forward("mamba2", t, [0, 0, 0])
    assert np.allclose(y, [s**4, 1.5 * s**4, 1.75 * s**4], rtol=1e-14)
    # D = 2 adds D·x = 2σ before the gate: + 2σ · σ
    t[MAMBA + "D"] = A([2.0])
    assert np.allclose(reference.forward("mamba2", t, [0]), [s**4 + 2 * s * s], rtol=1e-14)
    # a head of two rows: y = (w_1 − w_0)·out + b_1 − b_0
    t["lm_head.weight"], t["lm_head.bias"] = A([[3.0], [1.0]]), A([0.5, 0.25])
    assert np.allclose(reference.forward("mamba2", t, [0]), [-2 * (s**4 + 2 * s * s) - 0.25], rtol=1e-14)


def test_rwkv7_by_hand():
    # D = dk = dv = 1, no token shift; LoRA weights 0 so w_lora(x) = a_lora(x) = 0:
    # w = exp(−e^{−1/2}/2), a = 1/2; kk = 1, k_a = 0 so k stays 1; r = 1, v = 2.
    # S_t = S (w − a kk²) + v k = S (w − 1/2) + 2; o = S r + r k r_k v = S + 2 r_k.
    t = {"model.embeddings.weight": A([[1.0]]), FLA + "r_proj.weight": A([[1.0]]),
         FLA + "k_proj.weight": A([[1.0]]), FLA + "v_proj.weight": A([[2.0]]), FLA + "o_proj.weight": A([[1.0]]),
         FLA + "k_k": A([1.0]), FLA + "k_a": A([0.0]), FLA + "r_k": A([[0.5]]), "lm_head.weight": A([[1.0]])}
    for lora in ("w_lora", "a_lora"):
        t.update({FLA + lora + ".lora.0.weight": A([[0.0]]), FLA + lora + ".lora.2.weight": A([[0.0]]),
                  FLA + lora + ".lora.2.bias": A([0.0])})
    for c in "rwkvag":
        t[FLA + "x_" + c] = A([0.0])
    w = math.exp(-math.exp(-0.5) / 2)
    s1 = 2.0
    s2 = s1 * (w - 0.5) + 2
    assert np.allclose(reference.forward("rwkv7", t, [0, 0]), [s1 + 1, s2 + 1], rtol=1e-15)
    # a token shift of x_k = 1: k_t = x_{t−1} (0 at t = 0): S_1 = 0, o_1 = 0 (bonus k = 0); S_2 = 2
    t[FLA + "x_k"] = A([1.0])
    assert np.allclose(reference.forward("rwkv7", t, [0, 0]), [0.0, 2.0 + 1.0], rtol=1e-15)


def test_reference_refuses_unknown_family():
    with pytest.raises(ValueError, match="unknown family 'gdn'"):
        reference.forward("gdn", delta_scalar(False), [0])


FIXTURES = sorted((ROOT / "tests" / "data" / "safetensors").glob("*.expected.json"))


@pytest.mark.parametrize("expected", FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_fixtures_match_reference(expected):
    e = json.loads(expected.read_text())
    tensors, meta = read_safetensors(str(expected).replace(".expected.json", ".safetensors"))
    assert meta["family"] == e["family"] and (e["folds"] == "no") == (e["refuse"] is not None)
    if e["refuse"]:
        assert e["refuse"]["tensor"] in tensors
    for s, ys, acc in zip(e["strings"], e["logits"], e["accept"]):
        y = reference.forward(e["family"], tensors, s, meta)
        assert np.allclose(y, ys, rtol=1e-12, atol=1e-14) and [v > 0 for v in ys] == acc


def test_train_gdn_gradient():
    import train_gdn as T
    rng = np.random.default_rng(3)
    theta = rng.normal(0, 0.5, size=sum(int(np.prod(s)) for s in T.SHAPES.values()))
    X = T.all_strings(4)
    loss, y, gm = T.loss_and_grad_map(T.token_map(theta), X)
    g = T.map_jacobian(theta).T @ gm
    h = 1e-6
    loss_at = lambda th: T.loss_and_grad_map(T.token_map(th), X)[0]
    fd = [(loss_at(theta + e) - loss_at(theta - e)) / (2 * h) for e in np.eye(len(theta)) * h]
    assert np.max(np.abs(g - fd)) < 1e-7
    # the folded forward it trains is reference.py's forward
    tensors = T.unpack(theta)
    for i, w in enumerate(X):
        ref = reference.forward("gated_deltanet", tensors, w, {"allow_neg_eigval": "true"})
        assert np.allclose(ref, y[i], rtol=1e-12)


def test_trained_file():
    tensors, meta = read_safetensors(ROOT / "examples" / "trained" / "gdn_even_b.safetensors")
    assert meta["family"] == "gated_deltanet" and meta["language"] == "even_b" and meta["allow_neg_eigval"] == "true"
    assert all(a.dtype == np.float32 for a in tensors.values())
    for w in ([0], [1], [1, 1], [0, 1, 0], [1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0]):
        y = reference.forward("gated_deltanet", tensors, w, meta)
        assert list(y > 0) == [np.sum(w[:t + 1]) % 2 == 0 for t in range(len(w))]
