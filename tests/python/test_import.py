"""rnncc.importing: from_arrays and import_weights (docs/import.md) — the same documents as
`rnncc import … --json` / `rnncc import-weights … --json`, stacked and per-symbol arrays, lists
without numpy, exact Fractions, the docstring examples, and the diagnostics."""

import doctest
import json
import math
import random
from fractions import Fraction

import pytest

import rnncc
from rnncc import importing
from rnncc.importing import from_arrays, import_weights, safetensors_bytes


def test_docstring_examples():
    failures, tried = doctest.testmod(importing, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def test_from_arrays_matches_cli(cli, tmp_path):
    rc, expected = cli("import", "general", "tests/cli/import/parity_arrays.safetensors",
                       "--alphabet", "0,1", "--precision", "bits:8", "--json", check_json=True)
    assert rc == 0
    r = from_arrays("general", {"A": [[[1.0]], [[-0.9999]]], "initial_state": [[1.0]],
                                "readout": [[1.0]]}, alphabet=["0", "1"], precision="bits:8")
    assert r.report["rounding"] == expected["rounding"]
    assert r.errors["A"] == Fraction(expected["rounding"]["max_error"])
    assert r.errors["A"] == abs(Fraction(-0.9999) + 1)  # −0.9999 became −1
    assert r.counts == {"readout": 1, "initial_state": 1, "A": 2}
    # The model is exactly parity: the same file the CLI writes.
    cli("import", "general", "tests/cli/import/parity_arrays.safetensors", "--alphabet", "0,1",
        "--precision", "bits:8", "-o", str(tmp_path / "p.json"))
    assert r.model.to_json()["layers"] == json.loads((tmp_path / "p.json").read_text())["layers"]


def test_per_symbol_dicts_and_numpy_agree():
    np = pytest.importorskip("numpy")
    stacked = from_arrays("deltanet", {"beta": np.array([0.5, 0.25]),
                                       "k": np.array([[1.0, 0.0], [0.6, 0.8]]),
                                       "v": np.array([[1.0], [-1.0]]),
                                       "readout": np.array([[1.0, 0.0]])}, alphabet=["a", "b"])
    per_symbol = from_arrays("deltanet", {"beta": {"a": 0.5, "b": 0.25},
                                          "k": {"a": [1.0, 0.0], "b": [0.6, 0.8]},
                                          "v": {"a": [1.0], "b": [-1.0]},
                                          "readout": [[1.0, 0.0]]})
    assert per_symbol.model.alphabet == ["a", "b"]
    assert stacked.model.to_json()["layers"] == per_symbol.model.to_json()["layers"]
    assert all(e == 0 for e in stacked.errors.values())


def test_from_arrays_diagnostics():
    with pytest.raises(rnncc.InputError, match="tensor 'readout': expected shape"):
        from_arrays("general", {"A": [[[1.0]]]}, alphabet=["a"])
    with pytest.raises(rnncc.InputError, match="NaN where a parameter is needed"):
        from_arrays("general", {"A": [[[math.nan]]], "readout": [[1.0]]}, alphabet=["a"])
    with pytest.raises(rnncc.InputError, match="^precision: 'bits:x'"):
        from_arrays("general", {"A": [[[1.0]]], "readout": [[1.0]]}, alphabet=["a"],
                    precision="bits:x")
    with pytest.raises(rnncc.InputError, match="^length: log:2"):
        from_arrays("general", {"A": [[[1.0]]], "readout": [[1.0]]}, alphabet=["a"],
                    precision="log:2")
    with pytest.raises(ValueError, match="ragged"):
        from_arrays("general", {"A": [[[1.0], [1.0, 2.0]]], "readout": [[1.0]]}, alphabet=["a"])
    with pytest.raises(ValueError, match="alphabet"):
        from_arrays("general", {"A": [[[1.0]]], "readout": [[1.0]]})


def test_log_precision_grid():
    r = from_arrays("diagonal", {"decay": [[0.3]], "readout": [[1.0]]}, alphabet=["a"],
                    precision="log:2", length=3)  # F = 2·⌈log₂ 4⌉ = 4: 0.3 → 5/16
    assert r.model.to_json()["layers"][0]["symbols"]["a"]["decay"] == ["5/16"]
    assert r.errors["decay"] == Fraction(5, 16) - Fraction(0.3)
    assert r.precision == "log:2 (n = 3: 4 fraction bits)"


def _random_layer(seed):
    rng = random.Random(seed)
    p = "model.layers.0.attn."
    t = {"model.embeddings.weight": [[rng.gauss(0, 1) for _ in range(4)] for _ in range(3)]}
    for name, rows in (("q_proj", 2), ("k_proj", 2), ("v_proj", 2), ("b_proj", 1),
                       ("a_proj", 1), ("g_proj", 2)):
        t[p + name + ".weight"] = [[rng.gauss(0, 0.5) for _ in range(4)] for _ in range(rows)]
    t[p + "A_log"] = [rng.gauss(0, 0.5)]
    t[p + "dt_bias"] = [rng.gauss(0, 0.5)]
    t[p + "o_proj.weight"] = [[rng.gauss(0, 0.5) for _ in range(2)] for _ in range(4)]
    t["lm_head.weight"] = [[rng.gauss(0, 0.5) for _ in range(4)]]
    return t


def test_import_weights_exact_and_rounded(cli, tmp_path):
    path = tmp_path / "gdn.safetensors"
    path.write_bytes(safetensors_bytes(_random_layer(3)))
    r = import_weights(path, "gdn", ["a", "b", "c"], agreement_strings=50)
    assert r.agreement.verdict_agreement == 1.0
    assert r.agreement.max_abs_error <= 1e-9 * max(1.0, r.agreement.max_abs_y)
    assert all(e == 0 for e in r.errors.values())
    assert any("output gate" in n for n in r.notes)
    rc, expected = cli("import-weights", path, "--family", "gdn", "--vocab", "a,b,c",
                       "--agreement-strings", "50", "--json", check_json=True)
    assert rc == 0
    expected.pop("output")
    assert r.report == expected  # the same document as the CLI's --json
    b = import_weights(path, "gated_deltanet", {"a": 0, "b": 1, "c": 2}, precision="bits:10",
                       agreement_strings=50)
    assert max(b.errors.values()) <= Fraction(1, 2 ** 11)
    assert b.model.alphabet == ["a", "b", "c"]


def test_import_weights_diagnostics(tmp_path):
    t = _random_layer(1)
    del t["model.layers.0.attn.k_proj.weight"]
    path = tmp_path / "w.safetensors"
    path.write_bytes(safetensors_bytes(t))
    with pytest.raises(rnncc.InputError,
                       match=r"tensor 'model.layers.0.attn.k_proj.weight': expected shape \[2, 4\]"):
        import_weights(path, "gdn", "a,b")
    with pytest.raises(rnncc.InputError, match="^family: 'lstm'"):
        import_weights(path, "lstm", "a,b")
    with pytest.raises(rnncc.InputError, match="^vocab/1: symbol .a. is repeated"):
        import_weights(path, "gdn", "a,a")
    # A missing file is an OSError before any work, as for every reader of the package.
    with pytest.raises(FileNotFoundError, match="none.safetensors"):
        import_weights(tmp_path / "none.safetensors", "gdn", "a")
