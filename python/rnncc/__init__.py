"""rnncc for Python: state sequence models exactly, run them, compile them into circuits, verify.

A thin layer over the extension module ``rnncc._rnncc`` (python/bindings.cpp), which calls the
same library functions as the ``rnncc`` command. Models, WFAs and circuits are objects; checks
return typed results (:class:`Verdict`, :class:`Minimized`, :class:`DepthTable`), each keeping
the document ``rnncc ... --json`` prints as ``.report``. Exact values are
``fractions.Fraction``; numpy is optional: without it every result is a list, with it arrays.
docs/python.md is the guide, with a real output of every call.
"""

from __future__ import annotations

import dataclasses as _dataclasses
import errno as _errno
import functools as _functools
import numbers as _numbers
import os as _os
import re as _re
import tempfile as _tempfile
from collections.abc import Iterable as _Iterable
from collections.abc import Mapping as _Mapping
from fractions import Fraction as _Fraction
from typing import Any as _Any

from . import _rnncc
from ._rnncc import DomainError, InputError

# Tracebacks name them where users import them from: rnncc.InputError, not rnncc._rnncc.…
InputError.__module__ = DomainError.__module__ = "rnncc"

__version__ = _rnncc.__version__

__all__ = [
    "__version__",
    "InputError",
    "DomainError",
    "Model",
    "WFA",
    "Run",
    "Runs",
    "Circuit",
    "Verdict",
    "Counterexample",
    "Claim",
    "Minimized",
    "DepthPoint",
    "DepthTable",
    "load_model",
    "parse_model",
    "load_wfa",
    "parse_wfa",
    "load_circuit",
    "compile",
    "draw",
    "verify",
    "verify_kinds",
    "equiv",
    "check_certificate",
    "CertificateCheck",
    "minimize",
    "depth",
    "families",
    "has_graphviz",
    "importing",
    "from_arrays",
    "import_weights",
    "Imported",
    "Agreement",
]

has_graphviz = _rnncc.has_graphviz


# --- numpy, when it imports ---------------------------------------------------------------------

_numpy: _Any = None
_numpy_tried = False


def _np():
    """numpy, or None when it does not import (every function then works on lists)."""
    global _numpy, _numpy_tried
    if not _numpy_tried:
        _numpy_tried = True
        try:
            import numpy
        except ImportError:
            numpy = None
        _numpy = numpy
    return _numpy


def _array(rows, dtype=None):
    """rows as a numpy array when numpy imports, else the (nested) list itself."""
    np = _np()
    if np is None:
        return rows
    return np.array(rows, dtype=dtype)


# --- diagnostics in Python's words ------------------------------------------------------------

_FLAG = _re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?: ([^\s,;()]*[\d:][^\s,;()]*))?")
_HELP = _re.compile(r"\(?`?rnncc verify ([\w-]+) --help`?( lists?[^)]*)?\)?")


def _python_words(message: str, names: dict | None = None) -> str:
    """The library's diagnostic with each CLI flag said as the Python keyword: ``--max-work`` →
    ``max_work``, ``--precision log:C`` → ``precision="log:C"``, ``--random 200`` →
    ``random=200``."""
    message = _HELP.sub("(rnncc.verify_kinds() lists the kinds; the kind's options are "
                        "keywords of rnncc.verify)", message)

    def keyword(m):
        name = (names or {}).get(m.group(1), m.group(1).replace("-", "_"))
        value = m.group(2)
        if value is None:
            return name
        return f"{name}={value}" if _re.fullmatch(r"-?\d+", value) else f'{name}="{value}"'

    return _FLAG.sub(keyword, message)


def _keywords(names: dict | None = None):
    """Decorator: InputError and DomainError raised inside say Python keywords, not flags."""

    def wrap(f):
        @_functools.wraps(f)
        def inner(*args, **kwargs):
            try:
                return f(*args, **kwargs)
            except (InputError, DomainError) as e:
                text = str(e)
                better = _python_words(text, names)
                if better == text:
                    raise
                raise type(e)(better) from None

        return inner

    return wrap


# --- files ------------------------------------------------------------------------------------


def _path(x) -> str | None:
    """A path given as str or os.PathLike, as text; None for anything else."""
    if isinstance(x, (str, _os.PathLike)):
        return _os.fspath(x)
    return None


def _readable(path: str) -> str:
    """``path`` if it opens for reading; else the OSError (FileNotFoundError, IsADirectoryError,
    PermissionError, …) naming it."""
    with open(path, "rb"):
        pass
    return path


def _writable(path) -> str:
    """``path`` if a file can be written there; else the OSError naming it."""
    path = _os.fspath(path)
    if _os.path.isdir(path):
        raise IsADirectoryError(_errno.EISDIR, _os.strerror(_errno.EISDIR), path)
    parent = _os.path.dirname(path) or "."
    if not _os.path.isdir(parent):
        raise FileNotFoundError(_errno.ENOENT, f"no directory {parent}", path)
    if not _os.access(parent, _os.W_OK):
        raise PermissionError(_errno.EACCES, _os.strerror(_errno.EACCES), path)
    return path


# --- arguments --------------------------------------------------------------------------------
# Every entry point checks its arguments before any work (docs/python.md, "Errors"): a value of
# the wrong type raises TypeError, a value out of range InputError (a ValueError), each naming
# the keyword. int(2.5) is 2 and bool(nan) is True, so nothing is converted by int() or bool().

_SIZE_MAX = (1 << 64) - 1


def _shown(x) -> str:
    """x for a message: its type and a repr of at most 40 characters."""
    r = repr(x)
    return f"{type(x).__name__} {r if len(r) <= 40 else r[:37] + '...'}"


def _integer(x, name: str, minimum: int = 0, maximum: int = _SIZE_MAX) -> int:
    """An integer argument in minimum..maximum: an int or a numpy integer, not a bool and not a
    float (2.5 is no count, and a NaN no limit)."""
    if _is_bool(x) or not isinstance(x, _numbers.Integral):
        raise TypeError(f"{name}: expected an integer, got {_shown(x)}")
    x = int(x)
    if x < minimum:
        raise InputError(f"{name}: {x}: expected an integer ≥ {minimum}")
    if x > maximum:
        raise InputError(f"{name}: {x}: expected an integer ≤ {maximum}")
    return x


def _optional_integer(x, name: str, minimum: int = 0, maximum: int = _SIZE_MAX):
    return None if x is None else _integer(x, name, minimum, maximum)


def _flag(x, name: str) -> bool:
    """A True/False argument (a numpy bool too); 1, "yes" and NaN are refused, not read as True."""
    if isinstance(x, bool) or (_is_bool(x) and getattr(x, "shape", None) == ()):
        return bool(x)
    raise TypeError(f"{name}: expected True or False, got {_shown(x)}")


def _optional_flag(x, name: str):
    return None if x is None else _flag(x, name)


def _text(x, name: str) -> str:
    """A string argument (a keyword's value, a name); None, numbers and bytes are refused."""
    if not isinstance(x, str):
        raise TypeError(f"{name}: expected a string, got {_shown(x)}")
    return x


def _strings(x, name: str) -> list:
    """Input strings: one str, or an iterable of str (not empty, as the CLI takes at least one)."""
    if isinstance(x, str):
        return [x]
    if not isinstance(x, _Iterable) or isinstance(x, (bytes, _Mapping)):
        raise TypeError(f"{name}: expected a string or a list of strings, got {_shown(x)}")
    out = list(x)
    for i, s in enumerate(out):
        if not isinstance(s, str):
            raise TypeError(f"{name}[{i}]: expected a string, got {_shown(s)}")
    if not out:
        raise InputError(f"{name}: no input strings")
    return out


def _max_memory(x):
    """The max_memory keyword: MiB, or None for the default (half the machine's memory)."""
    return _optional_integer(x, "max_memory", 1)


# --- exact numbers ----------------------------------------------------------------------------


def _is_bool(x) -> bool:
    return isinstance(x, bool) or (getattr(x, "dtype", None) is not None and x.dtype.kind == "b")


def _exact_text(x, where: str) -> str:
    """An exact rational as text "p/q": ints, numpy integers, Fractions and "p/q" strings.

    Floats are refused: 0.1 is no exact number (write Fraction(1, 10) or "1/10")."""
    if _is_bool(x):
        return "1" if x else "0"
    if isinstance(x, _numbers.Integral):
        return _int_text(int(x))
    if isinstance(x, _Fraction):
        n = _int_text(x.numerator)
        return n if x.denominator == 1 else f"{n}/{_int_text(x.denominator)}"
    if isinstance(x, str):
        return x
    if isinstance(x, _numbers.Rational):
        return _exact_text(_Fraction(x.numerator, x.denominator), where)
    raise InputError(
        f"{where}: {x!r}: expected an exact rational (int, fractions.Fraction or a string such "
        "as '1/2'); floats are not exact"
    )


def _bit(x, where: str) -> int:
    """An input of a boolean circuit: 0 or 1 exactly (False, True, 0.0 and 1.0 too); NaN, 0.5,
    2 and −1 are refused (they were read as 1: anything nonzero)."""
    if _is_bool(x) or (isinstance(x, _numbers.Real) and getattr(x, "shape", ()) == ()):
        if x == 0 or x == 1:
            return 1 if x == 1 else 0
        raise InputError(f"{where}: {x!r}: expected 0 or 1 (False or True), an input of a "
                         f"boolean circuit")
    raise TypeError(f"{where}: expected 0 or 1, got {_shown(x)}")


def _residue(x, where: str) -> int:
    """An input of an arithmetic circuit over F_p: an integer (reduced mod p by the caller); a
    float is refused, not truncated."""
    if _is_bool(x) or isinstance(x, _numbers.Integral):
        return int(x)
    raise TypeError(f"{where}: expected an integer residue, got {_shown(x)}")


