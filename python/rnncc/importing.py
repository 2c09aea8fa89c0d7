"""Floats in, exact models out, with the error stated (docs/import.md).

``from_arrays`` builds a one-layer model from float arrays named after a family's own
parameters (the tensors of ``rnncc import``); ``import_weights`` folds one trained layer of
DeltaNet, Gated DeltaNet, Mamba-2 or RWKV-7 from a ``.safetensors`` checkpoint (``rnncc
import-weights``). Both report the largest rounding error per parameter group as an exact
``Fraction``; ``import_weights`` also reports the agreement of the imported model with the
float64 layer on seeded random strings. numpy is optional: nested lists work everywhere.
"""

from __future__ import annotations

import json as _json
import struct as _struct
from dataclasses import dataclass as _dataclass
from dataclasses import field as _field
from fractions import Fraction as _Fraction
from collections.abc import Mapping as _Mapping
from typing import Any as _Any

from ._common import _keywords

__all__ = ["Agreement", "Imported", "from_arrays", "import_weights", "safetensors_bytes"]


@_dataclass
class Agreement:
    """How the imported model agrees with the float64 layer on random strings.

    Attributes
    ----------
    strings, positions : int
        Random strings tried and positions compared (every prefix is a position).
    verdict_agreement : float
        Fraction of positions where both accept (y > 0) or both reject.
    max_abs_error : float
        Largest |y_float − y_model| over the positions.
    max_abs_y : float
        Largest |y_float|, for scale.
    model_evaluation : str
        "exact" (the model run on rationals) or "float64" (its exact parameters in float64,
        when strings × length × d² > 2^23).

    Examples
    --------
    >>> a = import_weights("examples/trained/gdn_even_b.safetensors", "gated_deltanet",
    ...                    "a,b").agreement
    >>> a.strings, a.positions, a.verdict_agreement, a.max_abs_error < 1e-12
    (200, 1690, 1.0, True)
    """

    strings: int
    positions: int
    verdict_agreement: float
    max_abs_error: float
    max_abs_y: float
    model_evaluation: str = "exact"


@_dataclass
class Imported:
    """An imported model and what the import cost.

    Attributes
    ----------
    model : rnncc.Model
        The exact model.
    precision : str
        "exact", "bits:K" or "log:C (n = …: F fraction bits)".
    errors : dict of str to Fraction
        Per parameter group, the largest |x − q| between a float and the rational it became.
    counts : dict of str to int
        Per parameter group, how many parameters.
    agreement : Agreement or None
        ``import_weights`` only.
    notes : list of str
        What folded how (``import_weights``).
    report : dict
        The whole report, as ``rnncc import … --json`` prints it.

    Examples
    --------
    >>> r = import_weights("examples/trained/gdn_even_b.safetensors", "gated_deltanet", "a,b")
    >>> r.model, r.precision, max(r.errors.values())
    (Model('gdn_even_b': lrnn/gated_deltanet d=2 m=1, alphabet=['a', 'b']), 'exact', Fraction(0, 1))
    """

    model: _Any
    precision: str
    errors: dict
    counts: dict
    agreement: Agreement | None = None
    notes: list = _field(default_factory=list)
    report: dict = _field(default_factory=dict)


def _nested(value):
    """A nested list of floats and its shape, from numpy arrays, lists or numbers."""
    if hasattr(value, "tolist"):  # numpy arrays and scalars, without importing numpy
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        parts = [_nested(v) for v in value]
        shapes = {tuple(s) for _, s in parts}
        if len(shapes) > 1:
            raise ValueError("ragged array: rows of shapes " + ", ".join(map(str, sorted(shapes))))
        inner = list(shapes.pop()) if parts else []
        flat = [x for p, _ in parts for x in p]
        return flat, [len(parts)] + inner
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a float, got {type(value).__name__}")
    return [float(value)], []


def safetensors_bytes(tensors, metadata=None) -> bytes:
    """The bytes of a ``.safetensors`` file holding ``tensors`` as F64 (little-endian).

    Parameters
    ----------
    tensors : dict of str to array-like
        Name to a numpy array, a nested list or a number.
    metadata : dict of str to str, optional
        The header's ``__metadata__``.

    Returns
    -------
    bytes
        8-byte header length, the JSON header (padded to 8 bytes), the data.

    Examples
    --------
    >>> b = safetensors_bytes({"w": [[1.0, 2.0]]})
    >>> int.from_bytes(b[:8], "little") % 8, len(b) - 8 - int.from_bytes(b[:8], "little")
    (0, 16)
    """
    if not isinstance(tensors, _Mapping):
        raise TypeError(f"tensors: expected a dict of name to array, got {type(tensors).__name__}")
    if metadata is not None and not isinstance(metadata, _Mapping):
        raise TypeError(f"metadata: expected a dict of str to str, got {type(metadata).__name__}")
    header, data = {}, bytearray()
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name, value in tensors.items():
        if not isinstance(name, str):
            raise TypeError(f"tensors: expected names (str), got {type(name).__name__}")
        begin = len(data)
        kind = getattr(getattr(value, "dtype", None), "kind", None)
        if kind in ("i", "u", "f") and hasattr(value, "astype"):  # numpy: its bytes, at once
            data += value.astype("<f8").tobytes(order="C")
            shape = [int(n) for n in value.shape]
        else:
            flat, shape = _nested(value)
            data += _struct.pack("<%dd" % len(flat), *flat)
        header[name] = {"dtype": "F64", "shape": shape, "data_offsets": [begin, len(data)]}
    text = _json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return _struct.pack("<Q", len(text)) + text + bytes(data)


