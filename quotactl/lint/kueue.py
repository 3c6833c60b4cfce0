"""``quotactl lint`` for Kueue: schema validation, then every Kueue rule on the input's model,
with findings positioned at the source of the object they are about."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from quotactl.diagnostics import Diagnostic
from quotactl.jobs.derive import derive_workloads
from quotactl.lint.apply import apply_rules
from quotactl.lint.context import LintContext, LintOptions
from quotactl.lint.rule import Finding, Rule, checks_of
from quotactl.lint.schema import validate_object
from quotactl.lint.versions import version_notes
from quotactl.load.document import format_path
from quotactl.load.objects import KubeObject
from quotactl.model.features import FeatureGates
from quotactl.model.kueue import KueueCluster, KueueObject, build_cluster


@dataclass
class KueueSubjects:
    """Object rules run on each model object of their kinds, cluster rules once on the context."""

    cluster: KueueCluster
    ctx: LintContext

    def calls(self, r: Rule) -> Iterator[tuple[tuple, KueueObject | None]]:
        if r.scope == "cluster":
            yield (self.ctx,), None
            return
        by_kind = self._by_kind()
        for _index, model in sorted(pair for kind in r.kinds for pair in by_kind.get(kind, ())):
            yield (model, self.ctx), model

    def _by_kind(self) -> dict[str, list[tuple[int, KueueObject]]]:
        """(input order, model) per kind, so each rule visits only its kinds' objects."""
        cached = self.__dict__.get("_kinds")
        if cached is None:
            cached = self.__dict__["_kinds"] = {}
            for index, model in enumerate(self.cluster.all_objects):
                cached.setdefault(model.source.kind, []).append((index, model))
        return cached

    def diagnostic(self, r: Rule, f: Finding, model: KueueObject | None) -> Diagnostic:
        subject = f.subject if f.subject is not None else model
        src: KubeObject = subject.source if hasattr(subject, "source") else subject
        pos = src.ref.pos(f.path, value=f.value)
        return Diagnostic(
            code=r.code,
            severity=f.severity or r.severity,
            message=f.message,
            file=src.ref.file,
            line=pos.line,
            column=pos.column,
            object=src.display,
            field=format_path(f.path) or None,
            type=f.type,
            hint=f.hint,
            fix=f.fix,
            related=f.related,
        )

    def location(self, model: KueueObject | None) -> tuple[str, int, int]:
        if model is None:
            return "<input>", 1, 1
        pos = model.source.ref.pos()
        return model.source.ref.file, pos.line, pos.column


def lint_kueue(objects: list[KubeObject], options: LintOptions, jobs: list[KubeObject] = ()) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for obj in objects:
        diags.extend(validate_object(obj))
    diags.extend(version_notes(objects, options.kueue_version))
    cluster = build_cluster(objects)
    explicit = dict(cluster.configuration.feature_gates) if cluster.configuration else {}
    explicit.update(options.feature_gates)
    ctx = LintContext(cluster, options, FeatureGates(explicit, options.kueue_version), tuple(jobs))
    diags.extend(apply_rules(checks_of("kueue"), KueueSubjects(cluster, ctx), options))
    if jobs:
        # A job Kueue could not turn into a Workload (JB001-JB003), as every engine command reports it.
        diags.extend(derive_workloads([*objects, *jobs])[2])
    return diags
