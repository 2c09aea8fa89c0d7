"""Models, WFAs and runs (private to the package; ``rnncc.Model``, ``rnncc.load_model``, … are
the names users import): the objects over the library's, their readers, and a run's outputs in
the precision's type."""

from __future__ import annotations

import dataclasses as _dataclasses
import os as _os
from fractions import Fraction as _Fraction
from typing import Any as _Any

from . import _rnncc
from ._common import (_array, _flag, _fraction, _keywords, _np, _optional_integer, _path,
                      _readable, _strings, _text, _writable)
from ._rnncc import InputError


def _outputs(rows, kind: str):
    """One run's y_1..y_n (text, per position r×m) in the precision's type."""
    if kind == "exact":
        nested = [[[_fraction(x) for x in r] for r in y] for y in rows]
        return _array(nested, dtype=object)
    if kind == "mod":
        nested = [[[int(x) for x in r] for r in y] for y in rows]
        np = _np()
        return nested if np is None else np.array(nested, dtype=np.uint64)
    nested = [[[float(_fraction(x)) for x in r] for r in y] for y in rows]
    np = _np()
    return nested if np is None else np.array(nested, dtype=np.float64)


def _flags(values):
    """A list of True/False/None as a bool array (object where some entry is None)."""
    np = _np()
    if np is None:
        return list(values)
    values = list(values)
    return np.array(values, dtype=object if any(v is None for v in values) else bool)


@_dataclasses.dataclass(frozen=True)
class Run:
    """One input's run (:meth:`Model.run` on one string).

    Attributes
    ----------
    input : str
        The input string.
    semantics : str
        The arithmetic used ("exact", "mod 7", "fixed(I=2,F=2,nearest-even,saturate)").
    outputs : numpy.ndarray or list
        y_t for t = 1..n, shape (n, r, m): ``fractions.Fraction`` for ``precision="exact"``,
        ``uint64`` residues for ``"mod:P"``, ``float64`` for ``"log:C"`` (each fixed-point value
        is exactly a float). Nested lists without numpy.
    accept : numpy.ndarray or list
        The verdict per position: True/False, None where undefined (mod p).
    accepted : bool or None
        The verdict on the whole input.
    symbols : list of str
        The input's symbols, one per position.
    report : dict
        The run's part of ``rnncc run --json``.

    Examples
    --------
    >>> rnncc.load_model("examples/mamba_diagonal.json").run("ab")
    Run(input='ab', semantics='exact', accepted=False)
    """

    input: str
    semantics: str
    outputs: _Any = _dataclasses.field(repr=False)
    accept: _Any = _dataclasses.field(repr=False)
    accepted: bool | None
    symbols: list = _dataclasses.field(repr=False)
    report: dict = _dataclasses.field(repr=False)

    @classmethod
    def _of(cls, report: dict, precision: str) -> "Run":
        return cls(
            input=report["input"], semantics=report["semantics"],
            outputs=_outputs([p["output"] for p in report["positions"]], precision.split(":")[0]),
            accept=[p.get("accept") for p in report["positions"]],
            accepted=report.get("accepted"),
            symbols=[p["symbol"] for p in report["positions"]], report=report)


@_dataclasses.dataclass(frozen=True)
class Runs:
    """A batch of runs (:meth:`Model.run` on a list of strings), stacked.

    Attributes
    ----------
    inputs : list of str
        The input strings, in order.
    semantics : str
        The arithmetic used (as :attr:`Run.semantics`).
    outputs : numpy.ndarray or list
        Shape (batch, n, r, m) when every input has the same length n; otherwise a list of
        each input's (n_i, r, m) outputs.
    accept : numpy.ndarray or list
        Shape (batch, n): the verdict per position (a list of lists for ragged lengths).
    accepted : numpy.ndarray or list
        Shape (batch,): the verdict per input (None where undefined).
    runs : list of Run
        Each input's own :class:`Run`.
    report : dict
        The document ``rnncc run MODEL INPUT... --json`` prints.

    Examples
    --------
    >>> b = rnncc.load_model("examples/mamba_diagonal.json").run(["ab", "aa"])
    >>> len(b), b.outputs.shape, b[1].accepted
    (2, (2, 2, 1, 1), True)
    """

    inputs: list
    semantics: str
    outputs: _Any = _dataclasses.field(repr=False)
    accept: _Any = _dataclasses.field(repr=False)
    accepted: _Any
    runs: list = _dataclasses.field(repr=False)
    report: dict = _dataclasses.field(repr=False)

    def __len__(self):
        return len(self.runs)

    def __iter__(self):
        return iter(self.runs)

    def __getitem__(self, k):
        return self.runs[k]


