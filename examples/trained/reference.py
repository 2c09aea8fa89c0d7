"""Float64 forward passes of one trained layer, straight from the math (the oracle that
`rnncc import-weights` is checked against).

    tensors, metadata = safetensors_io.read_safetensors("layer.safetensors")
    y = forward("gated_deltanet", tensors, [0, 2, 1], metadata)   # y[t] = logit after token t

Families and tensor names (fla: model.embeddings.weight, model.layers.0.attn.*, lm_head.*;
mamba_ssm: backbone.embedding.weight, backbone.layers.0.mixer.*, lm_head.*):

deltanet        x = E[tok]; q = l2norm(silu(conv_q(W_q x))) / sqrt(dk), k = l2norm(silu(conv_k(W_k x)))
                (per head), v = silu(conv_v(W_v x)) (fla's default; W_v x with v_activation
                "identity"), β = sigmoid(W_b x) (2β with allow_neg_eigval);
                S_t = (I − β k kᵀ) S_{t−1} + β k vᵀ (dk × dv per head), o_t = S_tᵀ q
                [then RMSNorm per head (o_norm) and/or the gate silu(W_g x)], out = W_o o.
gated_deltanet  as deltanet with S_t = α_t (I − β k kᵀ) S_{t−1} + β k vᵀ,
                α = exp(−exp(A_log) · softplus(W_a x + dt_bias)).
mamba2          (z, xBC, dt) = in_proj x; xBC = silu(conv(xBC) + conv bias); dt = softplus(dt + dt_bias);
                per head h (group g = h // (H/G)): a = exp(−dt exp(A_log)),
                h_t = a h_{t−1} + dt x_t B_tᵀ (headdim × N), y = h_t C_t + D x_t (D [H], or [d_inner]
                with mamba_ssm's D_has_hdim); y ← y ⊙ silu(z),
                then grouped RMSNorm · norm.weight when norm.weight is there; out = out_proj y.
rwkv7           token shift x_c = x + (x_{t−1} − x) ⊙ x_c (c = r w k v a g; x_{−1} = 0);
                r, k, v = W_r x_r, W_k x_k, W_v x_v; w = exp(−e^{−1/2} sigmoid(w_lora x_w)),
                a = sigmoid(a_lora x_a), g = g_lora x_g; LoRA(x) = B act(A x) (+ bias) with act
                tanh (w), identity (a), sigmoid (g) as fla's RWKV7Attention;
                kk = l2norm(k ⊙ k_k) per head, k ← k ⊙ (1 + (a − 1) ⊙ k_a);
                S_t = S_{t−1}(diag(w) − kk (kk ⊙ a)ᵀ) + v kᵀ (dv × dk per head), o = S_t r;
                [GroupNorm per head (g_norm)]; o ← o + (r · (k ⊙ r_k)) v; out = W_o (o ⊙ g).

Head (lm_head.weight [1, D] or [2, D], optional lm_head.bias): one row y = w·out (+ b); two
rows (reject = 0, accept = 1) y = (w_1 − w_0)·out (+ b_1 − b_0). Accepted iff y > 0.

Options come from the file's metadata: allow_neg_eigval ("true"/"false", deltanet and
gated_deltanet), norm_eps (default 1e-5; rwkv7's GroupNorm uses head_dim · norm_eps as fla
does), ngroups (mamba2's G, default 1), v_activation ("silu", the default, as fla's DeltaNet
and GatedDeltaNet, or "identity"; deltanet and gated_deltanet). Input norms are not modeled (a file with one is refused
here). Everything is computed in float64 from the stored values.
"""

import math

import numpy as np

FLA = "model.layers.0.attn."
MAMBA = "backbone.layers.0.mixer."
FAMILIES = ("deltanet", "gated_deltanet", "mamba2", "rwkv7")

V_ACTIVATIONS = ("silu", "identity")


def v_silu(metadata):
    """Whether v = silu(v_proj x): fla's DeltaNet and GatedDeltaNet apply silu to v (inside the
    short convolution v_conv1d, or right after v_proj without one); a file written otherwise says
    v_activation = "identity" in its metadata."""
    act = str((metadata or {}).get("v_activation", "silu"))
    if act not in V_ACTIVATIONS:
        raise ValueError(f"metadata v_activation: expected one of {', '.join(V_ACTIVATIONS)}, got {act!r}")
    return act == "silu"


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def silu(x):
    return x * sigmoid(x)


def softplus(x):
    return np.logaddexp(0.0, x)


def l2norm(x):
    """x / max(‖x‖, 1e-12) over the last axis (torch's F.normalize: a zero vector stays zero)."""
    return x / np.maximum(np.sqrt(np.sum(x * x, axis=-1, keepdims=True)), 1e-12)


