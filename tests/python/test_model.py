"""Models: loading, the family builders, run in exact / log / mod-p precision (differential
against `rnncc run --json`), and the diagnostics of bad input."""

import json
from fractions import Fraction

import numpy as np
import pytest

import rnncc


def test_run_matches_cli_exact_log_modp(cli):
    m = rnncc.load_model("examples/mamba_diagonal.json")
    for precision in ["exact", "log:2", "mod:7", "mod:1000003"]:
        rc, expected = cli("run", "examples/mamba_diagonal.json", "ab", "abba", "b",
                           "--precision", precision, "--json", check_json=True)
        assert rc == 0
        assert m.run_report(["ab", "abba", "b"], precision) == expected


def test_run_trace_matches_cli(cli):
    m = rnncc.load_model("examples/s5_word_problem.json")
    rc, expected = cli("run", "examples/s5_word_problem.json", "scscscsc", "--trace", "--json",
                       check_json=True)
    assert m.run_report(["scscscsc"], trace=True) == expected


def test_exact_fractions_hand_checked():
    # Mamba-2 decay 1/2, a votes +1, b votes -1: y_t = sum of ±2^-(age).
    m = rnncc.load_model("examples/mamba_diagonal.json")
    r = m.run("abb")
    assert r.outputs.shape == (3, 1, 1)
    assert [y[0][0] for y in r.outputs] == [Fraction(1), Fraction(-1, 2), Fraction(-5, 4)]
    assert all(isinstance(y[0][0], Fraction) for y in r.outputs)
    assert r.accept == [True, False, False] and r.accepted is False


def test_modp_and_log_are_numpy():
    m = rnncc.load_model("examples/mamba_diagonal.json")
    mod = m.run("abb", "mod:7").outputs
    assert mod.dtype == np.uint64
    # -1/2 mod 7 = 3, -5/4 mod 7 = -5·2 = 4
    assert mod[:, 0, 0].tolist() == [1, 3, 4]
    log = m.run("abb", "log:2").outputs
    assert log.dtype == np.float64 and log[:, 0, 0].tolist() == [1.0, -0.5, -1.25]


def test_diagonal_builder_from_numpy_and_fractions(cli, tmp_path):
    # The same model as examples/mamba_diagonal.json, built from numpy arrays and Fractions.
    m = rnncc.families.diagonal(
        ["a", "b"], decay={"a": Fraction(1, 2), "b": "1/2"},
        B={"a": np.array([1, 0]), "b": np.array([0, 1])}, readout=np.array([[1, -1]]),
        family="mamba2", name="built")
    assert m.describe() == "lrnn/mamba2 d=2 m=1"
    f = rnncc.load_model("examples/mamba_diagonal.json")
    rng = np.random.default_rng(7)
    for _ in range(20):
        s = "".join(rng.choice(["a", "b"], size=rng.integers(1, 12)))
        assert m.run(s).outputs.tolist() == f.run(s).outputs.tolist()
    # save() writes a model file the CLI runs with the same results
    m.save(tmp_path / "m.json")
    rc, out = cli("run", tmp_path / "m.json", "abba", "--json", check_json=True)
    assert rc == 0
    assert out["runs"] == f.run_report(["abba"])["runs"]


def test_deltanet_builder_parity():
    # Parity by one DeltaNet reflection (β = 2, k = e1): the state flips sign on every 1.
    m = rnncc.families.deltanet(
        ["0", "1"], k={"0": [0], "1": [1]}, v={"0": [0], "1": [0]}, beta={"0": 0, "1": 2},
        readout=[[1]], initial_state=[[1]], name="parity")
    for s in ["1", "11", "101", "0110", "111"]:
        y = m.run(s).outputs[-1, 0, 0]
        assert y == (-1) ** s.count("1")


def test_builder_diagnostics():
    with pytest.raises(rnncc.InputError, match=r"decay\['a'\]\[0\]: .*floats are not exact"):
        rnncc.families.diagonal(["a"], decay={"a": [0.5]}, B={"a": [[1]]}, readout=[[1]])
    with pytest.raises(rnncc.InputError, match=r"B: no entry for symbol\(s\) b"):
        rnncc.families.diagonal(["a", "b"], decay={"a": [1], "b": [1]}, B={"a": [[1]]},
                                readout=[[1]])
    with pytest.raises(rnncc.InputError, match=r"beta\['1'\]"):  # β = 3 outside (0,2]
        rnncc.families.deltanet(["0", "1"], k={"0": [1], "1": [1]}, v={"0": [0], "1": [0]},
                                beta={"0": 1, "1": 3}, readout=[[1]], beta_range="(0,2]")
    with pytest.raises(rnncc.InputError, match="family"):
        rnncc.families.diagonal(["a"], decay={"a": [1]}, B={"a": [[1]]}, readout=[[1]],
                                family="lstm")


def test_bad_model_file_names_the_place(tmp_path, cli):
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "format": "rnncc-model/1",\n  "alphabet": ["a"],\n  "layers": [,]\n}\n')
    with pytest.raises(rnncc.InputError) as e:
        rnncc.load_model(bad)
    assert isinstance(e.value, ValueError)
    assert str(bad) + ":4:" in str(e.value)
    rc, _, err = cli("run", bad, "a")
    assert rc == 2 and str(e.value) in err  # the CLI's diagnostic, word for word
    with pytest.raises(FileNotFoundError, match="missing.json"):  # OSError, as docs/python.md says
        rnncc.load_model(tmp_path / "missing.json")


