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
