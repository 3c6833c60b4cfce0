"""Every rule has a failing and a passing fixture: tests/lint/rules/<dialect>/<CODE>/{fail,pass}.yaml.

``fail.yaml`` must produce at least one diagnostic with the rule's code (and, if ``meta.json``
gives ``field``, one at that field); ``pass.yaml`` must produce none with that code.
``meta.json`` may set lint options: ``cross_refs`` (true/false), ``feature_gates`` ({Name: bool}),
``fair_sharing`` (bool), ``kueue_version`` ("v0.19"), ``count`` (exact number of findings in fail.yaml), ``field``.
"""

import json
from pathlib import Path

import pytest

from quotactl.lint.context import LintOptions
from quotactl.lint.rule import registry
from quotactl.lint.runner import lint_paths
from quotactl.model.kueue_versions import DEFAULT_RELEASE

HERE = Path(__file__).parent
CASES = sorted(p for p in HERE.glob("*/*") if p.is_dir())


def _options(case: Path) -> tuple[LintOptions, dict]:
    meta_file = case / "meta.json"
    meta = json.loads(meta_file.read_text()) if meta_file.exists() else {}
    opts = LintOptions(
        cross_refs=meta.get("cross_refs"),
        feature_gates=meta.get("feature_gates", {}),
        fair_sharing=meta.get("fair_sharing"),
        kueue_version=meta.get("kueue_version", DEFAULT_RELEASE),
    )
    return opts, meta


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rule_fails_on_bad_input(case, monkeypatch):
    monkeypatch.setenv("QUOTACTL_RAISE_RULE_ERRORS", "1")
    opts, meta = _options(case)
    report = lint_paths([str(case / "fail.yaml")], opts)
    hits = [d for d in report.diagnostics if d.code == case.name]
    assert hits, f"{case.name}: fail.yaml produced no {case.name}; got {[(d.code, d.message) for d in report.diagnostics]}"
    if "count" in meta:
        assert len(hits) == meta["count"], [d.message for d in hits]
    if "field" in meta:
        assert any(d.field == meta["field"] for d in hits), [d.field for d in hits]
    for d in hits:
        assert d.line >= 1 and d.column >= 1 and d.message


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rule_passes_on_good_input(case, monkeypatch):
    monkeypatch.setenv("QUOTACTL_RAISE_RULE_ERRORS", "1")
    opts, _ = _options(case)
    report = lint_paths([str(case / "pass.yaml")], opts)
    hits = [d for d in report.diagnostics if d.code == case.name]
    assert not hits, [(d.code, d.message) for d in hits]


def test_every_rule_has_fixtures():
    have = {c.name for c in CASES}
    missing = sorted(code for code, r in registry().items() if r.check is not None and code not in have)
    assert not missing, f"rules without tests/lint/rules/<dialect>/<CODE>/ fixtures: {missing}"


def test_every_rule_is_documented():
    for code, r in registry().items():
        assert r.name and r.summary, code
        assert r.doc.what and r.doc.why and r.doc.fix, code
