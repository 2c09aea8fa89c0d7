"""Circuits: compile (stats == `rnncc compile --json`), the file formats (== what the CLI
writes), eval against model.run on random strings, drawing, and diagnostics."""

from fractions import Fraction

import numpy as np
import pytest

import rnncc


@pytest.mark.parametrize("target,model,n", [
    ("arith", "examples/s5_word_problem.json", 4),
    ("boolean", "examples/s5_word_problem.json", 4),
    ("threshold", "examples/mamba_diagonal.json", 4),
    ("arith", "examples/parity_deltanet.json", 8),
])
def test_stats_match_cli(cli, target, model, n):
    c = rnncc.compile(rnncc.load_model(model), n, target)
    rc, expected = cli("compile", model, "-n", n, "--target", target, "--json", check_json=True)
    assert rc == 0 and c.stats() == expected
    assert rnncc.compile(model, n, target).stats() == expected  # a path works too


def test_formats_match_cli(cli, tmp_path):
    c = rnncc.compile("examples/s5_word_problem.json", 3, "boolean")
    for ext in ["aig", "aag", "blif", "bench", "json"]:
        (tmp_path / "cli").mkdir(exist_ok=True)
        (tmp_path / "py").mkdir(exist_ok=True)
        out = tmp_path / "cli" / f"circuit.{ext}"
        rc, _, _ = cli("compile", "examples/s5_word_problem.json", "-n", 3, "--target", "boolean",
                       "-o", out)
        assert rc == 0
        mine = tmp_path / "py" / f"circuit.{ext}"
        {"aig": c.to_aiger, "aag": c.to_aiger, "blif": c.to_blif, "bench": c.to_bench,
         "json": c.to_json}[ext](mine)
        assert mine.read_bytes() == out.read_bytes(), ext
    assert c.to_aiger() == (tmp_path / "cli" / "circuit.aig").read_bytes()
    assert c.to_aiger(ascii=True) == (tmp_path / "cli" / "circuit.aag").read_text()
    assert c.to_blif() == (tmp_path / "cli" / "circuit.blif").read_text()
    # and it reads back
    back = rnncc.load_circuit(tmp_path / "py" / "circuit.aig")
    assert back.stats()["size"] > 0


def test_boolean_eval_agrees_with_run():
    m = rnncc.load_model("examples/s5_word_problem.json")
    n = 6
    c = rnncc.compile(m, n, "boolean")
    assert c.is_boolean and c.output_names == ["accept"]
    rng = np.random.default_rng(1)
    strings = ["".join(rng.choice(m.alphabet, size=n)) for _ in range(200)]
    strings += ["scscsc"[:n]]  # identity? whatever it is, compared against run
    got = c.eval(m.one_hot(strings))
    assert got.dtype == bool and got.shape == (len(strings), 1)
    expected = [m.run(s).accepted for s in strings]
    assert got[:, 0].tolist() == expected
    assert any(expected) and not all(expected)


@pytest.mark.parametrize("scan", ["sequential", "sklansky", "brent-kung", "kogge-stone"])
def test_run_with_scan_is_the_boolean_circuits_function(scan):
    # docs/semantics.md, "Which function": at log:1 the boolean circuit of a tree scan computes
    # the scan-rounded function, which run(scan=...) computes and run() need not.
    m = rnncc.load_model("examples/dplr_d3.json")
    n = 8
    c = rnncc.compile(m, n, "boolean", precision="log:1", scan=scan)
    rng = np.random.default_rng(7)
    strings = ["".join(rng.choice(m.alphabet, size=n)) for _ in range(150)]
    got = c.eval(m.one_hot(strings))[:, -1].tolist()  # the last output is `accept`
    assert got == [m.run(s, "log:1", scan=scan).accepted for s in strings]
    sequential = [m.run(s, "log:1").accepted for s in strings]
    if scan == "sequential":
        assert got == sequential
    runs = m.run(strings[:2], "log:1", scan=scan)
    assert runs.semantics.endswith("scan-rounded by " + scan) or scan == "sequential"


def test_arith_eval_modp_and_exact_agree_with_run():
    m = rnncc.load_model("examples/mamba_diagonal.json")
    n = 5
    c = rnncc.compile(m, n, "arith", outputs="all")
    rng = np.random.default_rng(2)
    strings = ["".join(rng.choice(m.alphabet, size=n)) for _ in range(30)]
    x = m.one_hot(strings)
    exact = c.eval(x, exact=True)
    names = c.output_names
    for s, e in zip(strings, exact):
        ys = m.run(s).outputs[:, 0, 0]  # y_1..y_n
        for t in range(n):
            assert e[names.index(f"y[{t + 1}][0][0]")] == ys[t]
    # "positive" (the accept gate) has no meaning mod p: the library's DomainError
    with pytest.raises(rnncc.DomainError, match="mod 1000003"):
        c.eval(x, modulus=1000003)
    # over F_p: the S5 model (accept by is_zero) against run(precision="mod:p")
    s5 = rnncc.load_model("examples/s5_word_problem.json")
    p = 1000003
    c5 = rnncc.compile(s5, n, "arith", outputs="all")
    strings = ["".join(rng.choice(s5.alphabet, size=n)) for _ in range(30)]
    modp = c5.eval(s5.one_hot(strings), modulus=p)
    assert modp.dtype == np.uint64
    for s, r in zip(strings, modp):
        ys = s5.run(s, f"mod:{p}").outputs[:, 0, 0]
        for t in range(n):
            assert r[c5.output_names.index(f"y[{t + 1}][0][0]")] == ys[t]
    # a single row gives a single output row
    assert c.eval(x[0], exact=True).tolist() == exact[0].tolist()
    assert isinstance(exact[0][0], Fraction)


