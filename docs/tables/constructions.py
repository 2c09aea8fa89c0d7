#!/usr/bin/env python3
"""The tables of figures of docs/constructions.md, each from rnncc's own reports.

One subcommand per kind of table; each prints the whole table (docs/tables/markdown.py).
Timings are printed as "<number> s" so that docs/check-figures masks them; every other figure is
deterministic (fixed seeds, fixed row sets on the command line).
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from markdown import rnncc, rnncc_json, bench, group, fixed, table, emit  # noqa: E402,F401


# ---------------------------------------------------------------------------------------------
# Helpers

def run_json(*args, ok=(0, 1)):
    """(report, wall seconds) of `rnncc ARGS --json`; exit codes outside `ok` stop the script."""
    t0 = time.monotonic()
    r = subprocess.run(["rnncc", *map(str, args), "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    wall = time.monotonic() - t0
    if r.returncode not in ok:
        sys.exit(f"rnncc {' '.join(map(str, args))}: exit {r.returncode}: "
                 + r.stderr.decode("utf-8", "replace")[-500:])
    return json.loads(r.stdout.decode("utf-8")), wall


def span(text):
    """"1..5" or "2,4,6" (or a mix: "1..3,8") as a list of integers."""
    out = []
    for part in text.split(","):
        if ".." in part:
            a, b = part.split("..")
            out += range(int(a), int(b) + 1)
        elif part:
            out.append(int(part))
    return out


def seconds(x):
    """A timing as the docs write it, with the unit the check-figures mask needs."""
    if x < 0.01:
        return f"{x:.3f} s"
    if x < 1:
        return f"{x:.2f} s"
    if x < 10:
        return f"{x:.1f} s"
    return f"{x:.0f} s"


def minus(text):
    """rnncc's "-1/4" as the docs write it: "−1/4"."""
    return text.replace("-", "−")


def cell(text):
    return str(text).replace("|", "\\|")


def claim_measured(claims, prefix):
    for c in claims:
        if c["name"].startswith(prefix):
            return c
    sys.exit(f"no claim starting with {prefix!r} in {[c['name'] for c in claims]}")


# ---------------------------------------------------------------------------------------------
# Measured K: random matrices factored by `rnncc construct wfa --family dplr|deltanet`

def small_rational(rng):
    p = rng.choice([x for x in range(-4, 5) if x != 0])
    return Fraction(p, rng.randint(1, 4))


def rank(m):
    m = [row[:] for row in m]
    r = 0
    cols = len(m[0]) if m else 0
    for c in range(cols):
        piv = next((i for i in range(r, len(m)) if m[i][c] != 0), None)
        if piv is None:
            continue
        m[r], m[piv] = m[piv], m[r]
        for i in range(len(m)):
            if i != r and m[i][c] != 0:
                f = m[i][c] / m[r][c]
                m[i] = [a - f * b for a, b in zip(m[i], m[r])]
        r += 1
    return r


def dense(rng, rows, cols):
    return [[small_rational(rng) for _ in range(cols)] for _ in range(rows)]


def product(x, y):
    return [[sum((x[i][k] * y[k][j] for k in range(len(y))), Fraction(0)) for j in range(len(y[0]))]
            for i in range(len(x))]


def of_rank(rng, d, r):
    """A d×d matrix of rank exactly r: X (d×r) · Y (r×d), both with small nonzero entries."""
    if r == 0:
        return [[Fraction(0)] * d for _ in range(d)]
    while True:
        m = product(dense(rng, d, r), dense(rng, r, d))
        if rank(m) == r:
            return m


def draw_matrix(rng, kind, d):
    if kind == "full":
        while True:
            m = dense(rng, d, d)
            if rank(m) == d:
                return m
    if kind == "deficient":
        return of_rank(rng, d, d - 1)
    if kind == "low":
        return of_rank(rng, d, rng.randint(0, d - 1))
    if kind == "monomial":
        perm = list(range(d))
        rng.shuffle(perm)
        m = [[Fraction(0)] * d for _ in range(d)]
        for j in range(d):
            m[perm[j]][j] = small_rational(rng)
        return m
    raise ValueError(kind)


