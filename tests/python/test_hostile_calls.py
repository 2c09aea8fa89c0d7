"""Python cannot crash the interpreter (issue 25, item 6): every public callable of the package
and of its extension module, called with wrong types and values, raises a Python exception —
TypeError, ValueError (rnncc.InputError), ArithmeticError (rnncc.DomainError) or OSError —
instead of crashing, hanging, raising something undocumented or succeeding on the wrong value.

The cases are in tests/python/hostile_calls.py. Each group runs in its own interpreter, so a
segfault or a hang is a failure naming its case (and the group goes on after it in a fresh one);
the list groups run again with numpy blocked. test_every_public_callable_is_walked fails when a
public function, method or property has no case (a new one must bring its wrong calls)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import hostile_calls  # noqa: E402

# A hang detector, not a timing assertion: a group takes well under a second a case.
HANG_SECONDS = 120


def _text(x):
    return x.decode(errors="replace") if isinstance(x, bytes) else (x or "")


def _run_group(name: str, no_numpy: bool = False):
    """Runs the group's cases in subprocesses: {index: (status, detail, label)} and the count.
    A case that kills or hangs its interpreter is marked and the rest run in a fresh one."""
    env = dict(os.environ, MPLBACKEND="Agg")
    results, start, count = {}, 0, None
    while count is None or start < count:
        cmd = [sys.executable, str(HERE / "hostile_calls.py")]
        cmd += (["--no-numpy"] if no_numpy else []) + [name, str(start)]
        timed_out = False
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_SECONDS,
                               cwd=hostile_calls.ROOT, env=env)
            out, err, rc = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            out, err, rc, timed_out = _text(e.stdout), _text(e.stderr), None, True
        begun = None
        for line in out.splitlines():
            kind, _, rest = line.partition(" ")
            if kind == "COUNT":
                count = int(rest)
            elif kind == "BEGIN":
                i, label = rest.split(" ", 1)
                begun = (int(i), json.loads(label))
            elif kind == "END":
                i, status, _seconds, detail = rest.split(" ", 3)
                results[int(i)] = (status, json.loads(detail), begun[1])
                begun = None
        if count is None:
            pytest.fail(f"group {name}: the fixtures failed (exit {rc}):\n{err[-3000:]}")
        if begun is None:
            if rc != 0:
                pytest.fail(f"group {name}: exit {rc} between cases:\n{err[-3000:]}")
            break
        i, label = begun
        why = (f"hung (killed after {HANG_SECONDS} s)" if timed_out
               else f"killed the interpreter (exit {rc}): {err[-600:]}")
        results[i] = ("bad", why, label)
        start = i + 1
    return count, results


def _check(name, no_numpy=False):
    count, results = _run_group(name, no_numpy)
    bad = [f"{label}: {detail}" for _, (status, detail, label) in sorted(results.items())
           if status != "ok"]
    assert not bad, f"{len(bad)} of {count} calls misbehaved:\n" + "\n".join(bad)
    assert len(results) == count


@pytest.mark.parametrize("group", list(hostile_calls.GROUPS))
def test_group(group):
    _check(group)


@pytest.mark.parametrize("group", hostile_calls.NO_NUMPY_GROUPS)
def test_group_without_numpy(group):
    _check(group, no_numpy=True)


def _public_callables() -> set:
    """Every public callable: the functions and classes of rnncc.__all__, rnncc.families,
    rnncc.importing.__all__, rnncc.plotting.__all__ and rnncc._rnncc, and each class's methods
    and properties (hostile_calls.public_members); exception classes aside."""
    import rnncc
    import rnncc._rnncc as native
    import rnncc.importing as importing
    import rnncc.plotting as plotting

    names = set()

    def add(qualified, obj):
        if isinstance(obj, type):
            if issubclass(obj, BaseException):
                return
            names.add(qualified)
            names.update(f"{qualified}.{m}" for m in hostile_calls.public_members(obj))
        elif callable(obj):
            names.add(qualified)

    for name in rnncc.__all__:
        obj = getattr(rnncc, name)
        if name == "families":
            names.update(f"rnncc.families.{m}" for m in hostile_calls.public_members(obj))
        elif getattr(obj, "__module__", None) == "rnncc.importing":
            add(f"rnncc.importing.{name}", obj)
        elif not isinstance(obj, type(rnncc)):
            add(f"rnncc.{name}", obj)
    for module, prefix in ((importing, "rnncc.importing"), (plotting, "rnncc.plotting")):
        for name in module.__all__:
            add(f"{prefix}.{name}", getattr(module, name))
    for name in dir(native):
        if not name.startswith("_"):
            add(f"rnncc._rnncc.{name}", getattr(native, name))
    return names


def test_every_public_callable_is_walked():
    fx = hostile_calls.Fixtures()
    covered = set()
    for name in hostile_calls.GROUPS:
        covered.update(c.target for c in hostile_calls.cases(name, fx))
    public = _public_callables()
    assert not public - covered, f"no hostile calls for: {sorted(public - covered)}"
    assert not covered - public, f"cases for callables that are not public: " \
                                 f"{sorted(covered - public)}"
