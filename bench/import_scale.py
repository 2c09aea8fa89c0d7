#!/usr/bin/env python3
"""Import trained layers at the widths researchers use, and time it (issue 23: real sizes).

Writes random fla-named Gated DeltaNet and DeltaNet layers and mamba_ssm Mamba-2 layers
(numpy, seeded, float32) at model widths D = 1024 with head sizes 64–256, and runs
`rnncc import-weights` on each (exact, the float64 agreement on 200 strings of length ≤ 16),
with --compile also `rnncc compile --length 4` (arith, exact) of the result. Prints one row per
layer: the exact model's family and state size d, the import's wall time, the agreement it
reports, and the compile's size, depth and time — or the refusal (a model beyond the model-file
limit of 2^24 entries is refused before it is built).

    /usr/bin/python3 bench/import_scale.py [--rnncc build/cli/rnncc] [--compile]

(the imports take about 20 s on 2 cores; --compile about 13 minutes more: docs/import.md)
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "trained"))
from safetensors_io import write_safetensors  # noqa: E402

FLA, MAMBA = "model.layers.0.attn.", "backbone.layers.0.mixer."
V = 4  # a small vocabulary: the importer's cost is per token, the state width is the point


def delta(rng, D, H, dk, dv, gated):
    n = lambda *s: rng.normal(0, 1 / np.sqrt(D), s).astype(np.float32)
    t = {"model.embeddings.weight": rng.normal(0, 1, (V, D)).astype(np.float32),
         FLA + "q_proj.weight": n(H * dk, D), FLA + "k_proj.weight": n(H * dk, D),
         FLA + "v_proj.weight": n(H * dv, D), FLA + "b_proj.weight": n(H, D),
         FLA + "o_proj.weight": n(D, H * dv), "lm_head.weight": n(2, D)}
    if gated:
        t.update({FLA + "a_proj.weight": n(H, D),
                  FLA + "A_log": np.log(rng.uniform(1, 16, H)).astype(np.float32),
                  FLA + "dt_bias": rng.normal(0, 1, H).astype(np.float32)})
    return t


def mamba2(rng, D, d_inner, headdim, N):
    H = d_inner // headdim
    n = lambda *s: rng.normal(0, 1 / np.sqrt(D), s).astype(np.float32)
    return {"backbone.embedding.weight": rng.normal(0, 1, (V, D)).astype(np.float32),
            MAMBA + "in_proj.weight": n(2 * d_inner + 2 * N + H, D),
            MAMBA + "conv1d.weight": n(d_inner + 2 * N, 1, 1),
            MAMBA + "conv1d.bias": n(d_inner + 2 * N),
            MAMBA + "dt_bias": rng.normal(0, 1, H).astype(np.float32),
            MAMBA + "A_log": np.log(rng.uniform(1, 16, H)).astype(np.float32),
            MAMBA + "D": np.ones(H, np.float32), MAMBA + "out_proj.weight": n(D, d_inner),
            "lm_head.weight": n(1, D)}


CASES = [
    ("gated_deltanet", "D=1024 H=1 dk=dv=256", lambda r: delta(r, 1024, 1, 256, 256, True)),
    ("gated_deltanet", "D=1024 H=4 dk=dv=128", lambda r: delta(r, 1024, 4, 128, 128, True)),
    ("deltanet", "D=1024 H=8 dk=dv=64", lambda r: delta(r, 1024, 8, 64, 64, False)),
    ("mamba2", "D=1024 d_inner=64 headdim=32 N=8", lambda r: mamba2(r, 1024, 64, 32, 8)),
    ("mamba2", "D=1024 d_inner=128 headdim=64 N=16", lambda r: mamba2(r, 1024, 128, 64, 16)),
    ("mamba2", "D=1024 d_inner=2048 headdim=64 N=128", lambda r: mamba2(r, 1024, 2048, 64, 128)),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rnncc", default=os.path.join(ROOT, "build", "cli", "rnncc"))
    ap.add_argument("--compile", action="store_true", help="also compile each model for n = 4")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for family, shape, make in CASES:
            path = os.path.join(tmp, "layer.safetensors")
            write_safetensors(path, make(rng), metadata={"allow_neg_eigval": "true"})
            model = os.path.join(tmp, "model.json")
            t = time.perf_counter()
            done = subprocess.run([args.rnncc, "import-weights", path, "--family", family,
                                   "--vocab", "a,b,c,d", "-o", model],
                                  capture_output=True, text=True)
            seconds = time.perf_counter() - t
            if done.returncode != 0:
                rows.append((family, shape, "refused", f"{seconds:.2f}",
                             done.stderr.strip().split(": ", 2)[-1][:110], "", ""))
                continue
            kind = re.search(r"→ exact (\S+) layer, d = (\d+)", done.stdout)
            agree = re.search(r"verdicts (\d+)/(\d+) positions, max \|y_float − y_model\| = (\S+)",
                              done.stdout)
            if not args.compile:
                rows.append((family, shape, f"{kind.group(1)} d={kind.group(2)}",
                             f"{seconds:.2f}",
                             f"{agree.group(1)}/{agree.group(2)}, max err {agree.group(3)}", "",
                             ""))
                continue
            t = time.perf_counter()
            stats = subprocess.run([args.rnncc, "compile", model, "--length", "4", "--stats"],
                                   capture_output=True, text=True)
            compile_seconds = time.perf_counter() - t
            size = re.search(r"size\s+(\d+) gates", stats.stdout)
            depth = re.search(r"depth\s+(\d+)", stats.stdout)
            rows.append((family, shape, f"{kind.group(1)} d={kind.group(2)}", f"{seconds:.2f}",
                         f"{agree.group(1)}/{agree.group(2)}, max err {agree.group(3)}",
                         f"{size.group(1)} gates, depth {depth.group(1)}" if size else
                         stats.stderr.strip().split(": ", 2)[-1][:70], f"{compile_seconds:.2f}"))
    head = ("family", "layer", "exact model", "import s", "agreement (200 strings)",
            "compile n=4", "compile s")
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for r in rows:
        print(" | ".join(r))


if __name__ == "__main__":
    main()