def factor_counts(matrices, family, scratch):
    """K of each matrix (its factor count, floored at 1) and the claimed bound, from rnncc.

    The matrices are the symbols of one WFA; `construct wfa` pads every symbol's factor list to
    the longest with identity sub-steps, and no factor it builds is the identity (a transvection
    has c ≠ 0, the diagonal factor is left out when it is I, a Householder factor has β ≠ 0), so
    a symbol's K is its number of non-identity sub-steps."""
    d = len(matrices[0])
    names = [f"m{i}" for i in range(len(matrices))]
    wfa = {
        "format": "rnncc-wfa/1",
        "alphabet": names,
        "states": [str(i) for i in range(d)],
        "initial": ["1"] + ["0"] * (d - 1),
        "final": ["1"] + ["0"] * (d - 1),
        "transitions": {n: [[str(x) for x in row] for row in m] for n, m in zip(names, matrices)},
    }
    src = os.path.join(scratch, f"k{d}.wfa.json")
    out = os.path.join(scratch, f"k{d}.{family}.json")
    with open(src, "w") as f:
        json.dump(wfa, f)
    text = rnncc("construct", "wfa", src, "--family", family, "-o", out)
    m = re.search(r"claim steps per symbol K \((.*?)\): claimed ≤ (\d+), measured (\d+)", text)
    if not m:
        sys.exit("no K claim in: " + text)
    bound, k_max = int(m.group(2)), int(m.group(3))
    with open(out) as f:
        layer = json.load(f)["layers"][0]
    counts = dict.fromkeys(names, 0)
    for token, p in layer["symbols"].items():
        sym = token.rsplit(".", 1)[0]
        if family == "dplr":
            identity = all(x == "1" for x in p["D"]) and all(x == "0" for x in p["a"])
        else:
            identity = p["beta"] == "0" or all(x == "0" for x in p["k"])
        counts[sym] += 0 if identity else 1
    ks = [max(1, counts[n]) for n in names]
    if max(ks) != k_max:
        sys.exit(f"d = {d} {family}: the largest count {max(ks)} is not rnncc's K = {k_max}")
    return ks, bound


def cmd_factor_counts(a):
    classes = [("full rank", "full", a.full_rank), ("rank d−1", "deficient", a.rank_deficient),
               ("random rank < d", "low", a.low_rank), ("monomial P·D", "monomial", a.monomial)]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for label, kind, sizes in classes:
            for d in span(sizes):
                rng = random.Random(f"{a.seed}/{kind}/{d}")
                ms = [draw_matrix(rng, kind, d) for _ in range(a.matrices)]
                row = [label, d]
                for family in ("dplr", "deltanet"):
                    ks, bound = factor_counts(ms, family, scratch)
                    row += [f"{min(ks)} / {sum(ks) / len(ks):.2f} / {max(ks)}", bound]
                rows.append(row)
    emit(table(["matrices", "d", "DPLR K min / mean / max", "bound d²+d−1",
                "DeltaNet K min / mean / max", "bound 3(d−1)(d+2)+d"], rows))


# ---------------------------------------------------------------------------------------------
# Program lengths of balanced formulas (Barrington, Ben-Or–Cleve)

def balanced(depth, op_at_level):
    """The balanced tree of the given depth over x1; op_at_level(l), l = 1 above the leaves."""
    t = "x1"
    for level in range(1, depth + 1):
        t = f"({op_at_level(level)} {t} {t})"
    return t


def program_length(kind, formula):
    d, _ = run_json("verify", kind, formula, "--random", 0, "--seed", 1, "--no-timing", ok=(0,))
    c = claim_measured(d["claims"], "program length ≤ 4^depth")
    return int(c["measured"]), int(c["claimed"].lstrip("≤ "))


def cmd_formula_lengths(a):
    columns = [
        ("barrington", lambda l: "and"),
        ("barrington", lambda l: "and" if l % 2 else "or"),
        ("ben-or-cleve", lambda l: "*"),
        ("ben-or-cleve", lambda l: "+"),
        ("ben-or-cleve", lambda l: "*" if l % 2 else "+"),
        ("ben-or-cleve", lambda l: "+" if l % 2 else "*"),
    ]
    rows = []
    for d in span(a.depths):
        lengths, bound = [], None
        for kind, op in columns:
            n, b = program_length(kind, balanced(d, op))
            lengths.append(n)
            bound = b
        rows.append([d, bound] + lengths)
    emit(table(["d", "4^d", "Barrington: ∧-tree", "Barrington: ∧/∨ alternating",
                "Ben-Or–Cleve: ×-tree", "Ben-Or–Cleve: +-tree", "BC: × at odd levels, + at even",
                "BC: + at odd levels, × at even"], rows))


