"""The ``yunikorn-lint`` acceptance cases, through ``lint_yunikorn`` and through the CLI."""

import json
import re

import pytest

from quotactl.diagnostics import Severity
from quotactl.lint.yunikorn import lint_yunikorn
from quotactl.load.objects import Dialect, load
from tests.acceptance.accept import field_matches
from tests.helpers import CASES, run_cli

LINT_CASES = sorted(p.parent for p in (CASES / "yunikorn-lint").glob("*/case.json"))


def _files(case):
    return [str(case / n) for n in ("queues.yaml", "state.yaml", "input.yaml") if (case / n).exists()]


def _norm(field):
    return re.sub(r"\[\d+\]", "[]", field or "").strip(".")


def check(spec, diagnostics) -> str | None:
    """The scorer's ``lint`` check, on diagnostic dicts."""
    errors = [d for d in diagnostics if str(d.get("severity", "error")).lower() == "error"]
    exp = spec["expect"]
    if exp.get("valid"):
        return None if not errors else f"expected valid, got {[e['message'] for e in errors][:2]}"
    if not errors:
        return "expected errors, got none"
    for e in exp.get("errors", []):
        if not any(field_matches(e.get("field"), d.get("field")) for d in errors):
            return f"no error at {e.get('field')}"
    return None


def test_suite_is_present():
    assert len(LINT_CASES) >= 100


@pytest.mark.parametrize("case", LINT_CASES, ids=[c.name for c in LINT_CASES])
def test_case(case):
    spec = json.loads((case / "case.json").read_text())
    loaded = load(_files(case))
    diags = list(loaded.diagnostics) + lint_yunikorn([o for o in loaded.objects if o.dialect == Dialect.YUNIKORN])
    as_dicts = [{"severity": d.severity.value, "field": d.field, "message": d.message, "object": d.object}
                for d in diags]
    assert check(spec, as_dicts) is None
    # stricter than the scorer: the object, the exact field suffix and YuniKorn's text
    errors = [d for d in diags if d.severity == Severity.ERROR]
    for e in spec["expect"].get("errors", []):
        exact = [d for d in errors if d.object == e["object"] and _norm(d.field).endswith(_norm(e["field"]))
                 and e["contains"] in d.message and d.type == e["type"]]
        assert exact, (e, [(d.object, d.field, d.message) for d in errors])
    # YK100 names the error YuniKorn itself would report: the case's first expectation
    verdict = [d for d in diags if d.code == "YK100"]
    if spec["expect"].get("errors"):
        assert verdict and spec["expect"]["errors"][0]["contains"] in verdict[0].message
    else:
        assert not verdict


@pytest.mark.parametrize("case", LINT_CASES[::9], ids=[c.name for c in LINT_CASES[::9]])
def test_case_through_the_cli(case, wired):
    spec = json.loads((case / "case.json").read_text())
    result = run_cli("lint", *_files(case), "--output", "json")
    doc = json.loads(result.stdout)
    assert doc["version"] == 1 and doc["dialect"] == "yunikorn"
    assert check(spec, doc["diagnostics"]) is None
    assert result.exit_code == (0 if spec["expect"]["valid"] else 1)
