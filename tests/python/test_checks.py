"""verify, equiv and depth: typed results whose .report is the CLI's --json document."""

import pytest

import rnncc


def test_verify_matches_cli(cli):
    r = rnncc.verify("mod-count", k=3, random=30, seed=5, timing=False)
    rc, expected = cli("verify", "mod-count", "--k", 3, "--random", 30, "--seed", 5,
                       "--no-timing", "--json", check_json=True)
    assert rc == 0 and r.report == expected and r.verdict == "proved" and r.proved
    assert "holds" not in r.report and not hasattr(r, "holds")


def test_verify_with_input_and_exhaustive(cli):
    r = rnncc.verify("wfa", "examples/wfa_binary_value.att", exhaustive=4, seed=1, timing=False)
    rc, expected = cli("verify", "wfa", "examples/wfa_binary_value.att", "--exhaustive", 4,
                       "--seed", 1, "--no-timing", "--json", check_json=True)
    assert rc == 0 and r.report == expected


def test_verify_without_three_way_walks_the_hybrid(cli):
    # three_way=False: the model walk at every length; the same counts as string by string.
    kw = dict(keys=1, values=1, prove=False, random=0, seed=1, timing=False)
    walked = rnncc.verify("assoc-recall", exhaustive=8, three_way=False, **kw)
    each = rnncc.verify("assoc-recall", exhaustive=8, **kw)
    assert walked.report["checked"] == {k: v for k, v in each.report["checked"].items()
                                        if not k.startswith("three-way")}
    assert any("model's layers" in n for n in walked.report["notes"])
    assert not any("model's layers" in n for n in each.report["notes"])
    rc, expected = cli("verify", "assoc-recall", "--keys", 1, "--values", 1, "--no-proof",
                       "--random", 0, "--seed", 1, "--no-timing", "--exhaustive", 8,
                       "--no-three-way", "--json", check_json=True)
    assert rc == 0 and walked.report == expected
    with pytest.raises(TypeError, match="three_way"):
        rnncc.verify("assoc-recall", exhaustive=8, three_way="no", **kw)


def test_verify_diagnostics():
    with pytest.raises(rnncc.InputError, match="expected .*mod-count"):
        rnncc.verify("nonsense")
    with pytest.raises(rnncc.InputError, match="against.*does not apply"):
        rnncc.verify("mod-count", k=3, against="x.wfa")


def test_verify_max_work(cli):
    # 200 random strings of length ≤ 40 = 8000 symbol steps: refused under 7999, as the CLI does
    with pytest.raises(rnncc.InputError,
                       match=r"max_work: verify would take about 8000 symbol steps .*more than the "
                             r"limit of 7999 \(raise max_work"):
        rnncc.verify("mod-count", k=3, random=200, max_work=7999)
    rc, _, err = cli("verify", "mod-count", "--k", 3, "--random", 200, "--max-work", 7999)
    assert rc == 2 and "about 8000 symbol steps" in err
    # 8000 admits the testing methods; the every-length proof is estimated on its own
    # (dimension³ · |Σ| · 256 = 10³ · 2 · 256 = 512000) and refused below that, as the CLI does.
    assert rnncc.verify("mod-count", k=3, random=200, max_work=8000, prove=False,
                        timing=False).verdict == "tested"
    with pytest.raises(rnncc.InputError, match=r"every-length proof would take about 512000 "):
        rnncc.verify("mod-count", k=3, random=200, max_work=511999)
    assert rnncc.verify("mod-count", k=3, random=200, max_work=512000, timing=False).verdict == "proved"


@pytest.mark.parametrize("a,b,method", [
    ("examples/binary_value_wfa.json", "examples/wfa_binary_value.att", "auto"),
    ("tests/cli/models/binary_value_broken.json", "examples/wfa_binary_value.att", "auto"),
    ("examples/s5_word_problem.json", "examples/s5_word_problem.json", "product"),
])
def test_equiv_matches_cli(cli, a, b, method):
    r = rnncc.equiv(a, b, method=method, timing=False)
    rc, expected = cli("equiv", a, b, "--method", method, "--json", "--no-timing",
                       check_json=True)
    assert r.report == expected
    assert rc == (0 if r.proved else 1)


