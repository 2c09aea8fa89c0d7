"""tests/python/no_numpy.py passes: the package works with numpy blocked (lists in and out)."""

import subprocess
import sys


def test_without_numpy(root):
    p = subprocess.run([sys.executable, str(root / "tests" / "python" / "no_numpy.py")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "no numpy: all passed" in p.stdout
