"""What Kueue checks before and while nominating a pending workload: the workload controller's
queue checks (queue name, LocalQueue, ClusterQueue, inactive ClusterQueue, admission checks),
the scheduler's checks between popping a head and nominating it (``nomination_check``: one
sequence for ``explain`` and the scheduler), and what of the workload the flavor assigner reads
(``NominationInputs``: the one way a workload reaches a ``FlavorAssigner``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import NamedTuple

from quotactl.kueue import reasons
from quotactl.kueue.admissibility import resource_validation_error
from quotactl.kueue.assign import FlavorAssigner
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.preemption.common import Preemptor
from quotactl.kueue.preemption.policy import compares_queue_order_timestamps
from quotactl.kueue.priority import PriorityInfo, queue_order_timestamp, workload_priority
from quotactl.kueue.quota import ClusterQueueNode, InactiveReason, Snapshot
from quotactl.kueue.workload import PodSetRequest, admission_checks_failed, nomination_requests
from quotactl.model.dra import dra_problem
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


ADMISSION_CHECKS_FAILED = Blocker(reasons.PENDING_EVALUATION, reasons.MSG_FAILED_ADMISSION_CHECKS,
                                  "an admission check of this workload is in state Retry or Rejected")


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


def dra_blocker(wl: Workload, options: EngineOptions) -> Blocker | None:
    """The workload controller's DRA step (``handleDRA``), before the workload is queued: claims
    Kueue cannot resolve leave it QuotaReserved=False (Misconfigured) with the field error."""
    problem = dra_problem(any(ps.claims for ps in wl.pod_sets), wl.dra, options.gates)
    if problem is None:
        return None
    return Blocker(reasons.MISCONFIGURED, problem.message, problem.detail, problem.fix)


def queue_blocker(cluster: KueueCluster, snapshot: Snapshot, wl: Workload) -> QueueCheck:
    """The workload controller's and scheduler's checks before flavor assignment."""
    if not wl.queue_name:
        return QueueCheck(_no_queue_name(wl), None)
    dra = dra_blocker(wl, snapshot.options)
    if dra is not None:
        return QueueCheck(dra, cluster.cluster_queue_name_of(wl))
    lq = cluster.local_queue_of(wl)
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
        return QueueCheck(ADMISSION_CHECKS_FAILED, cq_name)
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


class NominationCheck(NamedTuple):
    """The scheduler's checks between popping a head and nominating it: the first that fails
    (None: none), how the head is requeued then, and the namespace selector's note."""

    blocker: Blocker | None
    parked: bool = False  # parked in the inadmissible set even under StrictFIFO
    unmatched: bool = False  # a namespace mismatch: it stays parked when the queue is requeued
    note: str | None = None


def nomination_check(cluster: KueueCluster, cq: ClusterQueueNode, wl: Workload, *,
                     namespace: Callable[[KueueCluster, ClusterQueueNode, Workload], NamespaceCheck] | None = None,
                     resources: Callable[[Workload], Blocker | None] | None = None) -> NominationCheck:
    """``scheduler.go: nominate``'s checks before the flavor assignment, in its order: failed
    admission checks, then ``ValidateAdmissibility`` (the namespace selector, then requests
    above limits).  ``namespace`` / ``resources``: ``namespace_check`` / ``resource_blocker``
    or memoised equivalents (the scheduler's, which asks for every head)."""
    if admission_check_blocker(wl):
        return NominationCheck(ADMISSION_CHECKS_FAILED)
    ns = (namespace or namespace_check)(cluster, cq, wl)
    if ns.blocker is not None:
        return NominationCheck(ns.blocker, parked=True, unmatched=True)
    blocker = (resources or resource_blocker)(wl)
    if blocker is not None:
        return NominationCheck(blocker, parked=True, note=ns.note)
    return NominationCheck(None, note=ns.note)


def make_assigner(cluster: KueueCluster, snapshot: Snapshot, wl: Workload, cq: ClusterQueueNode) -> FlavorAssigner:
    return nomination_inputs(cluster, snapshot, wl).assigner(snapshot, cq)


