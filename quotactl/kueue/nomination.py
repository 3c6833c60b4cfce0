"""What Kueue checks before and while nominating a pending workload: the workload controller's
queue checks (queue name, LocalQueue, ClusterQueue, inactive ClusterQueue, admission checks),
the scheduler's namespace selector check, and the preemptor and flavor assigner it nominates
the workload with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from quotactl.kueue import reasons
from quotactl.kueue.admissibility import resource_validation_error
from quotactl.kueue.assign import FlavorAssigner
from quotactl.kueue.preemption.common import Preemptor
from quotactl.kueue.priority import PriorityInfo, queue_order_timestamp, workload_priority
from quotactl.kueue.quota import ClusterQueueNode, InactiveReason, Snapshot
from quotactl.kueue.workload import admission_checks_failed, nomination_requests
from quotactl.model.kueue import KueueCluster, LocalQueue, Workload

# How to fix each reason a ClusterQueue is inactive for.
_INACTIVE_FIXES = {
    "Stopped": "set the ClusterQueue's stopPolicy to None",
    "FlavorNotFound": "create the missing ResourceFlavor(s) or remove them from the ClusterQueue",
    "AdmissionCheckNotFound": "create the missing AdmissionCheck(s) or remove them from the ClusterQueue",
    "AdmissionCheckInactive": "make the AdmissionCheck(s) active (their controller must be running)",
    "CohortCycleDetected": "break the cycle in the Cohorts' spec.parentName chain",
}


@dataclass(frozen=True)
class Blocker:
    """A reason Kueue never gets to the flavor assignment (queue checks, nomination)."""

    reason: str  # KEP-10852 reason
    message: str  # Kueue's message text
    detail: str  # our explanation
    fix: str | None = None


class QueueCheck(NamedTuple):
    """The outcome of the queue checks: the ClusterQueue the workload is queued in (when its
    LocalQueue names one), and what stops it there, if anything (checked at every arrival)."""

    blocker: Blocker | None
    cluster_queue: str | None
    inactive: InactiveReason | None = None


@dataclass(frozen=True)
class NamespaceCheck:
    """The namespace selector check: a mismatch blocks; an unknown namespace only earns a note."""

    blocker: Blocker | None = None
    note: str | None = None


def admission_check_blocker(wl: Workload) -> bool:
    return admission_checks_failed(wl)


def resource_blocker(wl: Workload) -> Blocker | None:
    """``ValidateAdmissibility`` after the namespace check: requests above limits."""
    err = resource_validation_error(wl)
    if err is None:
        return None
    return Blocker(reasons.MISCONFIGURED, err, "a container (or the pod-level resources) of a pod set requests more "
                   "than its limit; Kueue does not admit it until the Workload changes",
                   "raise the limit or lower the request")


def queue_blocker(cluster: KueueCluster, snapshot: Snapshot, wl: Workload) -> QueueCheck:
    """The workload controller's and scheduler's checks before flavor assignment."""
    if not wl.queue_name:
        return QueueCheck(_no_queue_name(wl), None)
    lq = cluster.local_queues.get((wl.namespace, wl.queue_name))
    if lq is None:
        return QueueCheck(_local_queue_missing(cluster, wl), None)
    cq_name = lq.cluster_queue
    if lq.stop_policy and lq.stop_policy != "None":
        return QueueCheck(Blocker(reasons.SUSPENDED, reasons.local_queue_stopped(lq.name),
                                  f"LocalQueue {wl.namespace}/{lq.name} has stopPolicy {lq.stop_policy}",
                                  "set the LocalQueue's stopPolicy to None"), cq_name)
    if not cq_name or cq_name not in snapshot.cluster_queues:
        return QueueCheck(_cluster_queue_missing(wl, lq, cq_name), cq_name)
    if admission_check_blocker(wl):
        return QueueCheck(Blocker(reasons.PENDING_EVALUATION, reasons.MSG_FAILED_ADMISSION_CHECKS,
                                  "an admission check of this workload is in state Retry or Rejected"), cq_name)
    inactive = snapshot.cluster_queues[cq_name].inactive
    if inactive is not None:
        return QueueCheck(Blocker(reasons.SUSPENDED, reasons.cluster_queue_inactive(cq_name),
                                  f"ClusterQueue {cq_name} is inactive (Active=False, reason {inactive.reason}): "
                                  f"{inactive.message}", _INACTIVE_FIXES.get(inactive.reason)), cq_name, inactive)
    return QueueCheck(None, cq_name)


def queue_name_field(wl: Workload) -> str:
    """Where the workload's author sets its queue: a job's ``kueue.x-k8s.io/queue-name`` label
    (Kueue copies it into the Workload it creates for the job), else ``spec.queueName``."""
    if wl.owner_kind:
        return f"the {wl.owner_kind}'s kueue.x-k8s.io/queue-name label"
    return "spec.queueName"


def _no_queue_name(wl: Workload) -> Blocker:
    return Blocker(reasons.MISCONFIGURED, reasons.MSG_NO_QUEUE_NAME,
                   f"{'the queue name' if wl.owner_kind else 'spec.queueName'} is empty: Kueue does not queue this "
                   "workload anywhere",
                   f"set {queue_name_field(wl)} to a LocalQueue in namespace {wl.namespace}")


def _local_queue_missing(cluster: KueueCluster, wl: Workload) -> Blocker:
    others = sorted(n for (ns, n) in cluster.local_queues if ns == wl.namespace)
    hint = f" (LocalQueues in {wl.namespace}: {', '.join(others)})" if others else ""
    return Blocker(reasons.MISCONFIGURED, reasons.local_queue_missing(wl.queue_name),
                   f"no LocalQueue '{wl.queue_name}' in namespace {wl.namespace}{hint}",
                   f"set {queue_name_field(wl)} to an existing LocalQueue or create LocalQueue "
                   f"{wl.namespace}/{wl.queue_name}")


def _cluster_queue_missing(wl: Workload, lq: LocalQueue, cq_name: str | None) -> Blocker:
    return Blocker(reasons.MISCONFIGURED, reasons.cluster_queue_missing(cq_name),
                   f"LocalQueue {wl.namespace}/{lq.name} points at ClusterQueue {cq_name!r}, which is not in the input",
                   f"create ClusterQueue {cq_name} or fix LocalQueue {wl.namespace}/{lq.name}.spec.clusterQueue")


def namespace_check(cluster: KueueCluster, cq: ClusterQueueNode, wl: Workload) -> NamespaceCheck:
    sel = cq.spec.namespace_selector
    mismatch = NamespaceCheck(Blocker(
        reasons.MISCONFIGURED, reasons.MSG_NAMESPACE_MISMATCH,
        f"namespace {wl.namespace} is not selected by ClusterQueue {cq.name}'s namespaceSelector"
        + (" (it is null, which selects no namespace)" if sel is None else ""),
        "add namespaceSelector: {} to select every namespace" if sel is None
        else f"label namespace {wl.namespace} to match the selector, or widen the selector"))
    if sel is None:
        return mismatch
    ns = cluster.namespaces.get(wl.namespace)
    if ns is None:
        # Without the Namespace object only its name label is known; Kueue would see the real labels.
        if not sel.match_labels and not sel.match_expressions:
            return NamespaceCheck()
        if sel.matches({"kubernetes.io/metadata.name": wl.namespace}):
            return NamespaceCheck()
        return NamespaceCheck(note=f"namespace {wl.namespace} is not in the input; assuming it matches "
                                   f"ClusterQueue {cq.name}'s namespaceSelector")
    if not sel.matches(ns.labels):
        return mismatch
    return NamespaceCheck()


def preemptor_for(cluster: KueueCluster, snapshot: Snapshot, wl: Workload, cq_name: str,
                  priority: PriorityInfo | None = None) -> Preemptor:
    """``priority``: ``workload_priority`` of ``wl`` when the caller has it already."""
    options = snapshot.options
    pr = priority if priority is not None else workload_priority(cluster, wl, options.gates)
    return Preemptor(wl.key, cq_name, pr.value,
                     queue_order_timestamp(wl, options.gates, options.requeuing_timestamp), wl.uid or "")


def make_assigner(cluster: KueueCluster, snapshot: Snapshot, wl: Workload, cq: ClusterQueueNode) -> FlavorAssigner:
    preemptor = preemptor_for(cluster, snapshot, wl, cq.name)
    requests, preset = nomination_requests(wl, snapshot.options)
    return FlavorAssigner(snapshot, cq, preemptor, wl.pod_sets, requests, preset=preset)
