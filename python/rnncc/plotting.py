"""Plots on matplotlib: the depth-growth figure of ``rnncc depth --plot`` in a notebook.

matplotlib is imported when a plot is drawn, not when ``rnncc`` is: the rest of the package works
without it. Debian's package is python3-matplotlib.
"""

from __future__ import annotations

import json
import math
from typing import Mapping

__all__ = ["plot_depth", "growth_law", "law_formula"]

# The growth laws of circuits/measure/depth_growth.hpp, as `rnncc depth --json` names them ("chosen" and
# "models[].model"), with f(n) in depth = a·f(n) + b. log₂n·log₂log₂n is taken as 0 for n ≤ 2,
# as growth_term does (log₂log₂n < 0 there).
_TERMS = {
    "b": lambda n: 0.0,
    "a*log2(n)+b": lambda n: math.log2(n),
    "a*log2(n)*log2(log2(n))+b":
        lambda n: 0.0 if n <= 2 else math.log2(n) * math.log2(math.log2(n)),
    "a*log2(n)^2+b": lambda n: math.log2(n) ** 2,
    "a*n+b": lambda n: float(n),
}
# f(n) as the legend writes it (as the gnuplot key does, viz/plot_depth.cpp).
_KEY_TERMS = {
    "a*log2(n)+b": "log2(n)",
    "a*log2(n)*log2(log2(n))+b": "log2(n) log2(log2(n))",
    "a*log2(n)^2+b": "log2(n)^2",
    "a*n+b": "n",
}
# The gnuplot figure's colours, series by series.
_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
            "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939"]
_MARKERS = ["+", "x", "*", "s", "o", "^", "v", "D", "p", "h", "<", ">", "d"]
# The precision each target measures at, when the report does not say (circuits/measure/depth_growth.hpp).
_PRECISION = {
    "arith": "exact rationals",
    "boolean": "log:1 fixed point; finite-state models exact",
    "threshold": "log:1 fixed point",
}


