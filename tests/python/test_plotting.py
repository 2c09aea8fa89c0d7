"""rnncc.plotting.plot_depth draws what `rnncc depth --plot` draws: log–log axes, one series per
architecture holding the measured points, the law AICc chose drawn as a curve whose values are
the law's, and the formula in the legend. Real reports come from the rnncc binary (--json)."""

import doctest
import json
import math
import os

import pytest

matplotlib = pytest.importorskip(
    "matplotlib", reason="matplotlib is not installed (Debian: python3-matplotlib)")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from rnncc import plotting  # noqa: E402
from rnncc.plotting import growth_law, law_formula, plot_depth  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _series(report):
    out = {}
    for p in report["points"]:
        out.setdefault(p["arch"], []).append((p["n"], p["depth"]))
    return out


def _lines(ax, kind):
    return {ln.get_gid()[len(kind) + 1:]: ln for ln in ax.get_lines()
            if (ln.get_gid() or "").startswith(kind + ":")}


def _law(name, a, b, n):
    """The growth laws of circuits/measure/depth_growth.hpp, written out again (the oracle)."""
    l2 = math.log2(n)
    term = {"b": 0.0, "a*log2(n)+b": l2,
            "a*log2(n)*log2(log2(n))+b": 0.0 if n <= 2 else l2 * math.log2(l2),
            "a*log2(n)^2+b": l2 * l2, "a*n+b": n}[name]
    return a * term + b


def _check_figure(report):
    ax = plot_depth(report)
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert ax.xaxis.get_transform().base == 2 and ax.yaxis.get_transform().base == 2
    series = _series(report)
    points = _lines(ax, "points")
    assert list(points) == list(series)  # one line per architecture, in the report's order
    for arch, pts in series.items():
        xs, ys = points[arch].get_data()
        assert list(xs) == [n for n, _ in pts]
        assert list(ys) == [d for _, d in pts]
        assert points[arch].get_linestyle() == "None"  # points, not a polyline
    fits = {f["arch"]: f for f in report["fits"]}
    curves = _lines(ax, "fit")
    assert set(curves) == set(fits)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    # one entry per distinct (points, law), naming every series that has them
    distinct = {(tuple(pts), fits[a]["chosen"] if a in fits else None,
                 law_formula(fits[a]) if a in fits else None) for a, pts in series.items()}
    assert len(legend) == len(distinct)
    for arch in series:
        assert sum(arch in t.split(":")[0].split(", ") for t in legend) == 1
    for arch, fit in fits.items():
        xs, ys = curves[arch].get_data()
        assert len(xs) >= 100  # a curve, sampled over the measured range
        ns = [n for n, _ in series[arch]]
        assert min(xs) == min(ns) and max(xs) == max(ns)
        assert set(ns) <= set(xs)
        for x, y in zip(xs, ys):
            assert y == pytest.approx(_law(fit["chosen"], fit["a"], fit["b"], x), rel=1e-12,
                                      abs=1e-12)
        assert curves[arch].get_color() == points[arch].get_color()
        assert any(arch in t.split(":")[0].split(", ") and t.endswith(": " + law_formula(fit))
                   for t in legend)
    return ax


def test_cli_report_arith(cli):
    rc, report = cli("depth", "--arch", "dplr,relu-rnn,diagonal", "--lengths", "2..64", "--json",
                     check_json=True)
    assert rc == 0
    chosen = {f["arch"]: f["chosen"] for f in report["fits"]}
    assert chosen["relu-rnn"] == "a*n+b"  # a linear law among them, a log law too
    assert "a*log2(n)+b" in chosen.values()
    ax = _check_figure(report)
    assert ax.get_title() == "Circuit depth against n, target arith (exact rationals)"
    # the formula as the gnuplot key writes it: "0.5 n + 3" style, 4 significant digits
    relu = next(f for f in report["fits"] if f["arch"] == "relu-rnn")
    assert f"relu-rnn: {relu['a']:.4g} n " in " ".join(
        t.get_text() for t in ax.get_legend().get_texts())


