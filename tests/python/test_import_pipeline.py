"""A checkpoint written by numpy under each family's naming imports, compiles and verifies
(issue 23, "Done when"): for every fixture of tests/data/safetensors that folds,

- the imported model (exact) reproduces numpy's float64 logits (the oracle
  examples/trained/reference.py) to 1e-9, and its verdicts;
- its arithmetic circuit for n = 5 (rnncc.compile) evaluated exactly equals the model's own
  exact run on every string of length 5 over the first two symbols;
- `equiv` proves, for every length and both ways round, that it equals the second exact folding
  of the same layer (constant_readout=True: the per-token readout moved into the state, a
  general layer of another dimension) — two forms of one function built differently; and the
  same check refutes a model with one parameter changed.
A refused fixture is refused naming its tensor; the four broken files name theirs."""

import itertools
import json
from fractions import Fraction

import pytest

import rnncc

DATA = "tests/data/safetensors"


def _fixtures(root, folding):
    out = []
    for path in sorted((root / DATA).glob("*.expected.json")):
        doc = json.loads(path.read_text())
        if (doc["refuse"] is None) == folding:
            out.append((path.name.replace(".expected.json", ""), doc))
    return out


def _vocab(doc):
    return ",".join("abcdefgh"[i] for i in range(doc["vocab"]))


@pytest.mark.parametrize("family", ["deltanet", "gated_deltanet", "mamba2", "rwkv7"])
def test_each_family_imports_compiles_and_verifies(root, family):
    cases = [(n, d) for n, d in _fixtures(root, True) if d["family"] == family]
    assert cases, f"no folding fixture of {family}"
    for name, doc in cases:
        path = root / DATA / f"{name}.safetensors"
        vocab = _vocab(doc)
        imported = rnncc.import_weights(path, family, vocab)
        model = imported.model
        symbols = vocab.split(",")
        for ids, logits, accepts in zip(doc["strings"], doc["logits"], doc["accept"]):
            run = model.run("".join(symbols[i] for i in ids))
            if doc["folds"] == "exact":
                for y, want in zip(run.outputs, logits):
                    assert abs(float(y[0][0]) - want) <= 1e-9 * max(1.0, abs(want)), name
            assert list(run.accept) == accepts, name
        # Compiled: the circuit for n = 5 computes the model's exact output at position 5.
        circuit = rnncc.compile(model, 5, "arith")
        words = ["".join(w) for w in itertools.product(symbols[:2], repeat=5)]
        got = circuit.eval(model.one_hot(words), exact=True)
        assert circuit.output_names == ["y[5][0][0]", "accept"]
        for word, (y, accept) in zip(words, got):
            run = model.run(word)
            assert Fraction(y) == run.outputs[-1][0][0], (name, word)
            assert bool(accept) == run.accepted, (name, word)
        # Verified for every length against the second folding of the same layer.
        other = rnncc.import_weights(path, family, vocab, constant_readout=True).model
        proof = rnncc.equiv(model, other, timing=False)
        assert proof.proved and proof.outcome == "proved", (name, proof)
        assert rnncc.equiv(other, model, timing=False).proved


def test_a_changed_parameter_is_refuted_by_the_same_check(root):
    # The check above can fail: a model off by one parameter is refuted at a shortest string.
    name, doc = next((n, d) for n, d in _fixtures(root, True) if n == "deltanet_h1")
    path = root / DATA / f"{name}.safetensors"
    model = rnncc.import_weights(path, "deltanet", _vocab(doc)).model
    document = model.to_json()
    symbol = next(iter(document["layers"][0]["symbols"]))
    beta = Fraction(document["layers"][0]["symbols"][symbol]["beta"])
    document["layers"][0]["symbols"][symbol]["beta"] = str(beta * Fraction(1001, 1000))
    changed = rnncc.parse_model(json.dumps(document))
    verdict = rnncc.equiv(model, changed, timing=False)
    assert verdict.outcome == "refuted"
    assert verdict.counterexample.expected != verdict.counterexample.got


def test_refused_and_broken_files_name_the_tensor(root):
    for name, doc in _fixtures(root, False):
        with pytest.raises(rnncc.InputError) as e:
            rnncc.import_weights(root / DATA / f"{name}.safetensors", doc["family"], _vocab(doc))
        assert doc["refuse"]["tensor"] in str(e.value), (name, str(e.value))
    broken = json.loads((root / DATA / "malformed.json").read_text())
    for file, want in broken.items():
        with pytest.raises(rnncc.InputError) as e:
            rnncc.import_weights(root / DATA / file, want["family"], "a,b,c")
        if want["tensor"]:
            assert want["tensor"] in str(e.value), (file, str(e.value))