def test_eval_shape_diagnostic():
    c = rnncc.compile("examples/s5_word_problem.json", 2, "boolean")
    with pytest.raises(rnncc.InputError, match=r"shape \(patterns, 4\)"):
        c.eval(np.zeros((3, 5), dtype=bool))


@pytest.mark.skipif(not rnncc.has_graphviz, reason="built without Graphviz")
def test_draw_svg(cli, tmp_path):
    c = rnncc.compile("examples/s5_word_problem.json", 2)
    # First in the process: Graphviz keeps attribute defaults from one drawing to the next in a
    # process (viz/draw_circuit.cpp), which the CLI, one drawing a process, never sees.
    rc, _, _ = cli("draw", "examples/s5_word_problem.json", "-n", 2, "-o", tmp_path / "c.dot")
    assert rc == 0
    mine = c.draw(format="dot", title="examples/s5_word_problem.json, n = 2, brent-kung")
    # The same graph; Graphviz may list the clusters in another order in another process (it
    # orders subgraphs by their allocation), so the lines are compared as a multiset.
    assert sorted(mine.splitlines()) == sorted((tmp_path / "c.dot").read_text().splitlines())
    svg = c.draw()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "</svg>" in svg
    assert c._repr_svg_().lstrip().startswith("<?xml")
    assert c.draw(format="png")[:8] == b"\x89PNG\r\n\x1a\n"


def test_compile_diagnostics(tmp_path):
    with pytest.raises(rnncc.InputError, match="target"):
        rnncc.compile("examples/s5_word_problem.json", 2, "quantum")
    with pytest.raises(rnncc.InputError, match="max-gates|max_gates|gates"):
        rnncc.compile("examples/s5_word_problem.json", 512, max_gates=100)
    bad = tmp_path / "bad.aag"
    bad.write_text("aag 1 1 0 1 0\n2\n3\nnonsense\n")
    with pytest.raises(rnncc.InputError, match=str(bad)):
        rnncc.load_circuit(bad)


def test_valid_output(cli, tmp_path):
    """valid_output appends "valid" (exactly one symbol a position), as --valid-output does."""
    c = rnncc.compile("examples/s5_word_problem.json", 2, "boolean", valid_output=True)
    plain = rnncc.compile("examples/s5_word_problem.json", 2, "boolean")
    assert c.stats()["outputs"] == plain.stats()["outputs"] + 1
    # Inputs x[1,s], x[1,c], x[2,s], x[2,c]: the strings are the 4 rows with one 1 a position.
    rows = [[(k >> i) & 1 for i in range(4)] for k in range(16)]
    out = c.eval(rows)
    for row, y in zip(rows, out):
        assert y[-1] == int(row[0] + row[1] == 1 and row[2] + row[3] == 1)
    assert [list(y[:-1]) for y in out] == [list(y) for y in plain.eval(rows)]
    path = tmp_path / "v.json"
    rc, _, _ = cli("compile", "examples/s5_word_problem.json", "-n", 2, "--target", "boolean",
                   "--valid-output", "-o", path)
    assert rc == 0
    back = rnncc.load_circuit(path).stats()
    assert (back["size"], back["depth"], back["outputs"]) == (
        c.stats()["size"], c.stats()["depth"], c.stats()["outputs"])
    with pytest.raises(rnncc.InputError, match="valid_output"):
        rnncc.compile("examples/s5_word_problem.json", 2, valid_output=True)
    # The passes it went through, as `compile --stats --json` lists them (docs/circuits.md,
    # "Pass pipelines"): the compiler, the sweep, then valid-output; sizes chained.
    passes = c.stats()["passes"]
    assert [(p["stage"], p["pass"]) for p in passes] == [
        ("compile", "compile_finite_state"), ("as written", "sweep-dead-gates"),
        ("as written", "valid-output")]
    assert passes[2]["params"] == "symbols = 2"
    assert all(a["gates_after"] == b["gates_before"] for a, b in zip(passes, passes[1:]))
    assert passes[-1]["gates_after"] == c.stats()["size"]


def test_check_against_equals_eval_against_and_refutes_the_wrong_scan(tmp_path, cli):
    """Circuit.check_against is `rnncc eval --against`: the same report, the scan-rounded
    reference of the circuit's own scan, refuted against the sequential rule."""
    m = rnncc.load_model("examples/dplr_d3.json")
    c = rnncc.compile(m, 8, "boolean", precision="log:1", scan="brent-kung")
    own = c.check_against(m, precision="log:1", scan="brent-kung", exhaustive=True)
    assert own["verdict"] == "proved" and own["strings"] == 256 and own["differing"] == 0
    wrong = c.check_against(m, precision="log:1", scan="sequential", strings=300, seed=4)
    assert wrong["verdict"] == "refuted" and wrong["differing"] > 0
    assert "brent-kung" in wrong["agreeing_scans"]
    # The first difference's reference is what Model.run prints for that string.
    first = wrong["first"]
    ran = m.run([first["input"]], "log:1")[0]
    assert str(ran.outputs[-1][0][0]) == first["reference"] or first["output"] == "accept"
    path = tmp_path / "c.json"
    c.to_json(path)
    rc, report = cli("eval", path, "--against", "examples/dplr_d3.json", "--precision", "log:1",
                     "--scan", "sequential", "--batch", "300", "--seed", "4", "--json",
                     check_json=True)
    assert rc == 1
    del report["circuit"], report["model"]
    assert report == wrong
    with pytest.raises(rnncc.InputError, match="precision"):
        c.check_against(m, precision="log:2")
    with pytest.raises(rnncc.InputError, match="strings"):
        c.check_against(m, precision="log:1", strings=0)
