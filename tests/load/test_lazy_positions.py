"""Positions computed lazily (per document, per List item, per JSON item) equal the positions of a
full eager pass over the whole text, for every path of every fixture."""

import json

import pytest

from quotactl.load.composer import compose_all
from quotactl.load.document import Pos
from quotactl.load.yamlbuild import Builder
from quotactl.load.yamlparse import parse_documents
from tests.helpers import FIXTURES, ROOT

FILES = sorted(p for base in (FIXTURES, ROOT / "tests" / "lint" / "rules") for p in base.rglob("*")
               if p.suffix in (".yaml", ".yml", ".json"))


def _eager(text: str) -> list[tuple[dict, dict]]:
    def pos(mark):
        return Pos(mark.line + 1, mark.column + 1)

    out = []
    for node in compose_all(text):
        if node is None:
            continue
        b = Builder("f", pos, 200, record=True)
        b.build(node)
        out.append((b.positions, b.value_positions))
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_lazy_positions_equal_eager_ones(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        eager = _eager(text)
    except Exception:
        pytest.skip("not parseable YAML (a hostile-input fixture)")
    docs, _ = parse_documents(text, "f")
    if len(docs) != len(eager):
        pytest.skip("a document was refused")
    for doc, (positions, value_positions) in zip(docs, eager, strict=True):
        for p, at in positions.items():
            assert doc.pos(p) == at, (p, json.dumps(str(at)))
        for p, at in value_positions.items():
            assert doc.pos(p, value=True) == at, p


LIST_TEXT = """\
# a List whose items' top-level scalars are found without composing the item
apiVersion: v1
kind: List
items:
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: ClusterQueue
  metadata:
    name: a   # a comment
    labels: {kind: nested}
  spec:
    kind: deeper-same-key
- kind: "Quoted"

  # a comment line between keys
  apiVersion:   kueue.x-k8s.io/v1beta2
  metadata: {name: b}
-   apiVersion: v1
    kind: ConfigMap
    data:
      k: |
        apiVersion: not-this-one
- {apiVersion: v1, kind: Flow}
---
apiVersion: v1
kind: List
items:
  - kind: Workload
    apiVersion: kueue.x-k8s.io/v1beta2
"""


def test_top_level_item_keys_found_by_reading_lines_equal_the_composed_ones():
    eager = _eager(LIST_TEXT)
    docs, _ = parse_documents(LIST_TEXT, "f")
    asked = 0
    for doc, (positions, value_positions) in zip(docs, eager, strict=True):
        for p in positions:
            if len(p) == 3 and p[0] == "items":  # before any deeper path composes the item
                assert doc.pos(p) == positions[p], p
                assert doc.pos(p, value=True) == value_positions[p], p
                asked += 1
    assert asked == 14


def _as_list(text: str, newline: str = "\n") -> str:
    """Every document of ``text`` as an item of one ``kind: List`` (its lines indented under
    ``- ``), the way ``kubectl get -o yaml`` wraps objects; comments and block scalars kept."""
    items = []
    for doc in text.replace("\r\n", "\n").split("\n---"):
        lines = [line for line in doc.split("\n") if not line.startswith(("---", "%"))]
        while lines and not lines[0].strip():
            lines.pop(0)
        if lines:
            items.append("\n".join(["- " + lines[0], *("  " + line if line else "" for line in lines[1:])]))
    return "\n".join(["apiVersion: v1", "kind: List", "items:", *items, ""]).replace("\n", newline)


def _key_paths(table: dict) -> list[tuple]:
    return [p for p in table if len(p) >= 2 and p[0] == "items" and all(isinstance(k, str) for k in p[2:])]


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_deep_item_keys_read_from_lines_equal_the_composed_ones(newline):
    """Every key path (``metadata.name``, ``spec.cohort``...) of every fixture object, wrapped in a
    List, placed by reading lines lands where composing the item puts it; most are found that way."""
    read = composed = 0
    for path in FILES:
        text = _as_list(path.read_text(encoding="utf-8", errors="replace"), newline)
        try:
            eager = _eager(text)
        except Exception:
            continue
        docs, _ = parse_documents(text, "f")
        if len(docs) != 1 or len(eager) != 1:
            continue
        owner = getattr(docs[0].tables()[0], "owner", None)  # None: the List's items have no spans
        positions, value_positions = eager[0]
        if owner is None:
            continue
        for p in _key_paths(positions):
            for value, table in ((False, positions), (True, value_positions)):
                at = owner.read_key_path(p[1], p[2:], value)
                composed += 1
                if at is not None:
                    read += 1
                    assert at == table[p], (str(path), p, value)
    assert read > composed // 3, (read, composed)


def test_keys_on_an_items_first_line_and_below_it_are_read_from_lines():
    eager = _eager(LIST_TEXT)[0]
    owner = parse_documents(LIST_TEXT, "f")[0][0].tables()[0].owner
    # (a value with a comment, a quoted one or a block scalar is placed by the composer: keys only)
    for i, keys, value in ((0, ("apiVersion",), True), (0, ("metadata", "name"), False), (0, ("spec", "kind"), True),
                           (1, ("apiVersion",), True), (2, ("data", "k"), False)):
        for table in (eager[0], eager[1]) if value else (eager[0],):
            asked_value = table is eager[1]
            assert owner.read_key_path(i, keys, asked_value) == table[("items", i, *keys)], (i, keys, value)


@pytest.mark.parametrize("text, path, value", [
    ("items:\n- metadata:\n    name: a\n    name: b\n", ("metadata", "name"), False),  # a duplicate key
    ("items:\n- base: &b {name: a}\n  metadata:\n    <<: *b\n    name: c\n", ("metadata", "name"), False),  # merge
    ("items:\n- metadata: {name: a}\n", ("metadata", "name"), False),  # flow
    ("items:\n- metadata:\n    name: 'a'\n", ("metadata", "name"), True),  # quoted value
    ("items:\n- metadata:\n  - name: a\n", ("metadata", "name"), False),  # a sequence, not a mapping
    ("items:\n- metadata:\n  name: a\n", ("metadata", "name"), False),  # metadata is null
])
def test_deep_item_keys_the_composer_must_place_are_left_to_it(text, path, value):
    docs, _ = parse_documents(text, "f")
    owner = docs[0].tables()[0].owner
    assert owner.read_key_path(0, path, value) is None


def _one_line_lists() -> list[str]:
    """A List nested in a PodList (fuzzer: ``'_Table' object is not a mapping``), as one-line
    JSON, as pretty JSON and as one-line flow YAML, and a one-line JSON List of many items."""
    workload = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload", "metadata": {"name": "w"},
                "spec": {"queueName": "q", "podSets": [{"name": "main", "count": "x"}]}}
    nested = {"apiVersion": "v1", "kind": "PodList",
              "items": [{"apiVersion": "v1", "kind": "List", "items": [workload, workload]}, workload]}
    flow = ("{apiVersion: v1, kind: PodList, items: [{apiVersion: v1, kind: List, items: [{kind: Pod, "
            "metadata: {name: p}}]}, {kind: Pod}]}\n")
    many = {"apiVersion": "v1", "kind": "List", "items": [dict(workload, metadata={"name": f"w{i}"}) for i in range(40)]}
    return [json.dumps(nested), json.dumps(nested, indent=2), flow, json.dumps(many)]


@pytest.mark.parametrize("text", _one_line_lists(), ids=["nested-json", "nested-json-indented", "nested-flow",
                                                         "one-line-json"])
def test_items_of_one_line_and_nested_lists_are_placed_as_the_whole_text_places_them(text):
    (positions, value_positions), = _eager(text)
    docs, _ = parse_documents(text, "f")
    for p, at in positions.items():
        assert docs[0].pos(p) == at, p
    for p, at in value_positions.items():
        assert docs[0].pos(p, value=True) == at, p


def test_a_one_line_list_composes_each_item_once_unpadded(monkeypatch):
    """Each item of a one-line JSON List is composed as its own text: padding it to its column
    composed the whole line's length per item (a 2 MB List of 2,000 items never finished)."""
    text = _one_line_lists()[-1]
    docs, _ = parse_documents(text, "f")
    owner = docs[0].tables()[0].owner
    composed = []
    parse = owner.parse_yaml
    monkeypatch.setattr(owner, "parse_yaml", lambda t, *a, **k: composed.append(len(t)) or parse(t, *a, **k))
    for i in range(40):
        docs[0].pos(("items", i, "spec", "podSets", 0, "count"))
    assert len(composed) == 40 and sum(composed) < len(text)
