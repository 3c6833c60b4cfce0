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
from quotactl.jobs.context import build_context
from quotactl.jobs.derive import SkippedObject, derive_workloads, workloads_by_owner
from quotactl.jobs.workload import OWNER_ANNOTATION
from quotactl.load.objects import Dialect, KubeObject
from quotactl.model.kueue_input import KueueInput


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
    ref: str | None = None  # the job found (kind/namespace/name)


def resolve_jobs(model: KueueInput) -> ResolvedJobs:
    """The input's objects unchanged when they hold no job object; else with each unsubmitted job's
    Workload appended (created at the job's creationTimestamp, else at the snapshot's latest
    timestamp), and added to ``model``."""
    objects = list(model.objects)
    workload_of = _owned_workloads(objects)
    if not any(o.dialect == Dialect.JOB for o in objects):
        return ResolvedJobs(objects, workload_of)
    workloads, skipped, diagnostics = derive_workloads(objects, build_context(model.configuration, objects))
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
    model.add_workloads(added)
    return ResolvedJobs(objects + added, workload_of, tuple(submitted), tuple(skipped), tuple(diagnostics))


def find_job(resolved: ResolvedJobs, query: str) -> JobLookup:
    """``kind/namespace/name`` or ``kind/name``, the kind spelt as kubectl takes it (``job``,
    ``jobs``, ``job.batch``, ``jobs.batch``, ...; case-insensitive) -> the job's Workload."""
    kind, rest = typed_name(query)
    if not rest or kind is None or kind == WORKLOAD:
        return JobLookup(None, False)
    refs = sorted(resolved.workload_of)
    if rest.count("/") == 1:
        ref = f"{kind}/{rest}"
        if ref in resolved.workload_of:
            return JobLookup(resolved.workload_of[ref], True, ref=ref)
    else:
        hits = [r for r in refs if r.startswith(f"{kind}/") and r.rsplit("/", 1)[1] == rest]
        if len(hits) == 1:
            return JobLookup(resolved.workload_of[hits[0]], True, ref=hits[0])
        if len(hits) > 1:
            return JobLookup(None, True, ambiguous=tuple(hits))
    close = difflib.get_close_matches(f"{kind}/{rest}", refs, n=5, cutoff=0.6)
    return JobLookup(None, True, suggestions=tuple(close))


WORKLOAD = "workload"
# kubectl's short names of the kinds a WORKLOAD argument may name (``kubectl api-resources``).
_SHORT_NAMES = {"wl": WORKLOAD, "po": "pod", "deploy": "deployment", "sts": "statefulset"}


def typed_name(query: str) -> tuple[str | None, str]:
    """kubectl's ``TYPE/NAME``: (the kind, lower case, or ``workload``; the rest) when the text
    before the first ``/`` spells a Workload or a job kind as kubectl takes it (kind, plural,
    short name, with ``.group`` or ``.version.group``); else (None, query)."""
    head, sep, rest = query.partition("/")
    if not sep:
        return None, query
    resource, _, group = head.lower().partition(".")
    for kind, kind_group in _typed_kinds():
        spelt = resource in (kind, kind + "s") or _SHORT_NAMES.get(resource) == kind
        if spelt and (not group or group == kind_group or group.endswith("." + kind_group) and kind_group):
            return kind, rest
    return None, query


def pod_name(query: str) -> str:
    """YuniKorn explains pods: ``pod/ns/name``, ``pods/ns/name`` and ``po/ns/name`` are ``ns/name``."""
    kind, rest = typed_name(query)
    return rest if kind == "pod" else query


@dataclass(frozen=True)
class NameLookup:
    """What a WORKLOAD argument names: a Workload's namespace/name, and the job it was found
    through (kind/namespace/name), or why none."""

    workload: str | None
    job: str | None = None
    note: str | None = None  # the name meant two things: which one was taken
    ambiguous: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    typed_job: bool = False  # the name was given as a job's (kind/...)


