"""Kueue's queue order: the order of pending workloads inside a ClusterQueue's queue, how a run
changes it (queue-order timestamps that follow the conditions the run writes), and the
preemptor-first rule of ``PrioritizePreemptorWorkloads``.

Sources (kubernetes-sigs/kueue):

- ``pkg/cache/queue/cluster_queue.go: queueOrderingFunc``: higher effective priority first, then
  the earlier queue-order timestamp, then the lower UID (``queue_order_key``; the sticky preemptor
  needs cycle history: ``Preemptors`` below and the scheduler's queues); with Admission Fair
  Sharing the LocalQueue's usage before all of these (``usage_first``; the scheduler's queues
  read it at each pop, ``scheduler/queues.py``).
- ``pkg/workload/workload.go: Ordering.GetQueueOrderTimestamp``: the timestamp a workload is
  ordered by, read from its conditions (``priority.queue_order_timestamp`` reads them as the
  input has them).  A run rewrites those conditions: ``SetQuotaReservation`` turns ``Evicted``
  and ``Preempted`` False when a workload is admitted; a preemption (``pkg/workload/evict``
  ``Evict`` with ``SetPreemptedCondition``, from ``preemption.IssuePreemptions``) sets
  ``Evicted=True`` (reason ``Preempted``) and ``Preempted=True`` with the variant's reason, both
  at the time of the preemption.  So, with ``PrioritySortingWithinCohort`` off, a victim of
  ``InCohortReclaimWhileBorrowing`` is ordered by that time + 1 ms, after its preemptor; every
  other admitted or preempted workload by its creation time (the input's PodsReady-timeout and
  admission-check eviction times no longer apply once it was admitted again).
- ``pkg/cache/queue/cluster_queue.go: preemptorWorkload, IsPreemptor, requeueIfNotPresent``:
  each ClusterQueue remembers the workload that last issued preemptions (requeue reason
  ``PendingPreemption``, also a DeferredFit), in either queueing strategy, until it leaves the
  queue; ``pkg/cache/queue/manager.go: heads`` marks such a head ``IsPreemptor``.
- ``pkg/scheduler/scheduler.go: makeClassicalIterator`` (and ``fair_sharing_iterator.go:
  entryComparer.less``): with ``PrioritizePreemptorWorkloads`` on, preemptors are processed
  first; ``reserveCapacityForUnreclaimablePreempt``: a preemptor left without candidates keeps
  its capacity reserved even where its ClusterQueue can always reclaim.

The engine is pure: these objects only hold state the scheduler hands them.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from quotactl.kueue.afs import AfsLedger
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.preemption.common import IN_COHORT_RECLAIM_WHILE_BORROWING
from quotactl.kueue.preemption.policy import ANY
from quotactl.kueue.priority import ZERO_TIME, parse_time, queue_order_timestamp, workload_priority
from quotactl.model.features import FeatureGates
from quotactl.model.kueue import KueueCluster, Workload

# -- the order in a ClusterQueue's queue -----------------------------------------------

def queue_order_key(cluster: KueueCluster, wl: Workload, options: EngineOptions, priority: int | None = None,
                    timestamp: datetime | None = None):
    """Sort key of a pending workload in its ClusterQueue's heap (``priority``: its effective
    priority when the caller has it already; ``timestamp``: its queue-order timestamp when a run
    changed it, ``queue_order.RunTimestamps``)."""
    pr = priority if priority is not None else workload_priority(cluster, wl, options.gates).value
    ts = timestamp if timestamp is not None else queue_order_timestamp(wl, options.gates, options.requeuing_timestamp)
    return (-pr, ts, wl.uid or "", wl.key)


def usage_first(afs: AfsLedger | None, wl: Workload, key: tuple) -> tuple:
    """``queueOrderingFunc`` with admission fair sharing: in a ClusterQueue using it, the
    LocalQueue's usage (``kueue/afs.py``) comes before ``key``, lowest first."""
    usage = afs.workload_usage(wl) if afs is not None else None
    return key if usage is None else (usage, key)


def ahead_in_queue(cluster: KueueCluster, wl: Workload, options: EngineOptions,
                   afs: AfsLedger | None = None) -> list[Workload]:
    """Active pending workloads of the same ClusterQueue that Kueue orders before ``wl``
    (``afs``: the snapshot's admission fair sharing ledger)."""
    cq = cluster.cluster_queue_name_of(wl)
    if cq is None:
        return []

    def key(w: Workload) -> tuple:
        return usage_first(afs, w, queue_order_key(cluster, w, options))

    mine = key(wl)
    out = []
    for other in cluster.workloads.values():
        if other is wl or not other.is_queueable:
            continue
        if cluster.cluster_queue_name_of(other) != cq:
            continue
        if key(other) < mine:
            out.append(other)
    return sorted(out, key=key)


