"""The package's surface: the namespace, __version__, docstrings (numpydoc, every example a
doctest), diagnostics in Python's words, file-system failures as OSError, objects where paths
were, typed results with one orientation, batches, and notebook pictures that never raise."""

import doctest
import inspect
import json
import re
import subprocess
import sys
from fractions import Fraction

import pytest

import rnncc


def test_public_names_are_all_listed():
    # In a fresh interpreter: other tests import submodules (rnncc.plotting, …) into the package.
    p = subprocess.run(
        [sys.executable, "-c",
         "import rnncc, json; print(json.dumps([sorted(n for n in dir(rnncc) "
         "if not n.startswith('_')), rnncc.__all__]))"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    public, listed = json.loads(p.stdout)
    assert set(public) <= set(listed), set(public) - set(listed)
    for helper in ("Fraction", "np", "numpy", "Mapping", "numbers", "Sequence", "Iterable",
                   "annotations", "dataclasses", "os", "re"):
        assert helper not in public
    assert all(hasattr(rnncc, n) for n in listed)


def test_version_is_the_cmake_project_version(root):
    text = (root / "CMakeLists.txt").read_text()
    assert rnncc.__version__ == re.search(r"project\(rnncc VERSION ([0-9.]+)", text).group(1)


def _public_callables():
    for name in rnncc.__all__:
        obj = getattr(rnncc, name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            yield name, obj
            for attr, member in vars(obj).items():
                if attr.startswith("_") and attr not in ("__call__",):
                    continue
                f = member.__func__ if isinstance(member, staticmethod) else member
                if inspect.isfunction(f):
                    yield f"{name}.{attr}", f
        elif inspect.isfunction(obj):
            yield name, obj


def test_every_public_callable_has_numpydoc_with_an_example():
    missing = []
    for name, f in _public_callables():
        doc = inspect.getdoc(f) or ""
        if ">>>" not in doc:
            missing.append(f"{name}: no example")
        if inspect.isfunction(f):
            params = [p for p in inspect.signature(f).parameters if p not in ("self", "cls")]
            if params and "Parameters\n----------" not in doc:
                missing.append(f"{name}: no Parameters section")
            if "Returns\n-------" not in doc and not name.endswith(".save"):
                missing.append(f"{name}: no Returns section")
    assert not missing, "\n".join(missing)


def test_docstring_examples_pass_as_doctests():
    # From the repository root (the examples name examples/… files), `rnncc` in scope.
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    for test in finder.find(rnncc, "rnncc", extraglobs={"rnncc": rnncc}):
        runner.run(test, out=out.append)
    assert runner.tries >= 40
    assert runner.failures == 0, "".join(out)


def test_help_is_real_documentation():
    doc = inspect.getdoc(rnncc.compile)
    assert "Parameters" in doc and "target" in doc and "Raises" in doc and ">>>" in doc
    assert str(inspect.signature(rnncc.compile)).startswith("(model, n: 'int', target")


def _message(call):
    with pytest.raises((rnncc.InputError, rnncc.DomainError)) as e:
        call()
    return str(e.value)


def test_diagnostics_name_python_keywords_not_flags():
    m = rnncc.load_model("examples/mamba_diagonal.json")
    calls = [
        lambda: rnncc.depth(["diagonal"], lengths="8..2"),
        lambda: rnncc.depth(["diagonal"], lengths="2..4", fits=True),
        lambda: rnncc.depth(["no-such-arch"], lengths="2..4"),
        lambda: rnncc.compile("examples/s5_word_problem.json", 512, max_gates=100),
        lambda: rnncc.verify("mod-count", k=3, random=200, max_work=10),
        lambda: rnncc.verify("mod-count", k=3, against="x.att"),
        lambda: rnncc.compile(m, 2, "boolean"),
        lambda: rnncc.verify("model", "examples/mamba_diagonal.json"),
        lambda: rnncc.equiv("examples/relu_counter.json", "examples/relu_counter.json",
                            method="linear"),
        lambda: rnncc.equiv(m, m, method="product", modulus=7),
        lambda: m.run("ab", "exact", int_bits=3),
        lambda: rnncc.minimize("examples/s5_word_problem.json", max_work=1),
    ]
    messages = [_message(c) for c in calls]
    for text in messages:
        assert "--" not in text, text
    assert messages[0].startswith("lengths")
    assert messages[3].startswith("max_gates: ") and "random=200" in messages[4]
    assert messages[5].startswith("against: ") and 'precision="log:C"' in messages[6]
    assert "raise max_work to run it" in messages[-1]


def test_file_system_failures_are_oserror(tmp_path):
    with pytest.raises(FileNotFoundError):
        rnncc.load_model(tmp_path / "missing.json")
    with pytest.raises(FileNotFoundError):
        rnncc.load_wfa(tmp_path / "missing.att")
    with pytest.raises(FileNotFoundError):
        rnncc.load_circuit(tmp_path / "missing.aig")
    with pytest.raises(FileNotFoundError):
        rnncc.equiv("examples/binary_value_wfa.json", tmp_path / "missing.json")
    with pytest.raises(FileNotFoundError):
        rnncc.compile(tmp_path / "missing.json", 2)
    m = rnncc.load_model("examples/mamba_diagonal.json")
    with pytest.raises(IsADirectoryError):
        m.save(tmp_path)
    with pytest.raises(FileNotFoundError):
        m.save(tmp_path / "no" / "such" / "m.json")
    with pytest.raises(OSError):
        rnncc.compile("examples/s5_word_problem.json", 2, "boolean").to_blif(tmp_path)
    assert not any(tmp_path.iterdir())  # nothing half-written


def test_one_orientation_verify_and_equiv(cli):
    # binary_value_broken computes 2·value; the WFA the value: expected is the reference's.
    wfa, broken = "examples/wfa_binary_value.att", "tests/cli/models/binary_value_broken.json"
    v = rnncc.verify("model", broken, against=wfa, timing=False, seed=3)
    on_objects = rnncc.verify("model", rnncc.load_model(broken), against=rnncc.load_wfa(wfa),
                              timing=False, seed=3)
    e = rnncc.equiv(wfa, broken, timing=False)
    assert v.outcome == on_objects.outcome == "refuted" and e.outcome == "refuted"
    for c in (v.counterexample, on_objects.counterexample, e.counterexample):
        assert (c.input, c.expected, c.got) == ("1", Fraction(1), Fraction(2))
        assert isinstance(c.expected, Fraction) and isinstance(c.got, Fraction)
    # the reports are the CLI's documents
    rc, expected = cli("verify", "model", broken, "--against", wfa, "--no-timing", "--seed", 3,
                       "--json", check_json=True)
    assert rc == 1 and v.report == expected and on_objects.report == expected
    rc, expected = cli("equiv", wfa, broken, "--json", "--no-timing", check_json=True)
    assert rc == 1 and e.report == expected


def test_equiv_minimize_depth_on_objects_equal_paths(cli):
    a, b = "examples/binary_value_wfa.json", "examples/wfa_binary_value.att"
    by_path = rnncc.equiv(a, b, timing=False)
    by_object = rnncc.equiv(rnncc.load_model(a), rnncc.load_wfa(b), timing=False)
    assert by_path.report == by_object.report and by_path.proved and by_path.verdict == "proved"
    mz = rnncc.minimize(rnncc.load_model(a))
    rc, expected = cli("minimize", a, "--json", check_json=True)
    assert rc == 0 and mz.report == expected == rnncc.minimize(a).report
    assert rnncc.equiv(mz.model, a).proved
    m = rnncc.load_model("examples/mamba_diagonal.json")
    t = rnncc.depth(models=[m], lengths=[2, 4, 8, 16])
    rc, expected = cli("depth", "--model", "examples/mamba_diagonal.json", "--lengths", "2..16",
                       "--json", check_json=True)
    assert [(p.n, p.size, p.depth) for p in t] == \
        [(p["n"], p["size"], p["depth"]) for p in expected["points"]]
    assert [p.arch for p in t] == [m.name] * 4
    assert rnncc.depth(models=["examples/mamba_diagonal.json"], lengths=range(2, 17)).to_dict()[
        "points"][0]["arch"] == "mamba_diagonal"


def test_run_batch_stacks():
    np = pytest.importorskip("numpy")
    m = rnncc.load_model("examples/mamba_diagonal.json")
    b = m.run(["abb", "bab", "aaa"])
    assert b.outputs.shape == (3, 3, 1, 1) and b.accept.dtype == bool
    assert b.accepted.tolist() == [False, False, True]
    for s, r in zip(["abb", "bab", "aaa"], b):
        assert r.outputs.tolist() == m.run(s).outputs.tolist()
    ragged = m.run(["a", "ab"])
    assert [o.shape for o in ragged.outputs] == [(1, 1, 1), (2, 1, 1)]
    assert isinstance(b.accepted, np.ndarray)


def test_builders_take_stacked_arrays():
    np = pytest.importorskip("numpy")
    stacked = rnncc.families.diagonal(["a", "b", "c"], decay=np.array([[1, 1], [0, 1], [1, 0]]),
                                      B=np.zeros((3, 2, 1), dtype=int), readout=[[1, 1]],
                                      initial_state=[1, 1])
    keyed = rnncc.families.diagonal(["a", "b", "c"], decay={"a": [1, 1], "b": [0, 1],
                                                            "c": [1, 0]},
                                    B={s: [[0], [0]] for s in "abc"}, readout=[[1, 1]],
                                    initial_state=[1, 1])
    assert stacked.to_json() == keyed.to_json()
    with pytest.raises(rnncc.InputError, match=r"decay: expected one entry per symbol .*got 2"):
        rnncc.families.diagonal(["a", "b", "c"], decay=np.ones((2, 2), dtype=int),
                                B=np.zeros((3, 2, 1), dtype=int), readout=[[1, 1]])


@pytest.mark.skipif(not rnncc.has_graphviz, reason="built without Graphviz")
def test_repr_svg_never_raises():
    s5 = rnncc.load_model("examples/s5_word_problem.json")
    small = rnncc.compile(s5, 2)
    full = small._repr_svg_()
    assert full.lstrip().startswith("<?xml") and full == small.draw(max_nodes=4000)
    # n = 64 with every output: 7489 gates as written, the collapsed view
    n32 = rnncc.compile(s5, 64, outputs="all")
    assert n32.size > 4000
    svg = n32._repr_svg_()
    assert svg == n32.draw(collapse=True) and len(svg) <= rnncc.Circuit.svg_max_bytes
    # a full drawing under 4000 gates but above svg_full_max_nodes: collapsed too
    mid = rnncc.compile("examples/dplr_d3.json", 32)
    assert rnncc.Circuit.svg_full_max_nodes < mid.size <= 4000
    assert mid._repr_svg_() == mid.draw(collapse=True)
    huge = rnncc.compile(s5, 128, outputs="all")
    assert huge.size > 10000 and huge._repr_svg_().lstrip().startswith("<?xml")
    huge.svg_collapsed_max_nodes = 1  # the collapsed view refused as well: no picture, no error
    assert huge._repr_svg_() is None
    huge.svg_collapsed_max_nodes, huge.svg_max_bytes = 4000, 1000  # too many bytes: None
    assert huge._repr_svg_() is None


def test_depth_table_plot():
    pytest.importorskip("matplotlib")
    try:
        import rnncc.plotting  # noqa: F401
    except ImportError:
        pytest.skip("rnncc.plotting is not there yet")
    import matplotlib

    matplotlib.use("Agg")
    t = rnncc.depth(["diagonal", "deltanet"], lengths="2..64")
    ax = t.plot()
    assert ax is not None


def test_verify_takes_a_wfa_object():
    path = "examples/wfa_binary_value.att"
    by_object = rnncc.verify("wfa", rnncc.load_wfa(path), random=5, seed=1, timing=False)
    by_path = rnncc.verify("wfa", path, random=5, seed=1, timing=False)
    assert by_object.report == by_path.report and by_object.proved
    with pytest.raises(rnncc.InputError, match="^input: a Model object is the input of kind"):
        rnncc.verify("wfa", rnncc.load_model("examples/binary_value_wfa.json"))
    with pytest.raises(rnncc.InputError, match="^against: give the WFA"):
        rnncc.verify("model", rnncc.load_model("examples/binary_value_wfa.json"))


def test_draw_module_function(tmp_path):
    if not rnncc.has_graphviz:
        pytest.skip("built without Graphviz")
    m = rnncc.load_model("examples/s5_word_problem.json")
    dot = rnncc.draw(m, 2, format="dot", path=tmp_path / "c.dot")
    assert (tmp_path / "c.dot").read_text() == dot
    assert 's5-word-problem, n = 2, brent-kung' in dot or "n = 2" in dot
    with pytest.raises(rnncc.InputError, match="^n: give the length"):
        rnncc.draw(m)
    c = rnncc.compile(m, 2)
    assert rnncc.draw(c, format="dot") == c.draw(format="dot")


def test_certificate_of_objects_checks_against_their_files(cli, tmp_path):
    a, b = "examples/binary_value_wfa.json", "examples/wfa_binary_value.att"
    cert = tmp_path / "c.json"
    v = rnncc.equiv(rnncc.load_model(a), rnncc.load_wfa(b), certificate=cert)
    assert v.proved and v.certificate == str(cert)
    rc, out, _ = cli("check-certificate", a, b, cert)
    assert rc == 0 and "certificate valid" in out


def test_product_promise_and_input_map_certificates(cli, tmp_path):
    # The product search writes a certificate; Python's checker dispatches on its format.
    a, b = "examples/dwfa_mod3.att", "tests/cli/models/mod3_pd.json"
    cert = tmp_path / "p.json"
    v = rnncc.equiv(a, b, method="product", certificate=cert)
    assert v.proved and v.certificate == str(cert)
    assert rnncc.check_certificate(a, b, cert).valid
    # verify's promise certificate (graph walk) and input-map certificate (DPLR sub-steps),
    # checked against the model alone (g=None): their specification is inside them.
    gw = tmp_path / "gw.json"
    v = rnncc.verify("graph-walk", certificate=gw, random=0, seed=1)
    assert v.proved and json.loads(gw.read_text())["format"] == "rnncc-promise-certificate/1"
    assert rnncc.check_certificate("tests/cli/models/gw3.json", None, gw).valid
    with pytest.raises(rnncc.InputError, match="one model"):
        rnncc.check_certificate("tests/cli/models/gw3.json", "tests/cli/models/gw3.json", gw)
    assert rnncc.check_certificate("tests/cli/models/mod3_dplr.json", None,
                                   "tests/cli/models/mod3_dplr.cert.json").valid
    tampered = json.loads(gw.read_text())
    tampered["pairs"][0]["next"] = tampered["pairs"][0]["next"][1:]
    t = tmp_path / "t.json"
    t.write_text(json.dumps(tampered))
    c = rnncc.check_certificate("tests/cli/models/gw3.json", None, t)
    assert not c.valid and any("not closed" in p for p in c.problems)
    rc, out, _ = cli("check-certificate", "tests/cli/models/gw3.json", gw)
    assert rc == 0 and "36 strings" in out
