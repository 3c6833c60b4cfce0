from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotactl.load.document import YamlFloat
from quotactl.model.quantity import Quantity, QuantityError

ACCEPTED = {
    "0": 0, "1": 10**9, "-1": -(10**9), "+2": 2 * 10**9, "1.": 10**9, ".5": 5 * 10**8, "1.5": 15 * 10**8,
    "100m": 10**8, "2n": 2, "1u": 1000, "1k": 10**12, "1Ki": 1024 * 10**9, "1.5Gi": 1536 * 2**20 * 10**9,
    "1e3": 10**12, "1E-3": 10**6, "0.0000000001": 1, "-0.0000000001": -1, "500m": 5 * 10**8, "2Gi": 2 * 2**30 * 10**9,
}
REJECTED = ["", "1K", "1KB", "1Gb", "1gi", "1 Gi", " 1", "1,5", "0x10", "Gi", "1.5.2", "1e", "1Mi2", "infinity",
            "NaN", "1e2.5", "1 ", "--1", "1e2147483648", "1e" + "9" * 5000]


@pytest.mark.parametrize("text,nanos", ACCEPTED.items())
def test_accepted(text, nanos):
    assert Quantity.parse(text).nanos == nanos


@pytest.mark.parametrize("text", REJECTED)
def test_rejected(text):
    with pytest.raises(QuantityError):
        Quantity.parse(text)


MAX_NANOS = (2**63 - 1) * 10**9


@pytest.mark.parametrize("text,nanos", [
    ("1" * 5000, MAX_NANOS), ("-" + "9" * 5000, -MAX_NANOS), ("1" * 5000 + "Ki", MAX_NANOS),
    ("1e5000", MAX_NANOS), ("1e2147483647", MAX_NANOS), ("0e2147483647", 0),
    ("0." + "0" * 5000 + "1", 1), ("1E-5000", 1), ("-1e-2147483648", -1), ("0." + "0" * 5000, 0),
    ("0" * 5000 + "1", 10**9), ("1." + "0" * 5000 + "1", 10**9 + 1), ("1." + "5" * 5000 + "m", 1555556),
])
def test_huge_numbers_saturate_or_round_up_as_kubernetes_does(text, nanos):
    # resource.ParseQuantity caps at int64 units and rounds a non-zero value up to 1n; Python's
    # int() would refuse these 5,000 digits (the 4,300-digit limit): found by the fuzzer.
    assert Quantity.parse(text).nanos == nanos


def test_a_huge_yaml_integer_keeps_a_printable_text():
    q = Quantity.parse(10**5000)
    assert q.nanos == MAX_NANOS and "bit integer" in str(q)


def test_yaml_numbers():
    assert Quantity.parse(10).nanos == 10 * 10**9
    assert Quantity.parse(2.0).nanos == 2 * 10**9
    assert Quantity.parse(YamlFloat(1e3, "1e3")).nanos == 10**12
    with pytest.raises(QuantityError, match="YAML float"):
        Quantity.parse(1.5)
    with pytest.raises(QuantityError):
        Quantity.parse(True)


def test_kueue_integer_views():
    # memory 0.5 counts as 1; cpu 1.0005 counts as 1001m (Kubernetes quantities round up to the unit Kueue counts in)
    assert Quantity.parse("0.5").value() == 1
    assert Quantity.parse("1.0005").milli_value() == 1001
    assert Quantity.parse("-0.0000000001").value() == -1


def test_canonical_printing():
    assert Quantity.parse("1.5").canonical() == "1500m"
    assert Quantity.parse("1.5Gi").canonical() == "1536Mi"
    assert Quantity.parse("2000").canonical() == "2k"
    assert Quantity.parse("0").canonical() == "0"


def test_bad_suffix_messages_are_helpful():
    with pytest.raises(QuantityError, match="did you mean k"):
        Quantity.parse("1K")
    with pytest.raises(QuantityError, match="Gi"):
        Quantity.parse("1gi")


@given(st.integers(min_value=-(10**9), max_value=10**9), st.sampled_from(["", "m", "k", "Ki", "Mi", "Gi", "n", "u"]))
def test_integer_with_suffix_is_exact(n, suffix):
    mult = {"": Fraction(1), "m": Fraction(1, 1000), "k": Fraction(1000), "Ki": Fraction(1024),
            "Mi": Fraction(2**20), "Gi": Fraction(2**30), "n": Fraction(1, 10**9), "u": Fraction(1, 10**6)}[suffix]
    q = Quantity.parse(f"{n}{suffix}")
    assert q.as_fraction() == n * mult


@given(st.integers(min_value=0, max_value=10**12), st.integers(min_value=0, max_value=10**12))
def test_addition_is_exact_and_ordered(a, b):
    qa, qb = Quantity.parse(f"{a}m"), Quantity.parse(f"{b}m")
    assert (qa + qb).milli_value() == a + b
    assert (qa <= qb) == (a <= b)


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_canonical_round_trips(n):
    q = Quantity(n)
    assert Quantity.parse(q.canonical()).nanos == n


class _Scalar(str):
    """A loader's string scalar (a str subclass): parsed as it is, never from the memo."""


@pytest.mark.parametrize("text,nanos", ACCEPTED.items())
def test_parse_is_memoised_but_answers_the_same(text, nanos):
    first, again = Quantity.parse(text), Quantity.parse(text)
    assert (again.nanos, again.text, again.binary) == (first.nanos, first.text, first.binary) == (nanos, text,
                                                                                                   first.binary)
    assert Quantity.parse(_Scalar(text)) == first


@pytest.mark.parametrize("text", REJECTED)
def test_a_rejected_text_is_rejected_every_time(text):
    for _ in range(2):  # the memo must not remember a failure as an answer
        with pytest.raises(QuantityError):
            Quantity.parse(text)
        with pytest.raises(QuantityError):
            Quantity.parse(_Scalar(text))
