"""Every YuniKorn rule fails on tests/lint/rules/yunikorn/<CODE>/fail.yaml and passes on pass.yaml, run
through ``lint_yunikorn`` directly (tests/lint/rules/test_rule_fixtures.py runs the same fixtures through
the full linter once it dispatches to it)."""

import json
from pathlib import Path

import pytest

from quotactl.lint.rule import registry
from quotactl.lint.yunikorn import lint_yunikorn
from quotactl.load.objects import Dialect, load

HERE = Path(__file__).resolve().parent / "yunikorn"
CASES = sorted(p for p in HERE.glob("YK*") if p.is_dir())


def _lint(path: Path):
    loaded = load([str(path)])
    return lint_yunikorn([o for o in loaded.objects if o.dialect == Dialect.YUNIKORN])


@pytest.fixture(autouse=True)
def _raise_rule_errors(monkeypatch):
    monkeypatch.setenv("QUOTACTL_RAISE_RULE_ERRORS", "1")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fail_fixture_triggers_the_rule(case):
    meta = json.loads((case / "meta.json").read_text()) if (case / "meta.json").exists() else {}
    hits = [d for d in _lint(case / "fail.yaml") if d.code == case.name]
    assert hits, f"{case.name}: fail.yaml produced no {case.name}"
    if "field" in meta:
        assert any(d.field == meta["field"] for d in hits), [d.field for d in hits]
    for d in hits:
        assert d.line >= 1 and d.column >= 1 and d.message and d.object


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_pass_fixture_does_not(case):
    hits = [d for d in _lint(case / "pass.yaml") if d.code == case.name]
    assert not hits, [(d.code, d.message) for d in hits]


def test_every_yunikorn_rule_has_fixtures():
    codes = {c for c, r in registry().items() if r.dialect == "yunikorn" and r.check is not None}
    assert codes == {c.name for c in CASES}


def test_every_yunikorn_rule_is_documented():
    for code, r in registry().items():
        if r.dialect != "yunikorn":
            continue
        assert r.name and r.summary and r.doc.what and r.doc.why and r.doc.fix and r.doc.source, code
        assert r.layer in ("decode", "validator", "lenient", "runtime"), code
        band = {"0": "decode", "1": "validator", "2": "lenient", "3": "runtime"}[code[2]]
        assert r.layer == band, code


def test_rule_codes_are_in_spec_order():
    """YK1xx follow the order of configvalidator.go ``Validate`` (validator step order)."""
    from quotactl.yunikorn.validate import Validator  # noqa: F401  (the checks live there)

    codes = sorted(c for c, r in registry().items() if r.dialect == "yunikorn" and c.startswith("YK1"))
    assert codes[0] == "YK100" and codes[-1] == "YK132"
