#!/usr/bin/env bash
# The Python package as a user installs it (docs/python.md, "Installing"), the step of the
# README's second Quick-start command (and so of .ci/run) after the Release tree's tests: pip
# into a fresh venv of Debian's python3 (--system-site-packages: its numpy, pytest, matplotlib,
# nbclient), reusing the Release tree's module (RNNCC_BUILD_DIR); there the package's tests (the
# notebooks under examples/notebooks among them: tests/python/test_notebooks.py) and the
# quickstart run against the installed copy. Then pip into the pyenv interpreter first on PATH,
# when there is one: the numpy-free checks and the notebooks there (it has no numpy and no pytest).
#   bash tests/python/pip_install_check.sh      (from the repository root, after building `build`)
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
venv="$(mktemp -d)/venv"
trap 'rm -rf "$(dirname "$venv")"' EXIT
/usr/bin/python3 -m venv --system-site-packages "$venv"
RNNCC_BUILD_DIR=build "$venv/bin/python" -m pip install -q --no-build-isolation --no-index --root-user-action=ignore .
"$venv/bin/python" -c 'import rnncc, sys; assert rnncc.__file__.startswith(sys.prefix), rnncc.__file__; print("rnncc", rnncc.__version__, "installed in", sys.prefix)'
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests/python
"$venv/bin/python" examples/python/quickstart.py >/dev/null
py="$(command -v python3 || true)"
if [[ -n "$py" && "$("$py" -c 'import sys; print(sys.prefix)')" == */.pyenv/* ]]; then
  RNNCC_BUILD_DIR=build "$py" -m pip install -q --no-build-isolation --no-index --root-user-action=ignore .
  "$py" tests/python/no_numpy.py
  # The notebooks there too, cell by cell (it has no Jupyter). They plot and train with numpy
  # and matplotlib, which this interpreter lacks and PyPI (unreachable) would provide: it
  # borrows Debian's builds for CPython 3.11 (the same ABI), as a pyenv user with their own
  # numpy and matplotlib would run them.
  PYTHONPATH=/usr/lib/python3/dist-packages "$py" examples/notebooks/run_notebooks.py --plain --check-stripped
fi
echo "python package: installed and tested in $((SECONDS - started)) s"
