"""The flow-nesting bound that guards the composer (quotactl/load/composer.py): always at least the
real nesting (pair removal used to take "{[]}" in one pass), and linear in the text (fuzz seed 1623: 400 documents nested 30,000 deep made 200
passes over 24 million brackets, 25 s of CPU)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quotactl.load.composer import (
    _flow_depth_bound,
    _scanned_bound,
    _without_innermost_pairs,
    nesting_exceeds,
)
from tests.property_budget import examples


def _by_passes(brackets: str, limit: int) -> int:
    """The bound as pair removal alone computes it (one level per pass, up to ``limit + 1``)."""
    for level in range(limit + 1):
        reduced = re.sub(r"\[\]|\{\}", "", brackets)
        if reduced == brackets:
            return level + reduced.count("[") + reduced.count("{")
        brackets = reduced
    return limit + 1


def _depth(value) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


values = st.recursive(st.one_of(st.integers(), st.text("ab]{[}", max_size=3)),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("xy", max_size=2), inner,
                                                                                     max_size=3),
                      max_leaves=40)


@settings(max_examples=examples(300), deadline=None)
@given(st.text("[]{}", max_size=60), st.integers(0, 12))
def test_the_scan_never_says_less_than_pair_removal(brackets, limit):
    assert _scanned_bound(brackets, limit) >= min(_by_passes(brackets, limit), limit + 1)
    assert _scanned_bound(brackets, limit) <= limit + 1


@settings(max_examples=examples(500), deadline=None)
@given(st.text("[]{}", max_size=60))
def test_a_pass_removes_the_innermost_pairs_as_the_regex_does(brackets):
    assert _without_innermost_pairs(brackets) == re.sub(r"\[\]|\{\}", "", brackets)


def test_a_text_of_unpaired_brackets_is_bounded_fast():
    """Fuzz seed 1625: 400 quoted scalars of 500,000 "[" each (a regex pass took seconds)."""
    text = "".join(f'---\nname: "{"[" * 500_000}"\n' for _ in range(40))
    assert _flow_depth_bound(text, 1000) > 1000
    assert nesting_exceeds(text, 1000) is None  # quoted: no collection at all


@settings(max_examples=examples(300), deadline=None)
@given(values, st.integers(0, 12))
def test_the_bound_is_at_least_the_real_nesting(value, limit):
    text = json.dumps(value)  # JSON is flow YAML; quoted brackets inside strings included
    assert _flow_depth_bound(text, limit) >= min(_depth(value), limit + 1)


def test_deep_documents_are_found():
    deep = "[" * 30_000 + "]" * 30_000
    text = "".join(f"---\na: {deep}\n" for _ in range(400))
    assert _flow_depth_bound(text, 200) == 201
    assert nesting_exceeds(text, 200) == (1, 202)  # line 2, the 200th "[" (inside the mapping: depth 201)


def test_quoted_closing_brackets_do_not_hide_nesting():
    """Each list opened after a quoted "]" pairs, bracket-wise, with that "]": the pairs are one
    level deep while the lists nest 30,000 deep (libyaml's recursive composer crashed on it)."""
    text = "a: " + '["]", ' * 30_000 + "1" + "]" * 30_000 + "\n"
    assert _flow_depth_bound(text, 1000) > 1000
    assert nesting_exceeds(text, 1000) is not None


def _shape(node):
    """A node tree as plain data: kind, tag, value, style and marks of every node."""
    from quotactl.load.yamlbuild import node_tag

    if node is None:
        return None
    head = (type(node).__name__, node_tag(node), node.start_mark.index, node.end_mark.index,
            getattr(node, "style", None), getattr(node, "flow_style", None))
    if isinstance(node.value, str):
        return head + (node.value,)
    if node.value and isinstance(node.value[0], tuple):
        return head + (tuple((_shape(k), _shape(v)) for k, v in node.value),)
    return head + (tuple(_shape(v) for v in node.value),)


_UNCLEARED = 'q: "' + "[" * 300 + '"\n'  # quoted brackets the cheap bounds cannot clear at depth 200


def test_a_text_the_bounds_cannot_clear_composes_as_libyaml_does(monkeypatch):
    """The measured path reads libyaml's events once and composes them in Python (composing in C
    read a 190 MB text a second time; fuzz seed 1625): same nodes, tags, styles, marks, anchors."""
    from quotactl.load import composer

    text = _UNCLEARED + (
        "---\nkind: ClusterQueue\nmetadata: {name: a, labels: {x: 'y'}}\nspec:\n"
        "  n: &n 3\n  m: *n\n  t: !!str 4\n  l: [1, 2.5, true, null, ~, '0x1']\n  b: |\n    text\n"
        "---\n- a\n- - b\n  - {c: [d]}\n"
    )
    expected = [_shape(n) for n in composer._compose_c(text)]
    read = []
    monkeypatch.setattr(composer, "events", lambda t, real=composer.events: read.append(1) or real(t))
    monkeypatch.setattr(composer, "_compose_c", None)  # the text is not handed to libyaml's composer
    assert [_shape(n) for n in composer.compose_all(text, 200)] == expected
    assert read == [1]


def test_the_measured_path_raises_the_syntax_error_after_the_documents_before_it():
    from quotactl.load.composer import _compose_c, compose_all

    text = _UNCLEARED + "---\na: 1\n---\nb: [1\nc: 2\n"
    got, c_got = [], []
    for source, into in ((compose_all(text, 200), got), (_compose_c(text), c_got)):
        try:
            for node in source:
                into.append(_shape(node))
        except Exception as exc:  # the same error class and message from both
            into.append((type(exc).__name__, str(exc)))
    assert len(got) == 3 and got == c_got


def test_too_deep_is_refused_before_any_document():
    from quotactl.load.composer import NestingTooDeep, compose_all

    text = _UNCLEARED + "---\na: 1\n---\nb: " + "[" * 201 + "]" * 201 + "\n"
    with pytest.raises(NestingTooDeep):
        next(compose_all(text, 200))


def _too_deep_by_definition(data, limit: int) -> bool:
    """The rule as the YAML builder counts it, one value at a time: a non-empty collection at
    depth >= limit (the top value is at depth 1)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
        if children and depth >= limit:
            return True
        stack.extend((c, depth + 1) for c in children)
    return False


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
                     max_leaves=30)


@settings(max_examples=examples(300), deadline=None)
@given(_JSON, st.integers(min_value=1, max_value=8))
def test_json_nesting_check_matches_the_builders_rule(data, limit):
    from quotactl.load.jsonparse import _too_deep

    assert _too_deep(data, limit) == _too_deep_by_definition(data, limit)
