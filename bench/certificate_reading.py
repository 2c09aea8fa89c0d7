#!/usr/bin/env python3
"""Large certificates for `rnncc check-certificate`, and the time it takes to read them (issue
25, item 4; docs/reliability.md, "Reading certificates").

    bench/certificate_reading.py AFTER [BEFORE] [--work DIR]

AFTER and BEFORE are rnncc executables (BEFORE: a build of an older commit). The certificates,
written under DIR (default /tmp/rnncc-certificates):

- objects-50k, objects-100k, objects-900kB: an equivalence certificate for the checked-in pair
  examples/binary_value_wfa.json, examples/wfa_binary_value.att whose "basis" is N empty objects
  `{}` (what the quadratic reader was slow on: nlohmann's callback parser rescanned the parent
  array after every closed object). Invalid: the checker refuses /basis/0 (exit 1) once read.
- pairs-50k, pairs-99k: valid product certificates written by `AFTER equiv --method product
  --certificate` for a one-symbol Elman ReLU model whose state follows the tent map
  x ↦ min(2x, 2 − 2x) from x₀ = 2/p (p = 100003, 198031: orbits of 50 001 and 99 015 states).

Prints one Markdown row per case and executable: the CPU time (user + system, of the child,
which other processes on a loaded machine do not inflate), the wall time, the exit status.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TENT = {
    "format": "rnncc-model/1",
    "name": "tent",
    "description": "x ↦ min(2x, 2 − 2x) as h = (ReLU(2x), ReLU(4x − 2)), x = h₁ − h₂",
    "alphabet": ["a"],
    "layers": [{
        "kind": "elman",
        "activation": "relu",
        "d": 2,
        "initial_state": ["2/P", "0"],
        "W": [["2", "-2"], ["4", "-4"]],
        "U": [["0"], ["0"]],
        "bias": ["0", "-2"],
        "readout": [["1", "-1"]],
    }],
}


def objects_certificate(path, n):
    """The checked-in certificate's header with a basis of n empty objects."""
    with open(os.path.join(ROOT, "tests/cli/models/binary_value.cert.json")) as f:
        head = json.load(f)
    head.pop("basis")
    text = json.dumps(head)[:-1] + ', "basis": [' + ",".join(["{}"] * n) + "]}"
    with open(path, "w") as f:
        f.write(text)


def pairs_certificate(rnncc, work, p):
    model = os.path.join(work, f"tent_{p}.json")
    m = json.loads(json.dumps(TENT))
    m["layers"][0]["initial_state"][0] = f"2/{p}"
    with open(model, "w") as f:
        json.dump(m, f, indent=1)
    cert = os.path.join(work, f"tent_{p}.cert.json")
    if not os.path.exists(cert):
        subprocess.run([rnncc, "equiv", model, model, "--method", "product", "--no-timing",
                        "--certificate", cert], check=True, stdout=subprocess.DEVNULL)
    return [model, model, cert]


def timed(cmd):
    """(CPU seconds of the child, wall seconds, exit status)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, rc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("after")
    ap.add_argument("before", nargs="?")
    ap.add_argument("--work", default="/tmp/rnncc-certificates")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    pair = [os.path.join(ROOT, "examples/binary_value_wfa.json"),
            os.path.join(ROOT, "examples/wfa_binary_value.att")]
    cases = []
    for name, n in (("objects-50k", 50000), ("objects-100k", 100000), ("objects-900kB", 300000)):
        path = os.path.join(a.work, name + ".cert.json")
        objects_certificate(path, n)
        cases.append((name, pair + [path]))
    for name, p in (("pairs-50k", 100003), ("pairs-99k", 198031)):
        cases.append((name, pairs_certificate(a.after, a.work, p)))
    print("| case | size | before: CPU s (wall s), exit | after: CPU s (wall s), exit |")
    print("|---|---|---|---|")
    for name, files in cases:
        size = os.path.getsize(files[-1])
        row = [name, f"{size / 1e6:.2f} MB"]
        for exe in (a.before, a.after):
            if exe is None:
                row.append("—")
                continue
            cpu, wall, rc = timed([exe, "check-certificate"] + files)
            row.append(f"{cpu:.2f} ({wall:.2f}), exit {rc}")
        print("| " + " | ".join(row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
