"""Checks and their typed results (private to the package; ``rnncc.verify``, ``rnncc.Verdict``,
… are the names users import): verify, equiv, the independent certificate checker and minimize,
each keeping the CLI's ``--json`` document as ``.report``."""

from __future__ import annotations

import dataclasses as _dataclasses
import os as _os
import tempfile as _tempfile
from typing import Any as _Any

from . import _rnncc
from ._common import (_exact_text, _flag, _fraction, _integer, _keywords, _listed,
                      _optional_integer, _path, _readable, _shown, _text, _writable)
from ._models import WFA, Model, _subject
from ._rnncc import InputError


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
           seed: int | None = None, prove: bool = True, three_way: bool = True,
           timing: bool = True, device: str = "cpu", max_work: int = 2**34, certificate=None,
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
    three_way : bool, default True
        Compile the model to a circuit per length and check every string model = circuit = f.
        False (``--no-three-way``): the model against f only, so ``exhaustive`` takes prefix
        sharing or the model walk at every length they apply to (much faster on the hybrids).
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
    three_way = _flag(three_way, "three_way")
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
                          prove, three_way, timing, device == "gpu", max_work, model, against,
                          cert)
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
