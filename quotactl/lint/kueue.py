"""``quotactl lint`` for Kueue: schema validation, then every Kueue rule on the input's model,
with findings positioned at the source of the object they are about."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from quotactl.diagnostics import Diagnostic
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
        for model in self._of_kinds(r.kinds):
            yield (model, self.ctx), model

    def _of_kinds(self, kinds) -> list[KueueObject]:
        """The models of ``kinds`` in input order, so each rule visits only its kinds' objects."""
        if len(kinds) != 1:
            wanted = frozenset(kinds)
            return [m for m in self.cluster.all_objects if m.source.kind in wanted]
        by_kind = self.__dict__.get("_kinds")
        if by_kind is None:
            by_kind = self.__dict__["_kinds"] = {}
            for model in self.cluster.all_objects:
                by_kind.setdefault(model.source.kind, []).append(model)
        return by_kind.get(next(iter(kinds)), [])

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
    job_context, derivation = _derived(cluster, [*objects, *jobs]) if jobs else (None, None)
    nodes = tuple(o for o in objects if o.kind == "Node" and o.api_version == "v1")
    ctx = LintContext(cluster, options, FeatureGates(explicit, options.kueue_version), tuple(jobs),
                      job_context, derivation, nodes)
    diags.extend(apply_rules(checks_of("kueue"), KueueSubjects(cluster, ctx), options))
    if derivation is not None:
        # A job Kueue could not turn into a Workload (JB001-JB003), as every engine command reports it.
        diags.extend(derivation[2])
    return diags


def _derived(cluster: KueueCluster, objects: list[KubeObject]) -> tuple:
    """The job context over the lint's model, and the Workloads derived with it (imported only for
    an input with jobs: a lint without one needs no integration)."""
    from quotactl.jobs.context import build_context
    from quotactl.jobs.derive import derive_workloads

    job_context = build_context(cluster, objects)
    return job_context, derive_workloads(objects, job_context)