def _listed(x):
    """A numpy array (or scalar) as nested Python lists; sequences as lists; others as they are."""
    if hasattr(x, "tolist") and hasattr(x, "shape"):
        return x.tolist() if x.shape != () else x
    if isinstance(x, (list, tuple, range)):
        return list(x)
    return x


def _is_seq(x) -> bool:
    return isinstance(x, (list, tuple, range)) or (hasattr(x, "shape") and x.shape != ())


def _plain(row: list) -> bool:
    """Every entry a plain int or str (no bools, no nested lists): the fast path of _texts."""
    return set(map(type, row)) <= {int, str}


def _texts(row: list, where: str) -> list[str]:
    """A row of exact entries as text. Rows of plain ints and strings (what numpy's tolist()
    gives) take one pass of str(), ten times faster than entry by entry; anything else, and ints
    too long for str(), go through _exact_text."""
    if _plain(row):
        try:
            return [x if type(x) is str else str(x) for x in row]
        except ValueError:  # an int beyond str()'s 4300 digits
            pass
    return [_exact_text(x, f"{where}[{j}]") for j, x in enumerate(row)]


def _vector(v, where: str, scalar_ok: bool = False) -> list[str]:
    v = _listed(v)
    if not isinstance(v, list):
        if not scalar_ok:
            raise InputError(f"{where}: expected a vector (a list or a 1-D array), got {v!r}")
        v = [v]
    if not _plain(v) and any(_is_seq(x) for x in v):
        raise InputError(f"{where}: expected a vector (a list or a 1-D array), got nested lists")
    return _texts(v, where)


def _scalar_or_vector(v, where: str) -> list[str]:
    return _vector(v, where, scalar_ok=True)


def _matrix(m, where: str) -> list[list[str]]:
    m = _listed(m)
    if not isinstance(m, list):
        raise InputError(f"{where}: expected a matrix (a list of rows or a 2-D array), got {m!r}")
    if m and not any(_is_seq(r) for r in m):
        m = [[x] for x in m]  # a vector is a column
    rows = []
    for i, r in enumerate(m):
        r = _listed(r)
        if not isinstance(r, list):
            raise InputError(f"{where}: expected a matrix (a list of rows or a 2-D array)")
        if not _plain(r) and any(_is_seq(x) for x in r):
            raise InputError(f"{where}: expected a matrix (a list of rows or a 2-D array)")
        rows.append(_texts(r, f"{where}[{i}]"))
    return rows


def _image_list(p, where: str) -> list[int]:
    """P as its image list: a list of row indices, or a 0/1 column-one-hot matrix."""
    a = _listed(p)
    if not isinstance(a, list):
        raise InputError(f"{where}: expected a list of row indices or a square 0/1 matrix")
    if not any(_is_seq(x) for x in a):
        out = []
        for j, x in enumerate(a):
            if _is_bool(x) or not isinstance(x, _numbers.Integral) or x < 0:
                raise InputError(f"{where}[{j}]: {x!r}: expected a row index (an integer ≥ 0)")
            out.append(int(x))
        return out
    a = [_listed(r) for r in a]
    if any(not isinstance(r, list) or len(r) != len(a) for r in a):
        raise InputError(f"{where}: expected a list of row indices or a square 0/1 matrix")
    out = []
    for j in range(len(a)):
        column = [a[i][j] for i in range(len(a))]
        ones = [i for i, x in enumerate(column) if x == 1]
        if len(ones) != 1 or any(x not in (0, 1) for x in column):
            nonzero = sum(1 for x in column if x != 0)
            raise InputError(f"{where}: expected a column-one-hot 0/1 matrix: column {j} has "
                             f"{nonzero} nonzero entries")
        out.append(ones[0])
    return out


def _per_symbol(values, alphabet: list[str], name: str, convert):
    """Per-symbol parameters: a dict keyed by symbol, or a sequence / stacked array whose first
    axis runs over the alphabet in order."""
    if isinstance(values, _Mapping):
        missing = [s for s in alphabet if s not in values]
        if missing:
            raise InputError(f"{name}: no entry for symbol(s) {', '.join(missing)}")
        extra = [s for s in values if s not in alphabet]
        if extra:
            raise InputError(f"{name}: symbol(s) {', '.join(map(str, extra))} not in the alphabet")
        return [convert(values[s], f"{name}['{s}']") for s in alphabet]
    if _is_seq(values):
        rows = _listed(values)
        if len(rows) != len(alphabet):
            raise InputError(f"{name}: expected one entry per symbol of the alphabet "
                             f"({len(alphabet)}: {', '.join(alphabet)}), got {len(rows)}")
        return [convert(r, f"{name}['{s}']") for s, r in zip(alphabet, rows)]
    raise InputError(f"{name}: expected a dict keyed by symbol, or one entry per symbol in "
                     f"alphabet order (a list or an array stacked on its first axis)")


def _symbols(alphabet) -> list:
    """An alphabet argument: a list (or any iterable) of str."""
    if isinstance(alphabet, (bytes, _Mapping)) or not isinstance(alphabet, _Iterable):
        raise TypeError(f"alphabet: expected a list of symbols (str), got {_shown(alphabet)}")
    out = list(alphabet)
    for i, x in enumerate(out):
        if not isinstance(x, str):
            raise TypeError(f"alphabet[{i}]: expected a symbol (str), got {_shown(x)}")
    return out


# --- sizes, before anything is converted ------------------------------------------------------
# Converting an entry costs about a microsecond in Python; a 5000×5000 matrix took over 30 s
# before the library saw its size. The builders read d and m from the first symbol's entries and
# count the entries given (the innermost lists by len, never entry by entry), and the library
# checks them (_rnncc.check_builder_size: the model file's limits and max_memory) first.


def _rows(x):
    """How many rows (or entries) x has, unconverted; None when it is no sequence."""
    shape = getattr(x, "shape", None)
    if shape is not None:
        return int(shape[0]) if len(shape) else 1
    if isinstance(x, (list, tuple, range)):
        return len(x)
    return 1 if isinstance(x, (_numbers.Number, str)) else None


def _first_row(x):
    """x's first row (or entry), unconverted; None when there is none."""
    if _is_seq(x) and len(x):
        return x[0]
    return None


def _first_symbol(values, alphabet: list):
    """The first symbol's entry of a per-symbol argument, unconverted; None when absent."""
    if not alphabet:
        return None
    if isinstance(values, _Mapping):
        return values.get(alphabet[0])
    return _first_row(values)


def _leaves(x) -> int:
    """The entries of nested lists, arrays and dicts, counted without reading them."""
    if x is None:
        return 0
    if isinstance(x, _Mapping):
        return sum(_leaves(v) for v in x.values())
    size = getattr(x, "size", None)
    if getattr(x, "shape", None) is not None and isinstance(size, int):
        return size
    if isinstance(x, range):
        return len(x)
    if isinstance(x, (list, tuple)):
        if x and (_is_seq(x[0]) or isinstance(x[0], _Mapping)):
            return sum(_leaves(e) for e in x)
        return len(x)
    return 1


def _width(matrix):
    """The columns of a matrix argument (a vector is one column); None when not readable."""
    row = _first_row(matrix)
    if row is None:
        return None
    return _rows(row) if _is_seq(row) else 1


def _state_width(B, initial_state, alphabet: list):
    """m as the library reads it: B's columns when given, else S_0's, else 1."""
    if B is not None:
        return _width(_first_symbol(B, alphabet))
    if initial_state is not None:
        return _width(initial_state)
    return 1


def _check_builder(d, m, alphabet: list, readout, given: tuple, max_memory,
                   where: str) -> None:
    """The library's limits on a layer of d×d (d×m) matrices over the alphabet and on the
    memory of building it, before any entry is converted (skipped when d cannot be read: the
    conversion then says what is wrong, at once)."""
    limit = _max_memory(max_memory)
    if d is None or not alphabet:
        return
    _rnncc.check_builder_size(d, 1 if m is None else m, len(alphabet), _rows(readout) or 0,
                              sum(_leaves(x) for x in given), limit, where)


# Python ≥ 3.11 refuses int(text) and str(int) beyond 4300 decimal digits (CVE-2020-10735); exact
# runs of trained models reach far more (a float64 parameter is a 53-bit dyadic rational, and its
# n-th power has 53·n bits). Longer texts are split in halves: v = high·10^k + low.
_DIGITS = 4000


def _big_int(digits: str) -> int:
    """The integer a decimal text spells, of any length."""
    if digits[:1] in "+-":
        return -_big_int(digits[1:]) if digits[0] == "-" else _big_int(digits[1:])
    if len(digits) <= _DIGITS:
        return int(digits)
    k = len(digits) // 2
    return _big_int(digits[:-k]) * 10**k + _big_int(digits[-k:])


def _int_text(i: int) -> str:
    """The decimal text of an integer of any size."""
    if i < 0:
        return "-" + _int_text(-i)
    if i.bit_length() <= 3 * _DIGITS:  # at most 3612 digits: str() takes it
        return str(i)
    k = int(i.bit_length() * 0.30103) // 2  # about half the digits (log10 2 = 0.30103)
    high, low = divmod(i, 10**k)
    return _int_text(high) + _int_text(low).rjust(k, "0")


def _fraction(text: str) -> _Fraction:
    """An exact value the library printed ("p/q", "-p", "0.125") as a Fraction, of any size."""
    if len(text) <= _DIGITS or "." in text:
        return _Fraction(text)
    numerator, _, denominator = text.partition("/")
    return _Fraction(_big_int(numerator), _big_int(denominator) if denominator else 1)


# --- models and runs --------------------------------------------------------------------------


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


