"""Every public callable of the rnncc package, called as a hostile user would (issue 25, item 6).

The cases of tests/python/test_hostile_calls.py. Each case calls one callable — a function, a
constructor, a method or a property of the package (``rnncc``, ``rnncc.families``,
``rnncc.importing``, ``rnncc.plotting``) or of the extension module ``rnncc._rnncc`` — once with
valid arguments (it must succeed) and then with one argument replaced by a wrong one: None, a
string, NaN, 2.5, True, a huge or negative integer, an empty list, a ragged or wrong-shaped list
or numpy array, a missing file, a directory. A wrong call must raise a Python exception of the
kinds docs/python.md ("Errors") promises — TypeError, ValueError (InputError), ArithmeticError
(DomainError) or OSError — never crash the interpreter, hang, raise something else (a
RuntimeError from a failed cast, a KeyError from a half-read dict) or succeed on the wrong value.
Objects the library makes are also created with ``__new__`` alone and every method and property
called on them.

Run as ``python3 hostile_calls.py GROUP START`` it runs the cases of GROUP from index START,
printing ``BEGIN i`` before and ``END i STATUS DETAIL`` after each, so that the test (one
subprocess per group) names the case that killed the interpreter and goes on after it.
``python3 hostile_calls.py --no-numpy GROUP START`` blocks numpy first (the list paths).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

NAN = float("nan")
HUGE = 2**200  # beyond every integer type of the library
BIG = 2**62  # a valid integer asking for work beyond every default limit

# What a wrong call may raise: the exceptions docs/python.md promises.
TIDY = (TypeError, ValueError, ArithmeticError, OSError)

ROOT = Path(__file__).resolve().parents[2]


class Case:
    """One call: `target` (the callable's qualified name), a label, the call, and what must
    happen: "ok" (returns), "raise" (a TIDY exception, or one of `also`), "any" (anything but a
    crash: records that store what they are given)."""

    def __init__(self, target, label, call, expect, also=()):
        self.target, self.label, self.call, self.expect, self.also = (target, label, call, expect,
                                                                      tuple(also))

    def run(self):
        try:
            self.call()
        except TIDY + self.also as e:
            if self.expect == "ok":
                return "bad", f"raised {type(e).__name__}: {e}"
            return "ok", f"{type(e).__name__}: {str(e)[:160]}"
        except Exception as e:  # noqa: BLE001 (the point: which exception escaped)
            if self.expect == "any":
                return "ok", f"{type(e).__name__}"
            return "bad", f"raised {type(e).__name__} (not a documented error): {e}"[:400]
        if self.expect == "raise":
            return "bad", "returned: the wrong value was accepted"
        return "ok", "returned"


def _short(x) -> str:
    if isinstance(x, float) and x != x:
        return "nan"
    if isinstance(x, int) and abs(x) > 2**70:
        return "2**200" if x > 0 else "-2**200"
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        return f"array{tuple(x.shape)}:{x.dtype}"
    r = repr(x)
    return r if len(r) <= 40 else r[:37] + "..."


def calls(target, fn, args=(), kwargs=None, wrong=None, also=(), base="ok"):
    """The valid call fn(*args, **kwargs) (expect `base`) and, for each key of `wrong` (a
    keyword name, or a position in args), the call with that argument replaced by each value."""
    kwargs = dict(kwargs or {})
    out = [Case(target, f"{target}(valid)", lambda: fn(*args, **kwargs), base, also)]
    for key, values in (wrong or {}).items():
        for v in values:
            if isinstance(key, int):
                a = list(args)
                a[key] = v
                out.append(Case(target, f"{target}(arg {key} = {_short(v)})",
                                lambda a=a: fn(*a, **kwargs), "raise", also))
            else:
                k = dict(kwargs)
                k[key] = v
                out.append(Case(target, f"{target}({key}={_short(v)})",
                                lambda k=k: fn(*args, **k), "raise", also))
    return out


# Wrong values by the kind of argument.
def counts(minimum=0, big=True):
    """An integer argument (a count, a length): no None, str, float, bool, negative or huge."""
    vals = [None, "3", NAN, 2.5, True, -1, HUGE] + ([BIG] if big else [])
    if minimum >= 1:
        vals.append(0)
    return vals


def limits():
    """A limit (max_work, max_gates, max_memory): wrong types, negative, huge; 1 refuses."""
    return [None, "x", NAN, 2.5, True, -1, HUGE]


def choices(extra=()):
    """A string naming one of a few choices."""
    return [None, 3, NAN, b"exact", "nonsense", *extra]


def flags(none_ok=False):
    """True/False only: 1, "yes" and NaN are not read as True."""
    return ([] if none_ok else [None]) + ["yes", NAN, 2, 0.5]


def texts():
    return [None, 3, NAN, b"x"]


def paths_in():
    return [None, 3, NAN, "", "/nonexistent/rnncc-x.json", "/"]


def paths_out(tmp):
    return [3, NAN, "/nonexistent/rnncc-x.json", "/", tmp]


class Fixtures:
    """Valid objects, made once per subprocess (in the source root)."""

    def __init__(self):
        import rnncc

        os.chdir(ROOT)
        self.rnncc = rnncc
        self.np = rnncc._np()
        self.tmp = tempfile.mkdtemp(prefix="rnncc-hostile-")
        self.M = rnncc.load_model("examples/mamba_diagonal.json")  # a, b; d = 2
        self.S5 = rnncc.load_model("examples/s5_word_problem.json")
        self.W = rnncc.load_wfa("examples/wfa_binary_value.att")
        self.C = rnncc.compile(self.S5, 2, "boolean")  # 4 inputs, 1 output
        # arithmetic, 4 inputs; S5 accepts by is_zero, which has a meaning mod p
        self.CA = rnncc.compile(self.S5, 2)
        self.circuit_file = self.out("c.json")
        self.C.to_json(self.circuit_file)
        self.cert = os.path.join(self.tmp, "bv.cert.json")
        rnncc.equiv("examples/wfa_binary_value.att", "examples/binary_value_wfa.json",
                    certificate=self.cert, timing=False)
        from rnncc.importing import safetensors_bytes

        p = "model.layers.0.attn."
        layer = {"model.embeddings.weight": [[1.0], [-1.0]], p + "q_proj.weight": [[1.0]],
                 p + "k_proj.weight": [[1.0]], p + "v_proj.weight": [[2.0]],
                 p + "b_proj.weight": [[0.0]], p + "o_proj.weight": [[1.0]],
                 "lm_head.weight": [[1.0]]}
        self.checkpoint = os.path.join(self.tmp, "layer.safetensors")
        with open(self.checkpoint, "wb") as f:
            f.write(safetensors_bytes(layer))

    def out(self, name):
        return os.path.join(self.tmp, name)

    def wide(self, *shape):
        """A large integer array that takes no memory (a broadcast view), or nested lists of
        one shared row when numpy is blocked: what a size check must refuse unread."""
        if self.np is not None:
            return self.np.broadcast_to(self.np.int64(0), shape)
        row = [0] * shape[-1]
        for n in reversed(shape[:-1]):
            row = [row] * n
        return row

    def array(self, rows, dtype=None):
        return rows if self.np is None else self.np.array(rows, dtype=dtype)


# --- the package's functions --------------------------------------------------------------------


def group_files(fx):
    r = fx.rnncc
    model_text = json.dumps(fx.M.to_json())
    return [
        *calls("rnncc.load_model", r.load_model, ("examples/mamba_diagonal.json",),
               wrong={0: paths_in() + ["examples/wfa_binary_value.att"]}),
        *calls("rnncc.parse_model", r.parse_model, (model_text,),
               wrong={0: [None, 3, NAN, "", "{", "[]", b"{}"], "source": texts()}),
        *calls("rnncc.load_wfa", r.load_wfa, ("examples/wfa_binary_value.att",),
               wrong={0: paths_in() + ["examples/mamba_diagonal.json"]}),
        *calls("rnncc.parse_wfa", r.parse_wfa, ("0 0 a\n0\n",),
               wrong={0: [None, 3, NAN, "", "0 0 a b c d e\n"], "source": texts()}),
        *calls("rnncc.load_circuit", r.load_circuit, (fx.circuit_file,),
               wrong={0: paths_in() + ["examples/mamba_diagonal.json", fx.out("c.txt")]}),
        *calls("rnncc.verify_kinds", r.verify_kinds, wrong={}),
        Case("rnncc.verify_kinds", "rnncc.verify_kinds(1)", lambda: r.verify_kinds(1), "raise"),
    ]


def group_compile(fx):
    r = fx.rnncc
    return [
        *calls("rnncc.compile", r.compile, (fx.M, 2), wrong={
            0: [None, 3, NAN, "", "/nonexistent/m.json", fx.W, fx.C],
            1: counts(minimum=1),
            "target": choices(), "precision": choices(["log:0", "mod:7"]),
            "scan": choices(), "outputs": choices(), "structure": choices(),
            "rounding": choices(), "overflow": choices(),
            "max_gates": limits() + [1], "max_states": limits(),
            "int_bits": ["2", NAN, 2.5, -1, HUGE, 3],  # 3: an option of log:C only
            "max_memory": ["x", NAN, 2.5, True, 0, -1, HUGE],
            "valid_output": flags() + [True]}),  # True: fx.M compiles to an arithmetic circuit
        *calls("rnncc.draw", r.draw, (fx.S5, 2), {"format": "dot"}, wrong={
            0: [None, 3, NAN, "/nonexistent/m.json"],
            1: ["2", NAN, 2.5, True, 0, -1, HUGE],
            "collapse": flags(), "highlight_critical": flags(),
            "max_nodes": limits() + [1], "title": [3, NAN, b"t"],
            "format": choices(["gif"]), "path": paths_out(fx.tmp),
            "target": choices(), "bogus": [1]}, also=() if r.has_graphviz else (RuntimeError,)),
    ]


def group_checks(fx):
    r = fx.rnncc
    bv, att = "examples/binary_value_wfa.json", "examples/wfa_binary_value.att"
    return [
        *calls("rnncc.verify", r.verify, ("mod-count",),
               {"k": 3, "random": 5, "seed": 1, "timing": False}, wrong={
                   0: [None, 3, NAN, "nonsense"],
                   "input": [3, NAN, [], b"x", "/nonexistent/x.att"],
                   "random": counts()[1:],  # None: the default
                   "length": counts(minimum=1),
                   "exhaustive": ["3", NAN, 2.5, 0, -1, HUGE, BIG],
                   "identity": counts(), "seed": ["1", NAN, 2.5, -1, HUGE],
                   "prove": flags(), "three_way": flags(), "timing": flags(),
                   "device": choices(["tpu"]),
                   "max_work": limits() + [1], "certificate": paths_out(fx.tmp),
                   "k": ["x", NAN, -1, HUGE, 2.5], "bogus": [1]}),
        *calls("rnncc.verify", r.verify,
               ("model", r.load_model("tests/cli/models/binary_value_broken.json")),
               {"against": fx.W, "timing": False, "identity": 1},
               wrong={"against": [None, 3, NAN, fx.M, "/nonexistent/x.att"],
                      "identity_length": counts(minimum=1)}),
        *calls("rnncc.equiv", r.equiv, (bv, att), {"timing": False}, wrong={
            0: [None, 3, NAN, [], "", "/nonexistent/x.att", "/"], 1: [None, 3, NAN, fx.C],
            "method": choices(), "modulus": ["7", NAN, 2.5, True, 0, 1, 4, -1, HUGE],
            "certificate": paths_out(fx.tmp), "timing": flags(),
            "max_work": limits() + [1], "compare": choices(),
            "accept_length": ["3", NAN, 2.5, 0, -1, HUGE, 5]}),  # 5: compare="accept" only
        *calls("rnncc.check_certificate", r.check_certificate, (att, bv, fx.cert), wrong={
            0: [None, 3, NAN, "/nonexistent/x.att"], 1: [None, 3, NAN, fx.C],
            2: paths_in() + ["examples/mamba_diagonal.json"], "field": choices(["R"])}),
        *calls("rnncc.minimize", r.minimize, (bv,), wrong={
            0: [None, 3, NAN, "", "/nonexistent/x.json", fx.C], "max_work": limits() + [1]}),
        *calls("rnncc.depth", r.depth, (["diagonal"],), {"lengths": [4, 8]}, wrong={
            0: [3, NAN, [], [3], "nonsense", b"diagonal"],
            "models": [3, NAN, "examples/mamba_diagonal.json", [None], [3],
                       ["/nonexistent/m.json"], [fx.W]],
            "lengths": [3, NAN, [], [0], [-1], [2.5], [True], ["4"], "8..2", [HUGE],
                        list(range(1, 100))],
            "target": choices(), "max_gates": limits() + [1], "fits": flags(none_ok=True)}),
    ]


def group_families(fx):
    f = fx.rnncc.families
    big = fx.wide(1, 5000, 5000)  # d = 5000: beyond the model file's 4096, refused unread
    matrix_bad = [None, 3, NAN, "x", [], [[1, 2], [3]], [[0.5, 0], [0, 1]], [[NAN, 0], [0, 1]],
                  [[None, 0], [0, 1]]]
    per_symbol_bad = [None, 3, NAN, "x", [], {"b": [[1, 0], [0, 1]]}, [[[1, 1], [0]]],
                      [[[0.5, 0], [0, 1]]], big, fx.wide(1, 4000, 4000)]
    if fx.np is not None:
        per_symbol_bad += [fx.np.zeros((1, 2, 2, 2)), fx.np.array([[["a", "b"], ["c", "d"]]]),
                           fx.np.zeros((1, 2, 2))]  # float arrays are not exact
    common = {"accept": choices(["maybe"]), "name": texts(),
              "max_memory": ["x", NAN, 2.5, True, 0, -1, HUGE]}
    return [
        *calls("rnncc.families.general", f.general, (["a"],),
               {"A": {"a": [[1, 1], [0, 1]]}, "readout": [[1, 0]], "initial_state": [[0], [1]]},
               wrong={0: [None, 3, NAN, [], [3], ["a", "a"], [""], "", b"a"],
                      "A": per_symbol_bad,
                      "readout": matrix_bad + [[[1]], big],
                      "B": [3, NAN, "x", {"a": [[1]]}, {"a": [[0.5], [0]]}],
                      "initial_state": [3, NAN, [[1]], [[0.5], [0]]],
                      "readout_bias": [3, NAN, [[1, 2, 3]]], **common}),
        Case("rnncc.families.general", "rnncc.families.general(4000×4000, max_memory=1)",
             lambda: f.general(["a"], A=fx.wide(1, 4000, 4000), readout=fx.wide(1, 4000),
                               max_memory=1), "raise"),
        *calls("rnncc.families.diagonal", f.diagonal, (["a", "b"],),
               {"decay": [["1/2"], ["1/2"]], "B": [[[1], [0]], [[0], [1]]],
                "readout": [[1, -1]], "family": "mamba2"},
               wrong={"decay": [None, 3, NAN, [], [[0.5], [0.5]], [["1/2"]], [[NAN], [1]]],
                      "B": [None, NAN, [], [[[1], [0]]], fx.wide(2, 5000, 1)],
                      "readout": [None, [[1]], [[0.5, 1]]],
                      "family": choices(), **common}),
        *calls("rnncc.families.deltanet", f.deltanet, (["0", "1"],),
               {"k": {"0": [0], "1": [1]}, "v": {"0": [0], "1": [0]}, "beta": {"0": 0, "1": 2},
                "readout": [[1]], "initial_state": [[1]]},
               wrong={"k": [None, NAN, [], {"0": [0]}, {"0": [0.5], "1": [1]}],
                      "v": [None, NAN, {"0": [0], "1": [0, 1]}],
                      "beta": [None, NAN, {"0": NAN, "1": 1}, {"0": 0.5, "1": 1}],
                      "alpha": [NAN, {"0": 1, "1": 1}],  # deltanet has no gate
                      "beta_range": choices(["(0,1)"]), "family": choices(), **common}),
        *calls("rnncc.families.pd", f.pd, (["a"],),
               {"P": {"a": [1, 2, 0]}, "readout": [[1, 0, 0]], "initial_state": [1, 0, 0],
                "permutation": True},
               wrong={"P": [None, NAN, {"a": [1, 2, 3]}, {"a": [1, -1, 0]}, {"a": [1.5, 2, 0]},
                            {"a": [True, 2, 0]}, {"a": [[1, 1], [0, 0]]}, {"a": [0, 0, 0]}],
                      "D": [NAN, {"a": [0.5, 1, 1]}, {"a": [1, 1]}],
                      "permutation": flags(), **common}),
        *calls("rnncc.families.dplr", f.dplr, (["x"],),
               {"D": {"x": [1, 1]}, "a": {"x": [1, 0]}, "b": {"x": [1, 0]},
                "readout": [[1, 1]], "initial_state": [1, 1]},
               wrong={"D": [None, NAN, {"x": [1]}, {"x": [NAN, 1]}],
                      "a": [None, {"x": [1, 0, 0]}], "b": [NAN, {"x": [0.5, 0]}], **common}),
        *calls("rnncc.families.rwkv7", f.rwkv7, (["x"],),
               {"w": {"x": [1, 1]}, "a": {"x": [1, 0]}, "b": {"x": [0, 1]},
                "readout": [[1, 0]], "initial_state": [0, 1]},
               wrong={"w": [None, NAN, {"x": [1, 1, 1]}, fx.wide(1, 5000)],
                      "a": [None, {"x": []}], "b": [3, {"x": [0.5, 1]}], **common}),
    ]


def group_model(fx):
    r, M = fx.rnncc, fx.M
    props = ("name", "description", "alphabet")
    methods = {"describe": (), "to_json": (), "save": (fx.out("m.json"),), "run": ("ab",),
               "run_report": (["ab"],), "one_hot": (["ab"],), "__repr__": ()}
    out = wrapper_cases(fx, "rnncc.Model", r.Model, M, M._m, props, methods)
    out += [
        *calls("rnncc.Model.save", M.save, (fx.out("m.json"),), wrong={0: paths_out(fx.tmp)}),
        *calls("rnncc.Model.run", M.run, ("ab",), wrong={
            0: [None, 3, NAN, [], [3], b"ab", "c", ["a", None], {"a": 1}],
            "precision": choices(["log", "log:0", "mod:4", "mod:" + str(HUGE)]),
            "int_bits": ["2", NAN, 2.5, -1, HUGE, 2],  # 2: an option of log:C only
            "rounding": [3, NAN, "up"], "overflow": [3, NAN, "wrap"]}),
        *calls("rnncc.Model.run_report", M.run_report, (["ab"],), wrong={
            0: [None, 3, NAN, [], [3]], "trace": flags(), "precision": choices()}),
        *calls("rnncc.Model.one_hot", M.one_hot, (["ab", "ba"],), wrong={
            0: [None, 3, NAN, [], [3], ["a", "ab"], ["c"]]}),
    ]
    props = ("alphabet", "states", "deterministic")
    methods = {"__call__": ("101",), "to_json": (), "__repr__": ()}
    out += wrapper_cases(fx, "rnncc.WFA", r.WFA, fx.W, fx.W._w, props, methods)
    out += calls("rnncc.WFA.__call__", fx.W, ("101",), wrong={0: [None, 3, NAN, "z", b"0", ["1"]]})
    return out


def wrapper_cases(fx, target, cls, valid, native, props, methods):
    """A class of the package wrapping a library object: its constructor refuses anything but
    that object; an instance made by __new__ alone raises on every method and property; a valid
    instance answers every method and property."""
    others = [x for x in (fx.M._m, fx.W._w, fx.C._c) if type(x) is not type(native)]
    out = calls(target, cls, (native,), wrong={0: [None, 3, NAN, "x", valid, *others]})
    for name in props:
        out.append(Case(f"{target}.{name}", f"{target}.__new__().{name}",
                        lambda n=name: getattr(cls.__new__(cls), n), "raise", (AttributeError,)))
        out.append(Case(f"{target}.{name}", f"{target}.{name}", lambda n=name: getattr(valid, n),
                        "ok"))
    for name, args in methods.items():
        out.append(Case(f"{target}.{name}", f"{target}.__new__().{name}",
                        lambda n=name, a=args: getattr(cls.__new__(cls), n)(*a), "raise",
                        (AttributeError,)))
        out.append(Case(f"{target}.{name}", f"{target}.{name}(valid)",
                        lambda n=name, a=args: getattr(valid, n)(*a), "ok"))
    return out


def group_circuits(fx):
    r, C, CA, np = fx.rnncc, fx.C, fx.CA, fx.np
    props = ("size", "input_names", "output_names", "is_boolean")
    methods = {"stats": (), "to_aiger": (), "to_blif": (), "to_bench": (), "to_json": (),
               "eval": ([[0, 1, 1, 0]],), "draw": (), "_repr_svg_": (), "__repr__": ()}
    out = wrapper_cases(fx, "rnncc.Circuit", r.Circuit, C, C._c, props, methods)
    bits_bad = [None, 3, NAN, "x", [[NAN, 0, 0, 0]], [[0.5, 0, 0, 0]], [[2, 0, 0, 0]],
                [[-1, 0, 0, 0]], [[0, 0, 0]], [[None, 0, 0, 0]], [["1", 0, 0, 0]],
                [[0, 0, 0, 0], [0, 1]], [NAN, 0, 0, 0], [[[0, 0, 0, 0]]]]
    if np is not None:
        bits_bad += [np.full((1, 4), NAN), np.zeros((1, 4)) + 0.5, np.zeros((1, 4)) + 2,
                     np.full((1, 4), -1), np.zeros((2, 2, 2)), np.zeros((1, 3)),
                     np.array([["a"] * 4]), np.array([[None] * 4]), np.zeros((1, 4), complex),
                     np.float64(NAN)]
    residues_bad = [None, "x", [[0.5, 0, 0, 0]], [[NAN, 0, 0, 0]], [[None, 0, 0, 0]],
                    [[0, 0, 0]]]
    if np is not None:
        residues_bad += [np.zeros((1, 4)) + 0.5, np.zeros((1, 5), dtype=np.int64)]
    no_graphviz = () if r.has_graphviz else (RuntimeError,)
    out += [
        *calls("rnncc.Circuit.eval", C.eval, ([[0, 1, 1, 0], [1, 1, 1, 1]],), wrong={
            0: bits_bad, "modulus": [7, NAN], "exact": flags(),
            "max_work": limits() + [0]}),
        *calls("rnncc.Circuit.eval", CA.eval, ([[1, 0, 0, 1]],), wrong={
            0: residues_bad, "modulus": ["7", NAN, 2.5, True, 0, 1, 4, -1, HUGE, 2**62 + 1],
            "max_work": limits() + [0]}),
        *calls("rnncc.Circuit.eval", CA.eval, ([[1, 0, 0, 1]],), {"exact": True}, wrong={
            0: [[[0.5, 0, 0, 1]], [["x", 0, 0, 1]], [[NAN, 0, 0, 1]]], "modulus": [7],
            "exact": flags()}),
        *calls("rnncc.Circuit.check_against", CA.check_against, (fx.S5,), {"strings": 20}, wrong={
            0: [None, 3, "/nonexistent/m.json", fx.M], "precision": [None, 3, "log:1", "log:0"],
            "scan": [None, 3, "nope"], "int_bits": [NAN, "3", -1], "strings": counts(1),
            "exhaustive": flags(), "seed": [None, "3", NAN, -1, 2**64]}),
        *calls("rnncc.Circuit.check_against", C.check_against, (fx.S5,), wrong={}, base="raise"),
        *calls("rnncc.Circuit.to_aiger", C.to_aiger, (), wrong={
            "path": paths_out(fx.tmp) + [fx.out("x.blif")], "ascii": flags()}),
        Case("rnncc.Circuit.to_aiger", "rnncc.Circuit.to_aiger(x.aig, ascii=True)",
             lambda: C.to_aiger(fx.out("x.aig"), ascii=True), "raise"),
        *calls("rnncc.Circuit.to_blif", C.to_blif, (fx.out("x.blif"),),
               wrong={0: paths_out(fx.tmp) + [fx.out("x.json")]}),
        *calls("rnncc.Circuit.to_bench", C.to_bench, (fx.out("x.bench"),),
               wrong={0: paths_out(fx.tmp) + [fx.out("x.aig")]}),
        *calls("rnncc.Circuit.to_json", C.to_json, (fx.out("x.json"),),
               wrong={0: paths_out(fx.tmp) + [fx.out("x.bench")]}),
        *calls("rnncc.Circuit.to_blif", CA.to_blif, (), base="raise"),  # not boolean
        *calls("rnncc.Circuit.draw", C.draw, (), {"format": "dot"}, wrong={
            "collapse": flags(), "highlight_critical": flags(), "max_nodes": limits() + [1],
            "title": [None, 3, NAN], "format": choices(["gif"]), "path": paths_out(fx.tmp)},
            also=no_graphviz),
    ]
    return out


def group_importing(fx):
    from rnncc import importing as im

    arrays = {"decay": [[0.5], [0.3]], "B": [[[1.0]], [[0.0]]], "readout": [[1.0]]}
    out = [
        *calls("rnncc.importing.from_arrays", im.from_arrays, ("diagonal", arrays),
               {"alphabet": ["a", "b"], "precision": "bits:4"}, wrong={
                   0: choices(), 1: [None, 3, NAN, [], "x",
                                     {**arrays, "readout": fx.wide(1, 5000)},
                                     {**arrays, "decay": [[NAN], [0.3]]},
                                     {**arrays, "decay": [[0.5]]},
                                     {**arrays, "decay": [["x"], [0.3]]}],
                   "alphabet": [3, NAN, [3], b"ab", ["a"]],
                   "precision": choices(["bits:-1", "log:2"]),  # log:C needs a length
                   "length": ["3", NAN, 2.5, 0, -1, HUGE],
                   "beta_range": choices(), "max_memory": ["x", NAN, 0, -1, HUGE]}),
        *calls("rnncc.importing.import_weights", im.import_weights,
               (fx.checkpoint, "deltanet", "a,b"), {"agreement_strings": 5}, wrong={
                   0: paths_in(), 1: choices(["lstm"]),
                   2: [None, 3, NAN, [], [3], {"a": NAN}, {"a": -1}, "a,a", b"a,b"],
                   "precision": choices(), "length": ["3", NAN, 2.5, 0, -1, HUGE],
                   "layer": ["0", NAN, 2.5, -1, HUGE, 5],
                   "allow_neg_eigval": flags(none_ok=True),
                   "agreement_strings": counts(), "agreement_length": counts(minimum=1),
                   "seed": ["1", NAN, 2.5, -1, HUGE], "constant_readout": flags()}),
        *calls("rnncc.importing.safetensors_bytes", im.safetensors_bytes,
               ({"w": [[1.0, NAN]]},), wrong={  # NaN is a float a checkpoint may hold
                   0: [None, 3, NAN, [], "x", {"w": "x"}, {"w": [[1.0], [1.0, 2.0]]},
                       {3: [1.0]}, {"w": [True]}, {"w": [None]}],
                   "metadata": [3, NAN, [1], "x"]}),
    ]
    # The records: they keep what they are given (no check, no crash).
    out += records(fx, "rnncc.importing.Agreement", im.Agreement, (1, 2, 1.0, 0.0, 0.0))
    imported = im.from_arrays("diagonal", arrays, alphabet=["a", "b"])
    out += records(fx, "rnncc.importing.Imported", im.Imported,
                   (imported.model, "exact", {}, {}, None), valid=imported)
    return out


def group_plotting(fx):
    from rnncc import plotting as pl

    fit = {"chosen": "a*log2(n)+b", "a": 2.0, "b": 6.0}
    report = {"target": "arith", "points": [{"arch": "gdn", "n": n, "depth": 2 * n.bit_length()}
                                            for n in (2, 4, 8)], "fits": [dict(fit, arch="gdn")]}
    fits_bad = [None, 3, NAN, {}, {"chosen": "x"}, dict(fit, a=NAN), dict(fit, b="x"),
                dict(fit, a=float("inf"))]
    also = (ImportError,)  # without matplotlib, plot_depth says what to install
    return [
        *calls("rnncc.plotting.growth_law", pl.growth_law, (fit,), wrong={0: fits_bad}),
        *calls("rnncc.plotting.law_formula", pl.law_formula, (fit,), wrong={0: fits_bad}),
        *calls("rnncc.plotting.plot_depth", pl.plot_depth, (report,), wrong={
            0: [None, 3, NAN, {}, "not json", b"[]", {"points": [{"arch": "x", "n": 0,
                                                                  "depth": 1}]},
                {"points": [{"arch": "x", "n": 2, "depth": NAN}]},
                {"points": [{"arch": "x", "n": 2.5, "depth": 1}]},
                dict(report, fits=[dict(fit, arch="gdn", a=NAN)])],
            "ax": [3, "x"], "title": [3, NAN]}, also=also),
    ]


def records(fx, target, cls, args, valid=None):
    """A result record (a dataclass): built from any values without a crash, its methods and
    properties answering on a valid instance and surviving a garbage one."""
    garbage = [None] * len(args)
    out = [Case(target, f"{target}(valid)", lambda: cls(*args), "ok"),
           Case(target, f"{target}(garbage)", lambda: cls(*garbage), "any"),
           Case(target, f"{target}.__new__", lambda: cls.__new__(cls), "any")]
    inst = valid if valid is not None else cls(*args)
    for name in public_members(cls):
        out.append(Case(f"{target}.{name}", f"{target}.{name}(valid)",
                        lambda n=name: _touch(inst, n), "any"))
        out.append(Case(f"{target}.{name}", f"{target}.__new__().{name}",
                        lambda n=name: _touch(cls.__new__(cls), n), "any"))
    return out


def _touch(obj, name):
    """Reads the attribute; calls it without arguments when it is a method."""
    value = getattr(obj, name)
    if callable(value) and not isinstance(value, type):
        try:
            return value()
        except TypeError:  # a method that needs arguments: called with one wrong argument
            return value(None)
    return value


def group_results(fx):
    r = fx.rnncc
    v = r.equiv("examples/binary_value_wfa.json", "examples/wfa_binary_value.att", timing=False)
    bad = r.equiv("tests/cli/models/binary_value_broken.json", "examples/wfa_binary_value.att",
                  timing=False)
    t = r.depth(["diagonal"], lengths=[4, 8])
    run1 = fx.M.run("ab")
    runs = fx.M.run(["ab", "ba"])
    m = r.minimize("examples/binary_value_wfa.json")
    out = []
    out += records(fx, "rnncc.Verdict", r.Verdict, tuple(getattr(v, f) for f in (
        "verdict", "proved", "method", "field", "modulus", "counterexample", "tested", "claims",
        "report")), valid=v)
    ce = bad.counterexample
    out += records(fx, "rnncc.Counterexample", r.Counterexample,
                   (ce.input, ce.position, ce.expected, ce.got, ce.report), valid=ce)
    out += records(fx, "rnncc.Claim", r.Claim, ("k", "3", "3", True))
    out += records(fx, "rnncc.Minimized", r.Minimized, (m.model, 2, 1, 1, True, True, "x", {}),
                   valid=m)
    out += records(fx, "rnncc.DepthPoint", r.DepthPoint, ("diagonal", 4, 127, 10, 11))
    out += records(fx, "rnncc.CertificateCheck", r.CertificateCheck, (True, "Q", None, []))
    out += records(fx, "rnncc.Run", r.Run, (run1.input, run1.semantics, run1.outputs,
                                            run1.accept, run1.accepted, run1.symbols,
                                            run1.report), valid=run1)
    out += records(fx, "rnncc.Runs", r.Runs, (runs.inputs, runs.semantics, runs.outputs,
                                              runs.accept, runs.accepted, runs.runs, runs.report),
                   valid=runs)
    # DepthTable reads the report it is given: anything but the depth document is refused.
    out += calls("rnncc.DepthTable", r.DepthTable, (t.report,), wrong={
        0: [None, 3, NAN, {}, {"points": 3}, {"points": [3]}, "x"]})
    for name in public_members(r.DepthTable):
        out.append(Case(f"rnncc.DepthTable.{name}", f"rnncc.DepthTable.{name}",
                        lambda n=name: _touch(t, n), "any", (ImportError,)))
        out.append(Case(f"rnncc.DepthTable.{name}", f"rnncc.DepthTable.__new__().{name}",
                        lambda n=name: _touch(r.DepthTable.__new__(r.DepthTable), n), "any"))
    return out


# --- the extension module ------------------------------------------------------------------------


def group_native_classes(fx):
    """rnncc._rnncc.Model, Wfa and CompiledCircuit: no constructor (not even by __new__), not
    subclassable, not copyable; every method and property on a valid instance with wrong
    arguments."""
    import copy

    n = fx.rnncc._rnncc
    valid = {n.Model: fx.M._m, n.Wfa: fx.W._w, n.CompiledCircuit: fx.C._c}
    out = []
    for cls, obj in valid.items():
        target = f"rnncc._rnncc.{cls.__name__}"
        out += [Case(target, f"{target}()", lambda c=cls: c(), "raise"),
                Case(target, f"{target}.__new__", lambda c=cls: c.__new__(c), "raise"),
                Case(target, f"object.__new__({target})", lambda c=cls: object.__new__(c),
                     "raise"),
                Case(target, f"{target} base.__new__",
                     lambda c=cls: c.__mro__[1].__new__(c), "raise"),
                Case(target, f"class X({target})", lambda c=cls: type("X", (c,), {}), "raise"),
                Case(target, f"copy.copy({target})", lambda o=obj: copy.copy(o), "raise"),
                Case(target, f"copy.deepcopy({target})", lambda o=obj: copy.deepcopy(o), "raise")]
        for name in public_members(cls):
            out.append(Case(f"{target}.{name}", f"{target}.__new__().{name}",
                            lambda c=cls, nm=name: _touch(c.__new__(c), nm), "raise"))
    M, W, C, CA = fx.M._m, fx.W._w, fx.C._c, fx.CA._c
    np = fx.np
    t = "rnncc._rnncc.Model"
    out += [Case(f"{t}.{p}", f"{t}.{p}", lambda p=p: getattr(M, p), "ok")
            for p in ("name", "description", "alphabet")]
    out += [
        *calls(f"{t}.describe", M.describe, wrong={}),
        *calls(f"{t}.to_json", M.to_json, wrong={}),
        *calls(f"{t}.save", M.save, (fx.out("n.json"),),
               wrong={0: [None, 3, "/nonexistent/x.json", fx.tmp]}),
        *calls(f"{t}.tokenize", M.tokenize, ("ab",), wrong={0: [None, 3, NAN, "zz", ""]}),
        *calls(f"{t}.run_report", M.run_report, (["ab"], "exact", None, None, None, False),
               wrong={0: [None, [3], "ab"], 1: [None, "x"], 2: [-1, HUGE, 3], 3: [3, "up"],
                      4: ["wrap"], 5: ["yes"]}),
    ]
    t = "rnncc._rnncc.Wfa"
    out += [Case(f"{t}.{p}", f"{t}.{p}", lambda p=p: getattr(W, p), "ok")
            for p in ("alphabet", "state_names", "states", "deterministic")]
    out += [*calls(f"{t}.to_json", W.to_json, wrong={}),
            *calls(f"{t}.evaluate", W.evaluate, ("101",), wrong={0: [None, 3, NAN, "z"]})]
    t = "rnncc._rnncc.CompiledCircuit"
    out += [Case(f"{t}.{p}", f"{t}.{p}", lambda p=p: getattr(C, p), "ok")
            for p in ("size", "input_names", "output_names", "is_boolean")]
    arrays_bad = []
    if np is not None:
        arrays_bad = [np.full((1, 4), NAN), np.zeros((1, 4)) + 0.5, np.full((1, 4), 2),
                      np.full((1, 4), -1), np.full((1, 4), 256), np.zeros((2, 2, 2)),
                      np.zeros((1, 3)), np.array([["a"] * 4]), np.array([[None] * 4]),
                      np.zeros((1, 4), complex)]
    base = np.zeros((1, 4), dtype=np.uint8) if np is not None else None
    out += [
        *calls(f"{t}.stats", C.stats, wrong={}),
        *calls(f"{t}.file_bytes", C.file_bytes, ("x.aag",), wrong={0: [None, 3, "x.txt"]}),
        *calls(f"{t}.file_bytes", CA.file_bytes, ("x.json",), wrong={0: ["x.aig"]}),
        *calls(f"{t}.write", C.write, (fx.out("w.aag"),),
               wrong={0: [None, 3, "/nonexistent/x.aag", fx.out("x.txt")]}),
        *calls(f"{t}.eval_boolean_rows", C.eval_boolean_rows, ([[0, 1, 1, 0]],), wrong={
            0: [None, [[2, 0, 0, 0]], [[-1, 0, 0, 0]], [[0.5, 0, 0, 0]], [[0, 0]], [3]],
            "max_work": [-1, 0]}),
        *calls(f"{t}.eval_modp_rows", CA.eval_modp_rows, ([[1, 0, 0, 1]], 7), wrong={
            0: [None, [[-1, 0, 0, 1]], [[0.5, 0, 0, 1]], [[0, 0]]],
            1: [0, 1, 4, -1, HUGE, 2**62 + 1], "max_work": [0]}),
        *calls(f"{t}.check_against", CA.check_against, (fx.S5._m, "exact", "brent-kung", None, 20,
                                                         False, 1), wrong={
            1: [None, "log:1", "x"], 2: ["nope"], 3: [-1], 4: [-1, 0, HUGE], 6: [-1]}),
        *calls(f"{t}.eval_exact", CA.eval_exact, ([["1", "0", "0", "1/2"]],), wrong={
            0: [None, [["x", "0", "0", "1"]], [["1"]], [[1, 0, 0, 1]]], "max_work": [0]}),
        *calls(f"{t}.draw", C.draw, ("dot", False, False, 4000, ""), wrong={
            0: [None, "gif"], 1: ["yes"], 3: [-1, 1], 4: [None]},
            also=() if fx.rnncc.has_graphviz else (RuntimeError,)),
    ]
    if np is not None:
        out += [
            *calls(f"{t}.eval_boolean", C.eval_boolean, (base,), wrong={
                0: [None, [[0, 1, 1, 0]], *arrays_bad], "max_work": [-1, 0]}),
            *calls(f"{t}.eval_modp", CA.eval_modp, (base, 7), wrong={
                0: [None, np.zeros((1, 4)) + 0.5, np.full((1, 4), -1), np.zeros((2, 2, 2)),
                    np.array([["a"] * 4]), np.array([[None] * 4])],
                1: [0, 1, 4, -1, HUGE], "max_work": [0]}),
        ]
    return out


def group_native_functions(fx):
    n = fx.rnncc._rnncc
    M, W = fx.M._m, fx.W._w
    model_text = json.dumps(fx.M.to_json())
    one = [["1"]]
    tall = [["0"]] * 4097  # d = 4097 rows of one entry: beyond 4096, refused before parsing
    out = [
        *calls("rnncc._rnncc.load_model", n.load_model, ("examples/mamba_diagonal.json",),
               wrong={0: [None, 3, "", "/nonexistent/x.json", "/"]}),
        *calls("rnncc._rnncc.parse_model", n.parse_model, (model_text,),
               wrong={0: [None, 3, "", "{"], "source": [None, 3]}),
        *calls("rnncc._rnncc.load_wfa", n.load_wfa, ("examples/wfa_binary_value.att",),
               wrong={0: [None, 3, "", "/nonexistent/x.att", "/"]}),
        *calls("rnncc._rnncc.parse_wfa", n.parse_wfa, ("0 0 a\n0\n", "x.att"),
               wrong={0: [None, 3, "", "0 0"], 1: [None, 3]}),
        *calls("rnncc._rnncc.load_circuit", n.load_circuit, (fx.circuit_file,),
               wrong={0: [None, 3, "", "/nonexistent/x.json", "examples/mamba_diagonal.json"]}),
        *calls("rnncc._rnncc.verify_kinds", n.verify_kinds, wrong={}),
        *calls("rnncc._rnncc.default_max_memory_mib", n.default_max_memory_mib, wrong={}),
        *calls("rnncc._rnncc.check_builder_size", n.check_builder_size,
               (2, 1, 2, 1, 10, None, "A"), wrong={
                   0: [0, 5000, -1, HUGE, None], 1: [0, 5000], 2: [HUGE, 2**64 - 1, -1],
                   3: [-1, "x"], 4: [2**64 - 1, 10**6, -1], 5: [0, -1, "x"], 6: [None, 3]}),
        *calls("rnncc._rnncc.build_general", n.build_general,
               (["a"], [[["1", "1"], ["0", "1"]]], [], [["1", "0"]], [["0"], ["1"]], None,
                "positive", ""), wrong={
                   0: [None, [], ["a", "b"], [3]], 1: [None, [], [[["1"]], [["1"]]], [one * 2],
                                                         [tall], [[["x"]]]],
                   2: [[one], [one, one]], 3: [None, [], [["1"]]], 4: [[["1"]]], 6: ["maybe"],
                   "max_memory": [0, -1, "x"]}),
        *calls("rnncc._rnncc.build_diagonal", n.build_diagonal,
               ("mamba2", ["a", "b"], [["1/2"], ["1/2"]], [[["1"], ["0"]], [["0"], ["1"]]],
                [["1", "-1"]], None, None, "positive", ""), wrong={
                   0: ["x", "general"], 2: [[["1/2"]], [], [["x"], ["1"]]],
                   3: [[[["1"], ["0"]]], [], [[], []], [tall, tall]], "max_memory": [0]}),
        *calls("rnncc._rnncc.build_delta", n.build_delta,
               ("deltanet", ["0", "1"], [], ["0", "2"], [["0"], ["1"]], [["0"], ["0"]], [["1"]],
                [["1"]], None, "any", "positive", ""), wrong={
                   0: ["x"], 2: [[["1"]]], 3: [["0"], [], ["x", "1"]], 4: [[["0"]], [[], []]],
                   5: [[["0"]], [[], []]], 9: ["x"], "max_memory": [0]}),
        *calls("rnncc._rnncc.build_pd", n.build_pd,
               (["a"], [[1, 2, 0]], [], [], [["1", "0", "0"]], [["1"], ["0"], ["0"]], None, True,
                "positive", ""), wrong={
                   1: [[], [[1, 2, 0], [0, 1, 2]], [[1, 2, 3]], [[-1, 0, 0]], [[0, 0, 0]], [[]]],
                   2: [[["1"]], [["1"], ["1"]]], 3: [[one], [one, one]], "max_memory": [0]}),
        *calls("rnncc._rnncc.build_low_rank", n.build_low_rank,
               ("dplr", ["x"], [["1", "1"]], [["1", "0"]], [["1", "0"]], [], [["1", "1"]],
                [["1"], ["1"]], None, "positive", ""), wrong={
                   0: ["x"], 2: [[], [[]], [["1"], ["1"]]], 3: [[], [["1"]]], 4: [[]],
                   5: [[one, one]], "max_memory": [0]}),
        *calls("rnncc._rnncc.compile", n.compile, (M, 2), wrong={
            0: [None, 3, fx.M, W], 1: [0, -1, BIG, HUGE, None], "target": ["x", None],
            "max_gates": [1, -1], "max_memory": [-1, HUGE], "int_bits": [3, -1],
            "precision": ["log:0"]}),
        *calls("rnncc._rnncc.import_arrays", n.import_arrays,
               ("diagonal", _arrays_bytes(fx), ["a", "b"]), wrong={
                   0: ["x", None], 1: [None, b"", b"\0" * 8, b"\xff" * 16, "x"],
                   2: [[], ["a"], [3]], "precision": ["x"], "length": [-1],
                   "beta_range": ["x"]}),
        *calls("rnncc._rnncc.import_weights", n.import_weights,
               (fx.checkpoint, "deltanet", "a,b"), {"agreement_strings": 5}, wrong={
                   0: [None, "", "/nonexistent/x.safetensors"], 1: ["lstm"], 2: ["", "a,a"],
                   "layer": [5, -1], "agreement_strings": [BIG, -1],
                   "agreement_length": [0, BIG], "seed": [-1]}),
        *calls("rnncc._rnncc.verify", n.verify,
               ("mod-count", "", [("--k", "3")], 5, True, 40, None, 0, 8, 1, True, True, False,
                False, 2**34, None, None, ""), wrong={
                   0: ["nonsense", None], 2: [[("--bogus", "1")], [("--k", "x")], None],
                   3: [BIG, -1], 5: [BIG], 6: [0, BIG], 7: [BIG], 14: [1, -1], 15: [M],
                   17: ["/nonexistent/c.json"]}),
        *calls("rnncc._rnncc.verify", n.verify,
               ("model", "", [], 5, True, 40, None, 0, 8, 1, True, True, False, False, 2**34,
                fx.rnncc.load_model("tests/cli/models/binary_value_broken.json")._m, W,
                ""), wrong={16: [None, 3, M, "/nonexistent/x.att"], 0: ["mod-count"],
                            2: [[("--k", "3")]]}),
        *calls("rnncc._rnncc.equiv", n.equiv,
               ("examples/binary_value_wfa.json", "examples/wfa_binary_value.att", "auto", None,
                "", False, 2**30, "outputs", None), wrong={
                   0: [None, 3, fx.C._c, "/nonexistent/x.att"], 1: [[]], 2: ["x"], 3: [0, 4, -1],
                   4: ["/nonexistent/c.json"], 6: [1, -1], 7: ["x"], 8: [3, -1]}),
        *calls("rnncc._rnncc.check_certificate", n.check_certificate,
               ("examples/wfa_binary_value.att", "examples/binary_value_wfa.json", fx.cert, "Q"),
               wrong={0: [None, 3, fx.C._c], 1: [3], 2: [None, "", "/nonexistent/c.json",
                                                         "examples/mamba_diagonal.json"],
                      3: ["R", None]}),
        *calls("rnncc._rnncc.minimize", n.minimize, ("examples/binary_value_wfa.json", 2**30),
               wrong={0: [None, 3, "", fx.C._c], 1: [1, -1]}),
        *calls("rnncc._rnncc.depth", n.depth, ("diagonal", [], [4, 8], "arith", 2**26, None),
               wrong={0: ["nonsense", 3], 1: [[None], [3], ["/nonexistent/m.json"], [W]],
                      2: [[], [0], [-1], [2.5], [True], [None], "8..2", 3, [HUGE],
                          list(range(1, 100))],
                      3: ["x"], 4: [1, -1], 5: ["yes"]}),
    ]
    return out


def _arrays_bytes(fx):
    from rnncc.importing import safetensors_bytes

    return safetensors_bytes({"decay": [[0.5], [0.3]], "B": [[[1.0]], [[0.0]]],
                              "readout": [[1.0]]})


def public_members(cls) -> list:
    """The methods and properties of a class a user calls: its own public names, and the
    protocol methods it defines (__call__, __len__, __iter__, __getitem__, __repr__,
    _repr_svg_)."""
    protocol = {"__call__", "__len__", "__iter__", "__getitem__", "__repr__", "_repr_svg_"}
    out = []
    for name, value in vars(cls).items():
        if name.startswith("_") and name not in protocol:
            continue
        if isinstance(value, (staticmethod, classmethod, property)) or callable(value) or \
                type(value).__name__ in ("instancemethod", "getset_descriptor",
                                         "member_descriptor"):
            out.append(name)
    return sorted(out)


# The groups, one interpreter each (an interpreter's start, importing rnncc and numpy, costs
# more than all of a group's calls).
GROUPS = {
    "package functions": (group_files, group_compile, group_checks),
    "models and builders": (group_model, group_families),
    "circuits": (group_circuits,),
    "importing, plotting, results": (group_importing, group_plotting, group_results),
    "extension module": (group_native_classes, group_native_functions),
}
# The groups whose list paths run again with numpy blocked.
NO_NUMPY_GROUPS = ("models and builders", "circuits")


def cases(name: str, fx) -> list:
    return [c for make in GROUPS[name] for c in make(fx)]


def main(argv):
    no_numpy = argv[:1] == ["--no-numpy"]
    if no_numpy:
        sys.modules["numpy"] = None  # `import numpy` raises ImportError from here on
        argv = argv[1:]
    os.environ.setdefault("MPLBACKEND", "Agg")
    name, start = argv[0], int(argv[1])
    fx = Fixtures()
    walk = cases(name, fx)
    print(f"COUNT {len(walk)}", flush=True)
    for i in range(start, len(walk)):
        c = walk[i]
        print(f"BEGIN {i} {json.dumps(c.label)}", flush=True)
        t = time.perf_counter()
        status, detail = c.run()
        print(f"END {i} {status} {time.perf_counter() - t:.3f} {json.dumps(detail)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