class QueueIndex:
    """Every ClusterQueue's pending workloads in queue order, built once (for ``explain --all``)."""

    def __init__(self, cluster: KueueCluster, options: EngineOptions, afs: AfsLedger | None = None):
        self._cluster = cluster
        self._options = options
        self._afs = afs
        by_cq: dict[str, list[tuple]] = {}
        for wl in cluster.workloads.values():
            if not wl.is_queueable:
                continue
            cq = cluster.cluster_queue_name_of(wl)
            if cq is not None:
                by_cq.setdefault(cq, []).append((self._key(wl), wl))
        self._by_cq = {cq: sorted(items, key=lambda kv: kv[0]) for cq, items in by_cq.items()}

    def _key(self, wl: Workload) -> tuple:
        return usage_first(self._afs, wl, queue_order_key(self._cluster, wl, self._options))

    def ahead(self, wl: Workload) -> list[Workload]:
        cq = self._cluster.cluster_queue_name_of(wl)
        mine = self._key(wl)
        return [w for k, w in self._by_cq.get(cq or "", []) if k < mine and w is not wl]


# -- how a run changes it -----------------------------------------------------------

# GetQueueOrderTimestamp's epsilon: the victim's timestamp is strictly after its preemptor's
PREEMPTED_EPSILON = timedelta(milliseconds=1)


def creation_time(wl: Workload) -> datetime:
    """``metadata.creationTimestamp`` (Go's zero time when absent: it sorts first)."""
    return parse_time(wl.creation_timestamp) or ZERO_TIME


class RunTimestamps:
    """The queue-order timestamps a run has changed from the input's, per workload, with the
    cohort tree of each (for the end-of-cycle state, ``state``).  A workload the run never
    admitted nor preempted keeps the input's timestamp and has no entry here."""

    def __init__(self, options: EngineOptions, workloads: Iterable[Workload]):
        self._requeuing = options.requeuing_timestamp
        self._gates = options.gates
        self._reclaim_epsilon = not options.gates.enabled("PrioritySortingWithinCohort")
        self._workloads = workloads
        self.changed: dict[str, datetime] = {}  # workload -> its timestamp now (differs from the input's)
        self.run_times: set[str] = set()  # of ``changed``: the ones set to a time of the run (not an input time)
        self.trees: dict[str, dict[str, None]] = {}  # cohort tree -> its workloads in ``changed``
        self._tree_of: dict[str, str] = {}
        self._inputs: list[datetime] | None = None  # every input timestamp, sorted (see state)

    def __bool__(self) -> bool:
        return bool(self.changed)

    def timestamp(self, wl: Workload) -> datetime:
        """``GetQueueOrderTimestamp`` of ``wl`` as the run has left its conditions."""
        ts = self.changed.get(wl.key)
        return ts if ts is not None else self.input_timestamp(wl)

    def input_timestamp(self, wl: Workload) -> datetime:
        return queue_order_timestamp(wl, self._gates, self._requeuing)

    # -- the conditions the run writes ---------------------------------------------------
    def quota_reserved(self, wl: Workload, tree: str) -> bool:
        """``SetQuotaReservation``: Evicted and Preempted turn False, so the creation time
        orders it again.  True when that changes its timestamp."""
        if wl.key not in self.changed and "Evicted" not in wl.conditions and "Preempted" not in wl.conditions:
            return False  # the usual case: the input already orders it by its creation time
        return self._set(wl, creation_time(wl), tree, run_time=False)

    def preempted(self, wl: Workload, reason: str, at: datetime, tree: str) -> bool:
        """``preemption.IssuePreemptions``: evicted with reason Preempted, and ``SetPreemptedCondition``
        (Preempted=True, ``reason``), at ``at``.  True when that changes its timestamp."""
        return self.evicted(wl, "Preempted", at, tree, preempted_reason=reason)

    def evicted(self, wl: Workload, reason: str, at: datetime, tree: str, preempted_reason: str | None = None) -> bool:
        """``Evict``: Evicted=True with ``reason`` at ``at`` (a preemption also sets Preempted=True
        with ``preempted_reason``; any other eviction leaves it False, as the admission before it
        did).  True when that changes its timestamp.  ``at`` is kept as it is: the API server
        stores whole seconds, as it does creation times, but a virtual clock's creation times
        may have fractions, and the victim must stay after a preemptor created before ``at``."""
        if (reason == "PodsReadyTimeout" and self._requeuing == "Eviction") or reason == "AdmissionCheck":
            return self._set(wl, at, tree, run_time=True)
        if self._reclaim_epsilon and preempted_reason == IN_COHORT_RECLAIM_WHILE_BORROWING:
            return self._set(wl, at + PREEMPTED_EPSILON, tree, run_time=True)
        return self.quota_reserved(wl, tree)  # no condition that GetQueueOrderTimestamp reads: the creation time

    def forget(self, key: str) -> None:
        """The workload left the run (finished): its timestamp is never read again."""
        if self.changed.pop(key, None) is not None:
            self.run_times.discard(key)
            self.trees[self._tree_of.pop(key)].pop(key, None)

    def _set(self, wl: Workload, ts: datetime, tree: str, run_time: bool) -> bool:
        key = wl.key
        before = self.timestamp(wl)
        if ts == self.input_timestamp(wl):
            self.forget(key)
        else:
            self.changed[key] = ts
            (self.run_times.add if run_time else self.run_times.discard)(key)
            self._tree_of[key] = tree
            self.trees.setdefault(tree, {})[key] = None
        return ts != before

    # -- the end-of-cycle state ----------------------------------------------------------
    def state(self, tree: str, next_condition_at: datetime, mark: Callable[[tuple], int]) -> int:
        """The fingerprint (a sum of ``mark``s) of the tree's changed timestamps, by what the
        future reads of them: their order among themselves, against every input timestamp and
        against the timestamps a condition written in the next cycle would give (at
        ``next_condition_at``, that cycle's clock).  Not the times themselves: ``schedule``'s clock
        moves one second per cycle, so a victim preempted again every period gets a new time
        each time while the run repeats.  0 when the run changed none of the tree's timestamps."""
        keys = self.trees.get(tree)
        if not keys:
            return 0
        inputs = self._input_times()
        nxt = next_condition_at
        values = sorted({self.changed[k] for k in keys if k in self.run_times})
        total = 0
        for k in keys:
            if k not in self.run_times:
                total += mark(("QC", k))  # its creation time: an input timestamp
                continue
            v = self.changed[k]
            total += mark(("QR", k, bisect.bisect_left(inputs, v), bisect.bisect_right(inputs, v),
                           bisect.bisect_left(values, v), _compare(v, nxt), _compare(v, nxt + PREEMPTED_EPSILON)))
        return total

    def _input_times(self) -> list[datetime]:
        if self._inputs is None:
            times = {creation_time(wl) for wl in self._workloads} | {self.input_timestamp(wl) for wl in self._workloads}
            self._inputs = sorted(times)
        return self._inputs


