"""Job objects -> the Workloads Kueue would create for them, and the objects it would ignore (with
Kueue's reason).  Entry point for every command: ``derive_workloads(objects, build_context(cluster, objects))``."""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.jobs.codes import ASSUMED_NAMESPACE, MALFORMED, UNKNOWN_VERSION
from quotactl.jobs.context import JobContext
from quotactl.jobs.fields import Malformed
from quotactl.jobs.generic import GenericJob
from quotactl.jobs.pods import PodGroup, group_name
from quotactl.jobs.priority import PriorityNotFound, resolve_priority
from quotactl.jobs.registry import INTEGRATIONS, integration_for
from quotactl.jobs.trainjob import RuntimeMissing
from quotactl.jobs.workload import workload_object
from quotactl.load.document import format_path
from quotactl.load.objects import Dialect, KubeObject

PREBUILT = "kueue.x-k8s.io/prebuilt-workload-name"
SUSPENDING_PARENT = "kueue.x-k8s.io/pod-suspending-parent"


@dataclass(frozen=True)
class SkippedObject:
    """A job object Kueue would create no Workload for, and why."""

    object: str  # kind/namespace/name, kind lower-case
    reason: str
    file: str
    line: int


@dataclass
class _Run:
    objects: list[KubeObject]
    ctx: JobContext
    jobs: list[GenericJob]
    workloads: list[KubeObject]
    skipped: list[SkippedObject]
    diagnostics: list[Diagnostic]
    assumed_namespaces: set[str] = field(default_factory=set)
    printed: set[int] = field(default_factory=set)  # ids of input Workloads already printed
    by_key: dict[tuple[str, str, str], GenericJob] = field(default_factory=dict)  # (Kind, namespace, name)


def derive_workloads(objects: list[KubeObject], ctx: JobContext
                     ) -> tuple[list[KubeObject], list[SkippedObject], list[Diagnostic]]:
    """The Workloads for the job objects among ``objects`` (new ones derived, existing ones as
    they are), the job objects skipped with the reason, and diagnostics for malformed ones.
    ``ctx``: ``context.build_context`` of ``objects`` and of their model, built by the caller."""
    run = _Run(objects, ctx, [], [], [], [])
    _collect_jobs(objects, run)
    owned = workloads_by_owner(objects)
    for job in run.jobs:
        _derive_one(job, owned, run)
    return run.workloads, run.skipped, run.diagnostics


def is_job_object(obj: KubeObject) -> bool:
    return (obj.group, obj.kind) in INTEGRATIONS


def _collect_jobs(objects: list[KubeObject], run: _Run) -> None:
    groups: dict[tuple[str, str], PodGroup] = {}
    for obj in objects:
        cls = integration_for(obj.group, obj.kind)
        if cls is None:
            if obj.dialect == Dialect.JOB and _has_queue_label(obj):
                _skip(run, obj, _ref(obj), f"{obj.api_version} {obj.kind} is not a kind Kueue integrates")
            continue
        if obj.version not in cls.versions:
            message = f"{obj.api_version} is not a {obj.kind} version quotactl knows ({', '.join(cls.versions)})"
            _skip(run, obj, _ref(obj), message)
            run.diagnostics.append(_diagnostic(obj, UNKNOWN_VERSION, Severity.WARNING, message, ("apiVersion",)))
            continue
        group = group_name(obj) if obj.kind == "Pod" else None
        if group:
            key = (obj.namespace or "default", group)
            if key in groups:
                groups[key].members.append(obj)
                job = groups[key]
            else:
                job = groups[key] = PodGroup([obj], run.ctx)  # the group stands where its first member is
                run.jobs.append(job)
        else:
            job = cls(obj, run.ctx)
            run.jobs.append(job)
        run.by_key.setdefault((obj.kind, obj.namespace or "default", obj.name or ""), job)


def _derive_one(job: GenericJob, owned: dict[tuple[str, str, str], list[KubeObject]], run: _Run) -> None:
    existing = [w for ref in _refs(job) for w in owned.get(_owner_key(ref), [])] or _prebuilt(job, run.objects)
    if existing:
        run.workloads.extend(w for w in existing if id(w) not in run.printed)
        run.printed.update(id(w) for w in existing)
        return
    try:
        reason = _skip_reason(job, run)
        if reason is None:
            queue = _queue_name(job, run.ctx) or ""
            priority = resolve_priority(job.labels, job.pod_class_name(), run.ctx)
            reason = job.skip_reason()
        if reason is not None:
            _skip_job(run, job, reason)
            return
        for plan in job.plans():
            data = workload_object(job, plan, queue, priority, run.ctx)
            run.workloads.append(KubeObject("kueue.x-k8s.io/v1beta2", "Workload", data, job.obj.ref, Dialect.KUEUE))
    except (PriorityNotFound, RuntimeMissing) as exc:
        _skip_job(run, job, str(exc))
    except Malformed as exc:
        _skip_job(run, job, f"invalid {format_path(exc.path)}: {exc.message}")
        run.diagnostics.append(_diagnostic(job.obj, MALFORMED, Severity.ERROR, exc.message, exc.path))


