"""The block-YAML fast path either declines or reads exactly what the libyaml path reads."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from quotactl.load.blockyaml import parse_block
from quotactl.load.composer import compose_all
from quotactl.load.document import YamlFloat
from quotactl.load.yamlparse import DEFAULT_LIMITS, _crlf_as_lf, _item_spans, _parse_yaml, parse_documents
from tests.load.test_lazy_positions import _eager as eager_positions
from tests.property_budget import examples

ROOT = Path(__file__).resolve().parents[2]


def same(a, b) -> bool:
    """Equal and of the same type all the way down (bool is not int; YamlFloat keeps its text)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, YamlFloat):
        return a.raw == b.raw and (a == b or (math.isnan(a) and math.isnan(b)))
    return a == b


def check_agrees(text: str) -> bool:
    """Whether the fast path read ``text`` (False: it declined); fails if it read it differently."""
    blocks = parse_block(text, DEFAULT_LIMITS.max_depth)
    if blocks is None:
        return False
    docs, diags = _parse_yaml(text, "f", DEFAULT_LIMITS, 0, 0)
    assert diags == []
    assert len(blocks) == len(docs)
    nodes = [n for n in compose_all(text) if n is not None]
    for block, doc, node in zip(blocks, docs, nodes, strict=True):
        assert same(block.data, doc.data), (block.data, doc.data)
        assert block.start == (doc.start.line, doc.start.column)
        spans = _item_spans(node)
        if block.item_spans is not None:
            assert [s for s, _ in block.item_spans] == [s for s, _ in spans]
    return True


def yaml_files() -> list[Path]:
    found = []
    for top in ("fixtures", "tests"):
        found += sorted(p for p in (ROOT / top).rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    return found


def test_every_yaml_file_of_the_repository_reads_the_same_or_is_declined():
    read = 0
    for path in yaml_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            read += check_agrees(text)
        except AssertionError as exc:
            raise AssertionError(f"{path}: {exc}") from exc
    assert read > 300  # the subset covers most manifests, not just a few


# ------------------------------------------------------------------ generated data, dumped -----

keys = st.one_of(
    st.sampled_from(["a", "name", "apiVersion", "on", "yes", "null", "1", "0x1f", "1.5", "~", "x y", "a:b", "-x"]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=8),
)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
    st.sampled_from(["", "true", "True", "NO", "null", "~", "1e3", "0o17", "0x1F", "1_000", "2026-11-25",
                     "2026-11-25T10:00:00Z", ".inf", "-.Inf", ".NaN", "a # b", "a: b", "- x", "'q'", '"d"',
                     "1Gi", "500m", "*", "&a", "!t", "{}", "[]", "x\ty", "line\nbreak", " padded "]),
    st.text(max_size=12),
)
data = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(keys, children, max_size=4)),
    max_leaves=25,
)


def dump(value, sequence: int, offset: int) -> str:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.indent(mapping=2, sequence=sequence, offset=offset)
    out = io.StringIO()
    yaml.dump_all([{"kind": "List", "items": value if isinstance(value, list) else [value]}, {"x": value}], out)
    return out.getvalue()


@settings(max_examples=examples(300), deadline=None)
@given(data)
def test_generated_data_dumped_kubectl_style_reads_the_same(value):
    check_agrees(dump(value, sequence=2, offset=0))  # sequences at their key's column, as kubectl


@settings(max_examples=examples(300), deadline=None)
@given(data)
def test_generated_data_dumped_with_indented_sequences_reads_the_same(value):
    check_agrees(dump(value, sequence=4, offset=2))


# ------------------------------------------------------------------ the subset -----

KUBECTL = """\
apiVersion: v1
items:
- apiVersion: kueue.x-k8s.io/v1beta2
  kind: Workload
  metadata:
    annotations: {}
    labels:
      kueue.x-k8s.io/queue-name: "user-queue"
    name: 'it''s'
    creationTimestamp: "2026-11-25T10:00:00Z"
  spec:
    podSets:
    - count: 3  # three pods
      name: main
      template:
        spec:
          containers:
          - resources:
              requests:
                cpu: 500m
                memory: 1Gi
    active: true
    priority: -5
    ratio: 1.50
  status: {}
kind: List
metadata:
  resourceVersion: ""
"""