def find_named(resolved: ResolvedJobs, query: str) -> NameLookup:
    """The Workload a WORKLOAD argument names, as kubectl users type it: a Workload
    (``ns/name``, a unique ``name``, ``workload/...``), a job (``job/ns/name``, ``jobs.batch/name``,
    ...) or, when no Workload has the name, a job's ``ns/name``. A name that is both a Workload
    and another Workload's job is the Workload (kubectl's own resource for the name), with a note.
    Close names of both kinds when nothing matches."""
    kind, rest = typed_name(query)
    keys = _workload_keys(resolved.objects)
    if kind not in (None, WORKLOAD):
        found = find_job(resolved, query)
        return NameLookup(found.workload, found.ref, ambiguous=found.ambiguous, suggestions=found.suggestions,
                          typed_job=True)
    hits = _named(keys, rest)
    if kind == WORKLOAD or hits:
        lookup = NameLookup(hits[0]) if len(hits) == 1 else NameLookup(None, ambiguous=tuple(hits))
        if len(hits) != 1 or kind == WORKLOAD:
            return lookup if hits else NameLookup(None, suggestions=_close(keys, (), rest))
        jobs = [r for r in _named_jobs(resolved, rest) if resolved.workload_of[r] != hits[0]]
        if jobs:
            return NameLookup(hits[0], note=f"{query!r} is Workload {hits[0]} and also {', '.join(jobs)} "
                                            f"(Workload {resolved.workload_of[jobs[0]]}); using the Workload "
                                            f"(give {jobs[0]} for the job)")
        return lookup
    jobs = _named_jobs(resolved, rest)
    targets = sorted({resolved.workload_of[r] for r in jobs})
    if len(targets) == 1:
        return NameLookup(targets[0], jobs[0])
    if targets:
        return NameLookup(None, ambiguous=tuple(jobs))
    return NameLookup(None, suggestions=_close(keys, sorted(resolved.workload_of), rest))


def _workload_keys(objects: list[KubeObject]) -> list[str]:
    return sorted({f"{o.namespace or 'default'}/{o.name}" for o in objects
                   if o.kind == "Workload" and o.dialect == Dialect.KUEUE and o.name})


def _named(keys: list[str], query: str) -> list[str]:
    """``namespace/name`` itself, or every namespace's ``name``."""
    if "/" in query:
        return [query] if query in keys else []
    return [k for k in keys if k.split("/", 1)[1] == query]


def _named_jobs(resolved: ResolvedJobs, query: str) -> list[str]:
    """The jobs (kind/namespace/name, with a Workload) named ``namespace/name`` or ``name``."""
    return [r for r in sorted(resolved.workload_of)
            if (r.split("/", 1)[1] if "/" in query else r.rsplit("/", 1)[1]) == query]


def _close(keys: list[str], job_refs: list[str], query: str) -> tuple[str, ...]:
    """Up to five close names: Workloads (namespace/name) first, then jobs (kind/namespace/name)."""
    bare = "/" not in query
    out = difflib.get_close_matches(query, keys, n=5, cutoff=0.6)
    if bare:
        names = sorted({k.split("/", 1)[1] for k in keys})
        for n in difflib.get_close_matches(query, names, n=5, cutoff=0.6):
            out.extend(k for k in keys if k.split("/", 1)[1] == n)
    by_name: dict[str, list[str]] = {}
    for ref in job_refs:
        by_name.setdefault(ref.rsplit("/", 1)[1] if bare else ref.split("/", 1)[1], []).append(ref)
    for n in difflib.get_close_matches(query, sorted(by_name), n=5, cutoff=0.6):
        out.extend(by_name[n])
    return tuple(dict.fromkeys(out))[:5]


def owner_labels(resolved: ResolvedJobs) -> dict[str, dict[str, str]]:
    """Workload key -> the labels of the job in the input it stands for (``-l`` matches them)."""
    jobs = _jobs_by_ref(resolved.objects)
    out: dict[str, dict[str, str]] = {}
    for ref, key in resolved.workload_of.items():
        job = jobs.get(ref)
        labels = job.metadata.get("labels") if job is not None else None
        if isinstance(labels, dict):
            out.setdefault(key, {}).update({str(k): str(v) for k, v in labels.items()})
    return out


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


def _typed_kinds() -> list[tuple[str, str]]:
    """(kind lower, API group) of the Workload and of every job integration."""
    from quotactl.jobs.registry import INTEGRATIONS

    return [(WORKLOAD, "kueue.x-k8s.io")] + [(kind.lower(), group) for group, kind in INTEGRATIONS]
