"""rnncc from Python in a dozen lines (docs/python.md). Run from the repository root, after
`python3 -m pip install --no-build-isolation .` (or with PYTHONPATH=build/python):
    python3 examples/python/quickstart.py"""

from fractions import Fraction

import numpy as np

import rnncc

# A Mamba-2 style model from exact numpy arrays: decay 1/2, a votes +1, b votes -1.
m = rnncc.families.diagonal(
    ["a", "b"], decay={"a": Fraction(1, 2), "b": Fraction(1, 2)},
    B={"a": np.array([1, 0]), "b": np.array([0, 1])}, readout=np.array([[1, -1]]),
    family="mamba2", name="vote")
run = m.run("abb")
for t, y in enumerate(run.outputs[:, 0, 0], start=1):
    print(f"y_{t} = {y}")
print("mod 7:", m.run("abb", "mod:7").outputs[:, 0, 0].tolist())

# Compile the S5 word problem for n = 6 into a boolean circuit; evaluate it on random strings.
s5 = rnncc.load_model("examples/s5_word_problem.json")
c = rnncc.compile(s5, 6, "boolean")
print("stats:", {k: c.stats()[k] for k in ("size", "depth", "inputs", "outputs")})
rng = np.random.default_rng(0)
strings = ["".join(rng.choice(s5.alphabet, size=6)) for _ in range(1000)]
agree = (c.eval(s5.one_hot(strings))[:, 0] == [s5.run(s).accepted for s in strings]).all()
print("circuit == model on 1000 random strings:", agree)

# Machine-check a construction and decide equivalences: each a Verdict.
r = rnncc.verify("mod-count", k=3, random=50, seed=1, timing=False)
print("mod-count k=3:", r.verdict, f"(over {r.field})")
wfa = rnncc.load_wfa("examples/wfa_binary_value.att")
e = rnncc.equiv(wfa, "examples/binary_value_wfa.json", timing=False)
print("equiv proved:", e.proved, "basis size", e.report["basis_size"])
broken = rnncc.load_model("tests/cli/models/binary_value_broken.json")
ce = rnncc.equiv(wfa, broken).counterexample
print(f"broken model: on {ce.input!r} the WFA gives {ce.expected}, the model {ce.got}")
