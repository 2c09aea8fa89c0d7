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
from typing import Any as _Any

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
    header, data = {}, bytearray()
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name, value in tensors.items():
        flat, shape = _nested(value)
        begin = len(data)
        data += _struct.pack("<%dd" % len(flat), *flat)
        header[name] = {"dtype": "F64", "shape": shape, "data_offsets": [begin, len(data)]}
    text = _json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return _struct.pack("<Q", len(text)) + text + bytes(data)


def _result(model_text, report_text, source):
    from . import parse_model  # the package's Model, built from the model file's text

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


def from_arrays(family, arrays, *, alphabet=None, precision="exact", length=None,
                beta_range="any") -> Imported:
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

    Returns
    -------
    Imported
        The model, the precision, the largest rounding error per group (Fraction).

    Raises
    ------
    rnncc.InputError
        A missing or mis-shaped array (named), a NaN or infinity, a parameter the family
        refuses, a bad keyword.

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

    model_text, report_text = _rnncc.import_arrays(
        family, safetensors_bytes(tensors), [str(s) for s in alphabet], precision,
        int(length or 0), beta_range, "<arrays>")
    return _result(model_text, report_text, "<arrays>")


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
    if isinstance(vocab, dict):
        vocab = ",".join(f"{s}={int(i)}" for s, i in vocab.items())
    elif not isinstance(vocab, str):
        vocab = ",".join(str(s) for s in vocab)
    from . import _rnncc

    model_text, report_text = _rnncc.import_weights(
        str(path), family, vocab, precision, int(length or 0), int(layer), allow_neg_eigval,
        int(agreement_strings), int(agreement_length), int(seed), bool(constant_readout))
    return _result(model_text, report_text, str(path))