def _skip_reason(job: GenericJob, run: _Run) -> str | None:
    """Kueue's reasons to create no Workload, in the order ``ReconcileGenericJob`` meets them."""
    managed, assumed = run.ctx.namespace_managed(job.namespace)
    if assumed and job.namespace not in run.assumed_namespaces:
        run.assumed_namespaces.add(job.namespace)
        message = (f"no Namespace {job.namespace} in the input: assuming its labels match the "
                   "Configuration's managedJobsNamespaceSelector")
        run.diagnostics.append(_diagnostic(job.obj, ASSUMED_NAMESPACE, Severity.INFO, message, ("metadata", "namespace")))
    if not managed:
        return f"namespace {job.namespace} does not match the Configuration's managedJobsNamespaceSelector"
    if _queue_name(job, run.ctx) is None:
        return (f"no kueue.x-k8s.io/queue-name label (and no LocalQueue named 'default' in namespace "
                f"{job.namespace})")
    owner = _managed_owner(job, run)
    if owner:
        return f"owned by {owner}: Kueue admits its top-level owner instead"
    if job.finished():
        return "finished: Kueue creates no Workload for a finished job"
    prebuilt = _prebuilt_name(job)
    if prebuilt:
        return f"uses the prebuilt Workload {job.namespace}/{prebuilt}, which is not in the input"
    return None


def _prebuilt(job: GenericJob, objects: list[KubeObject]) -> list[KubeObject]:
    """The Workload a job names as prebuilt (Kueue uses it and creates none), when in the input."""
    name = _prebuilt_name(job)
    return [o for o in objects if name and o.kind == "Workload" and o.dialect == Dialect.KUEUE
            and o.name == name and (o.namespace or "default") == job.namespace][:1]


def _prebuilt_name(job: GenericJob) -> str | None:
    return job.labels.get(PREBUILT) or job.annotations.get(PREBUILT)


def _queue_name(job: GenericJob, ctx: JobContext) -> str | None:
    """The queue-name label, else ``default`` when that LocalQueue exists, else '' when the
    Configuration manages jobs without a queue name; None: not managed."""
    name = job.queue_name()
    if name:
        return name
    if ctx.has_local_queue(job.namespace, "default"):
        return "default"
    return "" if ctx.manage_without_queue_name else None


def _managed_owner(job: GenericJob, run: _Run) -> str | None:
    """The controller owner that Kueue manages (``FindAncestorJobManagedByKueue``), when it is a job
    kind; pods of a Deployment / StatefulSet / LWS (pod-suspending-parent) are managed themselves."""
    if SUSPENDING_PARENT in job.annotations:
        return None
    for ref in job.obj.metadata.get("ownerReferences") or []:
        if not isinstance(ref, dict) or ref.get("controller") is not True:
            continue
        group = str(ref.get("apiVersion", "")).rpartition("/")[0]
        if integration_for(group, str(ref.get("kind"))) is None:
            continue
        owner = run.by_key.get((str(ref.get("kind")), job.namespace, str(ref.get("name"))))
        if owner is None or _queue_name(owner, run.ctx) is not None:
            return f"{str(ref.get('kind')).lower()}/{job.namespace}/{ref.get('name')}"
    return None


def workloads_by_owner(objects: list[KubeObject]) -> dict[tuple[str, str, str], list[KubeObject]]:
    """Workloads in the input indexed by each owner they name: (kind lower, namespace, name)."""
    out: dict[tuple[str, str, str], list[KubeObject]] = {}
    for obj in objects:
        if obj.kind != "Workload" or obj.dialect != Dialect.KUEUE:
            continue
        for ref in obj.metadata.get("ownerReferences") or []:
            if isinstance(ref, dict) and ref.get("kind") and ref.get("name"):
                key = (str(ref["kind"]).lower(), obj.namespace or "default", str(ref["name"]))
                out.setdefault(key, []).append(obj)
    return out


def _refs(job: GenericJob) -> list[str]:
    return job.refs if isinstance(job, PodGroup) else [job.ref]


def _owner_key(ref: str) -> tuple[str, str, str]:
    kind, ns, name = ref.split("/", 2)
    return kind, ns, name


def _ref(obj: KubeObject) -> str:
    return f"{obj.kind.lower()}/{obj.namespace or 'default'}/{obj.name or ''}"


def _has_queue_label(obj: KubeObject) -> bool:
    labels = obj.metadata.get("labels")
    return isinstance(labels, dict) and "kueue.x-k8s.io/queue-name" in labels


def _skip_job(run: _Run, job: GenericJob, reason: str) -> None:
    members = job.members if isinstance(job, PodGroup) else [job.obj]
    for obj, ref in zip(members, _refs(job), strict=True):
        _skip(run, obj, ref, reason)


def _skip(run: _Run, obj: KubeObject, ref: str, reason: str) -> None:
    run.skipped.append(SkippedObject(ref, reason, obj.ref.file, obj.ref.pos().line))


def _diagnostic(obj: KubeObject, code: str, severity: Severity, message: str, path: tuple) -> Diagnostic:
    pos = obj.ref.pos(path)
    return Diagnostic(code, severity, message, obj.ref.file, pos.line, pos.column,
                      object=f"{obj.kind}/{obj.namespace or 'default'}/{obj.name}", field=format_path(path) or None)
