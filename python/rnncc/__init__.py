"""rnncc for Python: state sequence models exactly, run them, compile them into circuits, verify.

A thin layer over the extension module ``rnncc._rnncc`` (python/bindings.cpp), which calls the
same library functions as the ``rnncc`` command; reports are the documents ``rnncc ... --json``
prints, as dicts. docs/python.md is the reference, with a real output of every call.
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

import numpy as np

from . import _rnncc
from ._rnncc import DomainError, InputError  # noqa: F401  (rnncc.InputError is a ValueError)

# Tracebacks name them where users import them from: rnncc.InputError, not rnncc._rnncc.…
InputError.__module__ = DomainError.__module__ = "rnncc"

__all__ = [
    "InputError",
    "DomainError",
    "Model",
    "Run",
    "Circuit",
    "load_model",
    "parse_model",
    "load_circuit",
    "compile",
    "verify",
    "verify_kinds",
    "equiv",
    "depth",
    "families",
    "has_graphviz",
]

has_graphviz = _rnncc.has_graphviz


# --- exact numbers ----------------------------------------------------------------------------


def _exact_text(x, where: str) -> str:
    """An exact rational as text "p/q": ints, numpy integers, Fractions and "p/q" strings.

    Floats are refused: 0.1 is no exact number (write Fraction(1, 10) or "1/10")."""
    if isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if isinstance(x, numbers.Integral):
        return str(int(x))
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)
    if isinstance(x, str):
        return x
    if isinstance(x, numbers.Rational):
        return _exact_text(Fraction(x.numerator, x.denominator), where)
    raise InputError(
        f"{where}: {x!r}: expected an exact rational (int, fractions.Fraction or a string such "
        "as '1/2'); floats are not exact"
    )


def _vector(v, where: str) -> list[str]:
    a = np.asarray(v, dtype=object)
    if a.ndim != 1:
        raise InputError(f"{where}: expected a vector, got shape {a.shape}")
    return [_exact_text(x, f"{where}[{i}]") for i, x in enumerate(a)]


def _matrix(m, where: str) -> list[list[str]]:
    a = np.asarray(m, dtype=object)
    if a.ndim == 1:
        a = a.reshape(-1, 1)
    if a.ndim != 2:
        raise InputError(f"{where}: expected a matrix, got shape {a.shape}")
    return [[_exact_text(x, f"{where}[{i}][{j}]") for j, x in enumerate(row)]
            for i, row in enumerate(a)]


def _image_list(p, where: str) -> list[int]:
    """P as its image list: a list of row indices, or a 0/1 column-one-hot matrix."""
    a = np.asarray(p, dtype=object)
    if a.ndim == 1:
        out = []
        for j, x in enumerate(a):
            if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)) or x < 0:
                raise InputError(f"{where}[{j}]: {x!r}: expected a row index (an integer ≥ 0)")
            out.append(int(x))
        return out
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise InputError(f"{where}: expected a list of row indices or a square 0/1 matrix")
    out = []
    for j in range(a.shape[1]):
        ones = [i for i in range(a.shape[0]) if a[i, j] == 1]
        if len(ones) != 1 or any(a[i, j] not in (0, 1) for i in range(a.shape[0])):
            raise InputError(f"{where}: expected a column-one-hot 0/1 matrix: column {j} has "
                             f"{sum(1 for i in range(a.shape[0]) if a[i, j] != 0)} nonzero entries")
        out.append(ones[0])
    return out


def _per_symbol(values: Mapping, alphabet: Sequence[str], name: str, convert):
    missing = [s for s in alphabet if s not in values]
    if missing:
        raise InputError(f"{name}: no entry for symbol(s) {', '.join(missing)}")
    extra = [s for s in values if s not in alphabet]
    if extra:
        raise InputError(f"{name}: symbol(s) {', '.join(map(str, extra))} not in the alphabet")
    return [convert(values[s], f"{name}['{s}']") for s in alphabet]


# --- models and runs --------------------------------------------------------------------------


class Run:
    """One input's run (``model.run``): the output y_t of every position t = 1..n.

    ``outputs`` has shape (n, r, m): an object array of ``fractions.Fraction`` for
    ``precision="exact"``, ``numpy.uint64`` residues for ``"mod:P"``, ``numpy.float64`` for
    ``"log:C"`` (fixed-point values, each exactly a float). ``accept``: per position, True/False
    or None (undefined mod p); ``accepted``: of the whole input; ``report``: the CLI's JSON run."""

    def __init__(self, report: dict, semantics: str):
        self.report = report
        self.input = report["input"]
        self.semantics = report["semantics"]
        self.accepted = report.get("accepted")
        self.accept = [p.get("accept") for p in report["positions"]]
        self.symbols = [p["symbol"] for p in report["positions"]]
        kind = semantics.split(":")[0]
        rows = [p["output"] for p in report["positions"]]
        if kind == "exact":
            self.outputs = np.array([[[Fraction(x) for x in r] for r in y] for y in rows],
                                    dtype=object)
        elif kind == "mod":
            self.outputs = np.array([[[int(x) for x in r] for r in y] for y in rows],
                                    dtype=np.uint64)
        else:
            self.outputs = np.array([[[float(Fraction(x)) for x in r] for r in y] for y in rows],
                                    dtype=np.float64)

    def __repr__(self):
        return (f"Run(input={self.input!r}, semantics={self.semantics!r}, "
                f"accepted={self.accepted!r}, outputs={self.outputs.tolist()!r})")


