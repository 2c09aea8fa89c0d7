"""Every examples/notebooks/*.ipynb runs top to bottom (nbclient, Debian's python3-nbclient and
python3-ipykernel), in the notebook's own directory, on the interpreter running the tests — in
.ci/run, the venv the package was pip-installed into. Skipped where nbclient is missing; a
notebook that raises fails with the cell's error."""

import json
import sys

import pytest


def _notebooks(root):
    return sorted((root / "examples" / "notebooks").glob("*.ipynb"))


def test_notebooks_run(root, tmp_path, monkeypatch):
    notebooks = _notebooks(root)
    if not notebooks:
        pytest.skip("no notebooks under examples/notebooks")
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    # A kernel of this interpreter (Debian's own "python3" kernel runs /usr/bin/python3, which
    # would not see a venv's rnncc): found first through JUPYTER_PATH.
    spec = tmp_path / "kernels" / "rnncc-tests"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "rnncc tests", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    for path in notebooks:
        nb = nbformat.read(str(path), as_version=4)
        client = nbclient.NotebookClient(nb, timeout=600, kernel_name="rnncc-tests",
                                         resources={"metadata": {"path": str(path.parent)}})
        try:
            client.execute()
        except nbclient.exceptions.CellExecutionError as e:
            pytest.fail(f"{path.relative_to(root)}: {e}")