def test_cli_report_threshold_and_json_text(cli):
    rc, out, _ = cli("depth", "--arch", "s4,counter,uhat", "--target", "threshold", "--lengths",
                     "2..32", "--json")
    assert rc == 0
    report = json.loads(out)
    _check_figure(report)
    ax = plot_depth(out)  # the JSON text itself
    assert ax.get_title() == "Circuit depth against n, target threshold (log:1 fixed point)"


def test_every_law_and_the_title():
    ns = [2, 4, 8, 16, 32]
    laws = [("b", 0.0, 7.0), ("a*log2(n)+b", 2.0, 3.0), ("a*log2(n)*log2(log2(n))+b", 1.5, 4.0),
            ("a*log2(n)^2+b", 0.25, 5.0), ("a*n+b", 1.0, -1.0)]
    report = {"points": [], "fits": []}
    for i, (name, a, b) in enumerate(laws):
        arch = f"s{i}"
        report["points"] += [{"arch": arch, "n": n, "depth": round(_law(name, a, b, n))}
                             for n in ns]
        report["fits"].append({"arch": arch, "chosen": name, "a": a, "b": b})
    ax = _check_figure(report)
    assert ax.get_title() == "Circuit depth against n"  # the report names no target
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["s0: 7", "s1: 2 log2(n) + 3", "s2: 1.5 log2(n) log2(log2(n)) + 4",
                      "s3: 0.25 log2(n)^2 + 5", "s4: 1 n - 1"]
    report["target"], report["precision"] = "boolean", "log:2"
    assert plot_depth(report).get_title() == "Circuit depth against n, target boolean (log:2)"
    assert plot_depth(report, title="mine").get_title() == "mine"


def test_equal_series_share_a_legend_entry():
    pts = [{"n": n, "depth": 2 * n.bit_length() + 4} for n in (2, 4, 8, 16)]
    fit = {"chosen": "a*log2(n)+b", "a": 2.0, "b": 6.0}
    report = {"points": [dict(p, arch=a) for a in ("s4", "gdn") for p in pts]
              + [{"arch": "pd", "n": n, "depth": n} for n in (2, 4, 8, 16)],
              "fits": [dict(fit, arch="s4"), dict(fit, arch="gdn"),
                       {"arch": "pd", "chosen": "a*n+b", "a": 1.0, "b": 0.0}]}
    ax = _check_figure(report)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "s4, gdn: 2 log2(n) + 6", "pd: 1 n + 0"]
    assert list(_lines(ax, "points")) == ["s4", "gdn", "pd"]  # each series still drawn


def test_on_given_axes_and_without_fits():
    fig, (left, right) = plt.subplots(1, 2)
    report = {"points": [{"arch": "a", "n": n, "depth": n} for n in (1, 2, 4)]}
    assert plot_depth(report, right) is right
    assert not left.get_lines()
    assert list(_lines(right, "points")) == ["a"] and not _lines(right, "fit")
    assert [t.get_text() for t in right.get_legend().get_texts()] == ["a"]


def test_bad_reports():
    with pytest.raises(ValueError, match="no points"):
        plot_depth({"points": [], "fits": []})
    with pytest.raises(ValueError, match="unknown growth law 'a\\*n\\^3\\+b'"):
        plot_depth({"points": [{"arch": "a", "n": 2, "depth": 3}],
                    "fits": [{"arch": "a", "chosen": "a*n^3+b", "a": 1, "b": 0}]})
    assert growth_law({"model": "a*n+b", "a": 2, "b": 1})(3) == 7.0  # a "models" entry too


def test_missing_matplotlib_names_the_debian_package(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(ImportError, match="python3-matplotlib"):
        plot_depth({"points": [{"arch": "a", "n": 2, "depth": 3}]})


def test_docstring_examples():
    os.environ.setdefault("MPLBACKEND", "Agg")
    failures, tries = doctest.testmod(plotting, optionflags=doctest.ELLIPSIS)
    assert tries >= 8 and failures == 0
