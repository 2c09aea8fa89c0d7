"""Writes the safetensors files of the `rnncc import` / `import-weights` goldens (tests/cli/
golden_import.cmake) and of docs/import.md: pure Python (struct, random), seeded, the same
bytes every time. Run from the repository root: python3 tests/cli/import/make_import_files.py
"""

import json
import random
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent


def write(name, tensors, metadata=None):
    """tensors: {name: (shape, flat values)}, written as F64 in the given order."""
    header, data = {}, bytearray()
    if metadata:
        header["__metadata__"] = metadata
    for tname, (shape, values) in tensors.items():
        begin = len(data)
        data += struct.pack("<%dd" % len(values), *values)
        header[tname] = {"dtype": "F64", "shape": shape, "data_offsets": [begin, len(data)]}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    (HERE / name).write_bytes(struct.pack("<Q", len(text)) + text + bytes(data))


def normal(rng, n, scale=0.5):
    return [rng.gauss(0.0, scale) for _ in range(n)]


# Parity of the 1s as float arrays of a general layer (d = 1): A_0 = 1, A_1 ≈ −1 (a trained
# −0.9999), S_0 = 1, readout 1: y = Π A_w. At bits:8 the reflection rounds to −1 exactly.
write("parity_arrays.safetensors", {
    "A": ([2, 1, 1], [1.0, -0.9999]),
    "initial_state": ([1, 1], [1.0]),
    "readout": ([1, 1], [1.0]),
})


def delta_layer(seed, D=4, H=1, dk=2, dv=2, V=3, gated=False, extra=None, drop=None):
    rng = random.Random(seed)
    p = "model.layers.0.attn."
    t = {"model.embeddings.weight": ([V, D], normal(rng, V * D, 1.0))}
    for name, rows in (("q_proj", H * dk), ("k_proj", H * dk), ("v_proj", H * dv), ("b_proj", H)):
        t[p + name + ".weight"] = ([rows, D], normal(rng, rows * D))
    if gated:
        t[p + "a_proj.weight"] = ([H, D], normal(rng, H * D))
        t[p + "A_log"] = ([H], normal(rng, H))
        t[p + "dt_bias"] = ([H], normal(rng, H))
    t[p + "o_proj.weight"] = ([D, H * dv], normal(rng, D * H * dv))
    t["lm_head.weight"] = ([2, D], normal(rng, 2 * D))
    t["lm_head.bias"] = ([2], normal(rng, 2, 0.1))
    for k, v in (extra or {}).items():
        t[p + k] = v
    for k in drop or ():
        del t[p + k]
    return t


write("deltanet_layer.safetensors", delta_layer(1))
write("gdn_layer.safetensors", delta_layer(2, H=2, gated=True), {"allow_neg_eigval": "true"})
write("deltanet_conv4.safetensors",
      delta_layer(1, extra={"q_conv1d.weight": ([2, 1, 4], normal(random.Random(9), 8))}))
write("deltanet_missing.safetensors", delta_layer(1, drop=["k_proj.weight"]))
write("deltanet_misshaped.safetensors",
      delta_layer(1, extra={"v_proj.weight": ([2, 3], normal(random.Random(9), 6))}))
# fla's DeltaNet applies silu to v; v_activation says otherwise ("identity"), anything else is
# refused naming the key.
write("deltanet_v_relu.safetensors", delta_layer(1), {"v_activation": "relu"})
