"""Scheduling equivalence hashing (Kueue's ``SchedulingEquivalenceHashing``, KEP-9694).

Kueue hashes what of a workload its scheduling reads, effective priority and pod sets
(``pkg/workload/workload.go computeSchedulingHash``), into one equivalence class per shape.  In
a BestEffortFIFO ClusterQueue, when a head is parked for NoFit or PreemptionNoCandidates, its
class gets a failed-class record and every workload of that class in the active heap is moved to
the inadmissible set at once (``pkg/cache/queue/cluster_queue.go requeueIfNotPresent`` ->
``handleInadmissibleHash``).  While the record exists, a workload of that class added to the
queue (created, or back from an eviction) goes to the inadmissible set directly
(``ClusterQueue.PushOrUpdate``); a head put back by the scheduler does not check it.  The records
of a ClusterQueue are dropped whenever its inadmissible workloads are requeued
(``inadmissible_workloads.go queueInadmissibleWorkloads``), so a class waits for a capacity event.

Here a class is a small number per distinct shape (``ClassIds``); the records live on the queue
(``failed_classes``, Kueue's ``ClusterQueue.hashToBulkMoveReason``; the reason is not kept:
nothing here reports the bypass message).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from quotactl.kueue.priority import PriorityInfo
from quotactl.kueue.workload import PodSetRequest
from quotactl.model.kueue import KueueCluster, Workload


class ClassQueue(Protocol):
    """What of a ClusterQueue's queue the equivalence rules use (``queues.Queue``)."""

    strict: bool
    active: list[tuple]  # (order key ..., workload key), sorted
    failed_classes: set[int]

    def park_active(self, parked: list[tuple], kept: list[tuple]) -> None: ...


class ClassIds:
    """A workload's equivalence class: a small number per distinct scheduling shape, memoised
    per workload (bulk moves compare it for every queued workload)."""

    def __init__(self, cluster: KueueCluster, priority: Callable[[Workload], PriorityInfo],
                 requests: Callable[[Workload], tuple[PodSetRequest, ...]]):
        self.cluster = cluster
        self._priority = priority
        self._requests = requests
        self.ids: dict[str, int] = {}  # workload -> its class
        self.numbers: dict[tuple, int] = {}  # shape -> its class
        # (priority, id(pod sets), reclaimable pods) -> (pod sets, shape): a generator's workloads
        # of one kind share their pod set objects (model.kueue.build_workload), and the shape reads
        # nothing else of the workload; the pod sets are kept so that an id is never reused
        self.by_pod_sets: dict[tuple, tuple] = {}

    def shape(self, wl: Workload) -> tuple:
        """The scheduling shape: effective priority and, per pod set, its name, count, minimum
        count, effective requests per pod, node selector, tolerations and topology request (the
        KEP's list, as far as the model carries it)."""
        pr = self._priority(wl).value
        # the effective requests are the pod sets' less the reclaimable pods (pod_set_requests)
        # (and their DRA charge, the workload's own: see WorkloadFacts.requests)
        k = (pr, id(wl.pod_sets), tuple(sorted(wl.reclaimable_pods.items())) if wl.reclaimable_pods else (),
             id(wl.dra) if wl.dra is not None else None)
        hit = self.by_pod_sets.get(k)
        if hit is not None and hit[0] is wl.pod_sets and hit[2] is wl.dra:
            return hit[1]
        s = (pr, tuple((ps.name, ps.count, ps.min_count, tuple(sorted(r.per_pod.items())),
                        tuple(sorted(ps.pod.node_selector.items())), repr(ps.pod.tolerations),
                        ps.topology_request)
                       for ps, r in zip(wl.pod_sets, self._requests(wl), strict=False)))
        self.by_pod_sets[k] = (wl.pod_sets, s, wl.dra)
        return s

    def of(self, wl: Workload) -> int:
        i = self.ids.get(wl.key)
        if i is None:
            i = self.ids[wl.key] = self.numbers.setdefault(self.shape(wl), len(self.numbers))
        return i

    def of_key(self, key: str) -> int:
        i = self.ids.get(key)
        return i if i is not None else self.of(self.cluster.workloads[key])


def applies(q: ClassQueue, enabled: bool) -> bool:
    """Class-wide handling: the gate on and a BestEffortFIFO queue (StrictFIFO keeps its head)."""
    return enabled and not q.strict


def park_class(q: ClassQueue, wl: Workload, classes: ClassIds) -> None:
    """``handleInadmissibleHash``: record ``wl``'s class as failed in ``q`` and move every queued
    workload of that class from the active heap to the inadmissible set.  Call only for a head
    just parked for NoFit or PreemptionNoCandidates, under ``applies``."""
    cid = classes.of(wl)
    q.failed_classes.add(cid)
    parked, kept = [], []
    for okey in q.active:  # one pass: this runs for every head that does not fit
        (parked if classes.of_key(okey[-1]) == cid else kept).append(okey)
    if parked:
        q.park_active(parked, kept)


def bypassed(q: ClassQueue, wl: Workload, classes: ClassIds) -> bool:
    """``PushOrUpdate``: a workload added to ``q`` whose class has a failed-class record goes
    to the inadmissible set without an evaluation (under ``applies``)."""
    return bool(q.failed_classes) and classes.of(wl) in q.failed_classes
