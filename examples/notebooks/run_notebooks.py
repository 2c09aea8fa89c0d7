#!/usr/bin/env python3
"""Run the example notebooks top to bottom, check they are stored without outputs, render HTML.

    run_notebooks.py [--html DIR] [--check-stripped] [--strip] [NOTEBOOK ...]

Every notebook runs from the repository root (the paths in its cells are relative to it) in the
interpreter that runs this script: with nbclient and ipykernel (Debian: python3-nbclient,
python3-ipykernel) as Jupyter runs it — the kernel "python3" is this interpreter — and, where
those are missing (a pyenv or conda interpreter without Jupyter), by executing the code cells in
order in one namespace, which is what "Run all" does. A cell that raises fails the run (exit 1)
and names the notebook and the cell.

``--html DIR`` writes each executed notebook as DIR/NAME.html (nbconvert's HTML exporter; the
rendered copies in docs/notebooks are made so, by docs/notebooks/render.sh). ``--check-stripped``
fails when a stored notebook has outputs or execution counts (they are kept out of git);
``--strip`` removes them in place.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import traceback

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent


def notebooks(names: list[str]) -> list[pathlib.Path]:
    if names:
        return [pathlib.Path(n).resolve() for n in names]
    return sorted(HERE.glob("*.ipynb"))


def is_stripped(nb: dict) -> bool:
    return all(c.get("outputs", []) == [] and c.get("execution_count") is None
               for c in nb["cells"] if c["cell_type"] == "code")


def strip(nb: dict) -> dict:
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            c["outputs"], c["execution_count"] = [], None
    return nb


def run_plain(path: pathlib.Path, nb: dict) -> None:
    """Executes the code cells in order in one namespace (no Jupyter needed)."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    namespace: dict = {"__name__": "__main__"}
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        try:
            exec(compile(source, f"{path.name}[cell {i}]", "exec"), namespace)
        except Exception:
            traceback.print_exc()
            raise SystemExit(f"{path.name}: cell {i} raised (plain runner)")


def this_interpreters_kernel(directory: pathlib.Path) -> str:
    """A kernel spec that runs this interpreter, found first through JUPYTER_PATH: Debian's own
    "python3" kernel runs /usr/bin/python3, which does not see a venv's packages."""
    spec = directory / "kernels" / "rnncc-notebooks"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python (rnncc notebooks)", "language": "python"}))
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        [str(directory)] + ([os.environ["JUPYTER_PATH"]] if os.environ.get("JUPYTER_PATH") else []))
    return "rnncc-notebooks"


def run_jupyter(path: pathlib.Path, kernel: str):
    """Executes the notebook as Jupyter's "Run all" does; returns it with its outputs."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name=kernel,
                                     resources={"metadata": {"path": str(ROOT)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:
        raise SystemExit(f"{path.name}: a cell raised (nbclient):\n{e}")
    return nb


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="*")
    ap.add_argument("--html", metavar="DIR")
    ap.add_argument("--check-stripped", action="store_true")
    ap.add_argument("--strip", action="store_true")
    ap.add_argument("--plain", action="store_true", help="never use Jupyter, run cells in order")
    args = ap.parse_args()
    paths = notebooks(args.notebooks)
    if not paths:
        raise SystemExit("no notebooks found")
    os.chdir(ROOT)
    try:
        import nbclient  # noqa: F401
        import ipykernel  # noqa: F401
        jupyter = not args.plain
    except ImportError:
        jupyter = False
    kernel = None
    if jupyter:
        import tempfile

        kernel = this_interpreters_kernel(pathlib.Path(tempfile.mkdtemp(prefix="rnncc-kernel-")))
    for path in paths:
        raw = json.loads(path.read_text())
        if args.strip:
            path.write_text(json.dumps(strip(raw), indent=1, ensure_ascii=False) + "\n")
            print(f"stripped {path.name}")
            continue
        if args.check_stripped and not is_stripped(raw):
            raise SystemExit(f"{path.name}: stored with outputs (run {pathlib.Path(__file__).name}"
                             " --strip)")
        if jupyter:
            executed = run_jupyter(path, kernel)
        else:
            run_plain(path, raw)
            executed = None
        print(f"ran {path.name} ({'nbclient' if jupyter else 'plain cells'}): ok")
        if args.html:
            if executed is None:
                raise SystemExit("--html needs nbclient and nbconvert")
            from nbconvert import HTMLExporter

            body, _ = HTMLExporter(template_name="classic").from_notebook_node(executed)
            out = pathlib.Path(args.html) / (path.stem + ".html")
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(body)
            print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
