"""`cmake --install` puts the package where the prefix's python3 finds it: installed into a
temporary prefix, `import rnncc` from there runs a model."""

import os
import subprocess
import sys
from pathlib import Path

import pytest


def test_installed_package_imports(tmp_path, root):
    build = os.environ.get("RNNCC_BUILD_DIR")
    if not build:
        pytest.skip("RNNCC_BUILD_DIR not set (run by ctest)")
    subprocess.run(["cmake", "--install", build, "--prefix", str(tmp_path)], check=True,
                   capture_output=True)
    site = tmp_path / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / \
        "dist-packages"
    assert (site / "rnncc" / "__init__.py").is_file()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    p = subprocess.run(
        [sys.executable, "-c",
         "import rnncc; print(rnncc.__file__); "
         "print(rnncc.load_model('examples/mamba_diagonal.json').run('abb').outputs[-1,0,0])"],
        cwd=root, env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert Path(lines[0]).is_relative_to(site) and lines[1] == "-5/4"
