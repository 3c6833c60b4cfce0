"""SARIF 2.1.0 for GitHub code scanning, with full rule metadata."""

from __future__ import annotations

import json
import os
from pathlib import Path

from quotactl import __version__
from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.rule import Rule, registry
from quotactl.lint.runner import LintReport
from quotactl.lint.suppress import Suppression
from quotactl.report.renderers import register

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(file: str) -> str:
    if file.startswith("<"):
        return file.strip("<>")
    p = Path(file)
    try:
        rel = p.resolve().relative_to(Path(os.getcwd()).resolve())
        return rel.as_posix()
    except ValueError:
        return p.resolve().as_uri() if p.is_absolute() else p.as_posix()


def _rule_descriptor(r: Rule) -> dict:
    help_md = f"**What**: {r.doc.what}\n\n**Why**: {r.doc.why}\n\n**How to fix**: {r.doc.fix}"
    if r.doc.bad:
        help_md += f"\n\nBad:\n```yaml\n{r.doc.bad.rstrip()}\n```"
    if r.doc.good:
        help_md += f"\n\nGood:\n```yaml\n{r.doc.good.rstrip()}\n```"
    return {
        "id": r.code,
        "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": r.doc.what},
        "help": {"text": f"{r.doc.what} Why: {r.doc.why} Fix: {r.doc.fix}", "markdown": help_md},
        "defaultConfiguration": {"level": _LEVEL[r.severity]},
        "properties": {"tags": [r.dialect, r.layer], "precision": "very-high"},
    }


def _region(line: int, column: int) -> dict:
    return {"startLine": line, "startColumn": column}


def _result(d: Diagnostic, index: dict[str, int]) -> dict:
    logical = ".".join(p for p in (d.object, d.field) if p)
    result = {
        "ruleId": d.code,
        "level": _LEVEL[d.severity],
        "message": {"text": d.message + (f" Hint: {d.hint}" if d.hint else "")},
        "locations": [{
            "physicalLocation": {"artifactLocation": {"uri": _uri(d.file)}, "region": _region(d.line, d.column)},
            **({"logicalLocations": [{"fullyQualifiedName": logical, "kind": "object"}]} if logical else {}),
        }],
        "partialFingerprints": {"quotactl/v1": f"{d.code}:{d.object or ''}:{d.field or ''}"},
    }
    if d.code in index:
        result["ruleIndex"] = index[d.code]
    return result


def _suppression(s: Suppression) -> dict:
    """SARIF 2.1.0 section 3.35: where the suppression is written, and why."""
    out = {"kind": s.kind, "status": "accepted", "justification": s.justification}
    if s.file is not None:
        out["location"] = {"physicalLocation": {"artifactLocation": {"uri": _uri(s.file)},
                                                "region": _region(s.line or 1, s.column or 1)}}
    return out


def render(report: LintReport) -> str:
    rules = registry()
    everything = [(d, None) for d in report.diagnostics] + [(s.diagnostic, s.suppression) for s in report.suppressed]
    everything.sort(key=lambda pair: pair[0].sort_key())
    used = sorted({d.code for d, _ in everything})
    descriptors = [_rule_descriptor(rules[c]) for c in used if c in rules]
    index = {d["id"]: i for i, d in enumerate(descriptors)}
    results = []
    for d, suppression in everything:
        result = _result(d, index)
        if suppression is not None:  # code scanning shows it as dismissed, not as an alert
            result["suppressions"] = [_suppression(suppression)]
        results.append(result)
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "quotactl",
                "version": __version__,
                "informationUri": "https://github.com/quotactl/quotactl",
                "rules": descriptors,
            }},
            "results": results,
            "columnKind": "unicodeCodePoints",
        }],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


register("lint", "sarif", lambda report, view: render(report), note="for code scanning")