def test_equiv_refuted_counterexample():
    r = rnncc.equiv("tests/cli/models/binary_value_broken.json", "examples/wfa_binary_value.att")
    assert r.proved is False and r.outcome == "refuted" and r.counterexample.input == "1"
    # expected: the first subject's value (the broken model's 2), got: the second's (1)
    assert r.counterexample.expected == 2 and r.counterexample.got == 1
    assert r.report["counterexample"]["expected"] == ["2"]


def test_equiv_diagnostics(tmp_path, cli):
    with pytest.raises(rnncc.InputError, match="method"):
        rnncc.equiv("examples/s5_word_problem.json", "examples/s5_word_problem.json",
                    method="magic")
    with pytest.raises(rnncc.InputError) as e:
        rnncc.equiv("examples/relu_counter.json", "examples/relu_counter.json", method="linear")
    rc, _, err = cli("equiv", "examples/relu_counter.json", "examples/relu_counter.json",
                     "--method", "linear")
    assert rc == 2 and str(e.value) in err


def test_depth_rows_match_cli(cli):
    table = rnncc.depth(["diagonal", "pd"], lengths="2..16")
    rc, expected = cli("depth", "--arch", "diagonal,pd", "--lengths", "2..16", "--json",
                       check_json=True)
    assert rc == 0 and table.to_dict() == expected
    assert [p.__dict__ for p in table] == expected["points"]
    assert table.fits == expected["fits"] and len(table.fits) == 2
    assert rnncc.depth(["diagonal", "pd"], lengths=[2, 4, 8, 16], fits=True).to_dict() == expected


def test_depth_of_model_files(cli):
    table = rnncc.depth(models=["examples/mamba_diagonal.json"], lengths="2..16")
    rc, expected = cli("depth", "--model", "examples/mamba_diagonal.json", "--lengths", "2..16",
                       "--json", check_json=True)
    assert table.to_dict() == expected and [p.arch for p in table] == ["mamba_diagonal"] * 4
    # rows alone need no fit, so fewer lengths than the fits need are fine here
    assert len(rnncc.depth(models=["examples/mamba_diagonal.json"], lengths="2..8")) == 3


def test_depth_diagnostics():
    with pytest.raises(rnncc.InputError, match="^lengths: "):
        rnncc.depth(["diagonal"], lengths="8..2")
    with pytest.raises(rnncc.InputError):
        rnncc.depth(["no-such-arch"], lengths="2..8")


def test_depth_fit_from_equals_a_run_from_each_length(cli):
    """`rnncc depth --json --fit-from N,…` (one run, several fitting windows) gives, for each N,
    exactly the fits of a run with --lengths N..B; fewer than four lengths ≥ N is refused."""
    args = ["depth", "--target", "threshold", "--arch", "s4,uhat,counter", "--json"]
    rc, one = cli(*args, "--lengths", "2..256", "--fit-from", "4,16", check_json=True)
    assert rc == 0 and [w["from"] for w in one["fits_from"]] == [4, 16]
    for window in one["fits_from"]:
        rc, alone = cli(*args, "--lengths", f"{window['from']}..256", check_json=True)
        assert rc == 0
        assert window["fits"] == alone["fits"]
    assert one["fits_from"][0]["fits"] != one["fits"]  # the window changed what was fitted
    rc, out, err = cli(*args, "--lengths", "2..256", "--fit-from", "64")
    assert rc == 2 and "--fit-from: 64: 3 of the lengths are ≥ it, a fit needs 4" in err
    rc, out, err = cli("depth", "--arch", "s4", "--lengths", "2..16", "--fit-from", "2")
    assert rc == 2 and "--fit-from: is printed with --json only" in err
