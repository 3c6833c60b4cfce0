"""What the job rules (KQ6xx) share: the job objects of the input as ``quotactl.jobs`` reads them,
and the Workloads Kueue would create for them, built once per lint run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from quotactl.jobs.fields import Malformed
from quotactl.jobs.workload import OWNER_ANNOTATION
from quotactl.load.objects import KubeObject
from quotactl.model.kueue import Workload, build_workload

if TYPE_CHECKING:
    from quotactl.jobs.generic import GenericJob


@dataclass(frozen=True)
class DerivedWorkload:
    job: KubeObject
    workload: Workload


def generic_jobs(ctx) -> list[GenericJob]:
    """One ``GenericJob`` per job object of a kind and version quotactl knows, in input order."""
    cached = ctx.__dict__.get("_generic_jobs")
    if cached is None and ctx.job_context is None:
        cached = ctx.__dict__["_generic_jobs"] = []  # no job
    if cached is None:
        # Imported when the input holds a job: a lint without one needs no integration.
        from quotactl.jobs.registry import integration_for

        cached = ctx.__dict__["_generic_jobs"] = [
            cls(obj, ctx.job_context) for obj in ctx.jobs
            if (cls := integration_for(obj.group, obj.kind)) is not None and obj.version in cls.versions
        ]
    return cached


def pod_set_count(job: GenericJob) -> int | None:
    """How many pod sets the job asks for; None when it is malformed (JB001 says why) or its pod sets
    come from an object not in the input (a TrainJob's training runtime)."""
    from quotactl.jobs.trainjob import RuntimeMissing

    try:
        return len(job.pod_sets())
    except (Malformed, RuntimeMissing):
        return None


def derived_workloads(ctx) -> list[DerivedWorkload]:
    """The Workloads Kueue would create for the job objects that have none in the input."""
    cached = ctx.__dict__.get("_derived_workloads")
    if cached is None and ctx.derivation is None:
        cached = ctx.__dict__["_derived_workloads"] = []
    if cached is None:
        inputs = {id(m.source) for m in ctx.cluster.all_objects}  # every Workload of the input is modelled
        jobs = {f"{o.kind.lower()}/{o.namespace or 'default'}/{o.name or ''}": o for o in ctx.jobs}
        workloads, _skipped, _diagnostics = ctx.derivation
        cached = ctx.__dict__["_derived_workloads"] = [
            DerivedWorkload(jobs[w.metadata["annotations"][OWNER_ANNOTATION]], build_workload(w))
            for w in workloads
            if id(w) not in inputs and w.metadata["annotations"][OWNER_ANNOTATION] in jobs
        ]
    return cached