class families:
    """Family builders (rnn/families.hpp): one-layer LRNN models from exact parameters.

    Every entry must be exact: an int (or numpy integer), a ``fractions.Fraction`` or a string
    such as "1/2"; floats are refused. Per-symbol parameters are a dict keyed by symbol, or a
    list / array stacked on its first axis in alphabet order. Every builder also takes
    ``initial_state`` (S_0, d×m; zero unless given), ``readout_bias`` (r×m), ``accept``
    ("positive": y > 0, or "zero"), ``name`` and ``max_memory`` (MiB; default half the
    machine's memory).

    The sizes are checked before any entry is converted: d (from the first symbol's parameter)
    and m within a model file's limits (at most 4096, at most 2^24 dense entries), no argument
    larger than its shape, and the estimated peak memory below ``max_memory`` — an InputError
    otherwise, at once (docs/python.md, "Errors").

    Examples
    --------
    >>> m = rnncc.families.diagonal(["a", "b"], decay=[["1/2"], ["1/2"]],
    ...                             B=[[[1], [0]], [[0], [1]]], readout=[[1, -1]],
    ...                             family="mamba2")
    >>> m.describe()
    'lrnn/mamba2 d=2 m=1'
    """

    @staticmethod
    @_keywords()
    def diagonal(alphabet, decay, B, readout, *, family: str = "diagonal", initial_state=None,
                 readout_bias=None, accept: str = "positive", name: str = "",
                 max_memory: int | None = None) -> Model:
        """A diagonal layer: A_σ = diag(decay[σ]), B_σ = B[σ].

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        decay : dict or stacked array
            Per symbol: d entries (diagonal, gla), one scalar (mamba2), the same for every
            symbol (s4).
        B : dict or stacked array
            Per symbol: d×m (a vector is one column).
        readout : matrix
            r×d.
        family : {"diagonal", "gla", "s4", "mamba2"}
            The family field of the model file.
        initial_state, readout_bias, accept, name, max_memory
            As for every builder (:class:`families`).

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol: a float, a wrong shape, a missing symbol, a value
            the family does not allow.

        Examples
        --------
        >>> v = rnncc.families.diagonal(["a", "b"], decay={"a": "1/2", "b": "1/2"},
        ...     B={"a": [1, 0], "b": [0, 1]}, readout=[[1, -1]], family="mamba2")
        >>> [str(y) for y in v.run("abb").outputs[:, 0, 0]]
        ['1', '-1/2', '-5/4']
        """
        alphabet = _symbols(alphabet)
        first_B = _first_symbol(B, alphabet)
        _check_builder(_rows(first_B), _width(first_B), alphabet, readout,
                       (decay, B, readout, initial_state, readout_bias), max_memory, "B")
        decays = _per_symbol(decay, alphabet, "decay", _scalar_or_vector)
        Bs = _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_diagonal(_text(family, "family"), alphabet, decays, Bs,
                                           _matrix(readout, "readout"), init, bias,
                                           _text(accept, "accept"), _text(name, "name"),
                                           _max_memory(max_memory)))

    @staticmethod
    @_keywords()
    def deltanet(alphabet, k, v, beta, readout, *, alpha=None, family: str = "deltanet",
                 beta_range: str = "any", initial_state=None, readout_bias=None,
                 accept: str = "positive", name: str = "",
                 max_memory: int | None = None) -> Model:
        """The delta rule: A_σ = I − β_σ k_σ k_σᵀ, B_σ = β_σ k_σ v_σᵀ.

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        k, v : dict or stacked array
            Per symbol: the key (d entries) and the value (m entries).
        beta : dict or list
            Per symbol: β_σ.
        readout : matrix
            r×d.
        alpha : dict or stacked array, optional
            gated_deltanet: a scalar per symbol multiplying A; kda: d entries (diag(alpha)).
        family : {"deltanet", "gated_deltanet", "kda"}
        beta_range : {"any", "(0,1)", "(0,1]", "(0,2)", "(0,2]"}
            Checked for every β.
        initial_state, readout_bias, accept, name, max_memory
            As for every builder.

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol (β outside beta_range, a float, a wrong shape).

        Examples
        --------
        >>> p = rnncc.families.deltanet(["0", "1"], k={"0": [0], "1": [1]},
        ...     v={"0": [0], "1": [0]}, beta={"0": 0, "1": 2}, readout=[[1]], initial_state=[[1]])
        >>> [str(p.run(s).outputs[-1, 0, 0]) for s in ["1", "11", "101"]]
        ['-1', '1', '1']
        """
        alphabet = _symbols(alphabet)
        _check_builder(_rows(_first_symbol(k, alphabet)), _rows(_first_symbol(v, alphabet)),
                       alphabet, readout,
                       (k, v, beta, alpha, readout, initial_state, readout_bias), max_memory, "k")
        ks = _per_symbol(k, alphabet, "k", _vector)
        vs = _per_symbol(v, alphabet, "v", _scalar_or_vector)
        betas = _per_symbol(beta, alphabet, "beta", _exact_text)
        alphas = [] if alpha is None else _per_symbol(alpha, alphabet, "alpha",
                                                      _scalar_or_vector)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_delta(_text(family, "family"), alphabet, alphas, betas, ks, vs,
                                        _matrix(readout, "readout"), init, bias,
                                        _text(beta_range, "beta_range"), _text(accept, "accept"),
                                        _text(name, "name"), _max_memory(max_memory)))

    @staticmethod
    @_keywords()
    def general(alphabet, A, readout, *, B=None, initial_state=None, readout_bias=None,
                accept: str = "positive", name: str = "", max_memory: int | None = None) -> Model:
        """Any affine step: S_t = A_σ S_{t−1} + B_σ.

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        A : dict or stacked array
            Per symbol: d×d.
        readout : matrix
            r×d.
        B : dict or stacked array, optional
            Per symbol: d×m; zero when not given.
        initial_state, readout_bias, accept, name, max_memory
            As for every builder.

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol.

        Examples
        --------
        >>> c = rnncc.families.general(["a"], A={"a": [[1, 1], [0, 1]]}, readout=[[1, 0]],
        ...                            initial_state=[[0], [1]])
        >>> [int(y) for y in c.run("aaa").outputs[:, 0, 0]]
        [1, 2, 3]
        """
        alphabet = _symbols(alphabet)
        _check_builder(_rows(_first_symbol(A, alphabet)), _state_width(B, initial_state, alphabet),
                       alphabet, readout, (A, B, readout, initial_state, readout_bias),
                       max_memory, "A")
        As = _per_symbol(A, alphabet, "A", _matrix)
        Bs = [] if B is None else _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_general(alphabet, As, Bs, _matrix(readout, "readout"), init,
                                          bias, _text(accept, "accept"), _text(name, "name"),
                                          _max_memory(max_memory)))

    @staticmethod
    @_keywords()
    def pd(alphabet, P, readout, *, D=None, B=None, permutation: bool = False,
           initial_state=None, readout_bias=None, accept: str = "positive",
           name: str = "", max_memory: int | None = None) -> Model:
        """PD-SSM: A_σ = P_σ·diag(D_σ).

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        P : dict or stacked array
            Per symbol: the image list (P_σ e_j = e_{P[σ][j]}) or a 0/1 column-one-hot matrix.
        readout : matrix
            r×d.
        D : dict or stacked array, optional
            Per symbol: d entries; ones when not given.
        B : dict or stacked array, optional
            Per symbol: d×m; zero when not given.
        permutation : bool, default False
            Require every P_σ to be a permutation (the NC¹ row).
        initial_state, readout_bias, accept, name, max_memory
            As for every builder.

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol (a row index out of range, not one-hot, not a
            permutation).

        Examples
        --------
        >>> c3 = rnncc.families.pd(["a"], P={"a": [1, 2, 0]}, readout=[[1, 0, 0]],
        ...                        initial_state=[1, 0, 0], permutation=True)
        >>> [int(y) for y in c3.run("aaaaaa").outputs[:, 0, 0]]
        [0, 0, 1, 0, 0, 1]
        """
        alphabet = _symbols(alphabet)
        _check_builder(_rows(_first_symbol(P, alphabet)), _state_width(B, initial_state, alphabet),
                       alphabet, readout, (P, D, B, readout, initial_state, readout_bias),
                       max_memory, "P")
        Ps = _per_symbol(P, alphabet, "P", _image_list)
        Ds = [] if D is None else _per_symbol(D, alphabet, "D", _scalar_or_vector)
        Bs = [] if B is None else _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_pd(alphabet, Ps, Ds, Bs, _matrix(readout, "readout"), init,
                                     bias, _flag(permutation, "permutation"),
                                     _text(accept, "accept"), _text(name, "name"),
                                     _max_memory(max_memory)))

    @staticmethod
    @_keywords()
    def dplr(alphabet, D, a, b, readout, *, B=None, initial_state=None, readout_bias=None,
             accept: str = "positive", name: str = "", max_memory: int | None = None) -> Model:
        """Diagonal plus low rank: A_σ = diag(D_σ) − a_σ b_σᵀ (the PNC¹ row).

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        D, a, b : dict or stacked array
            Per symbol: d entries each.
        readout : matrix
            r×d.
        B : dict or stacked array, optional
            Per symbol: d×m; zero when not given.
        initial_state, readout_bias, accept, name, max_memory
            As for every builder.

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol.

        Examples
        --------
        >>> m = rnncc.families.dplr(["x"], D={"x": [1, 1]}, a={"x": [1, 0]}, b={"x": [1, 0]},
        ...                         readout=[[1, 1]], initial_state=[1, 1])
        >>> [int(y) for y in m.run("xx").outputs[:, 0, 0]]
        [1, 1]
        """
        return families._low_rank("dplr", alphabet, D, "D", a, b, B, readout, initial_state,
                                  readout_bias, accept, name, max_memory)

    @staticmethod
    @_keywords()
    def rwkv7(alphabet, w, a, b, readout, *, B=None, initial_state=None, readout_bias=None,
              accept: str = "positive", name: str = "", max_memory: int | None = None) -> Model:
        """RWKV-7's generalized delta rule: A_σ = diag(w_σ) + a_σ b_σᵀ.

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        w, a, b : dict or stacked array
            Per symbol: d entries each.
        readout : matrix
            r×d.
        B : dict or stacked array, optional
            Per symbol: d×m; zero when not given.
        initial_state, readout_bias, accept, name, max_memory
            As for every builder.

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol.

        Examples
        --------
        >>> m = rnncc.families.rwkv7(["x"], w={"x": [1, 1]}, a={"x": [1, 0]}, b={"x": [0, 1]},
        ...                          readout=[[1, 0]], initial_state=[0, 1])
        >>> [int(y) for y in m.run("xx").outputs[:, 0, 0]]
        [1, 2]
        """
        return families._low_rank("rwkv7", alphabet, w, "w", a, b, B, readout, initial_state,
                                  readout_bias, accept, name, max_memory)

    @staticmethod
    def _low_rank(family, alphabet, diagonal, dname, a, b, B, readout, initial_state,
                  readout_bias, accept, name, max_memory):
        alphabet = _symbols(alphabet)
        _check_builder(_rows(_first_symbol(diagonal, alphabet)),
                       _state_width(B, initial_state, alphabet), alphabet, readout,
                       (diagonal, a, b, B, readout, initial_state, readout_bias), max_memory,
                       dname)
        Ds = _per_symbol(diagonal, alphabet, dname, _scalar_or_vector)
        As = _per_symbol(a, alphabet, "a", _scalar_or_vector)
        Bv = _per_symbol(b, alphabet, "b", _scalar_or_vector)
        Bs = [] if B is None else _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_low_rank(family, alphabet, Ds, As, Bv, Bs,
                                           _matrix(readout, "readout"), init, bias,
                                           _text(accept, "accept"), _text(name, "name"),
                                           _max_memory(max_memory)))


