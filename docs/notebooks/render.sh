#!/usr/bin/env bash
# Renders the example notebooks (examples/notebooks/*.ipynb, stored without outputs) to HTML
# here, executed top to bottom from the repository root with the build tree's package:
#   bash docs/notebooks/render.sh            (after `cmake --build build`)
# Needs Debian's python3-nbclient, python3-ipykernel, python3-nbconvert, python3-matplotlib.
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHONPATH="${RNNCC_PYTHONPATH:-build/python}" MPLBACKEND=module://matplotlib_inline.backend_inline \
  /usr/bin/python3 examples/notebooks/run_notebooks.py --check-stripped --html docs/notebooks
