#!/usr/bin/env python3
"""The tables of figures of docs/circuits.md that rnncc's CLI makes, each from its --json reports.

One subcommand per kind of table; each prints the whole table (docs/tables/markdown.py):

  scans    `rnncc compile MODEL -n N --scan S --outputs O --json` per length and scan:
           operations, depth, fan-in-2 depth, combine levels (--form: the first column is
           "form" and there is no combine-levels column, for the chunked DeltaNet table)
  hybrid   `rnncc compile MODEL -n N --json` per length (LRNN layers → attention, arithmetic):
           size, operations, positive gates, depth, fan-in-2 depth
  depth    `rnncc depth --target T --arch A --lengths L --json`: one row per architecture,
           one column per length, size / depth / fan-in-2 depth

The other tables of docs/circuits.md (threshold, attention, boolean LRNN, finite-state and
nonlinear compilers: estimates, stated bounds, levels, memory, which the CLI does not report)
come from `$RNNCC_BENCH/measure_circuits` (bench/measure_circuits.cpp), named in their markers.
Every figure is deterministic but the build times (printed "0.12 s", masked by the check).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from markdown import rnncc, rnncc_json, group, fixed, table, emit  # noqa: E402,F401


def lengths(text):
    """"2..256" (2, 4, …, 256), "64,1024", or both mixed: "8,32..256"."""
    out = []
    for item in text.split(","):
        if ".." in item:
            a, b = (int(x) for x in item.split(".."))
            n = a
            while n <= b:
                out.append(n)
                n *= 2
        else:
            out.append(int(item))
    return out


def compile_json(model, n, *args):
    return rnncc_json("compile", model, "--length", n, *args, "--json")


def cmd_scans(a):
    rows = []
    for n in lengths(a.lengths):
        for scan in a.scans.split(","):
            s = compile_json(a.model, n, "--scan", scan, "--outputs", a.outputs)
            row = [n, scan, s["operations"], s["depth"], s["bounded_fanin_depth"]]
            if not a.form:
                row.append(s["combine_levels"])
            rows.append(row)
    header = ["n", "form" if a.form else "scan", "operations", "depth", "fan-in-2 depth"]
    if not a.form:
        header.append("combine levels")
    emit(table(header, rows))


def cmd_hybrid(a):
    rows = []
    for n in lengths(a.lengths):
        s = compile_json(a.model, n)
        rows.append([n, s["size"], s["operations"], s["by_kind"].get("positive", 0), s["depth"],
                     s["bounded_fanin_depth"]])
    emit(table(["n", "size", "operations", "positive gates", "depth", "fan-in-2 depth"], rows))


def cmd_depth(a):
    report = rnncc_json("depth", "--target", a.target, "--arch", a.arch, "--lengths", a.lengths,
                        "--json")
    ns = sorted({p["n"] for p in report["points"]})
    rows = []
    for arch in a.arch.split(","):
        cell = {p["n"]: p for p in report["points"] if p["arch"] == arch}
        rows.append([arch] + [f"{group(cell[n]['size'])} / {cell[n]['depth']} / "
                              f"{cell[n]['bounded_fanin_depth']}" if n in cell else "—" for n in ns])
    emit(table(["n"] + [str(n) for n in ns], rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("scans", help="operations and depths of one model under several scans")
    p.add_argument("--model", required=True)
    p.add_argument("--lengths", required=True, help="e.g. 64,1024 or 2..256")
    p.add_argument("--scans", required=True, help="comma-separated --scan values")
    p.add_argument("--outputs", default="last", choices=["last", "all"])
    p.add_argument("--form", action="store_true",
                   help='first column "form", no combine-levels column (the chunked table)')
    p.set_defaults(run=cmd_scans)
    p = sub.add_parser("hybrid", help="an LRNN → attention hybrid compiled to arithmetic")
    p.add_argument("--model", required=True)
    p.add_argument("--lengths", required=True)
    p.set_defaults(run=cmd_hybrid)
    p = sub.add_parser("depth", help="`rnncc depth --json` points: a row per architecture")
    p.add_argument("--target", default="arith")
    p.add_argument("--arch", required=True)
    p.add_argument("--lengths", required=True, help="A..B, as rnncc depth takes it")
    p.set_defaults(run=cmd_depth)
    a = ap.parse_args()
    a.run(a)


if __name__ == "__main__":
    main()