# --- circuits ---------------------------------------------------------------------------------


class Circuit:
    """A circuit: compiled from a model (:func:`compile`) or read from a file
    (:func:`load_circuit`). In a notebook it shows as its diagram (:meth:`_repr_svg_`).

    Examples
    --------
    >>> c = rnncc.compile("examples/s5_word_problem.json", 4, "boolean")
    >>> c.size, c.is_boolean, c.output_names
    (25, True, ['accept'])
    """

    #: Above this many gates the notebook diagram is the collapsed view (one box per region).
    svg_full_max_nodes = 600
    #: Above this many regions (or when a drawing is larger than svg_max_bytes), no diagram.
    svg_collapsed_max_nodes = 4000
    #: The largest SVG a notebook is given (bytes).
    svg_max_bytes = 1 << 20

    def __init__(self, native):
        if not isinstance(native, _rnncc.CompiledCircuit):
            raise TypeError("rnncc.Circuit cannot be created directly; use rnncc.compile or "
                            "rnncc.load_circuit")
        self._c = native

    @property
    def size(self) -> int:
        """The number of gates (inputs and constants included), as built."""
        return self._c.size

    @property
    def input_names(self) -> list:
        """The inputs' names, e.g. 'x[1,a]' (position 1, symbol a)."""
        return list(self._c.input_names)

    @property
    def output_names(self) -> list:
        """The outputs' names, e.g. 'accept' or 'y[3][0][0]'."""
        return list(self._c.output_names)

    @property
    def is_boolean(self) -> bool:
        """Whether every gate is boolean or threshold (eval on 0/1)."""
        return self._c.is_boolean

    def stats(self) -> dict:
        """Size, depth, fan-in, gates by kind and width per level.

        Returns
        -------
        dict
            The document ``rnncc compile --json`` / ``rnncc stats --json`` prints.

        Examples
        --------
        >>> c = rnncc.compile("examples/s5_word_problem.json", 4, "boolean")
        >>> c.stats()["depth"], c.stats()["by_kind"]
        (7, {'input': 8, 'and': 13, 'or': 4})
        """
        return self._c.stats()

    def _text(self, ext: str, path, binary: bool, extensions: tuple):
        if path is not None:
            target = _writable(path)
            if not target.endswith(extensions):  # the library picks the format by extension
                raise InputError(f"path: '{target}': expected a file ending in "
                                 f"{' or '.join(extensions)}")
            self._c.write(target)
            return None
        data = self._c.file_bytes("circuit." + ext)
        return data if binary else data.decode()

    @_keywords()
    def to_aiger(self, path=None, *, ascii: bool = False):
        """AIGER (boolean circuits), as ``rnncc compile -o FILE.aig`` writes it.

        Parameters
        ----------
        path : str or os.PathLike, optional
            Write here (.aig binary, .aag ASCII, by the extension) instead of returning it.
        ascii : bool, default False
            Return the .aag text instead of binary bytes.

        Returns
        -------
        bytes, str or None
            The file's content; None when written to ``path``.

        Raises
        ------
        InputError
            Not a boolean circuit.
        OSError
            ``path`` cannot be written.

        Examples
        --------
        >>> c = rnncc.compile("examples/s5_word_problem.json", 2, "boolean")
        >>> c.to_aiger(ascii=True).splitlines()[0]
        'aag 13 4 0 1 9'
        """
        ascii = _flag(ascii, "ascii")
        if path is not None and ascii and _os.fspath(path).endswith(".aig"):
            raise InputError("ascii: a path ending in .aig is written as binary AIGER (.aag is "
                             "the ASCII form)")
        return self._text("aag" if ascii else "aig", path, not ascii, (".aig", ".aag"))

    @_keywords()
    def to_blif(self, path=None):
        """BLIF (boolean circuits).

        Parameters
        ----------
        path : str or os.PathLike, optional
            Write here instead of returning it.

        Returns
        -------
        str or None

        Raises
        ------
        InputError
            Not a boolean circuit.
        OSError
            ``path`` cannot be written.

        Examples
        --------
        >>> ".model" in rnncc.compile("examples/s5_word_problem.json", 2, "boolean").to_blif()
        True
        """
        return self._text("blif", path, False, (".blif",))

    @_keywords()
    def to_bench(self, path=None):
        """ISCAS .bench (boolean circuits).

        Parameters
        ----------
        path : str or os.PathLike, optional
            Write here instead of returning it.

        Returns
        -------
        str or None

        Raises
        ------
        InputError
            Not a boolean circuit.
        OSError
            ``path`` cannot be written.

        Examples
        --------
        >>> "OUTPUT(" in rnncc.compile("examples/s5_word_problem.json", 2, "boolean").to_bench()
        True
        """
        return self._text("bench", path, False, (".bench",))

    @_keywords()
    def to_json(self, path=None):
        """The circuit file (``rnncc-circuit/1``), any circuit.

        Parameters
        ----------
        path : str or os.PathLike, optional
            Write here instead of returning it.

        Returns
        -------
        str or None

        Raises
        ------
        OSError
            ``path`` cannot be written.

        Examples
        --------
        >>> import json
        >>> json.loads(rnncc.compile("examples/s5_word_problem.json", 2).to_json())["format"]
        'rnncc-circuit/1'
        """
        return self._text("json", path, False, (".json",))

    @_keywords()
    def eval(self, inputs, *, modulus: int | None = None, exact: bool = False,
             max_work: int = 2**34):
        """Evaluate on one pattern per row.

        Parameters
        ----------
        inputs : array or list of rows
            Shape (patterns, inputs); one 1-D row is one pattern. :meth:`Model.one_hot` makes
            them from strings. A boolean circuit's inputs are 0 or 1 (False or True) exactly;
            an arithmetic circuit's are integers (residues) or, with ``exact=True``, exact
            rationals.
        modulus : int, optional
            Arithmetic circuits: evaluate over F_p, p a prime below 2^62 (default 2^61 − 1).
        exact : bool, default False
            Arithmetic circuits: evaluate over Q on exact entries instead.
        max_work : int, default 2**34
            Refuse evaluations estimated above this many word operations (patterns × gates; a
            boolean circuit evaluates 64 patterns a word), as ``rnncc eval --max-work``.

        Returns
        -------
        numpy.ndarray or list
            Shape (patterns, outputs) (one row for a 1-D input): ``bool`` for boolean and
            threshold circuits (64 patterns a machine word on every core), ``uint64`` over F_p,
            ``fractions.Fraction`` (object) with ``exact=True``. Lists without numpy.

        Raises
        ------
        InputError
            A wrong shape; an input of a boolean circuit other than 0 or 1 (NaN, 0.5, 2, −1);
            ``modulus`` on a boolean circuit or with ``exact=True``; a modulus that is no prime;
            an estimate above ``max_work``.
        TypeError
            Rows that are no sequence; a residue that is no integer (a float is refused, not
            truncated); an array of another dtype (strings, objects).
        DomainError
            A gate without meaning in the field (``positive`` mod p).

        Examples
        --------
        >>> s5 = rnncc.load_model("examples/s5_word_problem.json")
        >>> c = rnncc.compile(s5, 4, "boolean")
        >>> c.eval(s5.one_hot(["scsc", "ssss"]))[:, 0]
        array([False,  True])
        """
        np = _np()
        exact = _flag(exact, "exact")
        max_work = _integer(max_work, "max_work")
        rows = _listed(inputs)
        if not isinstance(rows, list):
            raise TypeError(f"inputs: expected rows of circuit inputs (a list or an array), got "
                            f"{_shown(inputs)}")
        single = not any(_is_seq(r) for r in rows)
        if single:
            rows = [rows]
        rows = [_listed(r) for r in rows]
        for i, r in enumerate(rows):
            if not isinstance(r, list):
                raise TypeError(f"inputs[{i}]: expected a row of circuit inputs, got {_shown(r)}")
        n_out = len(self.output_names)
        if exact:
            if modulus is not None:
                raise InputError("modulus: exact=True evaluates over Q (give one of the two)")
            text = [[_exact_text(x, f"inputs[{i}][{j}]") for j, x in enumerate(r)]
                    for i, r in enumerate(rows)]
            out = [[_fraction(x) for x in r] for r in self._c.eval_exact(text, max_work)]
            if np is not None:
                out = np.array(out, dtype=object).reshape(len(rows), n_out)
        elif self.is_boolean:
            if modulus is not None:
                raise InputError("modulus: a boolean circuit is evaluated over {0, 1}")
            if np is not None and hasattr(inputs, "dtype"):  # the array as it is: checked there
                a = inputs.reshape(1, -1) if inputs.ndim == 1 else inputs
                out = self._c.eval_boolean(np.ascontiguousarray(a), max_work).astype(bool)
            else:
                bits = [[_bit(x, f"inputs[{i}][{j}]") for j, x in enumerate(r)]
                        for i, r in enumerate(rows)]
                if np is not None:
                    inputs_n = len(self.input_names)
                    a = np.array(bits, dtype=np.uint8).reshape(len(bits), -1) if all(
                        len(r) == inputs_n for r in bits) else None
                    if a is None:
                        raise InputError(f"inputs: expected an array of shape (patterns, "
                                         f"{inputs_n}): one row per pattern, one column per "
                                         f"circuit input")
                    out = self._c.eval_boolean(a, max_work).astype(bool)
                else:
                    out = [list(r) for r in self._c.eval_boolean_rows(bits, max_work)]
        else:
            p = (1 << 61) - 1 if modulus is None else _integer(modulus, "modulus", 2)
            residues = [[_residue(x, f"inputs[{i}][{j}]") % p for j, x in enumerate(r)]
                        for i, r in enumerate(rows)]
            if np is not None and all(len(r) == len(residues[0]) for r in residues):
                out = self._c.eval_modp(np.array(residues, dtype=np.uint64)
                                        .reshape(len(rows), -1), p, max_work)
            else:
                out = [list(r) for r in self._c.eval_modp_rows(residues, p, max_work)]
                if np is not None:
                    out = np.array(out, dtype=np.uint64)
        return out[0] if single else out

    @_keywords({"batch": "strings", "against": "model"})
    def check_against(self, model, *, precision: str = "exact", scan: str = "brent-kung",
                      int_bits: int | None = None, strings: int = 1000, exhaustive: bool = False,
                      seed: int = 1) -> dict:
        """Check the circuit against the model's function of the precision and scan it was
        compiled with, as ``rnncc eval CIRCUIT --against MODEL`` (docs/cli.md).

        A boolean circuit of the LRNN route is compared with the scan-rounded function of
        ``scan`` at ``precision`` (what ``Model.run(..., scan=scan)`` computes; docs/semantics.md,
        "Which function"), raw fixed-point value against raw value; an arithmetic circuit with
        the model's exact run. The circuit's inputs must be the one-hot ``x[t,σ]``, so the
        length is the circuit's.

        Parameters
        ----------
        model : Model or path
        precision, scan, int_bits
            As the circuit was compiled (:func:`compile`'s keywords, same defaults).
        strings : int, default 1000
            Random strings (seeded by ``seed``) of the circuit's length, at most 2^24.
        exhaustive : bool, default False
            Every string of Σ^n instead (at most 2^24 of them).

        Returns
        -------
        dict
            ``verdict`` ("proved": every string of Σ^n agrees; "tested": the random strings
            agree; "refuted"), ``kind``, ``reference`` and ``command`` (the function, in words,
            and the ``rnncc run`` options that compute it), ``length``, ``strings``,
            ``exhaustive``, ``differing``, ``first`` (input, output, circuit and reference
            values, when refuted) and ``agreeing_scans`` (the scans whose function the circuit
            equals on the strings checked, when refuted).

        Raises
        ------
        InputError
            Inputs that are not the model's one-hot ``x[t,σ]``; output words narrower or wider
            than ``precision`` gives; log precision on an arithmetic circuit; a boolean circuit
            of a model the LRNN route does not compile; more than 2^24 strings.

        Examples
        --------
        >>> m = rnncc.load_model("examples/dplr_d3.json")
        >>> c = rnncc.compile(m, 8, "boolean", precision="log:1", scan="brent-kung")
        >>> c.check_against(m, precision="log:1", scan="brent-kung", exhaustive=True)["verdict"]
        'proved'
        >>> r = c.check_against(m, precision="log:1", scan="sequential", exhaustive=True)
        >>> r["verdict"], r["differing"], r["first"]["circuit"], r["first"]["reference"]
        ('refuted', 208, '-6.25', '-6')
        """
        m = _model_of(model)
        return self._c.check_against(
            m._m, _text(precision, "precision"), _text(scan, "scan"),
            _optional_integer(int_bits, "int_bits", 1, 1 << 20), _integer(strings, "strings", 1),
            _flag(exhaustive, "exhaustive"), _integer(seed, "seed", 0, (1 << 64) - 1))

    @_keywords()
    def draw(self, *, collapse: bool = False, highlight_critical: bool = False,
             max_nodes: int = 4000, title: str = "", format: str = "svg", path=None):
        """The diagram ``rnncc draw`` makes (Graphviz).

        Parameters
        ----------
        collapse : bool, default False
            One box per region (scan node, matrix product) instead of every gate.
        highlight_critical : bool, default False
            Colour a longest path.
        max_nodes : int, default 4000
            Refuse larger drawings (InputError suggesting ``collapse=True``).
        title : str, default ""
            The drawing's title.
        format : {"svg", "png", "dot"}
            SVG text, PNG bytes or DOT text.
        path : str or os.PathLike, optional
            Also write the drawing here.

        Returns
        -------
        str or bytes

        Raises
        ------
        InputError
            Above ``max_nodes``; an unknown format.
        RuntimeError
            rnncc was built without Graphviz (``rnncc.has_graphviz`` is False).
        OSError
            ``path`` cannot be written.

        Examples
        --------
        >>> svg = rnncc.compile("examples/s5_word_problem.json", 2).draw()
        >>> svg.startswith("<?xml"), "</svg>" in svg
        (True, True)
        """
        if _text(format, "format") not in ("svg", "png", "dot"):
            raise InputError(f"format: '{format}': expected svg, png or dot")
        target = None if path is None else _writable(path)
        data = self._c.draw(format, _flag(collapse, "collapse"),
                            _flag(highlight_critical, "highlight_critical"),
                            _integer(max_nodes, "max_nodes"), _text(title, "title"))
        if target is not None:  # atomically: a new file beside it, renamed over it
            fd, scratch = _tempfile.mkstemp(dir=_os.path.dirname(target) or ".",
                                            prefix=".rnncc-")
            try:
                with _os.fdopen(fd, "wb") as f:
                    f.write(data)
                _os.chmod(scratch, 0o644)  # as a new file's usual mode, not mkstemp's 0600
                _os.replace(scratch, target)
            except BaseException:
                _os.unlink(scratch)
                raise
        return data if format == "png" else data.decode()

    def _repr_svg_(self):
        """The notebook's picture: the full diagram up to ``svg_full_max_nodes`` gates, the
        collapsed view above that, None (IPython then shows the repr) when neither fits in
        ``svg_max_bytes`` or Graphviz is missing. Never raises."""
        if not has_graphviz:
            return None
        views = []
        if self.size <= self.svg_full_max_nodes:
            views.append(False)
        views.append(True)
        for collapse in views:
            try:
                svg = self.draw(collapse=collapse, max_nodes=self.svg_collapsed_max_nodes)
            except Exception:  # noqa: BLE001 (a notebook's picture must never raise)
                continue
            if len(svg) <= self.svg_max_bytes:
                return svg
        return None

    def __repr__(self):
        s = self.stats()
        return (f"Circuit(size={s['size']}, depth={s['depth']}, inputs={s['inputs']}, "
                f"outputs={s['outputs']})")