class Model:
    """A model (docs/formats.md): from a file (:func:`load_model`), a JSON text
    (:func:`parse_model`) or a family builder (:class:`families`).

    Examples
    --------
    >>> m = rnncc.load_model("examples/mamba_diagonal.json")
    >>> m.name, m.alphabet
    ('mamba-decaying-vote', ['a', 'b'])
    """

    def __init__(self, native):
        # Made by the package from the library's object, never by hand.
        if not isinstance(native, _rnncc.Model):
            raise TypeError("rnncc.Model cannot be created directly; use rnncc.load_model, "
                            "rnncc.parse_model or rnncc.families")
        self._m = native

    @property
    def name(self) -> str:
        """The model's name (its file's "name")."""
        return self._m.name

    @property
    def description(self) -> str:
        """The model's description (its file's "description")."""
        return self._m.description

    @property
    def alphabet(self) -> list:
        """The input symbols, in order."""
        return list(self._m.alphabet)

    def describe(self) -> str:
        """The layers, as ``rnncc run`` prints them.

        Returns
        -------
        str
            One entry per layer, e.g. "lrnn/mamba2 d=2 m=1".

        Examples
        --------
        >>> rnncc.load_model("examples/mamba_diagonal.json").describe()
        'lrnn/mamba2 d=2 m=1'
        """
        return self._m.describe()

    def to_json(self) -> dict:
        """The model file's document (what :meth:`save` writes).

        Returns
        -------
        dict
            The ``rnncc-model/1`` document.

        Examples
        --------
        >>> rnncc.load_model("examples/mamba_diagonal.json").to_json()["format"]
        'rnncc-model/1'
        """
        return self._m.to_json()

    @_keywords()
    def save(self, path) -> None:
        """Write the model file (``rnncc-model/1`` JSON), atomically.

        Parameters
        ----------
        path : str or os.PathLike
            Where to write.

        Raises
        ------
        OSError
            When the file cannot be written (no such directory, a directory, no permission).

        Examples
        --------
        >>> import tempfile, os
        >>> d = tempfile.mkdtemp()
        >>> rnncc.load_model("examples/mamba_diagonal.json").save(os.path.join(d, "m.json"))
        >>> rnncc.load_model(os.path.join(d, "m.json")).describe()
        'lrnn/mamba2 d=2 m=1'
        """
        self._m.save(_writable(path))

    @_keywords({"precision": "precision"})
    def run(self, inputs, precision: str = "exact", *, int_bits: int | None = None,
            rounding: str | None = None, overflow: str | None = None, scan: str | None = None):
        """Run on one input string, or on a batch (``rnncc run MODEL INPUT... --precision P``).

        Parameters
        ----------
        inputs : str or iterable of str
            One input string, or several.
        precision : str, default "exact"
            "exact" (rationals), "mod:P" (the prime field F_P) or "log:C" (fixed point with
            C·⌈log₂(n+1)⌉ fraction bits).
        int_bits, rounding, overflow : optional
            The fixed-point options of "log:C" (as the CLI's ``--int-bits``, ``--rounding``
            nearest-even|toward-zero, ``--overflow`` saturate|error).
        scan : str, optional
            The function the circuit of this prefix network computes (``rnncc run --scan``):
            at "log:C" a tree scan ("brent-kung", "sklansky", …) rounds its compositions (the
            scan-rounded function, docs/semantics.md), which is what ``compile(…,
            target="boolean", scan=…)`` computes; "sequential", exact and "mod:P" give the
            reference run.

        Returns
        -------
        Run or Runs
            A :class:`Run` for one string; a :class:`Runs` (outputs stacked to shape
            (batch, n, r, m) when the lengths agree) for several.

        Raises
        ------
        InputError
            A symbol outside the alphabet, a bad precision, an option that does not apply.

        Examples
        --------
        >>> m = rnncc.load_model("examples/mamba_diagonal.json")
        >>> m.run("abb").outputs[:, 0, 0]
        array([Fraction(1, 1), Fraction(-1, 2), Fraction(-5, 4)], dtype=object)
        >>> b = m.run(["ab", "ba", "aa"], "mod:7")
        >>> b.outputs.shape, b.outputs[:, -1, 0, 0], b.accepted
        ((3, 2, 1, 1), array([3, 4, 5], dtype=uint64), array([None, None, None], dtype=object))
        """
        single = isinstance(inputs, str)
        strings = _strings(inputs, "inputs")
        report = self.run_report(strings, precision, int_bits=int_bits, rounding=rounding,
                                 overflow=overflow, scan=scan)
        runs = [Run._of(r, precision) for r in report["runs"]]
        if single:
            return runs[0]
        np = _np()
        same = len({len(r.symbols) for r in runs}) <= 1
        if same and np is not None and runs:
            outputs = np.stack([r.outputs for r in runs])
            accept = np.array([r.accept for r in runs],
                              dtype=object if any(a is None for r in runs for a in r.accept)
                              else bool)
        elif same and np is not None:
            outputs, accept = np.zeros((0,)), np.zeros((0,), dtype=bool)
        else:
            outputs = [r.outputs for r in runs]
            accept = [r.accept for r in runs]
        return Runs(inputs=strings, semantics=runs[0].semantics if runs else precision,
                    outputs=outputs, accept=accept, accepted=_flags(r.accepted for r in runs),
                    runs=runs, report=report)

    @_keywords()
    def run_report(self, inputs, precision: str = "exact", *, trace: bool = False,
                   int_bits: int | None = None, rounding: str | None = None,
                   overflow: str | None = None, scan: str | None = None) -> dict:
        """The document ``rnncc run MODEL INPUT... --json [--trace]`` prints.

        Parameters
        ----------
        inputs : iterable of str
            The input strings.
        precision : str, default "exact"
            As in :meth:`run`.
        trace : bool, default False
            Include every layer's state at every position.
        int_bits, rounding, overflow, scan : optional
            As in :meth:`run`.

        Returns
        -------
        dict
            ``{"format", "model", "runs": [...]}`` as the CLI prints it.

        Raises
        ------
        InputError
            As :meth:`run`.

        Examples
        --------
        >>> m = rnncc.load_model("examples/mamba_diagonal.json")
        >>> m.run_report(["ab"], "log:1")["runs"][0]["semantics"]
        'fixed(I=2,F=2,nearest-even,saturate)'
        """
        return self._m.run_report(
            _strings(inputs, "inputs"), _text(precision, "precision"),
            _optional_integer(int_bits, "int_bits", 0, (1 << 32) - 1),
            None if rounding is None else _text(rounding, "rounding"),
            None if overflow is None else _text(overflow, "overflow"), _flag(trace, "trace"),
            None if scan is None else _text(scan, "scan"))

    @_keywords()
    def one_hot(self, inputs):
        """Circuit inputs x[t,σ] of strings of one length n (what :meth:`Circuit.eval` takes).

        Parameters
        ----------
        inputs : str or iterable of str
            Strings of one length n.

        Returns
        -------
        numpy.ndarray or list
            Shape (strings, n·|Σ|), uint8, t-major (list of lists without numpy).

        Raises
        ------
        InputError
            A symbol outside the alphabet, or strings of different lengths.

        Examples
        --------
        >>> rnncc.load_model("examples/mamba_diagonal.json").one_hot(["ab", "bb"]).tolist()
        [[1, 0, 0, 1], [0, 1, 0, 1]]
        """
        strings = _strings(inputs, "inputs")
        sigma = len(self.alphabet)
        rows = []
        for s in strings:
            ids = self._m.tokenize(s)
            row = [0] * (len(ids) * sigma)
            for t, k in enumerate(ids):
                row[t * sigma + k] = 1
            rows.append(row)
        if len({len(r) for r in rows}) > 1:
            raise InputError("inputs: strings of different lengths (a circuit has one length)")
        np = _np()
        return rows if np is None else np.array(rows, dtype=np.uint8).reshape(len(rows), -1)

    def __repr__(self):
        return f"Model({self.name!r}: {self.describe()}, alphabet={self.alphabet})"