def _get(obj, key, default=None):
    """obj[key] for a mapping, obj.key for an object (a dataclass), else default."""
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _finite(x, what: str) -> float:
    """A number of a report (a fit's a and b, a point's depth) as a finite float."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        raise ValueError(f"{what}: {x!r}: expected a finite number")
    return float(x)


def _coefficients(fit):
    return _finite(_get(fit, "a", 0.0), "fits: a"), _finite(_get(fit, "b", 0.0), "fits: b")


def growth_law(fit):
    """The fitted law of one entry of a depth report's ``"fits"``, as a function of n.

    Parameters
    ----------
    fit : dict
        One element of ``rnncc depth --json``'s ``"fits"`` (``"chosen"``, ``"a"``, ``"b"``), or
        one of its ``"models"`` (``"model"``, ``"a"``, ``"b"``).

    Returns
    -------
    callable
        ``law(n)``: a·f(n) + b as a float, with f the chosen growth term.

    Raises
    ------
    ValueError
        When the law's name is none of the five ``rnncc depth`` fits.

    Examples
    --------
    >>> law = growth_law({"chosen": "a*log2(n)+b", "a": 2.0, "b": 6.0})
    >>> law(16)
    14.0
    """
    name = _get(fit, "chosen", _get(fit, "model"))
    if name not in _TERMS:
        raise ValueError(f"fits: unknown growth law {name!r} (expected one of "
                         + ", ".join(repr(k) for k in _TERMS) + ")")
    term, (a, b) = _TERMS[name], _coefficients(fit)
    if name == "b":
        return lambda n: b
    return lambda n: a * term(n) + b


def law_formula(fit) -> str:
    """The fitted law as the legend writes it, 4 significant digits: "2 log2(n) + 6".

    Parameters
    ----------
    fit : dict
        One element of ``rnncc depth --json``'s ``"fits"`` (or of its ``"models"``).

    Returns
    -------
    str
        "A TERM + B" (or "- B"), or "B" alone for the constant law.

    Examples
    --------
    >>> law_formula({"chosen": "a*n+b", "a": 0.5, "b": -3.0})
    '0.5 n - 3'
    >>> law_formula({"chosen": "b", "a": 0.0, "b": 11.0})
    '11'
    """
    name = _get(fit, "chosen", _get(fit, "model"))
    a, b = _coefficients(fit)
    if name not in _KEY_TERMS:
        growth_law(fit)  # the error for an unknown law
        return f"{b:.4g}"
    return f"{a:.4g} {_KEY_TERMS[name]} {'-' if b < 0 else '+'} {abs(b):.4g}"


def _matplotlib():
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError(
            "rnncc.plotting needs matplotlib: install Debian's python3-matplotlib "
            "(apt install python3-matplotlib), or `python3 -m pip install matplotlib` in a "
            "virtual environment") from e
    return plt


def plot_depth(report, ax=None, *, title=None):
    """Draws a depth report as ``rnncc depth --plot`` does: circuit depth against n.

    Log–log axes (n and depth both log₂-scaled: a·n + b is a line of slope 1 there, the log laws
    flatten), one series of points per architecture or model file, in the report's order, and
    the law AICc chose for it drawn as a curve of the same colour over the measured lengths; the
    legend gives each series with its fitted formula ("gdn: 2 log2(n) + 6"); series with the same
    depths at every n and the same law share one entry naming them all ("s4, gdn: 2 log2(n) +
    6"), as the CLI's key does. The title names the target and its precision when the report
    says them.

    Parameters
    ----------
    report : dict or str
        The ``rnncc depth --json`` document: ``"points"`` (``arch``, ``n``, ``depth``, …),
        ``"fits"`` (``arch``, ``chosen``, ``a``, ``b``; may be empty or absent: points only) and,
        optionally, ``"target"`` and ``"precision"``; ``rnncc.depth(..., fits=True)`` returns it.
        JSON text is parsed first.
    ax : matplotlib.axes.Axes, optional
        The axes to draw on; a new figure's when None.
    title : str, optional
        The title; by default "Circuit depth against n, target TARGET (PRECISION)".

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on: ``ax.figure.savefig("depth.svg")`` writes the picture.

    Raises
    ------
    ImportError
        When matplotlib is not installed (the message names Debian's python3-matplotlib).
    ValueError
        When the report has no points, or a fit names an unknown growth law.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> report = {"target": "arith", "points": [
    ...     {"arch": "gdn", "n": n, "depth": 2 * n.bit_length() + 4} for n in (2, 4, 8, 16)],
    ...     "fits": [{"arch": "gdn", "chosen": "a*log2(n)+b", "a": 2.0, "b": 6.0}]}
    >>> ax = plot_depth(report)
    >>> ax.get_title()
    'Circuit depth against n, target arith (exact rationals)'
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['gdn: 2 log2(n) + 6']
    >>> ax.get_xscale(), ax.get_yscale()
    ('log', 'log')
    """
    if isinstance(report, (str, bytes)):
        report = json.loads(report)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title: expected a string, got {type(title).__name__}")
    if ax is not None and not hasattr(ax, "plot"):
        raise TypeError(f"ax: expected matplotlib axes, got {type(ax).__name__}")
    points = list(_get(report, "points", None) or [])
    if not points:
        raise ValueError("report: no points to plot (expected the rnncc depth --json document, "
                         "with \"points\")")
    fits = {_get(f, "arch"): f for f in (_get(report, "fits", None) or [])}
    plt = _matplotlib()
    from matplotlib.legend_handler import HandlerTuple

    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 5.5))
    order, series = [], {}
    for p in points:  # the series in first-appearance order, as the CLI's figure
        arch = _get(p, "arch")
        if arch not in series:
            order.append(arch)
            series[arch] = []
        n, depth = _get(p, "n"), _finite(_get(p, "depth"), "points: depth")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1 or depth <= 0:
            raise ValueError(f"points: n = {n!r}, depth = {depth!r}: expected n ≥ 1 and a "
                             "depth > 0 (the axes are logarithmic)")
        series[arch].append((n, depth))
    # Series with the same depths at the same lengths and the same law are one legend entry
    # naming them all (drawn apart they would hide one another), as in the CLI's key.
    entries = {}  # (points, formula) → [legend handle, names]
    for i, arch in enumerate(order):
        xs = [n for n, _ in series[arch]]
        ys = [d for _, d in series[arch]]
        fit = fits.get(arch)
        formula = law_formula(fit) if fit is not None else None
        key = (tuple(series[arch]), formula)
        # a series equal to an earlier one is drawn in its style (exactly over it)
        style = next((k for k, a in enumerate(order[:i])
                      if (tuple(series[a]), law_formula(fits[a]) if a in fits else None) == key), i)
        colour = _COLOURS[style % len(_COLOURS)]
        (dots,) = ax.plot(xs, ys, linestyle="none", marker=_MARKERS[style % len(_MARKERS)],
                          markersize=7, color=colour, label=arch, gid=f"points:{arch}")
        handle = dots
        if fit is not None:
            law = growth_law(fit)
            # The law over the measured range, sampled evenly in log n (a smooth curve on the
            # log axis) and at every measured n.
            lo, hi = min(xs), max(xs)
            grid = sorted({lo * (hi / lo) ** (k / 199) for k in range(200)} | set(xs))
            (curve,) = ax.plot(grid, [law(n) for n in grid], linewidth=1.5, color=colour,
                               label="_fit:" + str(arch), gid=f"fit:{arch}")
            handle = (dots, curve)
        entries.setdefault(key, [handle, []])[1].append(str(arch))
    handles = [h for h, _ in entries.values()]
    labels = [", ".join(names) + (f": {formula}" if formula is not None else "")
              for (_, formula), (_, names) in entries.items()]
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.grid(True, which="major", alpha=0.4)
    ax.set_xlabel("n (sequence length)")
    ax.set_ylabel("circuit depth")
    if title is None:
        target = _get(report, "target")
        title = "Circuit depth against n"
        if target:
            precision = _get(report, "precision") or _PRECISION.get(str(target))
            title += f", target {target}" + (f" ({precision})" if precision else "")
    ax.set_title(title)
    ax.legend(handles, labels, handler_map={tuple: HandlerTuple(ndivide=None)}, fontsize=8,
              loc="upper left")
    return ax
