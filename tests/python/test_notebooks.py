"""The example notebooks (examples/notebooks/*.ipynb) run top to bottom and are stored without
outputs. They run through examples/notebooks/run_notebooks.py — the script docs/notebooks and
.ci/run use — on the interpreter running the tests (in .ci/run, the venv the package was
pip-installed into): with nbclient and ipykernel where they import, else cell by cell."""

import subprocess
import sys


def _notebooks(root):
    return sorted((root / "examples" / "notebooks").glob("*.ipynb"))


def test_there_are_the_three_notebooks(root):
    names = {p.stem for p in _notebooks(root)}
    assert {"check_a_construction", "compare_depth_growth", "your_trained_layer"} <= names


def test_notebooks_are_stored_without_outputs_and_run(root):
    script = root / "examples" / "notebooks" / "run_notebooks.py"
    done = subprocess.run([sys.executable, str(script), "--check-stripped"],
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout + done.stderr
    for path in _notebooks(root):
        assert f"ran {path.name}" in done.stdout


def test_a_notebook_with_outputs_is_refused(root, tmp_path):
    import json

    stored = json.loads((root / "examples" / "notebooks" / "check_a_construction.ipynb")
                        .read_text())
    code = next(c for c in stored["cells"] if c["cell_type"] == "code")
    code["execution_count"] = 1
    bad = tmp_path / "with_outputs.ipynb"
    bad.write_text(json.dumps(stored))
    script = root / "examples" / "notebooks" / "run_notebooks.py"
    done = subprocess.run([sys.executable, str(script), "--check-stripped", str(bad)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode != 0 and "stored with outputs" in (done.stdout + done.stderr)


def test_a_failing_cell_fails_the_run(tmp_path):
    import json

    nb = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                     "source": "raise ValueError('cell two broke')"}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    bad = tmp_path / "broken.ipynb"
    bad.write_text(json.dumps(nb))
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / "notebooks" / "run_notebooks.py"
    for extra in ([], ["--plain"]):
        done = subprocess.run([sys.executable, str(script), str(bad)] + extra,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode != 0
        assert "broken.ipynb" in done.stdout + done.stderr