class Model:
    """A model (docs/formats.md): from a file (``load_model``) or a family builder
    (``rnncc.families``)."""

    def __init__(self, native: _rnncc.Model):
        self._m = native

    name = property(lambda self: self._m.name)
    description = property(lambda self: self._m.description)
    alphabet = property(lambda self: list(self._m.alphabet))

    def describe(self) -> str:
        """The layers, as ``rnncc run`` prints them ("lrnn/pd d=25 m=1")."""
        return self._m.describe()

    def to_json(self) -> dict:
        """The model file's document (``save`` writes it)."""
        return self._m.to_json()

    def save(self, path: str) -> None:
        self._m.save(str(path))

    def run(self, input: str, precision: str = "exact", *, int_bits: int | None = None,
            rounding: str | None = None, overflow: str | None = None) -> Run:
        """Run on one input string (``rnncc run MODEL INPUT --precision P``)."""
        report = self.run_report([input], precision, int_bits=int_bits, rounding=rounding,
                                 overflow=overflow)
        return Run(report["runs"][0], precision)

    def run_report(self, inputs: Iterable[str], precision: str = "exact", *, trace=False,
                   int_bits: int | None = None, rounding: str | None = None,
                   overflow: str | None = None) -> dict:
        """The document ``rnncc run MODEL INPUT... --json [--trace]`` prints."""
        return self._m.run_report(list(inputs), precision, int_bits, rounding, overflow, trace)

    def one_hot(self, inputs: Iterable[str]) -> np.ndarray:
        """Circuit inputs x[t,σ] for strings of one length n (rows: strings; columns t-major)."""
        strings = list(inputs)
        sigma = len(self.alphabet)
        rows = []
        for s in strings:
            ids = self._m.tokenize(s)
            row = np.zeros(len(ids) * sigma, dtype=np.uint8)
            for t, k in enumerate(ids):
                row[t * sigma + k] = 1
            rows.append(row)
        if len({len(r) for r in rows}) > 1:
            raise InputError("inputs: strings of different lengths (a circuit has one length)")
        return np.array(rows, dtype=np.uint8)

    def __repr__(self):
        return f"Model({self.name!r}: {self.describe()}, alphabet={self.alphabet})"


def load_model(path) -> Model:
    """Read a model file (``rnncc-model/1`` JSON); errors raise InputError naming file:line:col."""
    return Model(_rnncc.load_model(str(path)))


def parse_model(text: str, source: str = "<string>") -> Model:
    return Model(_rnncc.parse_model(text, source))


