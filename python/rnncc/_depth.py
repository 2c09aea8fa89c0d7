"""Depth measurements, ``rnncc.depth`` (private to the package): circuit depth against n for
architectures and models, the growth laws fitted to them, and their plot on use."""

from __future__ import annotations

import dataclasses as _dataclasses
import os as _os
from collections.abc import Iterable as _Iterable
from collections.abc import Mapping as _Mapping

from . import _rnncc
from ._common import _integer, _is_seq, _keywords, _listed, _optional_flag, _shown, _text
from ._models import WFA, Model, _subject


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
