"""What the package's parts share (private to the package): numpy when it imports, the library's
diagnostics said in Python's keywords, paths checked before the library opens them, and every
argument's check and conversion — exact numbers as text, sizes read before anything is
converted, integers of any length."""

from __future__ import annotations

import errno as _errno
import functools as _functools
import numbers as _numbers
import os as _os
import re as _re
from collections.abc import Iterable as _Iterable
from collections.abc import Mapping as _Mapping
from fractions import Fraction as _Fraction
from typing import Any as _Any

from . import _rnncc
from ._rnncc import DomainError, InputError

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