class families:
    """Family builders (rnn/families.hpp), every entry exact: ints, numpy integer arrays,
    ``fractions.Fraction`` or "p/q" strings. Per-symbol parameters are dicts keyed by symbol."""

    @staticmethod
    def diagonal(alphabet: Sequence[str], decay: Mapping, B: Mapping, readout, *,
                 family: str = "diagonal", initial_state=None, readout_bias=None,
                 accept: str = "positive", name: str = "") -> Model:
        """A_σ = diag(decay[σ]) (family diagonal, gla, s4: the same decay for every symbol;
        mamba2: one scalar decay per symbol), B[σ] d×m, readout r×d, S_0 (d×m) zero unless
        given; accept "positive" (y[0][0] > 0) or "zero"."""
        alphabet = list(alphabet)
        decays = _per_symbol(decay, alphabet, "decay",
                             lambda v, w: _vector(np.atleast_1d(np.asarray(v, dtype=object)), w))
        Bs = _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_diagonal(family, alphabet, decays, Bs,
                                           _matrix(readout, "readout"), init, bias, accept, name))

    @staticmethod
    def deltanet(alphabet: Sequence[str], k: Mapping, v: Mapping, beta: Mapping, readout, *,
                 alpha: Mapping | None = None, family: str = "deltanet", beta_range: str = "any",
                 initial_state=None, readout_bias=None, accept: str = "positive",
                 name: str = "") -> Model:
        """A_σ = I − β_σ k_σ k_σᵀ, B_σ = β_σ k_σ v_σᵀ (deltanet); gated_deltanet multiplies A
        by the scalar alpha[σ], kda by diag(alpha[σ]). beta_range: any, (0,1), (0,1], (0,2),
        (0,2] (checked)."""
        alphabet = list(alphabet)
        ks = _per_symbol(k, alphabet, "k", _vector)
        vs = _per_symbol(v, alphabet, "v",
                         lambda x, w: _vector(np.atleast_1d(np.asarray(x, dtype=object)), w))
        betas = _per_symbol(beta, alphabet, "beta", _exact_text)
        alphas = [] if alpha is None else _per_symbol(
            alpha, alphabet, "alpha",
            lambda x, w: _vector(np.atleast_1d(np.asarray(x, dtype=object)), w))
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_delta(family, alphabet, alphas, betas, ks, vs,
                                        _matrix(readout, "readout"), init, bias, beta_range, accept,
                                        name))


    @staticmethod
    def general(alphabet: Sequence[str], A: Mapping, readout, *, B: Mapping | None = None,
                initial_state=None, readout_bias=None, accept: str = "positive",
                name: str = "") -> Model:
        """Any A_σ (d×d) and B_σ (d×m; zero when B is not given): h_t = A_σ h_{t−1} + B_σ."""
        alphabet = list(alphabet)
        As = _per_symbol(A, alphabet, "A", _matrix)
        Bs = [] if B is None else _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_general(alphabet, As, Bs, _matrix(readout, "readout"), init,
                                          bias, accept, name))

    @staticmethod
    def pd(alphabet: Sequence[str], P: Mapping, readout, *, D: Mapping | None = None,
           B: Mapping | None = None, permutation: bool = False, initial_state=None,
           readout_bias=None, accept: str = "positive", name: str = "") -> Model:
        """PD-SSM: A_σ = P_σ·diag(D_σ), P[σ] the image list (P_σ e_j = e_{P[σ][j]}; a 0/1
        column-one-hot matrix is accepted too), D ones unless given, B zero unless given;
        permutation=True requires every P_σ to be a permutation."""
        alphabet = list(alphabet)
        Ps = _per_symbol(P, alphabet, "P", _image_list)
        Ds = [] if D is None else _per_symbol(
            D, alphabet, "D", lambda x, w: _vector(np.atleast_1d(np.asarray(x, dtype=object)), w))
        Bs = [] if B is None else _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_pd(alphabet, Ps, Ds, Bs, _matrix(readout, "readout"), init,
                                     bias, permutation, accept, name))

    @staticmethod
    def dplr(alphabet: Sequence[str], D: Mapping, a: Mapping, b: Mapping, readout, *,
             B: Mapping | None = None, initial_state=None, readout_bias=None,
             accept: str = "positive", name: str = "") -> Model:
        """Diagonal plus low rank: A_σ = diag(D_σ) − a_σ b_σᵀ (vectors of d entries), B zero
        unless given."""
        return families._low_rank("dplr", alphabet, D, "D", a, b, B, readout, initial_state,
                                  readout_bias, accept, name)

    @staticmethod
    def rwkv7(alphabet: Sequence[str], w: Mapping, a: Mapping, b: Mapping, readout, *,
              B: Mapping | None = None, initial_state=None, readout_bias=None,
              accept: str = "positive", name: str = "") -> Model:
        """RWKV-7's generalized delta rule: A_σ = diag(w_σ) + a_σ b_σᵀ, B zero unless given."""
        return families._low_rank("rwkv7", alphabet, w, "w", a, b, B, readout, initial_state,
                                  readout_bias, accept, name)

    @staticmethod
    def _low_rank(family, alphabet, diagonal, dname, a, b, B, readout, initial_state,
                  readout_bias, accept, name):
        alphabet = list(alphabet)
        vec = lambda x, w: _vector(np.atleast_1d(np.asarray(x, dtype=object)), w)
        Ds = _per_symbol(diagonal, alphabet, dname, vec)
        As = _per_symbol(a, alphabet, "a", vec)
        Bv = _per_symbol(b, alphabet, "b", vec)
        Bs = [] if B is None else _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_low_rank(family, alphabet, Ds, As, Bv, Bs,
                                           _matrix(readout, "readout"), init, bias, accept, name))


