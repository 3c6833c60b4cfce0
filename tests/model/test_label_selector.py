"""kubectl's -l/--selector syntax, read into the model's LabelSelector (cases after Kubernetes'
``k8s.io/apimachinery/pkg/labels/selector_test.go``, TestSelectorParse / TestSelectorMatches)."""

from __future__ import annotations

import pytest

from quotactl.model.label_selector import SelectorError, parse_selector


def _ops(text: str) -> list[tuple]:
    return [(r.key, r.operator, r.values) for r in parse_selector(text).match_expressions]


def test_every_requirement_form():
    assert _ops("a=b,c!=d,e in (x,y),!f,g") == [
        ("a", "In", ("b",)), ("c", "NotIn", ("d",)), ("e", "In", ("x", "y")), ("f", "DoesNotExist", None),
        ("g", "Exists", None)]
    assert _ops("a==b, h notin ( p , q ),  team.example.com/x = 1") == [
        ("a", "In", ("b",)), ("h", "NotIn", ("p", "q")), ("team.example.com/x", "In", ("1",))]
    assert _ops("a=") == [("a", "In", ("",))]  # an empty value is a value
    assert _ops("") == [] and _ops("  ") == []


@pytest.mark.parametrize(("text", "labels", "matches"), [
    ("a=b", {"a": "b"}, True),
    ("a=b", {"a": "c"}, False),
    ("a=b", {}, False),
    ("a!=b", {}, True),  # != also matches when the label is absent, as in Kubernetes
    ("a!=b", {"a": "b"}, False),
    ("a in (x,y)", {"a": "y"}, True),
    ("a notin (x,y)", {"a": "z"}, True),
    ("a notin (x,y)", {}, True),
    ("a", {"a": ""}, True),
    ("!a", {"a": ""}, False),
    ("a=b,c=d", {"a": "b", "c": "d"}, True),
    ("a=b,c=d", {"a": "b"}, False),
    ("", {}, True),
])
def test_matches_as_kubernetes_does(text, labels, matches):
    assert parse_selector(text).matches(labels) is matches


@pytest.mark.parametrize(("text", "said"), [
    ("a=b,", "missing after the last ','"),
    (",a", "label key is missing"),
    ("a in ()", "values set can't be empty"),
    ("a in x", "in parentheses"),
    ("a in (x", "')' is missing"),
    ("a>1", "not supported"),
    ("a b", "expected =, ==, !=, in or notin after 'a', found 'b'"),
    ("a=b=c", "expected ','"),
    ("-bad=x", "label key '-bad'"),
    ("a=-bad-", "label value '-bad-'"),
    ("a=" + "x" * 64, "no more than 63 characters"),
    ("=x", "label key is missing"),
])
def test_refused_like_kubectl(text, said):
    with pytest.raises(SelectorError) as info:
        parse_selector(text)
    assert said in str(info.value)
