"""The repository stands alone: what users read cites the upstream schedulers, never the developers'
notes beside the repository, and the tests read only data inside the repository."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from quotactl.lint.rule import registry
from tests.helpers import ROOT

# The developers' reference notes live outside the repository: users cannot follow these.
DEVELOPER_NOTES = re.compile(
    r"\.\./shared|shared/(spec|tools|cases)|§|\b(kueue-api|kueue-scheduling|kueue-jobs|yunikorn|cli-contract)\.md\b")
USER_FILES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "schemas").rglob("*.json")])
# The program's own sources: their docstrings and comments cite upstream code or docs/.
PACKAGE_CODE = sorted((ROOT / "quotactl").rglob("*.py"))
# Every test module but this one (which spells the patterns out).
TEST_CODE = sorted(p for p in (ROOT / "tests").rglob("*.py") if p != Path(__file__))


def _mentions(text: str) -> list[str]:
    return [m.group(0) for m in DEVELOPER_NOTES.finditer(text)]


@pytest.mark.parametrize("code", list(registry()))
def test_rule_doc_cites_upstream_only(code):
    doc = registry()[code].doc
    assert not {f.name: _mentions(getattr(doc, f.name)) for f in dataclasses.fields(doc)
                if _mentions(getattr(doc, f.name))}


def test_rule_docs_name_their_source():
    assert not [code for code, r in registry().items() if not r.doc.source]


@pytest.mark.parametrize("path", USER_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_user_files_cite_upstream_only(path):
    assert not _mentions(path.read_text())


@pytest.mark.parametrize("path", PACKAGE_CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_package_code_cites_upstream_only(path):
    assert not _mentions(path.read_text())


def test_the_check_catches_a_spec_citation():
    assert _mentions("Source: kueue-api.md §5.3 step 3") == ["kueue-api.md", "§"]
    developers_notes = "see " + ".." + "/shared/spec"  # spelled apart so repository greps stay clean
    assert _mentions(developers_notes) and not _mentions("yunikorn-core configvalidator.go checkLimit")


@pytest.mark.parametrize("path", TEST_CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_tests_read_only_the_repository(path):
    """No test reaches beside the repository (a user's clone has nothing there)."""
    assert not re.findall(r"ROOT\.parent\b|\.\./shared|\bshared/(spec|tools|cases)", path.read_text())
