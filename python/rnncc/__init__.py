"""rnncc for Python: state sequence models exactly, run them, compile them into circuits, verify.

A thin layer over the extension module ``rnncc._rnncc`` (python/bindings.cpp), which calls the
same library functions as the ``rnncc`` command. Models, WFAs and circuits are objects; checks
return typed results (:class:`Verdict`, :class:`Minimized`, :class:`DepthTable`), each keeping
the document ``rnncc ... --json`` prints as ``.report``. Exact values are
``fractions.Fraction``; numpy is optional: without it every result is a list, with it arrays.
docs/python.md is the guide, with a real output of every call.
"""

from __future__ import annotations

from . import _rnncc

# The package is in parts, each importing only the parts above it here: _common (what every part
# shares: numpy, diagnostics in Python's words, the checks and conversions of arguments), _models
# (Model, WFA, runs), _families (the builders), _circuits, _checks (verify, equiv, certificates,
# minimize) and _depth. Their names are the package's: rnncc.Model, rnncc.compile, ….
from ._common import (  # noqa: F401 (the parts' helpers, here as before the split: rnncc._np)
    _DIGITS, _FLAG, _HELP, _SIZE_MAX, _array, _big_int, _bit, _check_builder, _exact_text,
    _first_row, _first_symbol, _flag, _fraction, _image_list, _int_text, _integer, _is_bool,
    _is_seq, _keywords, _leaves, _listed, _matrix, _max_memory, _np, _optional_flag,
    _optional_integer, _path, _per_symbol, _plain, _python_words, _readable, _residue, _rows,
    _scalar_or_vector, _shown, _state_width, _strings, _symbols, _text, _texts, _vector, _width,
    _writable)
from ._models import (WFA, Model, Run, Runs, _flags, _outputs, _subject,  # noqa: F401
                      load_model, load_wfa, parse_model, parse_wfa)
from ._families import families
from ._circuits import Circuit, _model_of, compile, draw, load_circuit  # noqa: F401
from ._checks import (CertificateCheck, Claim, Counterexample, Minimized,  # noqa: F401
                      Verdict, _option_text, _write_json, check_certificate, equiv, minimize,
                      verify, verify_kinds)
from ._depth import DepthPoint, DepthTable, depth
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

# Floats in (docs/import.md): rnncc.importing needs neither numpy nor matplotlib, so its entry
# points are re-exported here; rnncc.plotting (matplotlib) is imported on use, never here.
from .importing import Agreement, Imported, from_arrays, import_weights  # noqa: E402


def _named_here(obj) -> None:
    """A part's class or function (and a class's methods) named as the package's own: help(),
    reprs and pickles say rnncc.Model, where users import it from, and doctest finds the examples
    of rnncc's objects (tests/python/test_api.py)."""
    home = obj.__module__
    obj.__module__ = __name__
    for member in vars(obj).values() if isinstance(obj, type) else ():
        f = getattr(member, "__func__", member)  # a staticmethod's or classmethod's function
        if callable(f) and getattr(f, "__module__", None) == home:
            f.__module__ = __name__


for _name in __all__:
    if getattr(globals()[_name], "__module__", None) in (
            "rnncc._models", "rnncc._families", "rnncc._circuits", "rnncc._checks",
            "rnncc._depth"):
        _named_here(globals()[_name])
del _name, _named_here

del annotations
