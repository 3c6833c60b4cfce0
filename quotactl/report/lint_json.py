"""``quotactl lint --output json``: the documented, stable contract (schemas/output/lint.json)."""

from __future__ import annotations

import json

from quotactl.diagnostics import Diagnostic
from quotactl.lint.runner import LintReport
from quotactl.lint.suppress import Suppression
from quotactl.report.renderers import register

SCHEMA_VERSION = 1


def diagnostic_dict(d: Diagnostic) -> dict:
    out = {
        "code": d.code,
        "severity": d.severity.value,
        "file": d.file,
        "line": d.line,
        "column": d.column,
        "object": d.object,
        "field": d.field,
        "message": d.message,
    }
    if d.type:
        out["type"] = d.type
    if d.hint:
        out["hint"] = d.hint
    if d.fix:
        out["fix"] = {"description": d.fix.description, "replacement": d.fix.replacement}
    if d.related:
        out["related"] = list(d.related)
    return out


def render(report: LintReport) -> str:
    doc = {
        "version": SCHEMA_VERSION,
        "dialect": report.dialect,
        "diagnostics": [diagnostic_dict(d) for d in report.diagnostics],
        "summary": summary(report),
    }
    if report.show_suppressed:
        doc["suppressed"] = [{**diagnostic_dict(s.diagnostic), "suppression": suppression_dict(s.suppression)}
                             for s in report.suppressed]
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def summary(report: LintReport) -> dict:
    from quotactl.diagnostics import Severity

    return {
        "files": report.files,
        "objects": report.objects,
        "errors": report.count(Severity.ERROR),
        "warnings": report.count(Severity.WARNING),
        "infos": report.count(Severity.INFO),
        "suppressed": len(report.suppressed),
    }


def suppression_dict(s: Suppression) -> dict:
    """SARIF's suppression object: kind (inSource | external), justification."""
    return {"kind": s.kind, "justification": s.justification}


register("lint", "json", lambda report, view: render(report))
