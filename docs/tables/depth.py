#!/usr/bin/env python3
"""The tables of figures of docs/depth.md, each from rnncc's own reports.

One subcommand per kind of table; each prints the whole table (docs/tables/markdown.py):

  grid     `rnncc depth --json` points at chosen lengths: size / depth / fan-in-2 depth
  fits     `rnncc depth --json` fits: chosen law, a, b, RMS residual, AICc of all five laws
  models   model files next to an architecture: size / depth at chosen lengths and the fit
  laws     the law AICc chooses per architecture, one row per --lengths range
  chunked  `rnncc compile --stats --json` of one model under several --scan forms

Every figure is deterministic. A boolean `rnncc depth` run takes a minute or more on the 2-core
development machine, so the three boolean tables read one run (`--lengths 2..256 --fit-from 4,8`:
the fits from n = 4, the default lengths, and from 8 come from its points), and reports of
`rnncc depth` without --model are kept in a cache keyed by the rnncc binary's SHA-256 and the
arguments ($TMPDIR/rnncc-docs-depth-cache; RNNCC_TABLES_NO_CACHE=1 turns it off): a rebuilt
rnncc misses it.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from markdown import rnncc, rnncc_json, group, fixed, table, emit  # noqa: E402,F401

# rnncc's law names (`model` / `chosen` in the --json fits) as the docs write them.
LAWS = {
    "b": "1",
    "a*log2(n)+b": "log",
    "a*log2(n)*log2(log2(n))+b": "loglog",
    "a*log2(n)^2+b": "log²",
    "a*n+b": "n",
}


def binary_digest():
    path = shutil.which("rnncc")
    if path is None:
        sys.exit("no rnncc on PATH")
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def depth_json(*args):
    """`rnncc depth ARGS --json`, cached (see the module's docstring) unless a model file is read."""
    args = [str(a) for a in args] + ["--json"]
    if os.environ.get("RNNCC_TABLES_NO_CACHE") or "--model" in args:
        return rnncc_json("depth", *args)
    folder = os.path.join(tempfile.gettempdir(), "rnncc-docs-depth-cache")
    key = hashlib.sha256((binary_digest() + "\0" + "\0".join(args)).encode()).hexdigest()
    path = os.path.join(folder, key + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        pass
    text = rnncc("depth", *args)
    report = json.loads(text)
    os.makedirs(folder, exist_ok=True)
    tmp = f"{path}.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return report


def depth_args(a):
    out = []
    if a.target:
        out += ["--target", a.target]
    if a.arch:
        out += ["--arch", a.arch]
    if getattr(a, "model", None):
        out += ["--model", a.model]
    if getattr(a, "lengths", None):
        out += ["--lengths", a.lengths]
    if getattr(a, "fit_from", None):
        out += ["--fit-from", a.fit_from]
    return out


def rows_of(report):
    """Architecture labels in the report's order."""
    seen = []
    for p in report["points"]:
        if p["arch"] not in seen:
            seen.append(p["arch"])
    return seen


def point(report, arch, n):
    for p in report["points"]:
        if p["arch"] == arch and p["n"] == n:
            return p
    sys.exit(f"no point for {arch} at n = {n}")


def fit(report, arch, window=None):
    """The arch's fit over all the report's points, or over those with n ≥ window (`rnncc depth
    --fit-from`: the fits a run from that length would print)."""
    fits = report["fits"]
    if window is not None:
        fits = next((w["fits"] for w in report.get("fits_from", []) if w["from"] == window), None)
        if fits is None:
            sys.exit(f"no fits from n = {window}: pass it to --fit-from")
    for f in fits:
        if f["arch"] == arch:
            return f
    sys.exit(f"no fit for {arch}")


def num(x, digits):
    """A fixed-decimals figure with the docs' minus; "0.000", never "−0.000"."""
    s = fixed(x, digits)
    return s[1:] if s.startswith("−") and float(s[1:]) == 0 else s


def aicc(x):
    return "−∞" if x is None else num(x, 1)


def aiccs(f):
    by = {m["model"]: m["aicc"] for m in f["models"]}
    return " / ".join(aicc(by[m]) for m in LAWS)


def cells_of(p, bounded):
    c = [group(p["size"]), str(p["depth"])]
    if bounded:
        c.append(str(p["bounded_fanin_depth"]))
    return " / ".join(c)


def at_list(text):
    return [int(x) for x in text.split(",")]


def cmd_grid(a):
    report = depth_json(*depth_args(a))
    ns = at_list(a.at)
    rows = [[arch] + [cells_of(point(report, arch, n), True) for n in ns] for arch in rows_of(report)]
    emit(table(["arch"] + [f"n = {n}" for n in ns], rows))


def cmd_fits(a):
    report = depth_json(*depth_args(a))
    rows = []
    for arch in rows_of(report):
        f = fit(report, arch, a.window)
        rows.append([arch, LAWS[f["chosen"]], num(f["a"], 3), num(f["b"], 3), num(f["rms"], 3), aiccs(f)])
    emit(table(["arch", "chosen (AICc)", "a", "b", "RMS residual", "AICc of 1 / log / loglog / log² / n"], rows))


def short(x):
    """An integral figure as an integer, any other with three decimals."""
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else num(x, 3)


def cmd_models(a):
    report = depth_json(*depth_args(a))
    ns = at_list(a.at)
    rows = []
    for arch in rows_of(report):
        f = fit(report, arch)
        rows.append([arch] + [cells_of(point(report, arch, n), False) for n in ns]
                    + [LAWS[f["chosen"]], short(f["a"]), short(f["b"]), short(f["rms"]), aiccs(f)])
    emit(table(["row"] + [f"n = {n}" for n in ns] + ["chosen", "a", "b", "RMS", "AICc 1 / log / loglog / log² / n"],
               rows))


def cmd_laws(a):
    """One row per fitting window of one run: all its points, then n ≥ each --fit-from."""
    report = depth_json(*depth_args(a))
    archs = rows_of(report)
    windows = [None] + (at_list(a.fit_from) if a.fit_from else [])
    defaults = a.default.split("..") if a.default else None
    rows = []
    for w in windows:
        ns = fit(report, archs[0], w)["n"]
        label = f"{ns[0]}..{ns[-1]}"
        if defaults and [str(ns[0]), str(ns[-1])] == defaults:
            label += " (default)"
        laws = [LAWS[fit(report, arch, w)["chosen"]] for arch in archs]
        # The constant law spelled out, as the prose around this table names it.
        rows.append([label] + ["constant" if law == "1" else law for law in laws])
    emit(table(["lengths"] + archs, rows))


def cmd_chunked(a):
    ns = at_list(a.lengths)
    scans = a.scans.split(",")
    names = {"brent-kung": "Brent–Kung"}
    rows = []
    for n in ns:
        row = [group(n)]
        for s in scans:
            st = rnncc_json("compile", a.model, "--length", n, "--scan", s, "--stats", "--json")
            row.append(f"{group(st['size'])} / {group(st['depth'])}")
        rows.append(row)
    emit(table(["n"] + [f"{names.get(s, s)} size / depth" for s in scans], rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)

    def depth_options(p, model=False):
        p.add_argument("--target", help="arith, boolean or threshold (rnncc's default: arith)")
        p.add_argument("--arch", help="comma-separated (rnncc's default: all)")
        if model:
            p.add_argument("--model", help="comma-separated model files")
        p.add_argument("--lengths", help="A..B (rnncc's default for the target when left out)")
        p.add_argument("--fit-from", help="comma-separated n: `rnncc depth --fit-from` windows")

    p = sub.add_parser("grid", help="size / depth / fan-in-2 depth per architecture at --at")
    depth_options(p)
    p.add_argument("--at", required=True, help="comma-separated lengths shown as columns")
    p.set_defaults(run=cmd_grid)

    p = sub.add_parser("fits", help="the chosen law, a, b, RMS and every law's AICc per architecture")
    depth_options(p)
    p.add_argument("--window", type=int, help="the fits of the points with n ≥ this (one of --fit-from)")
    p.set_defaults(run=cmd_fits)

    p = sub.add_parser("models", help="model files next to architectures: size / depth at --at, and the fit")
    depth_options(p, model=True)
    p.add_argument("--at", required=True, help="comma-separated lengths shown as columns")
    p.set_defaults(run=cmd_models)

    p = sub.add_parser("laws", help="the law AICc chooses per architecture, one row per fitting window")
    depth_options(p)
    p.add_argument("--default", help="A..B: the row with these lengths is labelled (default)")
    p.set_defaults(run=cmd_laws)

    p = sub.add_parser("chunked", help="`rnncc compile --scan S --stats` of one model: size / depth")
    p.add_argument("--model", required=True)
    p.add_argument("--lengths", required=True, help="comma-separated n")
    p.add_argument("--scans", required=True, help="comma-separated --scan values, one column each")
    p.set_defaults(run=cmd_chunked)

    a = ap.parse_args()
    a.run(a)


if __name__ == "__main__":
    main()
