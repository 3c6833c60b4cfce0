"""The flow-nesting bound that guards the composer (quotactl/load/composer.py): always at least the
real nesting (pair removal used to take "{[]}" in one pass), and linear in the text (fuzz seed 1623: 400 documents nested 30,000 deep made 200
passes over 24 million brackets, 25 s of CPU)."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from quotactl.load.composer import (
    _flow_depth_bound,
    _scanned_bound,
    _without_innermost_pairs,
    nesting_exceeds,
)


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


@settings(max_examples=300, deadline=None)
@given(st.text("[]{}", max_size=60), st.integers(0, 12))
def test_the_scan_never_says_less_than_pair_removal(brackets, limit):
    assert _scanned_bound(brackets, limit) >= min(_by_passes(brackets, limit), limit + 1)
    assert _scanned_bound(brackets, limit) <= limit + 1


@settings(max_examples=500, deadline=None)
@given(st.text("[]{}", max_size=60))
def test_a_pass_removes_the_innermost_pairs_as_the_regex_does(brackets):
    assert _without_innermost_pairs(brackets) == re.sub(r"\[\]|\{\}", "", brackets)


def test_a_text_of_unpaired_brackets_is_bounded_fast():
    """Fuzz seed 1625: 400 quoted scalars of 500,000 "[" each (a regex pass took seconds)."""
    text = "".join(f'---\nname: "{"[" * 500_000}"\n' for _ in range(40))
    assert _flow_depth_bound(text, 1000) > 1000
    assert nesting_exceeds(text, 1000) is None  # quoted: no collection at all


@settings(max_examples=300, deadline=None)
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