# How a field of ``NominationInputs`` enters the key under which two workloads share one
# nomination (``kin_key``).  A field without one enters by its value: a field someone adds
# for a new rule of the assigner is part of the key until declared otherwise.
KIN_PART = "kin_part"


def _names_the_workload(_value, _cq: ClusterQueueNode) -> None:
    """The workload's own name and uid: the assigner and the victim search never compare them
    (the preemptor holds no quota, so no search meets it)."""
    return None


def _same_objects(value, _cq: ClusterQueueNode) -> int:
    """The model's objects, immutable during a run and kept alive by the inputs that hold them:
    their identity stands for their value (a generator's workloads of one shape share them)."""
    return id(value)


def _when_a_policy_compares_timestamps(value: datetime, cq: ClusterQueueNode) -> datetime | None:
    """Read only by the LowerOrNewerEqualPriority policies (``preemption.policy``)."""
    return value if compares_queue_order_timestamps(cq.preemption) else None


def _frozen_flavors(value: dict, _cq: ClusterQueueNode) -> tuple:
    return tuple((ps, tuple(sorted(flavors.items()))) for ps, flavors in sorted(value.items()))


@dataclass(frozen=True, slots=True)
class NominationInputs:
    """Everything of a pending workload that its nomination reads: the flavor assigner and its
    victim search get the workload through these fields only (``assigner``), so the key of a
    shared nomination (``kin_key``) is derived from them: a field added here for a new rule is
    in that key unless its ``KIN_PART`` metadata says how else it enters."""

    key: str = field(metadata={KIN_PART: _names_the_workload})
    uid: str = field(metadata={KIN_PART: _names_the_workload})
    pod_sets: tuple = field(metadata={KIN_PART: _same_objects})
    requests: tuple[PodSetRequest, ...] = field(metadata={KIN_PART: _same_objects})
    preset: dict = field(metadata={KIN_PART: _frozen_flavors})  # flavors of an earlier admission
    priority: int
    queue_order_timestamp: datetime = field(metadata={KIN_PART: _when_a_policy_compares_timestamps})

    def preemptor(self, cq_name: str) -> Preemptor:
        return Preemptor(self.key, cq_name, self.priority, self.queue_order_timestamp, self.uid)

    def assigner(self, snapshot: Snapshot, cq: ClusterQueueNode,
                 scan_start: dict[tuple[str, int], int] | None = None) -> FlavorAssigner:
        return FlavorAssigner(snapshot, cq, self.preemptor(cq.name), self.pod_sets, self.requests,
                              preset=self.preset, scan_start=scan_start)


_KIN_PARTS: dict[type, tuple] = {}  # NominationInputs (or a subclass) -> ((field name, part), ...)


def kin_key(inputs: NominationInputs, cq: ClusterQueueNode) -> tuple:
    """The key under which workloads share a nomination in ``cq`` (Kueue's equivalent
    workloads, here exact): each field of ``inputs`` as its ``KIN_PART`` says, by value when
    it says nothing.  Two workloads with one key get the same nomination from the same
    snapshot of their cohort tree."""
    parts = _KIN_PARTS.get(type(inputs))
    if parts is None:
        parts = _KIN_PARTS[type(inputs)] = tuple((f.name, f.metadata.get(KIN_PART)) for f in fields(inputs))
    return tuple(getattr(inputs, name) if part is None else part(getattr(inputs, name), cq) for name, part in parts)


def nomination_inputs(cluster: KueueCluster, snapshot: Snapshot, wl: Workload, priority: PriorityInfo | None = None,
                      requests: tuple[PodSetRequest, ...] | None = None,
                      admission_cleared: bool = False) -> NominationInputs:
    """``priority`` / ``requests``: ``workload_priority`` / ``pod_set_requests`` of ``wl`` when
    the caller has them already; ``admission_cleared``: see ``nomination_requests``."""
    options = snapshot.options
    pr = priority if priority is not None else workload_priority(cluster, wl, options.gates)
    requests, preset = nomination_requests(wl, options, requests, admission_cleared)
    return NominationInputs(wl.key, wl.uid or "", wl.pod_sets, requests, preset, pr.value,
                            queue_order_timestamp(wl, options.gates, options.requeuing_timestamp))
