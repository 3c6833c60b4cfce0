"""Job objects in an engine command's input -> the Workloads the engines read.

A job whose Workload is in the input (its ownerReferences name the job) is that Workload, status
and all; a job without one is derived and joins the input as a newly submitted, pending Workload.
Every command shares this step, so ``explain``, ``preempt``, ``schedule``, ``diff`` and ``shares``
answer the same for a job as for its Workload.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from quotactl.diagnostics import Diagnostic
from quotactl.jobs.derive import SkippedObject, derive_workloads, workloads_by_owner
from quotactl.jobs.workload import OWNER_ANNOTATION
from quotactl.load.objects import Dialect, KubeObject


@dataclass(frozen=True)
class ResolvedJobs:
    """The input with the derived Workloads added, and which Workload stands for which job."""

    objects: list[KubeObject]
    workload_of: dict[str, str] = field(default_factory=dict)  # kind/namespace/name -> namespace/name
    submitted: tuple[str, ...] = ()  # jobs with no Workload in the input (kind/namespace/name), input order
    skipped: tuple[SkippedObject, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True)
class JobLookup:
    workload: str | None  # namespace/name of the job's Workload
    is_job: bool  # the query names a job kind
    suggestions: tuple[str, ...] = ()
    ambiguous: tuple[str, ...] = ()


def resolve_jobs(objects: list[KubeObject]) -> ResolvedJobs:
    """``objects`` unchanged when they hold no job object; else with each unsubmitted job's Workload
    appended (created at the job's creationTimestamp, else at the snapshot's latest timestamp)."""
    workload_of = _owned_workloads(objects)
    if not any(o.dialect == Dialect.JOB for o in objects):
        return ResolvedJobs(objects, workload_of)
    workloads, skipped, diagnostics = derive_workloads(objects)
    inputs = {id(o) for o in objects}
    now = latest_timestamp(objects)
    jobs = _jobs_by_ref(objects)
    submitted: list[str] = []
    added: list[KubeObject] = []
    for wl in workloads:
        if id(wl) in inputs:
            continue
        key = f"{wl.namespace or 'default'}/{wl.name}"
        ref = wl.metadata["annotations"][OWNER_ANNOTATION]
        job = jobs.get(ref)
        created = job.metadata.get("creationTimestamp") if job is not None else None
        if created or now:
            wl.metadata["creationTimestamp"] = str(created or now)
        workload_of.setdefault(ref, key)
        if ref not in submitted:
            submitted.append(ref)
        added.append(wl)
    return ResolvedJobs(objects + added, workload_of, tuple(submitted), tuple(skipped), tuple(diagnostics))


def find_job(resolved: ResolvedJobs, query: str) -> JobLookup:
    """``kind/namespace/name`` or ``kind/name`` (kind case-insensitive) -> the job's Workload."""
    kind, _, rest = query.partition("/")
    kind = kind.lower()
    if not rest or kind not in _job_kinds():
        return JobLookup(None, False)
    refs = sorted(resolved.workload_of)
    if rest.count("/") == 1:
        ref = f"{kind}/{rest}"
        if ref in resolved.workload_of:
            return JobLookup(resolved.workload_of[ref], True)
    else:
        hits = [r for r in refs if r.startswith(f"{kind}/") and r.rsplit("/", 1)[1] == rest]
        if len(hits) == 1:
            return JobLookup(resolved.workload_of[hits[0]], True)
        if len(hits) > 1:
            return JobLookup(None, True, ambiguous=tuple(hits))
    close = difflib.get_close_matches(f"{kind}/{rest}", refs, n=5, cutoff=0.6)
    return JobLookup(None, True, suggestions=tuple(close))


def latest_timestamp(objects: list[KubeObject]) -> str | None:
    """The snapshot's "now": its latest creationTimestamp or condition transition (RFC 3339 UTC
    strings order as text), None when it holds none."""
    stamps: list[str] = []
    for obj in objects:
        created = obj.metadata.get("creationTimestamp")
        if isinstance(created, str):
            stamps.append(created)
        status = obj.data.get("status")
        conditions = status.get("conditions") if isinstance(status, dict) else None
        for cond in conditions if isinstance(conditions, list) else []:
            if isinstance(cond, dict) and isinstance(cond.get("lastTransitionTime"), str):
                stamps.append(cond["lastTransitionTime"])
    return max(stamps, default=None)


def _jobs_by_ref(objects: list[KubeObject]) -> dict[str, KubeObject]:
    return {f"{o.kind.lower()}/{o.namespace or 'default'}/{o.name or ''}": o
            for o in objects if o.dialect == Dialect.JOB}


def _owned_workloads(objects: list[KubeObject]) -> dict[str, str]:
    """kind/namespace/name of each owner an input Workload names -> that Workload (first wins)."""
    return {f"{kind}/{ns}/{name}": f"{ns}/{wls[0].name}"
            for (kind, ns, name), wls in workloads_by_owner(objects).items()}


def _job_kinds() -> set[str]:
    from quotactl.jobs.registry import INTEGRATIONS

    return {kind.lower() for _group, kind in INTEGRATIONS}
