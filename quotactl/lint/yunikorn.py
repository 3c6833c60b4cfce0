"""``quotactl lint`` for YuniKorn: load the scheduler configs of the run, run every YuniKorn rule on
each, and return Diagnostics positioned in the real file (inside the ConfigMap too).

Entry point: ``lint_yunikorn(objects, options)``; ``objects`` are the YuniKorn-dialect objects of
the run (SchedulerConfig / ConfigMap / Pod / Node; Pods and Nodes are not linted here).
``select`` / ``ignore`` also filter the caller's other diagnostics, so the caller applies them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.apply import apply_rules
from quotactl.lint.context import LintOptions
from quotactl.lint.rule import Rule, checks_of
from quotactl.load.objects import KubeObject
from quotactl.load.yunikorn import CONFIG_KINDS, YuniKornInput, load_inputs
from quotactl.yunikorn.issues import Issue, format_field


@dataclass
class YuniKornSubjects:
    """Every YuniKorn rule runs once on the scheduler config."""

    inp: YuniKornInput
    ctx: object  # the rules' YKContext

    def calls(self, r: Rule) -> Iterator[tuple[tuple, YuniKornInput]]:
        yield (self.inp, self.ctx), self.inp

    def diagnostic(self, r: Rule, issue: Issue, inp: YuniKornInput) -> Diagnostic:
        file, line, column = self._position(issue, inp)
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

    @staticmethod
    def _position(issue: Issue, inp: YuniKornInput) -> tuple[str, int, int]:
        if issue.file_pos is not None:
            return issue.file_pos
        if issue.embedded is not None:
            pos = inp.posmap.pos(*issue.embedded)
        else:
            pos = inp.pos(issue.at if issue.at is not None else issue.field, value=issue.value)
        return inp.file, pos.line, pos.column

    def location(self, inp: YuniKornInput) -> tuple[str, int, int]:
        return inp.file, 1, 1


def lint_inputs(inputs: list[YuniKornInput], options: LintOptions | None = None) -> list[Diagnostic]:
    from quotactl.lint.rules.yunikorn.base import YKContext

    rules = checks_of("yunikorn")
    diags: list[Diagnostic] = []
    for inp in inputs:
        diags.extend(apply_rules(rules, YuniKornSubjects(inp, YKContext(inp, options)), options))
    return diags


def lint_yunikorn(objects: list[KubeObject], options: LintOptions | None = None) -> list[Diagnostic]:
    """Lint the YuniKorn configs among ``objects``."""
    configs = [o for o in objects if o.kind in CONFIG_KINDS]
    fragments = options is not None and options.cross_refs is False  # --no-cross-refs: a part of a config
    return lint_inputs(load_inputs(configs, fragments), options)
