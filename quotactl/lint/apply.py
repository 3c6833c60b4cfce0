"""Run registered rules of either dialect and turn their findings into Diagnostics.

A dialect says, through ``Subjects``, what each rule's check runs on and where a finding is in the
files; everything else (selection, the guard against rule bugs) is the same for both dialects.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Protocol

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.context import LintOptions
from quotactl.lint.rule import Rule

RULE_CRASH = "QL999"  # the code a crashed rule's check is reported under (never a user finding)


class Subjects(Protocol):
    """One dialect's input as the rules see it."""

    def calls(self, r: Rule) -> Iterator[tuple[tuple, object]]:
        """Per run of ``r``'s check: its arguments, and the subject its findings default to."""
        ...

    def diagnostic(self, r: Rule, finding, subject) -> Diagnostic:
        """The finding, positioned in the file it is about."""
        ...

    def location(self, subject) -> tuple[str, int, int]:
        """Where to report a check that crashed on ``subject``."""
        ...


def apply_rules(rules: Iterable[Rule], subjects: Subjects, options: LintOptions | None) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for r in rules:
        if options is not None and not options.selects(r.code):
            continue
        for args, subject in subjects.calls(r):
            diags.extend(_run(r, args, subject, subjects))
    return diags


def _run(r: Rule, args: tuple, subject, subjects: Subjects) -> list[Diagnostic]:
    try:
        findings = list(r.check(*args))
    except Exception as exc:  # a rule bug must not hide the other findings
        if os.environ.get("QUOTACTL_RAISE_RULE_ERRORS"):
            raise
        return [Diagnostic(RULE_CRASH, Severity.ERROR, f"internal error in rule {r.code} ({type(exc).__name__}: {exc}); "
                           "please report it", *subjects.location(subject))]
    return [subjects.diagnostic(r, f, subject) for f in findings]