def rmsnorm(x, weight, eps):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * weight


def causal_conv(seq, weight, bias=None):
    """Depthwise causal convolution as torch's Conv1d(groups=C, padding=K−1) truncated to T:
    out_t[c] = Σ_j weight[c, 0, j] · seq_{t−K+1+j}[c] (+ bias[c]), zero before the start."""
    T, C = seq.shape
    K = weight.shape[2]
    padded = np.vstack([np.zeros((K - 1, C)), seq])
    out = np.zeros((T, C))
    for j in range(K):
        out += weight[:, 0, j] * padded[j:j + T]
    return out if bias is None else out + bias


def head_readout(tensors, out):
    """y_t from the layer outputs out [T, D] and lm_head (one row or two rows)."""
    w = tensors["lm_head.weight"].astype(np.float64)
    b = tensors.get("lm_head.bias")
    b = np.zeros(w.shape[0]) if b is None else b.astype(np.float64)
    if w.shape[0] == 2:
        w, b = w[1:] - w[:1], b[1:] - b[:1]
    return out @ w[0] + b[0]


def _flag(metadata, key):
    return str((metadata or {}).get(key, "false")).lower() in ("true", "1", "yes")


def _f64(tensors, prefix):
    return {k[len(prefix):]: v.astype(np.float64) for k, v in tensors.items() if k.startswith(prefix)}


def _delta_family(tensors, tokens, metadata, gated):
    p = _f64(tensors, FLA)
    x = tensors["model.embeddings.weight"].astype(np.float64)[tokens]  # [T, D]
    H = p["b_proj.weight"].shape[0]
    dk, dv = p["q_proj.weight"].shape[0] // H, p["v_proj.weight"].shape[0] // H
    eps = float((metadata or {}).get("norm_eps", 1e-5))

    def proj(name):
        y = x @ p[name + "_proj.weight"].T
        if name + "_conv1d.weight" in p:
            y = causal_conv(y, p[name + "_conv1d.weight"], p.get(name + "_conv1d.bias"))
        return y

    T = len(tokens)
    q = l2norm(silu(proj("q")).reshape(T, H, dk)) / math.sqrt(dk)
    k = l2norm(silu(proj("k")).reshape(T, H, dk))
    v = (silu(proj("v")) if v_silu(metadata) else proj("v")).reshape(T, H, dv)
    beta = sigmoid(x @ p["b_proj.weight"].T)  # [T, H]
    if _flag(metadata, "allow_neg_eigval"):
        beta = 2.0 * beta
    if gated:
        alpha = np.exp(-np.exp(p["A_log"]) * softplus(x @ p["a_proj.weight"].T + p["dt_bias"]))
    else:
        alpha = np.ones((T, H))
    S = np.zeros((H, dk, dv))
    o = np.zeros((T, H, dv))
    for t in range(T):
        for h in range(H):
            kt = k[t, h]
            b = beta[t, h]
            S[h] = alpha[t, h] * (S[h] - b * np.outer(kt, kt @ S[h])) + b * np.outer(kt, v[t, h])
            o[t, h] = S[h].T @ q[t, h]
    if "o_norm.weight" in p:
        o = rmsnorm(o, p["o_norm.weight"], eps)
    if "g_proj.weight" in p:
        o = o * silu(x @ p["g_proj.weight"].T).reshape(T, H, dv)
    return o.reshape(T, H * dv) @ p["o_proj.weight"].T