@_keywords()
def load_circuit(path) -> Circuit:
    """Read a circuit file: .json, .aig/.aag, .blif or .bench (by the extension).

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    Circuit

    Raises
    ------
    OSError
        The file cannot be opened.
    InputError
        Malformed content, naming file:line:column.

    Examples
    --------
    >>> import tempfile, os
    >>> f = os.path.join(tempfile.mkdtemp(), "c.aig")
    >>> rnncc.compile("examples/s5_word_problem.json", 2, "boolean").to_aiger(f)
    >>> rnncc.load_circuit(f)
    Circuit(size=19, depth=6, inputs=4, outputs=1)
    """
    return Circuit(_rnncc.load_circuit(_readable(_os.fspath(path))))


def _model_of(model, name: str = "model") -> Model:
    if isinstance(model, Model):
        return model
    p = _path(model)
    if p is None:
        raise InputError(f"{name}: expected a Model or a model file's path, got "
                         f"{type(model).__name__}")
    return load_model(p)


@_keywords({"length": "n"})
def compile(model, n: int, target: str = "arith", *, precision: str = "exact",
            scan: str = "brent-kung", outputs: str = "last", structure: str = "auto",
            max_gates: int = 1 << 28, rounding: str = "nearest-even",
            overflow: str = "saturate", int_bits: int | None = None,
            max_states: int = 4096, max_memory: int | None = None,
            valid_output: bool = False) -> Circuit:
    """Compile a model for inputs of length n into a circuit (``rnncc compile MODEL -n n``).

    Parameters
    ----------
    model : Model, str or os.PathLike
        A model, or a model file's path.
    n : int
        The input length.
    target : {"arith", "boolean", "threshold"}
        Arithmetic gates over the precision's domain, AND/OR/NOT, or threshold gates.
    precision : str, default "exact"
        "exact", "mod:P" or "log:C" (as :meth:`Model.run`).
    scan : str, default "brent-kung"
        The prefix network: sequential, sklansky, brent-kung, kogge-stone, ladner-fischer.
    outputs : {"last", "all"}
        y_n only, or every y_t.
    structure : str, default "auto"
        Which matrix structure the compiler uses (auto, dense, diagonal, …, as ``--structure``).
    max_gates : int, default 2**28
        Refuse circuits estimated above this many gates before building them.
    rounding, overflow, int_bits
        Fixed-point options of "log:C".
    max_states : int, default 4096
        The finite-state route's limit on reachable states.
    max_memory : int, optional
        MiB: refuse circuits whose estimated peak memory passes it (as ``--max-memory``; the
        routes that estimate it, docs/circuits.md).
    valid_output : bool, default False
        Boolean and threshold targets: append the output "valid", 1 exactly when every position
        has one symbol (as ``--valid-output``), so that an equivalence checker restricted to it
        compares the circuits on strings only (docs/formats.md, "Equivalence on strings").

    Returns
    -------
    Circuit
        The circuit as ``rnncc compile`` writes and measures it: the dead gates swept
        (``stats()["dead_gates_swept"]``, with ``"dead_gates_note"`` where the scan makes them).

    Raises
    ------
    InputError
        A bad option, a model the target has no compiler for (with the reason), an estimate
        above ``max_gates``.
    OSError
        The model file cannot be opened.

    Examples
    --------
    >>> c = rnncc.compile(rnncc.load_model("examples/mamba_diagonal.json"), 8, "threshold")
    >>> c.stats()["depth"]
    4
    """
    m = _model_of(model)
    return Circuit(_rnncc.compile(
        m._m, _integer(n, "n", 1), target=_text(target, "target"),
        precision=_text(precision, "precision"), scan=_text(scan, "scan"),
        outputs=_text(outputs, "outputs"), structure=_text(structure, "structure"),
        rounding=_text(rounding, "rounding"), overflow=_text(overflow, "overflow"),
        max_gates=_integer(max_gates, "max_gates"), max_memory=_max_memory(max_memory),
        max_states=_integer(max_states, "max_states"),
        int_bits=_optional_integer(int_bits, "int_bits", 0, (1 << 32) - 1),
        valid_output=_flag(valid_output, "valid_output")))