def _result(model_text, report_text, source):
    from ._models import parse_model  # the package's Model, built from the model file's text

    report = _json.loads(report_text)
    rounding = report["rounding"]
    errors = {g["group"]: _Fraction(g["max_error"]) for g in rounding["groups"]}
    counts = {g["group"]: g["count"] for g in rounding["groups"]}
    agreement = None
    if "agreement" in report:
        a = report["agreement"]
        agreement = Agreement(a["strings"], a["positions"], a["verdict_agreement"],
                              a["max_abs_error"], a["max_abs_y"],
                              a.get("model_evaluation", "exact"))
    return Imported(parse_model(model_text, source), rounding["precision"], errors, counts,
                    agreement, list(report.get("notes", [])), report)


@_keywords()
def from_arrays(family, arrays, *, alphabet=None, precision="exact", length=None,
                beta_range="any", max_memory=None) -> Imported:
    """A one-layer model from float arrays named after the family's parameters.

    Parameters
    ----------
    family : str
        "general", "diagonal", "gla", "s4", "mamba2", "pd", "dplr", "deltanet",
        "gated_deltanet", "kda" or "rwkv7".
    arrays : dict
        Parameter name to an array stacked with the symbol first ([|Σ|, d, d] for ``A``), or
        to a dict {symbol: array}. Layer parameters: ``readout`` [r, d] (required),
        ``initial_state``, ``readout_bias``. docs/import.md lists each family's names.
    alphabet : list of str, optional
        The symbols in array order; taken from a per-symbol dict when omitted.
    precision : str
        "exact" (each float's dyadic rational), "bits:K" or "log:C" (with ``length``).
    length : int, optional
        n for "log:C": the grid has C·⌈log₂(n+1)⌉ fraction bits.
    beta_range : str
        Delta-rule layers: where β must lie ("any", "(0,1)", "(0,1]", "(0,2)", "(0,2]").
    max_memory : int, optional
        MiB: refuse arrays whose conversion would pass it (default: half the machine's memory),
        checked from the shapes before any float is read, as the family builders do.

    Returns
    -------
    Imported
        The model, the precision, the largest rounding error per group (Fraction).

    Raises
    ------
    rnncc.InputError
        A missing or mis-shaped array (named), a NaN or infinity, a parameter the family
        refuses, a bad keyword; a layer beyond the model file's limits (d, m ≤ 4096, 2^24
        entries) or an estimate above ``max_memory``, before any conversion.
    TypeError
        ``arrays`` is no dict; a keyword of the wrong type.

    Examples
    --------
    >>> r = from_arrays("diagonal", {"decay": [[0.5], [0.3]], "B": [[[1.0]], [[0.0]]],
    ...                              "readout": [[1.0]]}, alphabet=["a", "b"],
    ...                 precision="bits:4")
    >>> r.model.alphabet
    ['a', 'b']
    >>> from fractions import Fraction
    >>> r.errors["decay"] == Fraction(5, 16) - Fraction(0.3)   # 0.3 became 5/16
    True
    >>> r.counts["decay"], r.precision
    (2, 'bits:4')
    """
    from ._common import _leaves, _max_memory, _optional_integer, _rows, _text, _width

    if not isinstance(arrays, _Mapping):
        raise TypeError(f"arrays: expected a dict of parameter name to array, got "
                        f"{type(arrays).__name__}")
    family, precision = _text(family, "family"), _text(precision, "precision")
    beta_range = _text(beta_range, "beta_range")
    length = _optional_integer(length, "length", 1)
    limit = _max_memory(max_memory)
    if alphabet is not None:
        if isinstance(alphabet, (str, bytes)) or not hasattr(alphabet, "__iter__"):
            raise TypeError(f"alphabet: expected a list of symbols, got {type(alphabet).__name__}")
        alphabet = list(alphabet)
        if not all(isinstance(s, str) for s in alphabet):
            raise TypeError("alphabet: expected symbols (str)")
    tensors = {}
    for name, value in arrays.items():
        if isinstance(value, dict):
            if alphabet is None:
                alphabet = list(value)
            for symbol, part in value.items():
                tensors[f"{name}.{symbol}"] = part
        else:
            tensors[name] = value
    if alphabet is None:
        raise ValueError("alphabet: give the symbols (or per-symbol dicts of arrays)")
    from . import _rnncc

    # The sizes first (rnncc.families does the same): d from the readout [r, d], before any
    # float is converted; the library checks the layer's real shape again when it reads them.
    readout = arrays.get("readout")
    d = _width(readout) if readout is not None and _rows(readout) else None
    if d is not None and alphabet:
        _rnncc.check_builder_size(d, 1, len(alphabet), None, _leaves(arrays), limit, "readout")
    model_text, report_text = _rnncc.import_arrays(
        family, safetensors_bytes(tensors), [str(s) for s in alphabet], precision,
        length or 0, beta_range, "<arrays>")
    return _result(model_text, report_text, "<arrays>")