def _compare(a: datetime, b: datetime) -> int:
    return (a > b) - (a < b)


class Preemptors:
    """``preemptorWorkload`` of every ClusterQueue: the workload that last issued preemptions
    (or waits for another's, a DeferredFit) until it is admitted or leaves the queue.  The
    sticky head of a BestEffortFIFO queue is the same workload; ``IsPreemptor`` holds in
    StrictFIFO queues too."""

    def __init__(self):
        self.by_cluster_queue: dict[str, str] = {}

    def set(self, cluster_queue: str, key: str) -> None:
        self.by_cluster_queue[cluster_queue] = key

    def clear(self, cluster_queue: str, key: str) -> None:
        if self.by_cluster_queue.get(cluster_queue) == key:
            del self.by_cluster_queue[cluster_queue]

    def is_preemptor(self, cluster_queue: str, key: str) -> bool:
        return self.by_cluster_queue.get(cluster_queue) == key

    def state(self, cluster_queues: Iterable[str], mark: Callable[[tuple], int]) -> int:
        """The fingerprint of the preemptors of ``cluster_queues`` (the end-of-cycle state)."""
        return sum(mark(("PW", name, self.by_cluster_queue[name])) for name in cluster_queues
                   if name in self.by_cluster_queue)


def prioritizes_preemptors(gates: FeatureGates) -> bool:
    return gates.enabled("PrioritizePreemptorWorkloads")


def classical_order_key(gates: FeatureGates) -> Callable:
    """``makeClassicalIterator``'s comparison as a sort key of a cycle's entries (fields
    ``is_preemptor``, ``assignment``, ``priority``, ``ts``, ``wl``): [PrioritizePreemptorWorkloads]
    preemptors first, lower borrowing level, [PrioritySortingWithinCohort] higher priority,
    earlier queue-order timestamp; the workload key breaks Kueue's unstable sort's ties.  (The
    quota-holders-first rule concerns TAS second passes, which are not modelled.)"""
    psort = gates.enabled("PrioritySortingWithinCohort")
    if prioritizes_preemptors(gates):
        return lambda e: (not e.is_preemptor, e.assignment.borrowing, -e.priority if psort else 0, e.ts, e.wl.key)
    return lambda e: (e.assignment.borrowing, -e.priority if psort else 0, e.ts, e.wl.key)


def reserves_capacity(reclaim_within_cohort: str, is_preemptor: bool, gates: FeatureGates) -> bool:
    """``reserveCapacityForUnreclaimablePreempt``: a Preempt head without candidates keeps its
    capacity when its ClusterQueue cannot always reclaim (``CanAlwaysReclaim``:
    reclaimWithinCohort Any) or, with PrioritizePreemptorWorkloads, when it is the preemptor."""
    return reclaim_within_cohort != ANY or (is_preemptor and prioritizes_preemptors(gates))
