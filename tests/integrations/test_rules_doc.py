"""docs/rules.md is exactly what `quotactl rules --output markdown` prints."""

from __future__ import annotations

import difflib

from quotactl.report.rules_markdown import REGENERATE
from tests.helpers import ROOT, run_subprocess

DOC = ROOT / "docs" / "rules.md"


def test_docs_rules_md_is_current():
    result = run_subprocess("rules", "--output", "markdown")
    assert result.returncode == 0, result.stderr
    committed = DOC.read_text(encoding="utf-8")
    if result.stdout != committed:
        diff = difflib.unified_diff(committed.splitlines(), result.stdout.splitlines(),
                                    "docs/rules.md", "quotactl rules --output markdown", lineterm="", n=1)
        shown = "\n".join(list(diff)[:40])
        raise AssertionError(f"docs/rules.md is stale; regenerate it with:\n    {REGENERATE}\n{shown}")


def test_the_doc_names_its_regeneration_command():
    assert REGENERATE in DOC.read_text(encoding="utf-8")
