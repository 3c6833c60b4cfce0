"""Silencing findings: suppression comments and annotations (in the source, lint/directives.py)
and the config file's per-file-ignores (external). A silenced finding is kept aside, counted and
written to SARIF as suppressed; it never fails the run.

Input errors (the IN codes that make the exit status 2: a file that cannot be read or parsed)
cannot be silenced by code: a file that does not parse has no trustworthy comments, and a run
that read nothing must not pass. Leave such files out with ``exclude`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.context import LintOptions
from quotactl.lint.directives import Directive, directives
from quotactl.load.objects import LoadResult

IN_SOURCE = "inSource"
EXTERNAL = "external"


@dataclass(frozen=True)
class Suppression:
    """Why a finding is not reported: SARIF's ``suppression`` (kind, justification, location)."""

    kind: str  # inSource | external
    justification: str
    file: str | None = None  # where the suppression is written
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True)
class Suppressed:
    diagnostic: Diagnostic
    suppression: Suppression


def suppress(diags: list[Diagnostic], loaded: LoadResult, options: LintOptions
             ) -> tuple[list[Diagnostic], list[Suppressed]]:
    """(findings still reported, findings silenced); the reported ones include QL100 (a malformed
    suppression) and QL101 (an unused one) when --select / --ignore keep them."""
    found, problems = directives(loaded)
    per_file = _PerFileIgnores(options)
    kept: list[Diagnostic] = []
    silenced: list[Suppressed] = []
    for d in diags:
        why = None if d.input_error else _directive_suppression(d, found) or per_file.suppression(d)
        _sort(d, why, kept, silenced)
    for d in [*problems, *unused_directives(found, options)]:
        if options.selects(d.code):
            _sort(d, per_file.suppression(d), kept, silenced)
    return kept, silenced


def _sort(d: Diagnostic, why: Suppression | None, kept: list, silenced: list) -> None:
    if why is None:
        kept.append(d)
    else:
        silenced.append(Suppressed(d, why))


def _directive_suppression(d: Diagnostic, found: list[Directive]) -> Suppression | None:
    for directive in found:
        if directive.covers(d):
            directive.used.add(d.code)
            reason = directive.justification or directive.written
            return Suppression(IN_SOURCE, reason, directive.file, directive.line, directive.column)
    return None


class _PerFileIgnores:
    """per-file-ignores, with each file's glob matches worked out once."""

    def __init__(self, options: LintOptions):
        self.rules = options.per_file_ignores
        self.config = options.config_file or "the config file"
        self._codes: dict[str, list[tuple[str, tuple[str, ...]]]] = {}

    def suppression(self, d: Diagnostic) -> Suppression | None:
        if not self.rules or d.input_error:
            return None
        if d.file not in self._codes:
            self._codes[d.file] = [(g.pattern, codes) for g, codes in self.rules if g.matches(d.file)]
        for pattern, codes in self._codes[d.file]:
            if any(d.code.startswith(c) for c in codes):
                return Suppression(EXTERNAL, f"per-file-ignores {pattern!r} in {self.config}")
        return None


def unused_directives(found: list[Directive], options: LintOptions) -> list[Diagnostic]:
    """QL101 for a suppression that silenced nothing; codes the run does not check (--select,
    --ignore, severity "off") are never called unused."""
    out = []
    for directive in found:
        if directive.codes is None:
            idle = [] if directive.used or options.select else ["all codes"]
        else:
            idle = sorted(c for c in directive.codes - directive.used if options.selects(c))
        if idle:
            where = "in this file" if directive.first is None else "where it applies"
            out.append(Diagnostic(
                "QL101", Severity.INFO, f"unused suppression: no {', '.join(idle)} finding {where}",
                directive.file, directive.line, directive.column,
                hint="remove the code from the suppression (or the whole comment / annotation)"))
    return out