@_keywords({"length": "n"})
def draw(subject, n: int | None = None, *, collapse: bool = False,
         highlight_critical: bool = False, max_nodes: int = 4000, title: str | None = None,
         format: str = "svg", path=None, **compile_options):
    """Draw a circuit, or a model compiled for length n (``rnncc draw``).

    Parameters
    ----------
    subject : Circuit, Model, str or os.PathLike
        A circuit; a model (with ``n``); a model file's path (with ``n``) or a circuit file's
        path (without).
    n : int, optional
        Compile the model for this length first (with ``max_gates=2**20`` unless given).
    collapse, highlight_critical, max_nodes, format, path
        As :meth:`Circuit.draw`.
    title : str, optional
        The title; for a model, "SUBJECT, n = N, SCAN" as ``rnncc draw`` titles it.
    **compile_options
        Keywords of :func:`compile` (target, scan, precision, …).

    Returns
    -------
    str or bytes
        SVG or DOT text, PNG bytes.

    Raises
    ------
    InputError
        A model without ``n``; the options of :func:`compile` and :meth:`Circuit.draw`.
    OSError
        A file cannot be read or ``path`` written.
    RuntimeError
        rnncc was built without Graphviz.

    Examples
    --------
    >>> dot = rnncc.draw("examples/s5_word_problem.json", 2, format="dot")
    >>> dot.splitlines()[0]
    'digraph circuit {'
    """
    if isinstance(subject, Circuit):
        if n is not None or compile_options:
            raise InputError("n: a circuit is drawn as it is (give a model to compile)")
        c = subject
    elif n is None:
        if isinstance(subject, Model):
            raise InputError("n: give the length to compile the model for")
        if compile_options:
            raise InputError(f"{next(iter(compile_options))}: applies when a model is compiled "
                             "(give n)")
        c = load_circuit(subject)
    else:
        compile_options.setdefault("max_gates", 1 << 20)
        label = _path(subject) or (subject.name if isinstance(subject, Model) else "model")
        c = compile(subject, n, **compile_options)
        if title is None:
            title = f"{label}, n = {n}, {compile_options.get('scan', 'brent-kung')}"
    return c.draw(collapse=collapse, highlight_critical=highlight_critical, max_nodes=max_nodes,
                  title="" if title is None else title, format=format, path=path)


# --- checks and measurements ------------------------------------------------------------------


@_dataclasses.dataclass(frozen=True)
class Counterexample:
    """Where two functions differ: one orientation everywhere.

    ``expected`` is the reference's value (verify: the claimed function f; equiv: the first
    subject, ``a``), ``got`` the value of the model under test (verify: the model X; equiv: the
    second subject, ``b``).

    Attributes
    ----------
    input : str
        The string (symbols joined as the CLI prints them; "ε" for the empty string).
    position : int
        The position compared (1-based; its last symbol).
    expected : fractions.Fraction
        The reference's output there (an int residue over F_p; a tuple for several outputs).
    got : fractions.Fraction
        The tested model's output there.
    report : dict
        The counterexample's part of the CLI's JSON (found_by, minimal, trace, … for verify).

    Examples
    --------
    >>> rnncc.equiv("examples/wfa_binary_value.att",
    ...             "tests/cli/models/binary_value_broken.json").counterexample
    Counterexample(input='1', position=1, expected=Fraction(1, 1), got=Fraction(2, 1))
    """

    input: str
    position: int
    expected: _Any
    got: _Any
    report: dict = _dataclasses.field(repr=False, compare=False)

    @classmethod
    def _of(cls, j: dict | None, field: str | None):
        if not j:
            return None

        def value(x):
            if isinstance(x, list):
                vals = tuple(value(v) for v in x)
                return vals[0] if len(vals) == 1 else vals
            if x is None:
                return None
            return int(x) if field == "F_p" else _fraction(str(x))

        return cls(input=j["input"], position=j["position"], expected=value(j["expected"]),
                   got=value(j["got"]), report=j)


@_dataclasses.dataclass(frozen=True)
class Claim:
    """One claim of a construction (state size, steps per symbol, …) against what was measured.

    Attributes
    ----------
    name : str
    claimed : str
    measured : str
    ok : bool

    Examples
    --------
    >>> rnncc.verify("mod-count", k=3, random=5, seed=1, timing=False).claims[0].ok
    True
    """

    name: str
    claimed: _Any
    measured: _Any
    ok: bool


@_dataclasses.dataclass(frozen=True)
class Verdict:
    """The outcome of :func:`verify` or :func:`equiv`.

    Attributes
    ----------
    verdict : str
        One of three words (docs/semantics.md, "Verdicts"): "proved" (decided for every length,
        or the whole finite domain, over ``field``), "refuted" (a counterexample — the shortest
        found — or a claim measured false), "tested" (no counterexample up to the lengths the
        testing methods reached: ``tested`` says which; nothing is proved).
    proved : bool
        ``verdict == "proved"`` for :func:`equiv`; for :func:`verify`, the decision procedure
        proved X ≡ f (a failing claim may still refute the construction).
    method : str or None
        The decision procedure (or None when only testing ran).
    field : str or None
        "Q" or "F_p" where a decider ran: a proof over F_p proves agreement modulo ``modulus``
        only.
    modulus : int or None
        The prime p of a decision over F_p.
    counterexample : Counterexample or None
        Where the reference and the model differ (expected: the reference's value).
    tested : dict or None
        What testing covered (methods, lengths, complete).
    claims : list of Claim
        The construction's claims against the measured values — verify only.
    report : dict
        The whole document ``rnncc verify|equiv --json`` prints.

    There is no ``holds``: a claim that was only tested is not established, and a flag that is
    True for it would say otherwise. ``outcome`` is ``verdict`` under its former name.

    Examples
    --------
    >>> v = rnncc.equiv("examples/binary_value_wfa.json", "examples/wfa_binary_value.att")
    >>> v.verdict, v.field, v.counterexample
    ('proved', 'Q', None)
    """

    verdict: str
    proved: bool
    method: str | None
    field: str | None
    modulus: int | None
    counterexample: Counterexample | None
    tested: dict | None
    claims: list
    report: dict = _dataclasses.field(repr=False, compare=False)

    @property
    def outcome(self) -> str:
        """The same as ``verdict``: "proved", "refuted" or "tested"."""
        return self.verdict

    @property
    def certificate(self):
        """The certificate's path (equiv) or document (verify), when one was written."""
        c = self.report.get("certificate")
        return c

    @classmethod
    def _of(cls, r: dict) -> "Verdict":
        proof = r.get("proof") if isinstance(r.get("proof"), dict) else {}
        field = r.get("field", proof.get("field"))
        return cls(verdict=r["verdict"], proved=bool(r.get("proved")), method=r.get("method"),
                   field=field, modulus=r.get("modulus"),
                   counterexample=Counterexample._of(r.get("counterexample"), field),
                   tested=r.get("tested"),
                   claims=[Claim(c["name"], c["claimed"], c["measured"], c["ok"])
                           for c in r.get("claims", [])],
                   report=r)


def _option_text(flag: str, value) -> str:
    if isinstance(value, (list, tuple, range)) or (hasattr(value, "shape")):
        return ",".join(_exact_text(x, flag) for x in _listed(value))
    return _exact_text(value, flag)


