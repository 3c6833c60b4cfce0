"""``quotactl lint`` for YuniKorn: load the scheduler configs of the run, run every YuniKorn rule on
each, and return Diagnostics positioned in the real file (inside the ConfigMap too).

Entry point: ``lint_yunikorn(objects, options)``; ``objects`` are the YuniKorn-dialect objects of
the run (SchedulerConfig / ConfigMap / Pod / Node; Pods and Nodes are not linted here).
``select`` / ``ignore`` are applied by the caller.
"""

from __future__ import annotations

import os

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.rule import Rule, registry
from quotactl.load.objects import KubeObject
from quotactl.load.yunikorn import YuniKornInput, load_inputs
from quotactl.yunikorn.issues import Issue, format_field


def yunikorn_rules() -> list[Rule]:
    return [r for r in registry().values() if r.dialect == "yunikorn" and r.check is not None]


def lint_inputs(inputs: list[YuniKornInput], options=None) -> list[Diagnostic]:
    from quotactl.lint.rules.yunikorn.base import YKContext

    diags: list[Diagnostic] = []
    rules = yunikorn_rules()
    for inp in inputs:
        ctx = YKContext(inp, options)
        for r in rules:
            try:
                issues = list(r.check(inp, ctx))
            except Exception as exc:  # a rule bug must not hide the other findings
                if os.environ.get("QUOTACTL_RAISE_RULE_ERRORS"):
                    raise
                diags.append(Diagnostic("QL999", Severity.ERROR, f"internal error in rule {r.code} "
                                        f"({type(exc).__name__}: {exc}); please report it", inp.file, 1, 1))
                continue
            diags.extend(to_diagnostic(r, i, inp) for i in issues)
    return diags


def lint_yunikorn(objects: list[KubeObject], options=None) -> list[Diagnostic]:
    """Lint the YuniKorn configs among ``objects``."""
    configs = [o for o in objects if o.kind in ("SchedulerConfig", "ConfigMap")]
    return lint_inputs(load_inputs(configs), options)


def to_diagnostic(r: Rule, issue: Issue, inp: YuniKornInput) -> Diagnostic:
    if issue.file_pos is not None:
        file, line, column = issue.file_pos
    else:
        file = inp.file
        if issue.embedded is not None:
            pos = inp.posmap.pos(*issue.embedded)
        else:
            pos = inp.pos(issue.at if issue.at is not None else issue.field, value=issue.value)
        line, column = pos.line, pos.column
    return Diagnostic(
        code=r.code,
        severity=Severity(issue.severity) if issue.severity else r.severity,
        message=issue.message,
        file=file,
        line=line,
        column=column,
        object=issue.object,
        field=format_field(issue.field) or None,
        type=issue.type,
        hint=issue.hint,
    )
