"""The v1beta2 Workload object for one plan of a job (``jobframework.ConstructWorkload``)."""

from __future__ import annotations

from quotactl.jobs.context import JobContext
from quotactl.jobs.fields import int_text
from quotactl.jobs.generic import GenericJob, WorkloadPlan
from quotactl.jobs.priority import Priority
from quotactl.jobs.resources import adjust_resources

OWNER_ANNOTATION = "quotactl.io/owner"
JOB_UID_LABEL = "kueue.x-k8s.io/job-uid"
MAX_EXEC_LABEL = "kueue.x-k8s.io/max-exec-time-seconds"
COPIED_ANNOTATION_PREFIX = "provreq.kueue.x-k8s.io/"


def workload_object(job: GenericJob, plan: WorkloadPlan, queue: str, priority: Priority, ctx: JobContext) -> dict:
    """The pod templates carry Kueue's AdjustResources (overhead, LimitRange defaults, limits as
    requests), so every command charges them as Kueue's scheduler does without the context objects."""
    metadata: dict = {"name": plan.name, "namespace": job.namespace}
    uid = job.obj.metadata.get("uid")
    if isinstance(uid, str):
        metadata["labels"] = {JOB_UID_LABEL: uid}
    annotations = {k: v for k, v in job.annotations.items() if k.startswith(COPIED_ANNOTATION_PREFIX)}
    annotations[OWNER_ANNOTATION] = job.ref
    metadata["annotations"] = annotations
    if plan.owner_refs:
        metadata["ownerReferences"] = plan.owner_refs
    spec: dict = {"podSets": [_pod_set(ps, job.namespace, ctx) for ps in plan.pod_sets]}
    if queue:
        spec["queueName"] = queue
    if priority.ref is not None:
        spec["priorityClassRef"] = priority.ref
    spec["priority"] = priority.value
    max_exec = _max_exec_seconds(job)
    if max_exec is not None:
        spec["maximumExecutionTimeSeconds"] = max_exec
    return {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload", "metadata": metadata, "spec": spec}


def _pod_set(ps, namespace: str, ctx: JobContext) -> dict:
    out = {"name": ps.name.lower(), "count": ps.count}
    if ps.min_count is not None:
        out["minCount"] = ps.min_count
    out["template"] = adjust_resources(ps.template, namespace, ctx)
    return out


def _max_exec_seconds(job: GenericJob) -> int | None:
    """Label ``max-exec-time-seconds``: a positive integer (Kueue's webhook rejects anything else)."""
    raw = job.labels.get(MAX_EXEC_LABEL)
    if raw is None:
        return None
    return int_text(raw, ("metadata", "labels", MAX_EXEC_LABEL), 1)
