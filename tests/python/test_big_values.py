"""Exact values past Python's 4300-digit limit on int <-> str (CVE-2020-10735).

A trained layer's parameters are 53-bit dyadic rationals; an exact run of length n carries
numbers of about 53·n bits, so a run of length 84 prints outputs of thousands of digits, which
int(text) refuses by default. The package parses and prints such values itself."""

import random
import sys
from fractions import Fraction

import pytest

import rnncc
from rnncc import _big_int, _exact_text, _fraction, _int_text


def test_big_int_and_int_text_round_trip_at_every_size():
    rng = random.Random(7)
    for digits in [1, 2, 3611, 3612, 3613, 3999, 4000, 4001, 4300, 4301, 9000, 20001]:
        for sign in (1, -1):
            v = sign * rng.randrange(10 ** (digits - 1), 10**digits)
            old = sys.get_int_max_str_digits()
            sys.set_int_max_str_digits(0)
            text = str(v)
            sys.set_int_max_str_digits(old)
            assert _big_int(text) == v
            assert _int_text(v) == text
            f = Fraction(v, 3 ** (digits // 2 + 1))
            assert _fraction(_exact_text(f, "x")) == f


def test_an_exact_run_with_outputs_of_thousands_of_digits():
    imported = rnncc.import_weights("examples/trained/gdn_even_b.safetensors", "gated_deltanet",
                                    "a,b")
    run = imported.model.run("b" + "a" * 83)
    y = run.outputs[-1][0][0]
    assert isinstance(y, Fraction)
    assert y.denominator.bit_length() > 4300 * 3.33  # past the digit limit
    # Acceptance is y > 0, read from the same exact value.
    assert run.accepted == (y > 0)
    # The value re-enters the library exactly (a builder parameter of that size).
    m = rnncc.families.general(["a"], A={"a": [[y]]}, readout=[[1]], initial_state=[[1]])
    assert m.run("a").outputs[0][0][0] == y