class WFA:
    """A weighted finite automaton (docs/formats.md, "WFA files"): f(w) = α·M_w1⋯M_wn·β over Q.

    From :func:`load_wfa` (AT&T text or ``rnncc-wfa/1`` JSON) or :func:`parse_wfa`.

    Examples
    --------
    >>> w = rnncc.load_wfa("examples/wfa_binary_value.att")
    >>> w, w("101")
    (WFA(states=2, alphabet=['0', '1'], deterministic=False), Fraction(5, 1))
    """

    def __init__(self, native):
        if not isinstance(native, _rnncc.Wfa):
            raise TypeError("rnncc.WFA cannot be created directly; use rnncc.load_wfa or "
                            "rnncc.parse_wfa")
        self._w = native

    @property
    def alphabet(self) -> list:
        """The symbols, in order of first appearance in the file."""
        return list(self._w.alphabet)

    @property
    def states(self) -> int:
        """The number of states."""
        return self._w.states

    @property
    def deterministic(self) -> bool:
        """Whether α has one nonzero entry and every row of every M_σ at most one."""
        return self._w.deterministic

    @_keywords()
    def __call__(self, input: str) -> _Fraction:
        """f(input), exactly.

        Parameters
        ----------
        input : str
            A string over the alphabet.

        Returns
        -------
        fractions.Fraction

        Raises
        ------
        InputError
            A symbol outside the alphabet.

        Examples
        --------
        >>> rnncc.load_wfa("examples/wfa_binary_value.att")("11")
        Fraction(3, 1)
        """
        return _Fraction(self._w.evaluate(_text(input, "input")))

    def to_json(self) -> dict:
        """The ``rnncc-wfa/1`` document of this WFA.

        Returns
        -------
        dict

        Examples
        --------
        >>> rnncc.load_wfa("examples/wfa_binary_value.att").to_json()["initial"]
        ['1', '0']
        """
        return self._w.to_json()

    def __repr__(self):
        return (f"WFA(states={self.states}, alphabet={self.alphabet}, "
                f"deterministic={self.deterministic})")