@_keywords()
def verify(kind: str, input=None, *, random: int | None = None, length: int = 40,
           exhaustive: int | bool | None = None, identity: int = 0, identity_length: int = 8,
           seed: int | None = None, prove: bool = True, timing: bool = True,
           device: str = "cpu", max_work: int = 2**34, certificate=None,
           **options) -> Verdict:
    """Machine-check a construction, or a model against a WFA (``rnncc verify KIND [INPUT]``).

    Parameters
    ----------
    kind : str
        A kind of :func:`verify_kinds` ("mod-count", "wfa", "model", …).
    input : str, os.PathLike, Model or WFA, optional
        The kind's input: a file's path or text; kind "model" takes a :class:`Model`, the
        "wfa" kinds a :class:`WFA` object too.
    random : int, optional
        Random strings to test (by default 200, or none after a proof).
    length : int, default 40
        The longest random string.
    exhaustive : int or bool, optional
        Every string of length 1..L (an int L); True: the whole fixed-length domain.
    identity, identity_length : int
        Rounds and longest length of polynomial identity testing (random primes).
    seed : int, optional
        The random seed (reported).
    prove : bool, default True
        Run the decision procedure where there is one.
    timing : bool, default True
        Report seconds.
    device : {"cpu", "gpu"}
    max_work : int, default 2**34
        Refuse checks estimated above this many symbol steps before running any.
    certificate : str or os.PathLike, optional
        Write the every-length proof here (one LRNN layer against its WFA), for
        :func:`check_certificate` or ``rnncc check-certificate``; where nothing is proved for
        every length a note says so and no file is written.
    **options
        The kind's own options as keywords (``k=3``, ``against=wfa``, ``family="dplr"``; True
        for a flag; a list for a list).

    Returns
    -------
    Verdict
        ``verdict`` ("proved", "refuted" or "tested"), ``field``, ``counterexample``
        (expected: the claimed function's value, got: the model's), ``tested``, ``claims``;
        ``.report`` the CLI's JSON.

    Raises
    ------
    InputError
        An unknown kind, an option that does not apply, bad input, an estimate above
        ``max_work``.
    OSError
        An input file cannot be opened.

    Examples
    --------
    >>> v = rnncc.verify("mod-count", k=3, random=20, seed=1, timing=False)
    >>> v.verdict, v.field, v.counterexample
    ('proved', 'Q', None)
    >>> bad = rnncc.verify("model", rnncc.load_model("tests/cli/models/binary_value_broken.json"),
    ...                    against=rnncc.load_wfa("examples/wfa_binary_value.att"), timing=False)
    >>> bad.verdict, bad.counterexample
    ('refuted', Counterexample(input='1', position=1, expected=Fraction(1, 1), got=Fraction(2, 1)))
    """
    if _text(device, "device") not in ("cpu", "gpu"):
        raise InputError(f"device: '{device}': expected cpu or gpu")
    kind = _text(kind, "kind")
    random_count = None if random is None else _integer(random, "random")
    length = _integer(length, "length", 1)
    if exhaustive is None or exhaustive is False:
        ex = None
    elif exhaustive is True:
        ex = 0  # the library's "the whole fixed-length domain"
    else:
        ex = _integer(exhaustive, "exhaustive", 1)
    identity = _integer(identity, "identity")
    identity_length = _integer(identity_length, "identity_length", 1)
    seed = _optional_integer(seed, "seed")
    prove, timing = _flag(prove, "prove"), _flag(timing, "timing")
    max_work = _integer(max_work, "max_work")
    if input is not None and not isinstance(input, (str, _os.PathLike, Model, WFA)):
        raise TypeError(f"input: expected a path, a text, a Model or a WFA, got {_shown(input)}")
    cert = "" if certificate is None else _writable(certificate)
    model = None
    against = None
    temporary = None
    try:
        if isinstance(input, Model):
            model = input._m
            a = options.pop("against", None)  # None: the library says what is missing
            if a is not None and not isinstance(a, WFA) and _path(a) is None:
                raise InputError("against: expected a WFA or a WFA file's path, got "
                                 f"{type(a).__name__}")
            against = None if a is None else a._w if isinstance(a, WFA) else _readable(_path(a))
            input_text = ""
        else:
            if isinstance(input, WFA) or isinstance(options.get("against"), WFA):
                temporary = _tempfile.TemporaryDirectory(prefix="rnncc-")
            if isinstance(input, WFA):  # the wfa kinds read a file: the object's JSON
                input = _write_json(input.to_json(), temporary.name, "input.wfa.json")
            if isinstance(options.get("against"), WFA):
                options["against"] = _write_json(options["against"].to_json(), temporary.name,
                                                 "against.wfa.json")
            if isinstance(options.get("against"), Model):
                raise InputError("against: expected a WFA or a WFA file's path")
            input_text = "" if input is None else _path(input)
        args = []
        for name, value in options.items():
            flag = "--" + name.replace("_", "-")
            if value is True:
                args.append((flag, ""))
            elif value is False or value is None:
                continue
            elif isinstance(value, _os.PathLike):
                args.append((flag, _os.fspath(value)))
            else:
                args.append((flag, _option_text(flag, value)))
        r = _rnncc.verify(kind, input_text, args, 200 if random_count is None else random_count,
                          random_count is not None, length, ex, identity, identity_length, seed,
                          prove, timing, device == "gpu", max_work, model, against, cert)
    finally:
        if temporary is not None:
            temporary.cleanup()
    return Verdict._of(r)


def _write_json(document: dict, directory: str, name: str) -> str:
    import json

    path = _os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f)
    return path


def verify_kinds() -> list:
    """The kinds :func:`verify` takes.

    Returns
    -------
    list of str

    Examples
    --------
    >>> "mod-count" in rnncc.verify_kinds(), "model" in rnncc.verify_kinds()
    (True, True)
    """
    return list(_rnncc.verify_kinds())


@_keywords()
def equiv(a, b, *, method: str = "auto", modulus: int | None = None, certificate=None,
          timing: bool = True, max_work: int = 1 << 30, compare: str = "outputs",
          accept_length: int | None = None) -> Verdict:
    """Decide whether two models / WFAs compute the same function on every string
    (``rnncc equiv A B``).

    Parameters
    ----------
    a : Model, WFA, str or os.PathLike
        The reference: its value is the counterexample's ``expected``.
    b : Model, WFA, str or os.PathLike
        The model under test: its value is ``got``.
    method : {"auto", "linear", "product"}
        The forward basis (Schützenberger–Tzeng; linear models and WFAs), the product search
        (finitely many configurations), or whichever applies.
    modulus : int, optional
        Decide over F_p instead of Q (linear only): a refutation there is a refutation over Q
        too; a proof proves agreement modulo p only (``field`` "F_p"), never over Q.
    certificate : str or os.PathLike, optional
        Write the proof's certificate here (linear only; ``rnncc check-certificate`` re-checks).
    timing : bool, default True
        Report seconds.
    max_work : int, default 2**30
        Refuse decisions estimated above this many field operations.
    compare : {"outputs", "accept"}
        Compare the outputs, or the accepted strings (a model's acceptance rule; a WFA accepts
        where its value is > 0): proved when the outputs are proved equal or both models are
        finite-state, refuted by the shortest string accepted by one only, else "tested" up to
        ``accept_length`` (``rnncc equiv --compare accept``; docs/cli.md).
    accept_length : int, optional
        compare="accept" where nothing decides: search every string of length 1..L (default:
        the longest L ≤ 16 with symbols^1 + … + symbols^L ≤ 65536).

    Returns
    -------
    Verdict
        ``verdict`` ("proved", "refuted"; "tested" for acceptance only), ``field``,
        ``counterexample`` (the shortest string where they differ), ``report`` the CLI's JSON.
        Symbols are matched by name: b's alphabet may be a's in another order.

    Raises
    ------
    InputError
        Neither procedure applies (with both reasons), bad options.
    OSError
        A file cannot be opened, or the certificate cannot be written.

    Examples
    --------
    >>> rnncc.equiv("examples/binary_value_wfa.json", "examples/wfa_binary_value.att").proved
    True
    >>> rnncc.equiv(rnncc.load_wfa("examples/wfa_binary_value.att"),
    ...             "tests/cli/models/binary_value_broken.json").counterexample
    Counterexample(input='1', position=1, expected=Fraction(1, 1), got=Fraction(2, 1))
    """
    method, compare = _text(method, "method"), _text(compare, "compare")
    modulus = _optional_integer(modulus, "modulus", 2)
    timing, max_work = _flag(timing, "timing"), _integer(max_work, "max_work")
    accept_length = _optional_integer(accept_length, "accept_length", 1)
    cert = "" if certificate is None else _writable(certificate)
    return Verdict._of(_rnncc.equiv(_subject(a, "a"), _subject(b, "b"), method, modulus, cert,
                                    timing, max_work, compare, accept_length))


@_dataclasses.dataclass(frozen=True)
class CertificateCheck:
    """The verdict of the independent certificate checker (:func:`check_certificate`).

    Attributes
    ----------
    valid : bool
        The certificate proves the claim: the two subjects agree on every nonempty prefix over
        the claim's field (a certificate over F_p under a claim over Q is not valid).
    field : str or None
        The certificate's field, "Q" or "F_p" (None when the file has no readable field). Over
        F_p it proves agreement modulo ``modulus`` only, never over Q.
    modulus : int or None
        The prime p of a certificate over F_p.
    problems : list of str
        Every broken rule the checker found (empty when valid).

    Examples
    --------
    >>> rnncc.CertificateCheck(True, "Q", None, [])
    CertificateCheck(valid=True, field='Q', modulus=None, problems=[])
    """

    valid: bool
    field: str | None
    modulus: int | None
    problems: list


def check_certificate(f, g, certificate, *, field: str = "Q") -> CertificateCheck:
    """Re-check an every-length proof with the independent checker (``rnncc check-certificate``).

    The checker shares no code with the decider but the file readers: it recomputes every basis
    vector from its word and checks each stated combination and output exactly
    (docs/formats.md, "Equivalence certificates").

    Parameters
    ----------
    f, g : Model, WFA, str or os.PathLike
        The two subjects the certificate names (objects are matched by content). For a promise
        or input-map certificate (docs/formats.md), ``g=None`` checks the model ``f`` against
        the specification in the certificate; an input-map certificate also takes
        ``(specification, model)``.
    certificate : str or os.PathLike
        The certificate written by :func:`verify` or :func:`equiv` (``certificate=``).
    field : {"Q", "F_p"}, default "Q"
        The claim's field. "Q": the subjects' outputs are equal, and a certificate over F_p
        (``equiv(..., modulus=p, certificate=...)``) is refused however valid it is, since
        agreement modulo p does not imply agreement over Q. "F_p": agreement modulo the
        certificate's prime is enough (``field`` of the result says which was proved).

    Returns
    -------
    CertificateCheck
        ``valid``, the certificate's ``field`` and ``modulus``, and the broken rules when it is
        not valid.

    Raises
    ------
    InputError
        The file is no certificate, or one for other models; a field other than "Q" or "F_p".
    OSError
        A file cannot be opened.

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> cert = os.path.join(d, "bv.cert.json")
    >>> rnncc.equiv("examples/wfa_binary_value.att", "examples/binary_value_wfa.json",
    ...             certificate=cert).proved
    True
    >>> rnncc.check_certificate("examples/wfa_binary_value.att",
    ...                         "examples/binary_value_wfa.json", cert)
    CertificateCheck(valid=True, field='Q', modulus=None, problems=[])
    """
    path = _path(certificate)
    if path is None:
        raise TypeError(f"certificate: expected the certificate file's path, got "
                        f"{_shown(certificate)}")
    field = _text(field, "field")
    ok, fld, modulus, problems = _rnncc.check_certificate(
        _subject(f, "f"), None if g is None else _subject(g, "g"), _readable(path), field)
    return CertificateCheck(bool(ok), fld, modulus, list(problems))


