"""The package without numpy: every function on lists, Fractions and strings, results as lists.

Runs as a plain script (`python3 tests/python/no_numpy.py`, from the repository root or
anywhere) where there is neither numpy nor pytest — .ci/run runs it in the pyenv interpreter
after pip-installing the package there — and under pytest via test_no_numpy.py. Where numpy is
installed it is blocked first (sys.modules["numpy"] = None makes `import numpy` fail), so the
same code paths run either way. Prints one line per check and "no numpy: all passed".
"""

import os
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

sys.modules["numpy"] = None  # `import numpy` raises ImportError from here on
ROOT = Path(__file__).resolve().parents[2]
os.chdir(ROOT)

import rnncc  # noqa: E402


def check(name, ok):
    if not ok:
        raise SystemExit(f"no numpy: FAILED: {name}")
    print(f"ok: {name}")


check("numpy is not importable", rnncc._np() is None)
check("__version__", isinstance(rnncc.__version__, str) and rnncc.__version__.count(".") == 2)

m = rnncc.load_model("examples/mamba_diagonal.json")
r = m.run("abb")
check("run: outputs are nested lists of Fractions",
      r.outputs == [[[Fraction(1)]], [[Fraction(-1, 2)]], [[Fraction(-5, 4)]]])
check("run mod p: ints", m.run("abb", "mod:7").outputs == [[[1]], [[3]], [[4]]])
check("run log: floats", m.run("abb", "log:2").outputs == [[[1.0]], [[-0.5]], [[-1.25]]])
b = m.run(["ab", "ba"])
check("batch: a list per input", len(b.outputs) == 2 and b.accepted == [False, True])

v = rnncc.families.diagonal(["a", "b"], decay=[Fraction(1, 2), "1/2"], B=[[1, 0], [0, 1]],
                            readout=[[1, -1]], family="mamba2", name="vote")
check("builder from lists (stacked per symbol)", v.run("abb").outputs == r.outputs)
try:
    rnncc.families.diagonal(["a"], decay={"a": [0.5]}, B={"a": [[1]]}, readout=[[1]])
    check("a float is refused", False)
except rnncc.InputError as e:
    check("a float is refused", "floats are not exact" in str(e))

s5 = rnncc.load_model("examples/s5_word_problem.json")
c = rnncc.compile(s5, 4, "boolean")
x = s5.one_hot(["scsc", "ssss"])
check("one_hot: lists", x[0][:4] == [1, 0, 0, 1] and isinstance(x, list))
check("boolean eval: lists of bools", c.eval(x) == [[False], [True]])
check("one row: one row out", c.eval(x[1]) == [True])
a = rnncc.compile(m, 3, outputs="all")
check("exact eval: Fractions",
      a.eval(m.one_hot(["abb"]), exact=True)[0][:3] == [1, Fraction(-1, 2), Fraction(-5, 4)])
b3 = rnncc.compile(s5, 3, outputs="all")
check("mod p eval: ints", b3.eval(s5.one_hot(["scs"]), modulus=7) == [[5, 3, 2, 0]])

verdict = rnncc.verify("mod-count", k=3, random=10, seed=1, timing=False)
check("verify: a Verdict", verdict.proved and verdict.verdict == "proved")
w = rnncc.load_wfa("examples/wfa_binary_value.att")
broken = rnncc.load_model("tests/cli/models/binary_value_broken.json")
e = rnncc.equiv(w, broken)
check("equiv on objects: reference first",
      e.counterexample.expected == 1 and e.counterexample.got == 2)
vm = rnncc.verify("model", broken, against=w, timing=False)
check("verify model: the same orientation", vm.counterexample.expected == 1
      and vm.counterexample.got == 2)
mz = rnncc.minimize(rnncc.load_model("examples/binary_value_wfa.json"))
check("minimize an object", mz.minimal_dimension == 1 and mz.affine)
t = rnncc.depth(["diagonal"], models=[m], lengths=range(2, 9, 2), fits=False)
check("depth: lengths as a range, a Model", [p.n for p in t] == [2, 4, 6, 8] * 2)
if rnncc.has_graphviz:
    check("draw", rnncc.draw(m, 2).startswith("<?xml"))
with tempfile.TemporaryDirectory() as d:
    try:
        rnncc.load_model(os.path.join(d, "missing.json"))
        check("a missing file raises FileNotFoundError", False)
    except FileNotFoundError:
        check("a missing file raises FileNotFoundError", True)
print("no numpy: all passed")
