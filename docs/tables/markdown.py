"""Shared by the table generators in docs/tables/: run rnncc, format figures the way the docs
write them, print a markdown table.

Each generator prints one whole table (header, separator, rows) to stdout; docs/check-figures
reruns the command named in the table's `<!-- check-figures: table COMMAND -->` marker and
compares its output with the table, line by line (timings masked), and --update rewrites it.
"""
import json
import os
import subprocess
import sys


def rnncc(*args, check=True):
    """rnncc's stdout for these arguments (rnncc from PATH: check-figures puts the build's first)."""
    r = subprocess.run(["rnncc", *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        sys.exit(f"rnncc {' '.join(map(str, args))}: exit {r.returncode}: "
                 + r.stderr.decode("utf-8", "replace")[-500:])
    return r.stdout.decode("utf-8")


def rnncc_json(*args):
    return json.loads(rnncc(*args))


def bench(name):
    """The path of a bench binary of the build (check-figures sets $RNNCC_BENCH)."""
    return os.path.join(os.environ.get("RNNCC_BENCH", "build/bench"), name)


def group(n):
    """An integer with its thousands set off by spaces, as the docs write them: 1 570 189."""
    s = str(abs(int(n)))
    out = ""
    while len(s) > 3:
        out = " " + s[-3:] + out
        s = s[:-3]
    return ("−" if int(n) < 0 else "") + s + out


def fixed(x, digits=3):
    """A float with a fixed number of decimals, the minus sign as the docs write it."""
    s = f"{x:.{digits}f}"
    return s.replace("-", "−") if s.startswith("-") else s


def table(header, rows, align=None):
    """The markdown lines of a table; align: one of "", ":", "-:" markers per column (default ---)."""
    sep = ["---" if not align else {"l": ":---", "r": "---:", "": "---"}[a] for a in (align or [""] * len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(sep) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def emit(lines):
    sys.stdout.write("\n".join(lines) + "\n")