@_dataclasses.dataclass(frozen=True)
class Minimized:
    """The outcome of :func:`minimize`.

    Attributes
    ----------
    model : Model
        A general-family LRNN proved equal to the input on every nonempty string, of the least
        dimension an LRNN computing that function has (y(ε) is not counted; with per-symbol
        readouts an upper bound; docs/semantics.md, "Minimization").
    dimension : int
        The input's dimension: a model's d·m, a WFA's states.
    forward_dimension : int
        After the forward reduction (the span of the states after nonempty strings).
    minimal_dimension : int
        The minimized LRNN's dimension (never more than a model's d·m).
    affine : bool
        The minimized LRNN has affine steps and a readout bias (a constant coordinate saved).
    proved : bool
        Always True (a failed proof is a bug, raised).
    method : str
        The decider that proved it.
    report : dict
        The document ``rnncc minimize --json`` prints.

    Examples
    --------
    >>> rnncc.minimize("examples/wfa_binary_value.att").minimal_dimension  # v ↦ 2v + b: affine
    1
    """

    model: Model
    dimension: int
    forward_dimension: int
    minimal_dimension: int
    affine: bool
    proved: bool
    method: str
    report: dict = _dataclasses.field(repr=False, compare=False)


@_keywords()
def minimize(subject, *, max_work: int = 1 << 30) -> Minimized:
    """Reduce a one-layer LRNN or a WFA to an LRNN equal to it on nonempty strings, of least
    dimension (``rnncc minimize``).

    Parameters
    ----------
    subject : Model, WFA, str or os.PathLike
        The model or WFA (or its file).
    max_work : int, default 2**30
        Refuse reductions estimated above this many field operations.

    Returns
    -------
    Minimized

    Raises
    ------
    InputError
        Not a one-layer LRNN or WFA; an estimate above ``max_work``.
    OSError
        The file cannot be opened.

    Examples
    --------
    >>> r = rnncc.minimize("examples/binary_value_wfa.json")
    >>> r.dimension, r.minimal_dimension, r.model.describe()
    (2, 1, 'lrnn/general d=1 m=1')
    """
    model, report = _rnncc.minimize(_subject(subject, "subject"), _integer(max_work, "max_work"))
    return Minimized(model=Model(model), dimension=report["dimension"],
                     forward_dimension=report["forward_dimension"],
                     minimal_dimension=report["minimal_dimension"], affine=report["affine"],
                     proved=report["proved"],
                     method=report["method"], report=report)


@_dataclasses.dataclass(frozen=True)
class DepthPoint:
    """One measured (architecture or model, n) of :func:`depth`.

    Attributes
    ----------
    arch : str
        The built-in architecture, or the model's label (file stem or model name).
    n : int
    size : int
    depth : int
        Unbounded fan-in depth.
    bounded_fanin_depth : int
        Depth with fan-in 2.

    Examples
    --------
    >>> rnncc.depth(["diagonal"], lengths=[4])[0]
    DepthPoint(arch='diagonal', n=4, size=127, depth=10, bounded_fanin_depth=11)
    """

    arch: str
    n: int
    size: int
    depth: int
    bounded_fanin_depth: int


class DepthTable:
    """What :func:`depth` measured: one :class:`DepthPoint` per (architecture, n), the growth
    laws fitted to each architecture's depths, and the whole ``rnncc depth --json`` document.

    Iterating gives the points; ``len`` counts them; ``table[k]`` is the k-th.

    Examples
    --------
    >>> t = rnncc.depth(["diagonal"], lengths=[4, 8, 16])
    >>> [(p.n, p.depth) for p in t]
    [(4, 10), (8, 12), (16, 14)]
    """

    def __init__(self, report: dict):
        if not isinstance(report, _Mapping) or not isinstance(report.get("points"), list) or \
                not all(isinstance(p, _Mapping) for p in report["points"]):
            raise TypeError("DepthTable: expected the rnncc depth --json document (a dict with "
                            f"\"points\"), got {_shown(report)}")
        self.report = report
        fields = {f.name for f in _dataclasses.fields(DepthPoint)}
        self.points = [DepthPoint(**{k: v for k, v in p.items() if k in fields})
                       for p in report["points"]]

    @property
    def fits(self) -> list:
        """The growth laws chosen by AICc per architecture (dicts as the CLI's JSON)."""
        return list(self.report.get("fits", []))

    @property
    def skipped(self) -> list:
        """Architectures left out, with the reason ("pd: …")."""
        return list(self.report.get("skipped", []))

    def to_dict(self) -> dict:
        """The whole document ``rnncc depth --json`` prints (points, fits, skipped).

        Returns
        -------
        dict

        Examples
        --------
        >>> sorted(rnncc.depth(["diagonal"], lengths="2..64").to_dict())
        ['criterion', 'fits', 'points', 'precision', 'skipped', 'target']
        """
        return self.report

    def plot(self, ax=None):
        """Depth against n on log-log axes with the fitted laws, as ``rnncc depth --plot``.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Draw here (a new figure's axes otherwise).

        Returns
        -------
        matplotlib.axes.Axes

        Raises
        ------
        ImportError
            matplotlib is not installed.

        Examples
        --------
        >>> ax = rnncc.depth(["diagonal", "deltanet"], lengths="2..64").plot()  # doctest: +SKIP
        """
        from .plotting import plot_depth

        return plot_depth(self.report, ax=ax)

    def __iter__(self):
        return iter(self.points)

    def __len__(self):
        return len(self.points)

    def __getitem__(self, k):
        return self.points[k]

    def __repr__(self):
        archs = list(dict.fromkeys(p.arch for p in self.points))
        ns = sorted({p.n for p in self.points})
        laws = {f.get("arch"): f.get("chosen") for f in self.fits}
        return f"DepthTable(archs={archs}, n={ns}, fits={laws})"


@_keywords({"model": "models", "arch": "arch", "lengths": "lengths"})
def depth(arch=None, *, models=None, lengths=None, target: str = "arith",
          max_gates: int = 1 << 26, fits: bool | None = None) -> DepthTable:
    """Measure circuit depth against n for architectures and models (``rnncc depth``).

    Parameters
    ----------
    arch : str or list of str, optional
        Built-in architectures (diagonal, s4, pd, dplr, deltanet, gdn, rwkv7, relu-rnn, uhat,
        hybrid, counter); all of them when neither ``arch`` nor ``models`` is given.
    models : list of Model, str or os.PathLike, optional
        Your models (objects or files), labelled by name / file stem.
    lengths : str, list or range, optional
        "A..B" (A, 2A, 4A, … up to B, and B) or the lengths themselves.
    target : {"arith", "boolean", "threshold"}
    max_gates : int, default 2**26
        Refuse any circuit estimated above this many gates before compiling.
    fits : bool, optional
        Fit growth laws (c·log n, c·log² n, c·n, … by AICc); by default when the lengths
        suffice, True to insist.

    Returns
    -------
    DepthTable

    Raises
    ------
    InputError
        An unknown architecture, bad lengths, a model the target has no compiler for.
    OSError
        A model file cannot be opened.

    Examples
    --------
    >>> t = rnncc.depth(["diagonal", "deltanet"], lengths="2..64")
    >>> t[0], len(t)
    (DepthPoint(arch='diagonal', n=2, size=68, depth=8, bounded_fanin_depth=9), 12)
    >>> [(f["arch"], f["chosen"]) for f in t.fits]
    [('diagonal', 'a*log2(n)+b'), ('deltanet', 'a*log2(n)+b')]
    """
    if arch is not None and not isinstance(arch, str):
        if not _is_seq(arch) or not all(isinstance(a, str) for a in arch) or not len(arch):
            raise TypeError(f"arch: expected an architecture's name or a list of them, got "
                            f"{_shown(arch)}")
        arch = ",".join(arch)
    if models is not None and (isinstance(models, (str, bytes, _os.PathLike, Model, WFA))
                               or not isinstance(models, _Iterable)):
        raise TypeError(f"models: expected a list of Models or model files, got {_shown(models)}")
    subjects = []
    for k, m in enumerate(models or []):
        subjects.append(m._m if isinstance(m, Model) else _subject(m, f"models[{k}]"))
    if lengths is not None and not isinstance(lengths, str):
        if not _is_seq(lengths):
            raise TypeError(f"lengths: expected \"A..B\" or a list of lengths, got "
                            f"{_shown(lengths)}")
        lengths = [_integer(n, "lengths", 1) for n in _listed(lengths)]
    return DepthTable(_rnncc.depth(arch, subjects, lengths, _text(target, "target"),
                                   _integer(max_gates, "max_gates"),
                                   _optional_flag(fits, "fits")))


# Floats in (docs/import.md): rnncc.importing needs neither numpy nor matplotlib, so its entry
# points are re-exported here; rnncc.plotting (matplotlib) is imported on use, never here.
from .importing import Agreement, Imported, from_arrays, import_weights  # noqa: E402

del annotations
