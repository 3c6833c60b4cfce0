"""Every acceptance case says which upstream test it comes from, and each suite's SOURCES.md lists
exactly its cases with that source (the table is regenerated from the ``source`` fields)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import CASES
from tests.test_self_contained import DEVELOPER_NOTES

SUITES = sorted(p for p in CASES.iterdir() if p.is_dir())


def _sources(suite):
    return {c.parent.name: json.loads(c.read_text())["source"] for c in sorted(suite.glob("*/case.json"))}


def test_the_suites_the_tests_read_are_present():
    assert {s.name for s in SUITES} >= {
        "kueue-assign", "kueue-diff-assign", "kueue-diff-preempt", "kueue-diff-schedule", "kueue-fix-schedule",
        "kueue-lint", "kueue-preempt", "kueue-schedule", "yunikorn-diff-preempt", "yunikorn-lint", "yunikorn-math",
        "yunikorn-preempt"}


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: p.name)
def test_sources_table_lists_every_case(suite):
    rows = {}
    for line in (suite / "SOURCES.md").read_text().splitlines():
        if line.startswith("| `"):
            name, source = (cell.strip() for cell in line.strip("|").split("|", 1))
            rows[name.strip("`")] = source
    assert rows == {name: src.replace("|", "/") for name, src in _sources(suite).items()}
    assert all(rows.values())


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: p.name)
def test_case_notes_need_nothing_outside_the_repository(suite):
    texts = [p.read_text() for p in (*suite.glob("*.md"), *suite.glob("*/case.json"))]
    assert not [m.group(0) for t in texts for m in DEVELOPER_NOTES.finditer(t)]


def test_format_notes_need_nothing_outside_the_repository():
    assert not DEVELOPER_NOTES.search((CASES / "FORMAT.md").read_text())
