"""One vocabulary (docs/semantics.md, "Verdicts"): a certificate names its field and a claim over
Q refuses one over F_p; verify's verdict is proved, refuted or tested, never a `holds` that is
true for a merely tested claim; equiv compares acceptance and matches symbols by name; minimize
never exceeds a model's dimension."""

import os
import tempfile

import pytest

import rnncc

M = "tests/cli/models/"


def test_forged_f2_certificate_is_refused_over_q(cli):
    # f ≡ 1 and g(aⁿ) = 3ⁿ differ over Q at "a", agree modulo 2.
    f, g = M + "ones_a.att", M + "threes_a.att"
    over_q = rnncc.equiv(f, g)
    assert over_q.verdict == "refuted" and over_q.counterexample.input == "a"
    with tempfile.TemporaryDirectory() as d:
        cert = os.path.join(d, "mod2.cert.json")
        mod2 = rnncc.equiv(f, g, modulus=2, certificate=cert)
        assert mod2.verdict == "proved" and mod2.field == "F_p" and mod2.modulus == 2
        c = rnncc.check_certificate(f, g, cert)
        assert c == rnncc.CertificateCheck(
            False, "F_p", 2,
            ["the certificate proves agreement modulo p = 2 only; a claim over Q needs a "
             "certificate over Q (--field F_p accepts agreement modulo p)"])
        ok = rnncc.check_certificate(f, g, cert, field="F_p")
        assert ok.valid and ok.field == "F_p" and ok.modulus == 2 and ok.problems == []
        rc, out, err = cli("check-certificate", f, g, cert)
        assert rc == 1 and out == "" and "modulo p = 2 only" in err
        with pytest.raises(rnncc.InputError, match="expected Q or F_p"):
            rnncc.check_certificate(f, g, cert, field="R")
    # A certificate over Q says so, for either claim.
    with tempfile.TemporaryDirectory() as d:
        cert = os.path.join(d, "q.cert.json")
        assert rnncc.equiv(f, f, certificate=cert).verdict == "proved"
        for field in ("Q", "F_p"):
            assert rnncc.check_certificate(f, f, cert, field=field) == rnncc.CertificateCheck(
                True, "Q", None, [])


def test_no_proof_on_a_wrong_model_is_tested_not_holds(cli):
    # zero_a ≠ cycle13 first at a^13: tested up to 12 finds nothing, and says only "tested".
    args = dict(against=M + "cycle13.att", prove=False, exhaustive=12, random=0, seed=1)
    v = rnncc.verify("model", rnncc.load_model(M + "zero_a.json"), **args)
    assert v.verdict == "tested" and not v.proved and v.counterexample is None
    assert v.tested["max_length"] == 12
    assert "holds" not in v.report and not hasattr(v, "holds")
    # With the proof: refuted at the shortest counterexample, a^13.
    r = rnncc.verify("model", rnncc.load_model(M + "zero_a.json"), against=M + "cycle13.att",
                     random=0, seed=1, timing=False)
    assert r.verdict == "refuted" and r.counterexample.input == "a" * 13


def test_equiv_compare_accept():
    bv = "examples/binary_value_wfa.json"
    assert rnncc.equiv(bv, "examples/wfa_binary_value.att", compare="accept").verdict == "proved"
    t = rnncc.equiv(bv, M + "binary_value_twice.json", compare="accept", accept_length=6)
    assert t.verdict == "tested" and t.report["searched_up_to"] == 6
    assert t.report["outputs_equal"] is False and t.report["strings_searched"] == 126
    r = rnncc.equiv(bv, M + "binary_value_minus_one.json", compare="accept")
    assert r.verdict == "refuted" and r.counterexample.input == "1"
    assert r.report["counterexample"]["accepts"] == [True, False]
    f = rnncc.equiv(M + "parity_b_pm1.att", M + "parity_b_5m2.att", compare="accept")
    assert f.verdict == "proved" and "accept verdicts" in f.method
    with pytest.raises(rnncc.InputError, match="compare"):
        rnncc.equiv(bv, bv, compare="languages")


def test_equiv_matches_symbols_by_name():
    v = rnncc.equiv("examples/wfa_binary_value.att", M + "binary_value_reordered.json")
    assert v.verdict == "proved"
    with pytest.raises(rnncc.InputError, match="only in A: {0 1}, only in B: {a}"):
        rnncc.equiv("examples/wfa_binary_value.att", M + "ones_a.att")


def test_minimize_never_exceeds_the_model():
    for path, own in ((M + "cycle4.json", 4), (M + "cycle4_eps.att", 5)):
        mz = rnncc.minimize(path)
        assert mz.dimension == own and mz.minimal_dimension == 3 and mz.affine
        assert rnncc.equiv(mz.model, M + "cycle4.json").verdict == "proved"