def test_bad_input_string_and_precision():
    m = rnncc.load_model("examples/mamba_diagonal.json")
    with pytest.raises(rnncc.InputError, match="input 1"):
        m.run("abz")
    with pytest.raises(rnncc.InputError, match="precision"):
        m.run("ab", "mod:8")
    with pytest.raises(rnncc.InputError, match="int_bits"):
        m.run("ab", "exact", int_bits=3)


# Each family builder against a shipped model file of that family: the parameters read from the
# file's JSON, built through the builder, must give the same model (its JSON) and the same runs.
def _layer(path):
    j = json.loads(open(path).read())  # the tests run in the source root
    return j, j["layers"][0]


def _common(j, layer):
    kw = dict(readout=layer["readout"], accept=j["accept"]["mode"], name=j["name"])
    for key in ("initial_state", "readout_bias"):
        if key in layer:
            kw[key] = layer[key]
    return kw


def _per(layer, field):
    return {s: p[field] for s, p in layer["symbols"].items() if field in p}


def _built(path):
    j, layer = _layer(path)
    fam, kw = layer["family"], _common(j, layer)
    B = _per(layer, "B")
    if B:
        # B per symbol may be missing for some symbols (zero): give zeros explicitly
        B = {s: B.get(s, ["0"] * layer["d"]) for s in j["alphabet"]}
        kw["B"] = B
    if fam == "general":
        return rnncc.families.general(j["alphabet"], A=_per(layer, "A"), **kw)
    if fam == "pd":
        D = _per(layer, "D")
        return rnncc.families.pd(j["alphabet"], P=_per(layer, "P"), D=D or None,
                                 permutation=layer.get("P_kind") == "permutation", **kw)
    if fam == "dplr":
        return rnncc.families.dplr(j["alphabet"], D=_per(layer, "D"), a=_per(layer, "a"),
                                   b=_per(layer, "b"), **kw)
    if fam == "rwkv7":
        return rnncc.families.rwkv7(j["alphabet"], w=_per(layer, "w"), a=_per(layer, "a"),
                                    b=_per(layer, "b"), **kw)
    raise AssertionError(fam)


@pytest.mark.parametrize("path", ["examples/binary_value_wfa.json", "examples/s5_word_problem.json",
                                  "examples/dplr_d3.json", "examples/rwkv7_overwrite.json"])
def test_family_builders_rebuild_the_examples(path):
    built, loaded = _built(path), rnncc.load_model(path)
    assert built.describe() == loaded.describe()
    strip = lambda d: {k: v for k, v in d.items() if k not in ("description", "comment")}
    assert [strip(x) for x in built.to_json()["layers"]] == \
        [strip(x) for x in loaded.to_json()["layers"]]
    rng = np.random.default_rng(11)
    for _ in range(12):
        s = "".join(rng.choice(loaded.alphabet, size=rng.integers(1, 10)))
        assert built.run(s).outputs.tolist() == loaded.run(s).outputs.tolist()
        assert built.run(s, "mod:101").outputs.tolist() == loaded.run(s, "mod:101").outputs.tolist()


def test_pd_builder_matrix_form_and_diagnostics():
    # P as a 0/1 matrix or as its image list: the same model; a cycle on 3 states.
    img = rnncc.families.pd(["a"], P={"a": [1, 2, 0]}, readout=[[1, 0, 0]],
                            initial_state=[1, 0, 0], permutation=True)
    mat = rnncc.families.pd(["a"], P={"a": [[0, 0, 1], [1, 0, 0], [0, 1, 0]]},
                            readout=[[1, 0, 0]], initial_state=[1, 0, 0], permutation=True)
    assert img.to_json() == mat.to_json()
    # e0 → e1 → e2 → e0: the readout of e0 is 1 exactly at lengths divisible by 3
    assert [int(y[0][0]) for y in img.run("aaaaaa").outputs] == [0, 0, 1, 0, 0, 1]
    with pytest.raises(rnncc.InputError, match=r"P\['a'\]\[1\]: 3: expected a row index below 3"):
        rnncc.families.pd(["a"], P={"a": [0, 3, 1]}, readout=[[1, 0, 0]])
    with pytest.raises(rnncc.InputError,
                       match=r"P\['a'\]: expected a column-one-hot 0/1 matrix: column 0 has 2"):
        rnncc.families.pd(["a"], P={"a": [[1, 0], [1, 0]]}, readout=[[1, 0]])
    with pytest.raises(rnncc.InputError, match=r"P\['a'\]"):  # not a permutation
        rnncc.families.pd(["a"], P={"a": [0, 0]}, readout=[[1, 0]], permutation=True)
    with pytest.raises(rnncc.InputError, match=r"a\['x'\]: expected 2 entries, got 1"):
        rnncc.families.dplr(["x"], D={"x": [1, 1]}, a={"x": [1]}, b={"x": [1, 0]},
                            readout=[[1, 0]])
    with pytest.raises(rnncc.InputError, match=r"A\['y'\]"):
        rnncc.families.general(["x", "y"], A={"x": [[1]], "y": [[0.5]]}, readout=[[1]])