def test_a_kubectl_dump_is_read_by_the_fast_path():
    assert check_agrees(KUBECTL)
    data = parse_block(KUBECTL, 200)[0].data
    spec = data["items"][0]["spec"]
    assert spec["podSets"][0]["count"] == 3 and spec["active"] is True and spec["priority"] == -5
    assert isinstance(spec["ratio"], YamlFloat) and spec["ratio"].raw == "1.50"
    assert data["items"][0]["metadata"]["name"] == "it's"


def test_documents_and_escapes():
    text = '# head\n---\na: "\\x41\\u00e9\\n\\\\"\nb: \'\'\n---\n- 1\n-\n  c: d\n- - x\n'
    assert parse_block(text, 200) is None  # "- - x" declined
    text = '# head\n---\na: "\\x41\\u00e9\\n\\\\"\nb: \'\'\n---\n- 1\n-\n  c: d\n-\n'
    assert check_agrees(text)
    assert [b.data for b in parse_block(text, 200)] == [{"a": "A\u00e9\n\\", "b": ""}, [1, {"c": "d"}, None]]


@pytest.mark.parametrize("text", [
    "a: &x 1\nb: *x\n",  # anchors and aliases
    "a: !!str 1\n",  # tags
    "a: {b: 1}\n",  # flow collections with content
    "a: [1, 2]\n",
    "a: |\n  text\n",  # block scalars
    "a: >\n  text\n",
    "a: two\n  lines\n",  # multi-line plain scalar
    'a: "two\n  lines"\n',  # multi-line quoted scalar
    "? complex\n: key\n",
    "a:\tb\n",  # tabs
    "a: 1\na: 2\n",  # duplicate keys
    "a:\n   b: 1\n  c: 2\n",  # odd indentation
    "a: 1\n b: 2\n",
    "<<: {a: 1}\n",  # merge keys
    "a: b: c\n",  # a mapping value where a scalar belongs
    "a: 1\r\nb: 2\r\n",  # carriage returns
    "\ufeffa: 1\n",  # a byte-order mark
    "a: \x01\n",  # a control character
    "%YAML 1.2\n---\na: 1\n",  # directives
    "a: 1\n---\n",  # an empty document
    "---\n---\na: 1\n",
    "just a scalar\n",
    "a: 1\n...\n",  # document end marker
    'a: "\\q"\n',  # an escape YAML does not have
    "a: x\n- b\n",
])
def test_constructs_outside_the_subset_are_declined(text):
    assert parse_block(text, 200) is None


def test_nesting_at_the_limit_is_left_to_libyaml():
    text = "".join(" " * i + "a:\n" for i in range(0, 40)) + " " * 40 + "b: 1\n"
    assert parse_block(text, 200) is not None
    assert parse_block(text, 20) is None
    docs, diags = parse_documents(text, "f", limits=type(DEFAULT_LIMITS)(max_depth=20))
    assert [d.code for d in diags] == ["IN006"]


def test_positions_of_a_fast_document_are_computed_on_demand():
    docs, diags = parse_documents(KUBECTL, "f.yaml")
    assert diags == []
    doc = docs[0]
    assert doc.lazy_positions is not None  # nothing composed yet
    pos = doc.pos(("items", 0, "spec", "podSets", 0, "count"))
    assert (pos.line, pos.column) == (13, 7)
    assert doc.pos(("kind",)).line == 26


def test_crlf_files_read_by_the_fast_path_as_libyaml_reads_them():
    """A file saved with CRLF line breaks is read by the fast path (as its LF twin), with the data,
    diagnostics and every position libyaml gives for the CRLF text itself; a lone CR still goes to
    libyaml."""
    read = 0
    for path in yaml_files()[::3]:
        text = path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n").replace("\n", "\r\n")
        if parse_block(text.replace("\r\n", "\n"), DEFAULT_LIMITS.max_depth) is None:
            continue
        fast, fast_diags = parse_documents(text, "f")
        slow, slow_diags = _parse_yaml(text, "f", DEFAULT_LIMITS, 0, 0)
        assert fast_diags == slow_diags, path
        assert len(fast) == len(slow), path
        for a, b, (positions, value_positions) in zip(fast, slow, eager_positions(text), strict=True):
            assert same(a.data, b.data), path
            assert a.start == b.start, path
            for p, at in positions.items():
                assert a.pos(p) == at, (path, p)
            for p, at in value_positions.items():
                assert a.pos(p, value=True) == at, (path, p)
        read += 1
    assert read > 100
    lone_cr = "a: 1\rb: 2\r\n"
    assert _crlf_as_lf(lone_cr) is lone_cr and _crlf_as_lf("a: 1\r\nb: 2\r\n") == "a: 1\nb: 2\n"