# --- circuits ---------------------------------------------------------------------------------


class Circuit:
    """A compiled circuit (``rnncc.compile``) or a circuit file (``load_circuit``)."""

    def __init__(self, native: _rnncc.CompiledCircuit):
        self._c = native

    size = property(lambda self: self._c.size)
    input_names = property(lambda self: list(self._c.input_names))
    output_names = property(lambda self: list(self._c.output_names))
    is_boolean = property(lambda self: self._c.is_boolean)

    def stats(self) -> dict:
        """The document ``rnncc compile --json`` / ``rnncc stats --json`` prints."""
        return self._c.stats()

    def _text(self, ext: str, path, binary: bool):
        if path is not None:
            self._c.write(str(path))
            return None
        data = self._c.file_bytes("circuit." + ext)
        return data if binary else data.decode()

    def to_aiger(self, path=None, *, ascii: bool = False):
        """AIGER (boolean circuits): written to ``path`` (.aig binary, .aag ASCII by its
        extension), or returned (bytes; ``ascii=True``: the .aag text)."""
        return self._text("aag" if ascii else "aig", path, not ascii)

    def to_blif(self, path=None):
        """BLIF (boolean circuits): written to ``path``, or returned as str."""
        return self._text("blif", path, False)

    def to_bench(self, path=None):
        """ISCAS .bench (boolean circuits): written to ``path``, or returned as str."""
        return self._text("bench", path, False)

    def to_json(self, path=None):
        """The circuit file (``rnncc-circuit/1``): written to ``path``, or returned as str."""
        return self._text("json", path, False)

    def eval(self, inputs, *, modulus: int | None = None, exact: bool = False) -> np.ndarray:
        """Evaluate on one pattern per row (shape (patterns, inputs); one row may be 1-D).

        Boolean/threshold circuits: 0/1 (bool or integers) in, ``numpy.bool_`` out.
        Arithmetic circuits: over F_p (``modulus``, default 2^61 − 1) on integers, ``uint64``
        out; ``exact=True``: over Q on exact entries, an object array of Fractions out."""
        a = np.asarray(inputs) if not exact else np.asarray(inputs, dtype=object)
        single = a.ndim == 1
        if single:
            a = a.reshape(1, -1)
        if self.is_boolean and not exact:
            if modulus is not None:
                raise InputError("modulus: a boolean circuit is evaluated over {0, 1}")
            out = self._c.eval_boolean(np.ascontiguousarray(a != 0, dtype=np.uint8)).astype(bool)
        elif exact:
            rows = [[_exact_text(x, f"inputs[{i}][{j}]") for j, x in enumerate(r)]
                    for i, r in enumerate(a)]
            out = np.array([[Fraction(x) for x in r] for r in self._c.eval_exact(rows)],
                           dtype=object).reshape(len(rows), len(self.output_names))
        else:
            p = (1 << 61) - 1 if modulus is None else int(modulus)
            out = self._c.eval_modp(np.ascontiguousarray(np.mod(a.astype(object), p)
                                                         .astype(np.uint64)), p)
        return out[0] if single else out

    def draw(self, *, collapse: bool = False, highlight_critical: bool = False,
             max_nodes: int = 4000, title: str = "", format: str = "svg"):
        """The diagram ``rnncc draw`` writes (Graphviz): SVG text (format "svg"), PNG bytes
        ("png") or DOT text ("dot"). Raises RuntimeError when built without Graphviz."""
        data = self._c.draw(format, collapse, highlight_critical, max_nodes, title)
        return data if format == "png" else data.decode()

    def _repr_svg_(self):
        return self.draw()

    def __repr__(self):
        s = self.stats()
        return (f"Circuit(size={s['size']}, depth={s['depth']}, inputs={s['inputs']}, "
                f"outputs={s['outputs']})")


