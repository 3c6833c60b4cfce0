"""Run the linter: the loader's diagnostics, then the rules of each object's dialect, into sorted
Diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial

from quotactl.diagnostics import Diagnostic, Severity, sort_diagnostics
from quotactl.lint.apply import RULE_CRASH
from quotactl.lint.context import LintOptions
from quotactl.lint.placeholders import Placeholders
from quotactl.lint.suppress import Suppressed, suppress
from quotactl.load.objects import CHECKED_ALPHA_KINDS, Dialect, LoadResult


def lint_kueue(objects, options, jobs=()) -> list[Diagnostic]:
    """Kueue's lint, imported when the input is Kueue (its rules import the Kueue engine)."""
    from quotactl.lint.kueue import lint_kueue as run

    return run(objects, options, jobs)


def lint_yunikorn(objects, options) -> list[Diagnostic]:
    """YuniKorn's lint, imported when the input is YuniKorn."""
    from quotactl.lint.yunikorn import lint_yunikorn as run

    return run(objects, options)


@dataclass
class LintReport:
    diagnostics: list[Diagnostic]  # reported: these decide the exit status
    files: int
    objects: int
    dialect: str | None
    notes: list[str] = field(default_factory=list)
    suppressed: list[Suppressed] = field(default_factory=list)  # silenced by a comment, annotation, per-file-ignores
    show_suppressed: bool = False  # --show-suppressed: the human and JSON reports list them too
    # Rules that crashed (QL999): a bug in quotactl, not a finding in the user's files; the
    # command reports them apart (stderr, the internal-error exit status).
    rule_crashes: list[Diagnostic] = field(default_factory=list)

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity == severity)

    @property
    def has_input_errors(self) -> bool:
        return any(d.input_error and d.severity == Severity.ERROR for d in self.diagnostics)


def lint(loaded: LoadResult, options: LintOptions) -> LintReport:
    diags: list[Diagnostic] = list(loaded.diagnostics)
    dialects = loaded.dialects
    diags.extend(dialect_findings(loaded, options))
    crashes = [d for d in diags if d.code == RULE_CRASH]
    diags = [d for d in diags if d.code != RULE_CRASH and (d.input_error or options.selects(d.code))]
    kept, silenced = suppress(diags, loaded, options, Placeholders(loaded, diags))
    kept = [d for d in map(partial(configured_severity, options=options), kept) if options.shows(d.severity)]
    silenced = [s for s in (replace(s, diagnostic=configured_severity(s.diagnostic, options)) for s in silenced)
                if options.shows(s.diagnostic.severity)]
    dialect = next(iter(dialects)) if len(dialects) == 1 else None
    return LintReport(sort_diagnostics(kept), len(loaded.sources), len(loaded.objects), dialect,
                      suppressed=sorted(silenced, key=lambda s: s.diagnostic.sort_key()),
                      show_suppressed=options.show_suppressed, rule_crashes=sort_diagnostics(crashes))


def dialect_findings(loaded: LoadResult, options: LintOptions) -> list[Diagnostic]:
    """Each object linted in its own dialect, as ruff or kube-linter lint a mixed tree: the YuniKorn
    configs by YuniKorn's rules, everything else (Kueue objects, jobs, Kubernetes objects) by
    Kueue's unless the input is YuniKorn alone (its Pods and Nodes are not Kueue's business)."""
    dialects = loaded.dialects
    diags: list[Diagnostic] = []
    if Dialect.YUNIKORN in dialects:
        diags.extend(lint_yunikorn([o for o in loaded.objects if o.dialect == Dialect.YUNIKORN], options))
    if dialects != {Dialect.YUNIKORN}:
        kueue_objects = [o for o in loaded.objects if o.dialect in (Dialect.KUEUE, Dialect.NEUTRAL)]
        jobs = [o for o in loaded.objects if o.dialect == Dialect.JOB]
        diags.extend(lint_kueue(kueue_objects, options, jobs))
        diags.extend(_checked_alpha(loaded))
    return diags


def _checked_alpha(loaded: LoadResult) -> list[Diagnostic]:
    """Schema findings of the Kueue alpha objects lint checks against their CRD (kept out of the model)."""
    alpha = [o for o in loaded.alpha_objects if o.kind in CHECKED_ALPHA_KINDS]
    if not alpha:
        return []
    from quotactl.lint.rules.kueue.preemption_config import preemption_config_findings
    from quotactl.lint.schema import validate_object

    return [d for o in alpha for d in (*validate_object(o), *preemption_config_findings(o))]


def configured_severity(d: Diagnostic, options: LintOptions) -> Diagnostic:
    """``d`` at the severity the config file's ``severity`` table gives its code; an input error
    keeps its own (it decides exit status 2)."""
    level = None if d.input_error else options.severity_of(d.code)
    return d.with_severity(Severity(level)) if level and level != d.severity.value else d


def lint_paths(paths: list[str], options: LintOptions | None = None, *, stdin=None) -> LintReport:
    """Load and lint files or directories (library entry point used by tests and the CLI)."""
    from quotactl.load.objects import load

    return lint(load(paths, stdin=stdin), options or LintOptions())