def _mamba2(tensors, tokens, metadata):
    p = _f64(tensors, MAMBA)
    x = tensors["backbone.embedding.weight"].astype(np.float64)[tokens]
    T = len(tokens)
    H = p["A_log"].shape[0]
    d_inner = p["out_proj.weight"].shape[1]
    G = int((metadata or {}).get("ngroups", 1))
    rows = p["in_proj.weight"].shape[0]
    N = (rows - 2 * d_inner - H) // (2 * G)
    P = d_inner // H
    eps = float((metadata or {}).get("norm_eps", 1e-5))
    zxbcdt = x @ p["in_proj.weight"].T
    if "in_proj.bias" in p:
        zxbcdt = zxbcdt + p["in_proj.bias"]
    z, xBC, dt = np.split(zxbcdt, [d_inner, 2 * d_inner + 2 * G * N], axis=1)
    xBC = silu(causal_conv(xBC, p["conv1d.weight"], p.get("conv1d.bias")))
    xs, B, C = np.split(xBC, [d_inner, d_inner + G * N], axis=1)
    dt = softplus(dt + p["dt_bias"])  # [T, H]
    a = np.exp(-dt * np.exp(p["A_log"]))
    # D per head [H], or per channel [d_inner] (mamba_ssm's D_has_hdim)
    Dch = p["D"] if p["D"].shape[0] == d_inner else np.repeat(p["D"], P)
    hstate = np.zeros((H, P, N))
    y = np.zeros((T, d_inner))
    for t in range(T):
        for h in range(H):
            g = h // (H // G)
            xh, Bg, Cg = xs[t, h * P:(h + 1) * P], B[t, g * N:(g + 1) * N], C[t, g * N:(g + 1) * N]
            hstate[h] = a[t, h] * hstate[h] + dt[t, h] * np.outer(xh, Bg)
            y[t, h * P:(h + 1) * P] = hstate[h] @ Cg + Dch[h * P:(h + 1) * P] * xh
    y = y * silu(z)
    if "norm.weight" in p:
        y = rmsnorm(y.reshape(T, G, d_inner // G), p["norm.weight"].reshape(G, -1), eps).reshape(T, d_inner)
    return y @ p["out_proj.weight"].T


def _lora(p, name, x, act):
    h = act(x @ p[name + ".lora.0.weight"].T) @ p[name + ".lora.2.weight"].T
    return h + p[name + ".lora.2.bias"] if name + ".lora.2.bias" in p else h


def _rwkv7(tensors, tokens, metadata):
    p = _f64(tensors, FLA)
    if "v_lora.lora.0.weight" in p:
        raise ValueError("reference.py models a first RWKV-7 layer only (v_lora mixes in layer 0's v)")
    x = tensors["model.embeddings.weight"].astype(np.float64)[tokens]
    T = len(tokens)
    H, dk = p["r_k"].shape
    dv = p["v_proj.weight"].shape[0] // H
    eps = float((metadata or {}).get("norm_eps", 1e-5)) * dk
    delta = np.vstack([np.zeros((1, x.shape[1])), x[:-1]]) - x  # x_{t−1} − x_t, x_{−1} = 0
    mix = {c: x + delta * p["x_" + c].reshape(-1) for c in "rwkvag"}  # fla stores [1, 1, D]
    r = (mix["r"] @ p["r_proj.weight"].T).reshape(T, H, dk)
    k = (mix["k"] @ p["k_proj.weight"].T).reshape(T, H, dk)
    v = (mix["v"] @ p["v_proj.weight"].T).reshape(T, H, dv)
    w = np.exp(-math.exp(-0.5) * sigmoid(_lora(p, "w_lora", mix["w"], np.tanh))).reshape(T, H, dk)
    a = sigmoid(_lora(p, "a_lora", mix["a"], lambda u: u)).reshape(T, H, dk)
    kk = l2norm((k.reshape(T, -1) * p["k_k"]).reshape(T, H, dk))
    k = k * (1.0 + (a - 1.0) * p["k_a"].reshape(H, dk))
    S = np.zeros((H, dv, dk))
    o = np.zeros((T, H, dv))
    for t in range(T):
        for h in range(H):
            S[h] = S[h] * w[t, h] - np.outer(S[h] @ kk[t, h], kk[t, h] * a[t, h]) + np.outer(v[t, h], k[t, h])
            o[t, h] = S[h] @ r[t, h]
    if "g_norm.weight" in p:
        mean = o.mean(axis=-1, keepdims=True)
        var = ((o - mean) ** 2).mean(axis=-1, keepdims=True)
        o = ((o - mean) / np.sqrt(var + eps)).reshape(T, H * dv) * p["g_norm.weight"] + p["g_norm.bias"]
        o = o.reshape(T, H, dv)
    bonus = np.sum(r * k * p["r_k"], axis=-1, keepdims=True) * v
    o = (o + bonus).reshape(T, H * dv)
    if "g_lora.lora.0.weight" in p:
        o = o * _lora(p, "g_lora", mix["g"], sigmoid)
    return o @ p["o_proj.weight"].T


def forward(family, tensors, tokens, metadata=None):
    """The per-position logits y_t (float64 array of len(tokens)) of a one-layer model."""
    tokens = np.asarray(tokens, dtype=np.int64)
    if any(n.endswith("attn_norm.weight") or n == "backbone.layers.0.norm.weight" for n in tensors):
        raise ValueError("reference.py does not model an input norm")
    if family in ("deltanet", "gated_deltanet"):
        out = _delta_family(tensors, tokens, metadata, gated=(family == "gated_deltanet"))
    elif family == "mamba2":
        out = _mamba2(tensors, tokens, metadata)
    elif family == "rwkv7":
        out = _rwkv7(tensors, tokens, metadata)
    else:
        raise ValueError(f"unknown family {family!r}; expected one of {', '.join(FAMILIES)}")
    return head_readout(tensors, out)