def load_circuit(path) -> Circuit:
    """Read a circuit file: .json, .aig/.aag, .blif or .bench (by extension)."""
    return Circuit(_rnncc.load_circuit(str(path)))


def compile(model, n: int, target: str = "arith", *, precision: str = "exact",
            scan: str = "brent-kung", outputs: str = "last", structure: str = "auto",
            max_gates: int = 1 << 28, rounding: str = "nearest-even",
            overflow: str = "saturate", int_bits: int | None = None,
            max_states: int = 4096) -> Circuit:
    """``rnncc compile MODEL --length n --target T ...``: a Model (or a model file's path)."""
    if not isinstance(model, Model):
        model = load_model(model)
    a = _rnncc.CompileArgs()
    a.target, a.precision, a.scan, a.outputs = target, precision, scan, outputs
    a.structure, a.rounding, a.overflow = structure, rounding, overflow
    a.max_gates, a.max_states, a.int_bits = max_gates, max_states, int_bits
    return Circuit(_rnncc.compile(model._m, int(n), a))


# --- checks and measurements ------------------------------------------------------------------


def verify(kind: str, input: str | None = None, *, random: int | None = None,
           length: int = 40, exhaustive: int | bool | None = None, identity: int = 0,
           identity_length: int = 8, seed: int | None = None, prove: bool = True,
           timing: bool = True, device: str = "cpu", max_work: int = 2**34, **options) -> dict:
    """``rnncc verify KIND [INPUT] ... --json``: the report as a dict (``report["holds"]``).

    ``options`` are the kind's own options (``rnncc verify KIND --help``), with _ for -:
    ``verify("mod-count", k=3)``, ``verify("model", "m.json", ...)``; True gives a flag.
    ``exhaustive=True`` on a fixed-length domain checks all of it; an int L: lengths 1..L.
    ``max_work``: refuse (InputError) checks estimated above this many symbol steps, as
    ``--max-work`` does (random R strings of length ≤ L: R·L; exhaustive; identity rounds)."""
    if device not in ("cpu", "gpu"):
        raise InputError(f"device: '{device}': expected cpu or gpu")
    args = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            args.append((flag, ""))
        elif value is False or value is None:
            continue
        elif isinstance(value, (list, tuple)):
            args.append((flag, ",".join(_exact_text(x, flag) for x in value)))
        else:
            args.append((flag, _exact_text(value, flag)))
    ex = None if exhaustive is None or exhaustive is False else (
        0 if exhaustive is True else int(exhaustive))
    return _rnncc.verify(kind, "" if input is None else str(input), args,
                         200 if random is None else int(random), random is not None, int(length),
                         ex, int(identity), int(identity_length), seed, prove, timing,
                         device == "gpu", int(max_work))


def verify_kinds() -> list[str]:
    """The kinds ``verify`` takes."""
    return list(_rnncc.verify_kinds())


def equiv(a, b, *, method: str = "auto", modulus: int | None = None,
          certificate=None, timing: bool = True, max_work: int = 1 << 30) -> dict:
    """``rnncc equiv A B ... --json``: model / WFA files; ``report["proved"]``, and the shortest
    counterexample when refuted."""
    return _rnncc.equiv(str(a), str(b), method, modulus,
                        "" if certificate is None else str(certificate), timing, int(max_work))


def depth(arch: str | Sequence[str] | None = None, *, models: Sequence | None = None,
          lengths: str | None = None, target: str = "arith", max_gates: int = 1 << 26,
          fits: bool = False):
    """``rnncc depth``: one dict per (architecture, n) — arch, n, size, depth,
    bounded_fanin_depth. ``fits=True``: the whole ``rnncc depth --json`` document (points,
    fitted growth laws chosen by AICc, skipped)."""
    if isinstance(arch, (list, tuple)):
        arch = ",".join(arch)
    report = _rnncc.depth(arch, [str(m) for m in (models or [])], lengths, target, max_gates,
                          fits)
    return report if fits else report["points"]
