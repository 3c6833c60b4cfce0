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
