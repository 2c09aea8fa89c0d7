"""Circuits (private to the package; ``rnncc.Circuit``, ``rnncc.compile``, … are the names users
import): the object over the library's, compiling a model, reading a circuit file, evaluating,
writing the netlist formats and drawing."""

from __future__ import annotations

import os as _os
import tempfile as _tempfile

from . import _rnncc
from ._common import (_bit, _exact_text, _flag, _fraction, _integer, _is_seq, _keywords, _listed,
                      _max_memory, _np, _optional_integer, _path, _readable, _residue, _shown,
                      _text, _writable)
from ._models import Model, load_model
from ._rnncc import InputError


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
        if not _rnncc.has_graphviz:
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
