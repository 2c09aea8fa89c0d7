"""examples/python/quickstart.py runs and prints what it says."""

import os
import subprocess
import sys


def test_quickstart(root):
    p = subprocess.run([sys.executable, str(root / "examples" / "python" / "quickstart.py")],
                       cwd=root, capture_output=True, text=True, env=os.environ.copy())
    assert p.returncode == 0, p.stderr
    assert "mod-count k=3: proved (over Q)" in p.stdout and "y_3 = -5/4" in p.stdout
