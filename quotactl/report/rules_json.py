"""``quotactl rules --output json``: every rule, or one rule's documentation."""

from __future__ import annotations

import json

from quotactl.lint.rule import Rule
from quotactl.report.renderers import register


def rule_dict(r: Rule) -> dict:
    return {
        "code": r.code, "name": r.name, "severity": r.severity.value, "dialect": r.dialect, "layer": r.layer,
        "kinds": list(r.kinds), "gate": r.gate, "summary": r.summary,
        "doc": {"what": r.doc.what, "why": r.doc.why, "fix": r.doc.fix, "bad": r.doc.bad, "good": r.doc.good,
                "source": r.doc.source},
    }


def render_all(rules: list[Rule]) -> str:
    return json.dumps({"version": 1, "rules": [rule_dict(r) for r in rules]}, indent=2) + "\n"


def render_one(r: Rule) -> str:
    return json.dumps({"version": 1, **rule_dict(r)}, indent=2) + "\n"


register("rules", "json", lambda rules, view: render_all(rules))
register("rule", "json", lambda r, view: render_one(r))
