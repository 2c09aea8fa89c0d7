"""docs/python.md's sessions are real: every ```pycon block runs under doctest, in page order, in
one namespace for the whole page (a reader's session: names defined in one block are used in the
next), from the source root like the other tests. A figure or message that drifts from what the
package prints fails here."""

import doctest
import re

import pytest

_BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.M | re.S)


def _blocks():
    text = open("docs/python.md", encoding="utf-8").read()
    out = []
    for m in _BLOCK.finditer(text):
        line = text.count("\n", 0, m.start(1)) + 1
        out.append(pytest.param(m.group(1), line, id=f"python.md:{line}"))
    return out


def test_python_md_sessions():
    import rnncc

    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    namespace = {"rnncc": rnncc}
    out = []
    for p in _blocks():
        block, line = p.values
        test = parser.get_doctest(block, namespace, f"docs/python.md:{line}", "docs/python.md",
                                  line - 1)
        test.globs = namespace  # one session: get_doctest copies the globals, share them instead
        runner.run(test, out=out.append, clear_globs=False)
    assert runner.tries > 20
    assert runner.failures == 0, "".join(out)


def test_every_block_was_found():
    assert len(_blocks()) >= 5  # the page's sessions: models, builders, circuits, checks, depth
