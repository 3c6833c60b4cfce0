"""What a rule can see: the whole input as a model, and the lint options."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from quotactl.diagnostics import Severity
from quotactl.lint.globs import Glob
from quotactl.model.features import FeatureGates
from quotactl.model.kueue import KueueCluster
from quotactl.model.kueue_versions import DEFAULT_RELEASE

if TYPE_CHECKING:
    from quotactl.jobs.context import JobContext


@dataclass(frozen=True)
class LintOptions:
    select: tuple[str, ...] = ()  # code prefixes to keep ("KQ1", "KQ104"); empty = all
    ignore: tuple[str, ...] = ()  # code prefixes to drop
    strict: bool = False  # warnings fail the run too
    cross_refs: bool | None = None  # None = auto (check a reference kind only if the input has that kind)
    feature_gates: dict[str, bool] = field(default_factory=dict)  # from --feature-gates
    fair_sharing: bool | None = None  # --fair-sharing / --no-fair-sharing
    kueue_version: str = DEFAULT_RELEASE  # --kueue-version: served API versions, feature gates
    # From the config file (lint/config.py) and the suppression options (lint/suppress.py):
    severity: tuple[tuple[str, str], ...] = ()  # code or prefix -> error | warning | info | off
    per_file_ignores: tuple[tuple[Glob, tuple[str, ...]], ...] = ()  # path glob -> code prefixes
    min_severity: Severity = Severity.INFO  # findings below it are left out
    show_suppressed: bool = False  # suppressed findings are listed too (marked), not only counted
    config_file: str | None = None  # where select/ignore/per-file-ignores came from, for justifications

    def selects(self, code: str) -> bool:
        """Whether diagnostics with ``code`` are reported (--select / --ignore, severity "off")."""
        if self.select and not any(code.startswith(p) for p in self.select):
            return False
        return not any(code.startswith(p) for p in self.ignore) and self.severity_of(code) != "off"

    def severity_of(self, code: str) -> str | None:
        """The configured severity of ``code``: the override of its longest matching prefix."""
        best = max((p for p, _ in self.severity if code.startswith(p)), key=len, default=None)
        return dict(self.severity)[best] if best is not None else None

    def shows(self, severity: Severity) -> bool:
        """Whether a finding of ``severity`` is at or above --min-severity."""
        return severity.rank <= self.min_severity.rank


@dataclass
class LintContext:
    cluster: KueueCluster
    options: LintOptions
    gates: FeatureGates
    jobs: tuple = ()  # the job objects (Job, JobSet, ...) and what they need (LimitRange, ...): KubeObjects
    # With jobs: what Kueue's job integrations read of the input (over ``cluster``), and what they
    # make of it (``jobs.derive.derive_workloads``: Workloads, skipped jobs, diagnostics); once per run.
    job_context: JobContext | None = None
    derivation: tuple | None = None
    nodes: tuple = ()  # the v1 Nodes of the input (KubeObjects): topology-aware scheduling's level labels

    @property
    def fair_sharing(self) -> bool:
        if self.options.fair_sharing is not None:
            return self.options.fair_sharing
        cfg = self.cluster.configuration
        return bool(cfg and cfg.fair_sharing_enabled)

    @property
    def partial_input(self) -> bool:
        """--no-cross-refs: the input is one part of a configuration whose other objects (the rest of a
        cohort, a training runtime) live elsewhere, so rules about what is *not* in the input stay quiet."""
        return self.options.cross_refs is False

    def check_refs_to(self, kind: str, present: bool) -> bool:
        """Whether to report dangling references to objects of ``kind``.

        ``present`` says whether the input holds any object of that kind.  In auto mode a
        reference is only checked when it is: a file with ClusterQueues alone is a partial
        view, not a config full of missing flavors.
        """
        if self.options.cross_refs is not None:
            return self.options.cross_refs
        return present