def cmd_random_formulas(a):
    rows = []
    for kind, depths in (("barrington", a.barrington), ("ben-or-cleve", a.ben_or_cleve)):
        for depth in span(depths):
            d, wall = run_json("verify", kind, "--depth", depth, "--formula-seed", a.formula_seed,
                               "--seed", a.seed, "--no-timing", ok=(0,))
            c = claim_measured(d["claims"], "program length ≤ 4^depth")
            rows.append([f"`rnncc verify {kind} --depth {depth} …`", group(d["checked"]["exhaustive"]),
                         c["measured"], seconds(wall)])
    emit(table(["command", "strings checked", "program length L", "time"], rows))


# ---------------------------------------------------------------------------------------------
# matmul3: the default generators (from the certificate's specification WFA) and the claims

def det3(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def cmd_matmul3_generators(a):
    with tempfile.TemporaryDirectory() as scratch:
        cert = os.path.join(scratch, "mm.cert.json")
        run_json("verify", "matmul3", "--certificate", cert, "--random", 0, "--seed", 1,
                 "--no-timing", ok=(0,))
        with open(cert) as f:
            wfa = json.load(f)["specification"]["wfa"]
    rows = []
    for name in wfa["alphabet"]:
        m = [[Fraction(x) for x in row] for row in wfa["transitions"][name]]
        text = " ".join("(" + ",".join(minus(str(x)) for x in row) + ")" for row in m)
        rows.append([name, text, minus(str(det3(m)))])
    emit(table(["name", "rows", "det"], rows))


def cmd_claims(a):
    args = a.args.split()
    d, _ = run_json("verify", a.kind, *args, ok=(0,))
    claims = [(c["name"], c["claimed"], c["measured"], c["ok"]) for c in d["claims"]]
    bad = [c[0] for c in claims if not c[3]]
    if bad:
        sys.exit(f"verify {a.kind}: claims fail: {bad}")
    for other in a.agree_with or []:
        o, _ = run_json("verify", a.kind, *other.split(), ok=(0,))
        if [(c["name"], c["claimed"], c["measured"], c["ok"]) for c in o["claims"]] != claims:
            sys.exit(f"verify {a.kind} {other}: the claims differ from those of {a.args}")
    emit(table(["claim", "claimed", "measured"],
               [[cell(n), cell(minus(c)), cell(m)] for n, c, m, _ in claims]))


# ---------------------------------------------------------------------------------------------
# graph walk: the promise-restricted product search per V

def cmd_graph_walk_search(a):
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for v in span(a.vertices):
            cert = os.path.join(scratch, f"gw{v}.cert.json")
            model = os.path.join(scratch, f"gw{v}.json")
            d, _ = run_json("verify", "graph-walk", "--vertices", v, "--random", 0, "--seed", 1,
                            "--certificate", cert, ok=(0,))
            note = next(n for n in d["notes"] if n.startswith("promise-restricted product search"))
            configs = int(re.search(r"(\d+) configurations of X", note).group(1))
            rnncc("construct", "graph-walk", "--vertices", v, "-o", model)
            checked = rnncc("check-certificate", model, cert)
            strings = int(re.search(r"the grammar accepts \((\d+) strings", checked).group(1))
            rows.append([v, group(d["proof"]["pairs"]), group(configs), group(strings),
                         seconds(d["proof"]["seconds"])])
    emit(table(["V", "pairs", "configurations of X", "encodings (V(V − 1)·V!)", "search"], rows))


# ---------------------------------------------------------------------------------------------
# β ∈ (0, 1): the counterexamples verify finds

def cmd_beta_counterexamples(a):
    rows = []
    for run in a.runs:
        args = run.split()
        d, _ = run_json("verify", *args, "--beta-range", "(0,1)", "--exhaustive", a.exhaustive,
                        "--random", 0, "--no-timing", "--seed", 1, ok=(1,))
        ce = d["counterexample"]
        if not ce:
            sys.exit(f"verify {run}: no counterexample")
        beta = re.search(r"β = ([^ ]+) in", d["construction"]).group(1)
        opts = dict(zip(args[1::2], args[2::2]))
        if args[0] == "mod-count":
            name = f"mod-count k = {opts['--k']}, r = {opts['--r']}"
        elif args[0] == "sn":
            name = f"S_{opts['--n']}, {opts.get('--generators', 'cycle')}"
        else:
            name = args[0]
        rows.append([name, beta, f"`{ce['input']}`", minus(ce["expected"]), minus(ce["got"])])
    emit(table(["construction", "β", "counterexample", "expected", "got"], rows))


# ---------------------------------------------------------------------------------------------
# Turing machines: steps, ones, precision

def tm_group(n):
    return group(n) if abs(n) >= 10000 else str(n)


def cmd_tm_runs(a):
    rows = []
    for run in a.runs:
        args = run.split()
        machine = args[0]
        d, wall = run_json("verify", "tm", f"examples/tm_{machine}.txt", *args[1:], ok=(0,))
        if d["counterexample"] is not None or d["first_differing_step"] is not None:
            sys.exit(f"verify tm {run}: the model differs from the machine")
        label = re.sub(r"^bb(\d+)$", r"BB(\1)", machine)
        if args[1:]:
            label += " (`" + " ".join(x for x in args[1:] if x.startswith("--index")) + "`)"
        dim = claim_measured(d["claims"], "LRNN state dimension")["measured"]
        bits = claim_measured(d["claims"], "value bits")
        rows.append([label, tm_group(d["steps"]), tm_group(d["ones"]), dim,
                     tm_group(int(d["largest_value"])), bits["measured"],
                     bits["claimed"].lstrip("≤ "), seconds(wall)])
    emit(table(["machine", "steps", "ones", "LRNN d", "largest \\|value\\|", "bits", "bound bits",
                "time"], rows))


# ---------------------------------------------------------------------------------------------
# SAT per length: sizes, DRAT lemmas, seconds

def cmd_sat_sizes(a):
    rows = []

    def add(label, first, n_text, args, tm=False):
        d, _ = run_json(*args, ok=(0,))
        sat = d["sat"] if tm else d["proof"]["sat"]
        if (d.get("holds") if tm else d["proved"]) is not True:
            sys.exit(f"rnncc {' '.join(map(str, args))}: not proved")
        rows.append([label if first else "", n_text, group(sat["gates"]), group(sat["clauses"]),
                     group(sat["drat"]["lemmas"]), f"{sum(sat['seconds'].values()):.2f} s"])

    for kind, ns in (("selective-copy", a.selective_copy), ("assoc-recall", a.assoc_recall)):
        for i, n in enumerate(span(ns)):
            add(f"`rnncc verify {kind} --sat N`", i == 0, n,
                ("verify", kind, "--sat", n, "--random", 0, "--seed", 1))
    for i, nt in enumerate(a.tm.split(",")):
        n, t = nt.split(":")
        add("`rnncc verify tm examples/tm_binary_increment.txt --sat-tape n --max-steps T`", i == 0,
            f"n = {n}, T = {t}", ("verify", "tm", "examples/tm_binary_increment.txt", "--sat-tape", n,
                                  "--max-steps", t), tm=True)
    for i, n in enumerate(span(a.state_recall)):
        add("`rnncc verify state-recall --order as-given --sat N`", i == 0, n,
            ("verify", "state-recall", "--order", "as-given", "--sat", n, "--random", 0, "--seed", 1))
    emit([l.replace("|  |", "| |") for l in
          table(["command", "N", "gates", "clauses", "DRAT lemmas checked", "seconds"], rows)])


# ---------------------------------------------------------------------------------------------
# Every construction: strongest verdict, method, time

VERDICT_ROWS = [
    ("wfa (general)", "wfa examples/wfa_count_ab.att"),
    ("dwfa → PD", "dwfa examples/dwfa_mod3.att"),
    ("barrington", "barrington (or (and x1 x2) (not x3))"),
    ("ben-or-cleve", "ben-or-cleve --depth 2"),
    ("matmul3", "matmul3"),
    ("graph-walk, dgc", "graph-walk"),
    ("graph-walk, dgc (V = 9)", "dgc --vertices 9 --k-induction 1"),
    ("graph-walk, promise dropped", "dgc --variant final-no-promise --k-induction 3"),
    ("parity", "parity"),
    ("mod-count", "mod-count"),
    ("sn", "sn"),
    ("router (corrected)", "router --permutation"),
    ("router (paper's period)", "router"),
    ("state-recall", "state-recall --sat 4"),
    ("selective-copy", "selective-copy --sat 64"),
    ("assoc-recall", "assoc-recall --sat 64"),
    ("tm (hybrid)", "tm examples/tm_binary_increment.txt --sat-tape 8 --max-steps 32"),
    ("tm (hybrid), one input", "tm examples/tm_bb2.txt --input 0 --max-steps 100"),
]


def split_args(text):
    """"barrington (or (and x1 x2) (not x3))" → ["barrington", "(or (and x1 x2) (not x3))"]."""
    if "(" in text:
        head, rest = text.split("(", 1)
        return head.split() + ["(" + rest]
    return text.split()


def scope_text(scope):
    scope = re.sub(r" \(promise: .*? of an instance on (\d+) vertices with s ≠ t\)", r" (V = \1)", scope)
    return scope


def verdict_cells(d, wall):
    if "sat" in d and "verdict" not in d:  # verify tm --sat-tape
        s = d["sat"]
        steps = re.search(r"first (\d+) steps", s["statement"]).group(1)
        ok = s["verdict"] == "proved" and d["holds"]
        drat = ", DRAT proof checked" if s["drat"]["checked"] else ""
        return ((f"proved, every tape of {s['max_length']} symbols, first {steps} steps" if ok
                 else "FAILS"), f"SAT: {s['solver']}{drat}",
                f"{seconds(wall)} (SAT: {seconds(sum(s['seconds'].values()))})")
    if d["verdict"] == "tested" and "steps" in d:  # verify tm, one input
        tokens = d["checked"]["tokens (model vs simulator)"]
        halted = "the run to halting" if d["halted"] else "the run to the step cap"
        return (f"tested: {halted} ({d['steps']} steps)",
                f"step by step against the simulator ({tokens} tokens)", seconds(wall))
    p = d.get("proof") or {}
    method = d["method"] or "testing"
    failing = [c["name"] for c in d["claims"] if not c["ok"]]
    if p.get("proved"):
        text = f"proved, {scope_text(p['scope'])}"
        if p["scope"] == "every length":
            text += f", over {p['field']}"
        if p["scope"].startswith("the finite domain"):
            text = f"proved, the finite domain ({group(p['strings'])} strings)"
        if "sat" in p and d["tested"]["max_length"]:
            text += f" (tested to {d['tested']['max_length']})"
        if failing:
            text = f"FAILS: a claim ({'; '.join(failing)}) fails; the function is {text}"
    elif d["verdict"] == "refuted" and d["counterexample"]:
        ce = d["counterexample"]
        text = f"refuted: `{ce['input']}` (expected {minus(ce['expected'])}, got {minus(ce['got'])})"
    else:
        text = d["verdict"]
    for n in d["notes"]:
        m = re.match(r"--k-induction \d+: no proof \((\w+): .*?(a real run|a counterexample to induction)", n)
        if m:
            text += f"; k-induction: no proof, the {m.group(1)} fails ({m.group(2)})"
            method += "; k-induction, Z3"
    time_text = seconds(wall)
    k = p.get("k_induction")
    if k:
        time_text += f" (Z3: {seconds(k['seconds'])}, {k['queries']} queries)"
    if "sat" in p:
        time_text += f" (SAT: {seconds(p['seconds'])})"
    return text, method, time_text


def cmd_verdicts(a):
    rows = []
    for label, command in VERDICT_ROWS:
        args = split_args(command)
        extra = [] if args[0] == "tm" else ["--random", a.random, "--seed", a.seed]
        d, wall = run_json("verify", *args, *extra, ok=(0, 1))
        verdict, method, t = verdict_cells(d, wall)
        shown = " ".join(f'"{x}"' if " " in x else x for x in args)
        rows.append([label, f"`verify {shown}`", verdict, method, t])
    emit(table(["construction", "command", "strongest verdict", "method", "time"], rows))


# ---------------------------------------------------------------------------------------------
# k-induction (Z3)

def cmd_k_induction(a):
    rows = []
    for run in a.runs:
        args = run.split()
        d, wall = run_json("verify", "dgc", *args, "--random", a.random, "--seed", a.seed, ok=(0, 1))
        k = (d.get("proof") or {}).get("k_induction")
        if k and d["proved"]:
            result = f"proved, k = {k['k']}, {k['queries']} queries"
            z3 = seconds(k["seconds"])
        else:
            note = next(n for n in d["notes"] if n.startswith("--k-induction"))
            m = re.match(r"--k-induction \d+: no proof \((\w+): (.*?)\): ", note)
            kind, why = m.group(1), m.group(2)
            if kind == "step":
                result = "no proof: step (counterexample to induction)"
            else:
                depth = re.search(r"and (\d+) edge block", why)
                result = f"no proof: {kind} at depth {depth.group(1) if depth else '?'} (a real run)"
            z3 = f"not reported (whole command {seconds(wall)})"
        rows.append([f"`rnncc verify dgc {run} --random {a.random} --seed {a.seed}`", result, z3])
    emit(table(["command", "result", "Z3 time"], rows))


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("factor-counts", help="K per random matrix, DPLR and DeltaNet (construct wfa)")
    p.add_argument("--full-rank", default="1..6")
    p.add_argument("--rank-deficient", default="1..6")
    p.add_argument("--low-rank", default="2..6")
    p.add_argument("--monomial", default="2..6")
    p.add_argument("--matrices", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(fn=cmd_factor_counts)

    p = sub.add_parser("formula-lengths", help="program lengths of balanced formulas")
    p.add_argument("--depths", default="0..5")
    p.set_defaults(fn=cmd_formula_lengths)

    p = sub.add_parser("random-formulas", help="verify --depth D: strings, L, wall time")
    p.add_argument("--barrington", default="2,4,6,8,10")
    p.add_argument("--ben-or-cleve", default="2,4,6,8")
    p.add_argument("--formula-seed", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(fn=cmd_random_formulas)

    p = sub.add_parser("matmul3-generators", help="the default generators and their determinants")
    p.set_defaults(fn=cmd_matmul3_generators)

    p = sub.add_parser("claims", help="a verify report's claims")
    p.add_argument("kind")
    p.add_argument("--args", default="", help="verify's options, one string")
    p.add_argument("--agree-with", action="append", help="other options whose claims must be the same")
    p.set_defaults(fn=cmd_claims)

    p = sub.add_parser("graph-walk-search", help="promise-restricted product search per V")
    p.add_argument("--vertices", default="3,5,7,9")
    p.set_defaults(fn=cmd_graph_walk_search)

    p = sub.add_parser("beta-counterexamples", help="β ∈ (0,1): verify's minimal counterexamples")
    p.add_argument("--exhaustive", type=int, default=4)
    p.add_argument("runs", nargs="+", help="KIND [OPTIONS] as one string each")
    p.set_defaults(fn=cmd_beta_counterexamples)

    p = sub.add_parser("tm-runs", help="verify tm: steps, ones, precision, time")
    p.add_argument("runs", nargs="+", help="MACHINE [OPTIONS] (examples/tm_MACHINE.txt) as one string each")
    p.set_defaults(fn=cmd_tm_runs)

    p = sub.add_parser("sat-sizes", help="--sat N: gates, clauses, DRAT lemmas, seconds")
    p.add_argument("--selective-copy", default="8,16,32,64")
    p.add_argument("--assoc-recall", default="8,16,32,64")
    p.add_argument("--tm", default="4:16,8:24,8:32", help="n:T pairs")
    p.add_argument("--state-recall", default="4,5")
    p.set_defaults(fn=cmd_sat_sizes)

    p = sub.add_parser("verdicts", help="every construction's strongest verdict (VERDICT_ROWS)")
    p.add_argument("--random", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(fn=cmd_verdicts)

    p = sub.add_parser("k-induction", help="verify dgc --k-induction: result and Z3 time")
    p.add_argument("--random", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("runs", nargs="+", help="dgc's options as one string each")
    p.set_defaults(fn=cmd_k_induction)

    a = ap.parse_args()
    a.fn(a)


if __name__ == "__main__":
    main()