@_keywords()
def load_model(path) -> Model:
    """Read a model file (``rnncc-model/1`` JSON, docs/formats.md).

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    Model

    Raises
    ------
    OSError
        The file cannot be opened (FileNotFoundError, IsADirectoryError, PermissionError).
    InputError
        Malformed content, naming file:line:column or the JSON path.

    Examples
    --------
    >>> rnncc.load_model("examples/s5_word_problem.json").describe()
    'lrnn/pd d=25 m=1'
    """
    return Model(_rnncc.load_model(_readable(_os.fspath(path))))


@_keywords()
def parse_model(text: str, source: str = "<string>") -> Model:
    """Read a model from its JSON text.

    Parameters
    ----------
    text : str
        The ``rnncc-model/1`` document.
    source : str, default "<string>"
        The name diagnostics give it.

    Returns
    -------
    Model

    Raises
    ------
    InputError
        Malformed content, naming source:line:column or the JSON path.

    Examples
    --------
    >>> import json
    >>> text = json.dumps(rnncc.load_model("examples/mamba_diagonal.json").to_json())
    >>> rnncc.parse_model(text).name
    'mamba-decaying-vote'
    """
    return Model(_rnncc.parse_model(_text(text, "text"), _text(source, "source")))


@_keywords()
def load_wfa(path) -> WFA:
    """Read a WFA file: ``rnncc-wfa/1`` JSON (by the .json extension) or AT&T text.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    WFA

    Raises
    ------
    OSError
        The file cannot be opened.
    InputError
        Malformed content, naming file:line:column or the JSON path.

    Examples
    --------
    >>> rnncc.load_wfa("examples/wfa_binary_value.wfa.json").states
    2
    """
    return WFA(_rnncc.load_wfa(_readable(_os.fspath(path))))


@_keywords()
def parse_wfa(text: str, source: str = "<string>.att") -> WFA:
    """Read a WFA from its text: JSON when ``source`` ends in .json, else AT&T text.

    Parameters
    ----------
    text : str
        The file's content.
    source : str, default "<string>.att"
        The name diagnostics give it; its extension picks the format.

    Returns
    -------
    WFA

    Raises
    ------
    InputError
        Malformed content, naming source:line:column or the JSON path.

    Examples
    --------
    >>> w = rnncc.parse_wfa("0 0 a\\n0 0 b\\n0 1 a\\n1 1 a\\n1 1 b\\n1\\n")  # counts the a's
    >>> w("abab")
    Fraction(2, 1)
    """
    return WFA(_rnncc.parse_wfa(_text(text, "text"), _text(source, "source")))


def _subject(x, name: str):
    """A Model or WFA object as the native object, a path as text (checked readable)."""
    if isinstance(x, Model):
        return x._m
    if isinstance(x, WFA):
        return x._w
    p = _path(x)
    if p is None:
        raise InputError(f"{name}: expected a Model, a WFA or a file's path, got "
                         f"{type(x).__name__}")
    return _readable(p)