@_keywords()
def import_weights(path, family, vocab, *, precision="exact", length=None, layer=0,
                   allow_neg_eigval=None, agreement_strings=200, agreement_length=16,
                   seed=1, constant_readout=False) -> Imported:
    """Fold one trained layer from a ``.safetensors`` checkpoint into an exact model.

    Parameters
    ----------
    path : str or os.PathLike
        The checkpoint: one layer under flash-linear-attention's or mamba_ssm's names, its
        embedding and ``lm_head`` (docs/import.md).
    family : str
        "deltanet", "gated_deltanet" (or "gdn"), "mamba2" or "rwkv7".
    vocab : str or list of str or dict of str to int
        The symbols and the embedding rows they read: "a,b" or ["a", "b"] (rows 0, 1) or
        {"a": 5, "b": 7}.
    precision : str
        "exact", "bits:K" or "log:C" (with ``length``).
    length : int, optional
        n for "log:C".
    layer : int
        Which layer's tensors (``model.layers.<layer>``).
    allow_neg_eigval : bool, optional
        β ← 2β; by default the file's metadata says. (DeltaNet and GatedDeltaNet take
        v = silu(v_proj x) as fla does, unless the file's metadata says v_activation =
        "identity".)
    agreement_strings, agreement_length, seed : int
        The random strings the agreement with the float64 layer is measured on.
    constant_readout : bool
        Keep the per-token readout as one more state coordinate (a general layer whose
        readout is token-independent: what ``compile(target="boolean")`` needs).

    Returns
    -------
    Imported
        The model, the rounding errors, the notes (what folded how) and the agreement.

    Raises
    ------
    rnncc.InputError
        A missing or mis-shaped tensor (named, with the shape expected), a part that does not
        fold (a short convolution, a token shift, an output norm with a head bias), a bad
        keyword, a metadata v_activation other than "silu" or "identity".

    Examples
    --------
    >>> import os, tempfile
    >>> p = "model.layers.0.attn."
    >>> layer = {"model.embeddings.weight": [[1.0], [-1.0]], p + "q_proj.weight": [[1.0]],
    ...          p + "k_proj.weight": [[1.0]], p + "v_proj.weight": [[2.0]],
    ...          p + "b_proj.weight": [[0.0]], p + "o_proj.weight": [[1.0]],
    ...          "lm_head.weight": [[1.0]]}
    >>> path = os.path.join(tempfile.mkdtemp(), "layer.safetensors")
    >>> with open(path, "wb") as f:
    ...     _ = f.write(safetensors_bytes(layer))
    >>> r = import_weights(path, "deltanet", "a,b", agreement_strings=20)
    >>> r.model.alphabet, r.agreement.verdict_agreement
    (['a', 'b'], 1.0)
    >>> r.agreement.max_abs_error < 1e-12
    True
    """
    import os

    from . import _rnncc
    from ._common import _flag, _integer, _optional_flag, _optional_integer, _readable, _text

    if isinstance(vocab, _Mapping):
        vocab = ",".join(f"{_text(s, 'vocab')}={_integer(i, f'vocab[{s!r}]')}"
                         for s, i in vocab.items())
    elif not isinstance(vocab, str):
        if not hasattr(vocab, "__iter__") or isinstance(vocab, bytes):
            raise TypeError(f"vocab: expected \"a,b\", a list of symbols or a dict of symbol to "
                            f"row, got {type(vocab).__name__}")
        vocab = ",".join(_text(s, "vocab") for s in vocab)
    path = _readable(os.fspath(path))
    model_text, report_text = _rnncc.import_weights(
        path, _text(family, "family"), vocab, _text(precision, "precision"),
        _optional_integer(length, "length", 1) or 0, _integer(layer, "layer"),
        _optional_flag(allow_neg_eigval, "allow_neg_eigval"),
        _integer(agreement_strings, "agreement_strings"),
        _integer(agreement_length, "agreement_length", 1), _integer(seed, "seed"),
        _flag(constant_readout, "constant_readout"))
    return _result(model_text, report_text, path)
