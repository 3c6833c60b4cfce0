"""YuniKorn quantities and resource arithmetic (quantity.go, resources.go)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotactl.model.yunikorn_resources import (
    INT64_MAX,
    QuantityError,
    add,
    component_wise_min,
    component_wise_min_permissive,
    fit_in,
    fit_in_max_undef,
    format_resource,
    format_value,
    go_string,
    is_zero,
    new_resource_from_conf,
    parse_lenient,
    parse_quantity,
    parse_value,
    parse_vcore,
    strictly_greater_than_zero,
    sub,
)

SPEC_TABLE = [  # quantity.go ParseQuantity / ParseVCore
    ("10", "vcore", 10000), ("500m", "vcore", 500), ("2k", "vcore", 2000000), ("1Gi", "memory", 1073741824),
    ("10 Gi", "memory", 10737418240), ("1G", "memory", 1000000000),
    ("1.5Gi", "memory", "invalid quantity"), ("-1", "vcore", "invalid quantity"),
    ("500m", "memory", "invalid suffix"), ("1000P", "vcore", "invalid quantity: overflow"),
    ("1000E", "memory", "invalid quantity: overflow"), ("", "memory", "invalid quantity"),
]


@pytest.mark.parametrize("text,name,want", SPEC_TABLE)
def test_spec_table(text, name, want):
    if isinstance(want, int):
        assert parse_value(name, text) == want
    else:
        with pytest.raises(QuantityError) as exc:
            parse_value(name, text)
        assert str(exc.value) == want


@pytest.mark.parametrize("text,err", [
    ("1K", "invalid suffix"), ("1mi", "invalid suffix"), ("1e3", "invalid quantity"), ("+1", "invalid quantity"),
    ("0x10", "invalid quantity"), ("1_000", "invalid quantity"), ("99999999999999999999", "invalid quantity: overflow"),
    ("  ", "invalid quantity"), ("1 0", "invalid quantity"), ("１", "invalid quantity"),
    # 5,000 digits: Go's ParseInt overflows; Python's int() would raise its own ValueError (fuzzer)
    ("9" * 5000, "invalid quantity: overflow"), ("1" * 4301 + "Gi", "invalid quantity: overflow"),
])
def test_more_invalid(text, err):
    with pytest.raises(QuantityError, match=f"^{err}$"):
        parse_quantity(text)


def test_suffixes_and_whitespace():
    assert parse_quantity("  8Gi \n") == 8 * 2**30
    assert parse_quantity("3Ei") == 3 * 2**60
    assert parse_quantity("1T") == 10**12
    assert parse_vcore("1Ki") == 1024 * 1000
    assert parse_vcore("0") == 0
    assert parse_quantity(str(INT64_MAX)) == INT64_MAX
    assert parse_quantity("9223372036854775807") == INT64_MAX
    assert parse_quantity("0" * 5000 + "7") == 7  # leading zeros are not digits of the value
    with pytest.raises(QuantityError, match="overflow"):
        parse_vcore(str(INT64_MAX))  # times 1000
    assert parse_value("cpu", "2") == 2 and parse_value("vcores", "2") == 2  # only vcore is CPU


def test_new_resource_from_conf_and_lenient():
    assert new_resource_from_conf({"memory": "10000", "vcore": "100"}) == {"memory": 10000, "vcore": 100000}
    assert new_resource_from_conf(None) == {}
    with pytest.raises(QuantityError):
        new_resource_from_conf({"memory": "x"})
    res, errors = parse_lenient({"memory": "x", "vcore": "1"})
    assert res == {"vcore": 1000} and errors == {"memory": "invalid quantity"}


def test_go_string():
    assert go_string({"vcore": 100000, "memory": 10000}) == "map[memory:10000 vcore:100000]"
    assert go_string({}) == "map[]"
    assert go_string(None) == "nil resource"


def test_comparisons():
    assert fit_in_max_undef({"memory": 100}, {"memory": 100, "vcores": 7})  # vcores missing: unlimited
    assert not fit_in_max_undef({"memory": 100}, {"memory": 101})
    assert not fit_in_max_undef({"memory": -5}, {"memory": 1})  # negative larger counts as 0
    assert fit_in_max_undef(None, {"memory": 10**18})
    assert fit_in_max_undef({"memory": 1}, None)
    assert not fit_in({"memory": 100}, {"vcore": 1})
    assert component_wise_min({"a": 1, "b": 5}, {"b": 3, "c": 9}) == {"a": 1, "b": 3, "c": 9}
    assert component_wise_min_permissive(None, None) is None
    assert component_wise_min_permissive({}, None) == {}
    assert is_zero(None) and is_zero({}) and is_zero({"a": 0}) and not is_zero({"a": 1})
    assert strictly_greater_than_zero({"a": 1, "b": 0}) and not strictly_greater_than_zero({"a": 1, "b": -1})
    assert not strictly_greater_than_zero({"a": 0})
    assert add({"a": INT64_MAX}, {"a": 5}) == {"a": INT64_MAX}  # saturates like YuniKorn
    assert sub({"a": 1}, {"b": 2}) == {"a": 1, "b": -2}


def test_format():
    assert format_value("vcore", 4000) == "4" and format_value("vcore", 1500) == "1500m"
    assert format_value("memory", 8 * 2**30) == "8Gi" and format_value("memory", 10**9) == "1G"
    assert format_value("memory", 1234567) == "1234567"
    assert format_value("nvidia.com/gpu", 2) == "2"
    assert format_resource({"memory": 2**30, "vcore": 2000, "a": 1}) == "vcore 2, memory 1Gi, a 1"
    assert format_resource(None) == "-"


def test_memory_in_the_largest_exact_unit():
    """100G as written, not 97656250Ki: the unit giving the shortest text, binary on a tie."""
    assert format_value("memory", 100 * 10**9) == "100G"
    assert format_value("memory", 24506 * 2**20) == "24506Mi"
    assert format_value("memory", 2**20) == "1Mi"  # not 1024Ki
    assert format_value("memory", 125 * 2**10) == "128k"  # = 125Ki: shorter decimal
    assert format_value("memory", 10112000) == "9875Ki"  # = 10112k: a tie, binary
    assert format_value("ephemeral-storage", 1500 * 10**6) == "1500M"
    assert format_value("memory", 0) == "0"


@given(st.integers(min_value=1, max_value=10**6), st.sampled_from(["k", "M", "G", "T", "Ki", "Mi", "Gi", "Ti"]))
def test_memory_display_reads_back_exactly(number, suffix):
    value = parse_quantity(f"{number}{suffix}")
    shown = format_value("memory", value)
    assert parse_quantity(shown) == value
    assert len(shown) <= len(f"{number}{suffix}")  # never longer than the way it was written


@given(st.integers(min_value=0, max_value=10**15), st.sampled_from(["", "k", "M", "Ki", "Mi", "Gi"]))
def test_parse_matches_arithmetic(number, suffix):
    factor = {"": 1, "k": 10**3, "M": 10**6, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}[suffix]
    text = f"{number}{suffix}"
    if number * factor > INT64_MAX:
        with pytest.raises(QuantityError):
            parse_quantity(text)
    else:
        assert parse_quantity(text) == number * factor
        if number * factor * 1000 <= INT64_MAX:
            assert parse_vcore(text) == number * factor * 1000
