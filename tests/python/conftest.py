"""Shared fixtures of the Python tests (run by ctest, label `python`: tests/CMakeLists.txt puts
the build's package directory on PYTHONPATH and names the rnncc binary in RNNCC_BIN)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(os.environ.get("RNNCC_SOURCE_DIR", Path(__file__).resolve().parents[2]))


def _binary():
    b = os.environ.get("RNNCC_BIN")
    if b:
        return b
    return str(ROOT / "build" / "cli" / "rnncc")


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def cli():
    """Run the rnncc binary from the source root: (exit code, stdout, stderr)."""

    def run(*args, check_json=False):
        p = subprocess.run([_binary(), *map(str, args)], cwd=ROOT, capture_output=True, text=True)
        if check_json:
            return p.returncode, json.loads(p.stdout)
        return p.returncode, p.stdout, p.stderr

    return run


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # model paths as the CLI goldens write them (examples/…)
