"""Circuit.draw(collapse=True) from Python is the CLI's picture: the leaves F1 … Fn all there,
one column, top to bottom in time order (read from the SVG's text positions), and untitled
drawings titled by the circuit's kind."""

import re

import pytest

import rnncc

pytestmark = pytest.mark.skipif(not rnncc.has_graphviz, reason="built without Graphviz")

# <text text-anchor="middle" x="76.5" y="-519.8" …>F1 = (A(x1), B(x1)) — 4 gates</text>
_LEAF = re.compile(r'<text [^>]*x="(-?[0-9.]+)" y="(-?[0-9.]+)"[^>]*>F([0-9]+) = ')


@pytest.mark.parametrize("example,n,scan", [("gated_deltanet.json", 20, "brent-kung"),
                                            ("mamba_diagonal.json", 20, "sklansky")])
def test_collapsed_leaves_in_time_order(example, n, scan):
    svg = rnncc.compile(f"examples/{example}", n, scan=scan).draw(collapse=True)
    leaves = [(int(t), float(x), float(y)) for x, y, t in _LEAF.findall(svg)]
    assert sorted(t for t, _, _ in leaves) == list(range(1, n + 1))  # F1 … Fn, each once
    leaves.sort()
    assert len({x for _, x, _ in leaves}) == 1  # one column
    ys = [y for _, _, y in leaves]
    assert ys == sorted(ys) and len(set(ys)) == n  # F1 at the top (SVG's y points down)


def test_untitled_drawings_name_their_kind():
    thr = rnncc.compile("examples/s4_decay.json", 4, "threshold", precision="log:1")
    dot = thr.draw(format="dot")
    assert re.search(r'label="threshold circuit — [0-9]+ gates, depth [0-9]+"', dot)
    assert "∘" not in dot  # the threshold sum is no scan step
    assert 'label="my title"' in thr.draw(format="dot", title="my title")
