"""Silencing findings: suppression comments and annotations (in the source, lint/directives.py)
and the config file's per-file-ignores (external). A silenced finding is kept aside, counted and
written to SARIF as suppressed; it never fails the run.

Input errors (the IN codes that make the exit status 2: a file that cannot be read or parsed)
cannot be silenced by code: a file that does not parse has no trustworthy comments, and a run
that read nothing must not pass. Leave such files out with ``exclude`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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


def suppress(diags: list[Diagnostic], loaded: LoadResult, options: LintOptions, unknown
             ) -> tuple[list[Diagnostic], list[Suppressed]]:
    """(findings still reported, findings silenced); the reported ones include QL100 (a malformed
    suppression) and QL101 (an unused one) when --select / --ignore keep them. ``unknown``: the
    findings set aside as about a documentation snippet's <placeholder> values
    (``placeholders.Placeholders``, which builds on this module's ``Suppression``)."""
    found, problems = directives(loaded)
    per_file = _PerFileIgnores(options)
    in_source = _InSource(found).assign(diags) if found else {}
    kept: list[Diagnostic] = []
    silenced: list[Suppressed] = []
    for i, d in enumerate(diags):
        why = None if d.input_error else in_source.get(i) or per_file.suppression(d) or unknown.suppression(d)
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


@dataclass
class _Bucket:
    """The directives that cover the same lines, by code: one lookup whatever their number."""

    first: int | None
    last: int | None
    by_code: dict[str, Directive] = field(default_factory=dict)
    every: Directive | None = None  # the first directive of all codes

    def add(self, directive: Directive) -> None:
        if directive.codes is None:
            self.every = self.every or directive
        for code in directive.codes or ():
            self.by_code.setdefault(code, directive)

    def match(self, d: Diagnostic) -> Directive | None:
        if self.first is not None and not self.first <= d.line <= self.last:
            return None
        return self.by_code.get(d.code) or self.every


class _InSource:
    """Comments and annotations, by file and by the lines they cover. The spans of one file are
    nested or apart (YAML nodes), so a sweep over the findings in line order keeps the spans open
    at a line on a stack, innermost on top: each finding costs the nesting depth at its line."""

    def __init__(self, found: list[Directive]):
        buckets: dict[tuple, _Bucket] = {}
        for directive in found:
            key = (directive.file, directive.first, directive.last)
            buckets.setdefault(key, _Bucket(directive.first, directive.last)).add(directive)
        self.whole = {f: b for (f, first, _), b in buckets.items() if first is None}
        self.spans: dict[str, list[_Bucket]] = {}
        for key in sorted((k for k in buckets if k[1] is not None), key=lambda k: (k[0], k[1], -k[2])):
            self.spans.setdefault(key[0], []).append(buckets[key])

    def assign(self, diags: list[Diagnostic]) -> dict[int, Suppression]:
        """Index of each silenced finding in ``diags`` -> why."""
        out: dict[int, Suppression] = {}
        order = sorted((i for i, d in enumerate(diags) if not d.input_error),
                       key=lambda i: (diags[i].file, diags[i].line))
        file, stack, pending = None, [], []
        for i in order:
            d = diags[i]
            if d.file != file:
                file, stack, pending = d.file, [], list(reversed(self.spans.get(d.file, [])))
            while pending and pending[-1].first <= d.line:
                stack.append(pending.pop())
            while stack and stack[-1].last < d.line:
                stack.pop()
            whole = self.whole.get(d.file)
            hit = next((x for b in reversed(stack) if (x := b.match(d))), None) or (whole and whole.match(d))
            if hit:
                hit.used.add(d.code)
                out[i] = Suppression(IN_SOURCE, hit.justification or hit.written, hit.file, hit.line, hit.column)
        return out


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
