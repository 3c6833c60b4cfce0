"""Nomination of queue heads (``scheduler.go: nominate``) and every memo the scheduler keeps.

The model does not change during a run, and a nomination reads only the workload's
``NominationInputs`` and the snapshot of its cohort tree.  The one thing of a workload a run
changes is its queue-order timestamp (the conditions the run writes, ``queue_order``): those
changes go through the ``Nominator`` (``quota_reserved``, ``preempted``), which drops what it
made of the old timestamp.  So the ``Nominator`` reuses:
- a workload's own last nomination while its tree's version and its scan start are unchanged;
- another workload's, in the same ClusterQueue on the same tree version and scan start, when
  both have the same ``nomination.kin_key``: a key derived from every field of the inputs
  (the assigner reads the workload through them alone), so a field added for a new rule is in
  the key without anyone listing it here;
- the per-workload values the nomination and the queues derive from the model (priority,
  queue-order key, requests, the pre-checks, the equivalence shape), each under the key of what
  its function reads (named at each memo).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import NamedTuple

from quotactl.kueue.assign import Assignment, initial_assignment
from quotactl.kueue.nomination import (
    Blocker,
    NamespaceCheck,
    NominationCheck,
    NominationInputs,
    kin_key,
    namespace_check,
    nomination_check,
    nomination_inputs,
    resource_blocker,
)
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.preemption.common import Target
from quotactl.kueue.priority import PriorityInfo, workload_priority
from quotactl.kueue.queue_order import RunTimestamps, queue_order_key
from quotactl.kueue.quota import ClusterQueueNode, Snapshot
from quotactl.kueue.scheduler.equivalence import ClassIds
from quotactl.kueue.workload import PodSetRequest, eviction_clears_admission, pod_set_requests
from quotactl.model.kueue import KueueCluster, Workload


class Static(NamedTuple):
    """What a nomination needs that never changes during the run (see ``Nominator.static``)."""

    priority: int
    queue_order_timestamp: datetime
    failed: NominationCheck | None  # the first failing pre-check; then nothing below is needed
    inputs: NominationInputs | None
    kin: tuple | None  # (ClusterQueue, kin_key(inputs))

    @property
    def preset(self) -> dict:
        """Flavors of an earlier admission, taken without a scan (``workload.nomination_requests``)."""
        return self.inputs.preset if self.inputs is not None else {}


class Nomination(NamedTuple):
    """A nomination, reusable while its cohort tree's version and scan start are unchanged.  It
    holds the inputs it was made for, so that the objects ``kin_key`` names by identity stay
    alive (an id is never reused while its entry lives)."""

    made_on: tuple  # (cohort tree, the tree's version, scan start)
    inputs: NominationInputs
    assignment: Assignment
    targets: tuple[Target, ...]


class WorkloadFacts:
    """What the model says of a workload that never changes during the run, once each."""

    def __init__(self, cluster: KueueCluster, options: EngineOptions):
        self.cluster = cluster
        self.options = options
        self.priorities: dict[str, PriorityInfo] = {}  # workload -> workload_priority (reads the workload)
        # (id(pod sets), reclaimable pods) -> (pod sets, requests): pod_set_requests reads nothing
        # else of the workload; a generator's workloads of one kind share their pod set objects
        # (model.kueue.build_workload), kept here so that an id is never reused while its entry lives
        self.requests_by_pod_sets: dict[tuple, tuple] = {}

    def priority(self, wl: Workload) -> PriorityInfo:
        """``workload_priority``, once per workload."""
        info = self.priorities.get(wl.key)
        if info is None:
            info = self.priorities[wl.key] = workload_priority(self.cluster, wl, self.options.gates)
        return info

    def requests(self, wl: Workload) -> tuple[PodSetRequest, ...]:
        """``pod_set_requests(wl)``, once per pod set objects and reclaimable pods."""
        # a Workload's DRA charge is its own (its namespace's claim templates): part of the key
        k = (id(wl.pod_sets), tuple(sorted(wl.reclaimable_pods.items())) if wl.reclaimable_pods else (),
             id(wl.dra) if wl.dra is not None else None)
        hit = self.requests_by_pod_sets.get(k)
        if hit is not None and hit[0] is wl.pod_sets and hit[2] is wl.dra:
            return hit[1]
        reqs = pod_set_requests(wl, self.options)
        self.requests_by_pod_sets[k] = (wl.pod_sets, reqs, wl.dra)
        return reqs


class Nominator:
    """Nominates heads against the run's snapshot and owns every memo of the scheduler."""

    def __init__(self, cluster: KueueCluster, snapshot: Snapshot, options: EngineOptions):
        self.cluster = cluster
        self.snapshot = snapshot
        self.options = options
        # the queue-order timestamps the run's conditions changed: read by order_key and static
        self.timestamps = RunTimestamps(options, cluster.workloads.values())
        facts = WorkloadFacts(cluster, options)
        # bound to ``facts``, not to the nominator: ``classes`` holds them, and a cycle through the
        # nominator would leave all its memos to the cyclic collector when the run ends
        self.priority = facts.priority
        self.requests = facts.requests
        self.order_keys: dict[str, tuple] = {}  # workload -> queue_order_key (dropped by _reorder)
        self.namespace_checks: dict[tuple, NamespaceCheck] = {}  # (ClusterQueue, namespace): all it reads
        self.resource_blockers: dict[int, tuple] = {}  # id(pod sets) -> (pod sets, blocker): all it reads
        self.statics: dict[tuple, Static] = {}  # (workload, ClusterQueue) -> see static (dropped by _reorder)
        self.nominations: dict[str, Nomination] = {}  # workload -> its last nomination (dropped by _reorder)
        self.kin_nominations: dict[tuple, Nomination] = {}  # Static.kin -> the last nomination made for it
        self.classes = ClassIds(cluster, facts.priority, facts.requests)  # equivalence hashing
        self.cleared_admissions: set[str] = set()  # input admissions a finished eviction removed

    # -- values derived from the model ---------------------------------------------------
    def order_key(self, wl: Workload) -> tuple:
        """The workload's place in its queue (``queueing.queue_order_key``, with the timestamp the
        run left it), once per workload and timestamp."""
        k = self.order_keys.get(wl.key)
        if k is None:
            k = self.order_keys[wl.key] = queue_order_key(self.cluster, wl, self.options, self.priority(wl).value,
                                                          self.timestamps.changed.get(wl.key))
        return k

    def _namespace(self, cluster: KueueCluster, cq: ClusterQueueNode, wl: Workload) -> NamespaceCheck:
        k = (cq.name, wl.namespace)
        hit = self.namespace_checks.get(k)
        if hit is None:
            hit = self.namespace_checks[k] = namespace_check(cluster, cq, wl)
        return hit

    def _resources(self, wl: Workload) -> Blocker | None:
        hit = self.resource_blockers.get(id(wl.pod_sets))
        if hit is None or hit[0] is not wl.pod_sets:
            hit = self.resource_blockers[id(wl.pod_sets)] = (wl.pod_sets, resource_blocker(wl))
        return hit[1]

    def static(self, wl: Workload, cq: ClusterQueueNode) -> Static:
        """The pre-checks and the inputs of ``wl``'s nomination in ``cq`` (with the queue-order
        timestamp the run left it), once per pair and timestamp."""
        k = (wl.key, cq.name)
        st = self.statics.get(k)
        if st is not None:
            return st
        pr = self.priority(wl)
        check = nomination_check(self.cluster, cq, wl, namespace=self._namespace, resources=self._resources)
        if check.blocker is not None:
            st = Static(pr.value, self.timestamps.timestamp(wl), check, None, None)
        else:
            inputs = nomination_inputs(self.cluster, self.snapshot, wl, pr, self.requests(wl),
                                       wl.key in self.cleared_admissions)
            changed = self.timestamps.changed.get(wl.key)
            if changed is not None:  # the run's conditions changed it: the preemptor the search sees
                inputs = dataclasses.replace(inputs, queue_order_timestamp=changed)
            st = Static(inputs.priority, inputs.queue_order_timestamp, None, inputs, (cq.name, kin_key(inputs, cq)))
        self.statics[k] = st
        return st

    # -- nominations ---------------------------------------------------------------------
    def nominate(self, wl: Workload, cq: ClusterQueueNode, st: Static, made_on: tuple) -> Nomination:
        """``st.inputs``' nomination in ``cq`` on the snapshot as it is: ``made_on`` is (cohort tree,
        its version, scan start), everything of the snapshot and the scan the nomination reads."""
        hit = self.nominations.get(wl.key)
        if hit is not None and hit.made_on == made_on:
            return hit
        shared = self.kin_nominations.get(st.kin)
        if shared is not None and shared.made_on == made_on:
            nom = shared
        else:
            init = initial_assignment(st.inputs.assigner(self.snapshot, cq, dict(made_on[2])))
            nom = self.kin_nominations[st.kin] = Nomination(made_on, st.inputs, init.assignment, tuple(init.targets))
        self.nominations[wl.key] = nom
        return nom

    def renominate(self, st: Static, cq: ClusterQueueNode, snapshot: Snapshot):
        """A fresh nomination on ``snapshot`` from the first flavor (no memo: the snapshot is a
        what-if of this cycle, see ``loop.Scheduler._recompute``)."""
        return initial_assignment(st.inputs.assigner(snapshot, cq))

    # -- the conditions a run writes (queue_order.RunTimestamps) -------------------------
    def quota_reserved(self, wl: Workload, tree: str) -> None:
        """``wl`` was admitted (``SetQuotaReservation``): its nomination is never reusable again
        (its tree's version moved), and its Evicted and Preempted conditions turn False."""
        self.nominations.pop(wl.key, None)
        if self.timestamps.quota_reserved(wl, tree):
            self._reorder(wl)

    def preempted(self, wl: Workload, reason: str, at: datetime, tree: str) -> None:
        """``wl`` was preempted (``reason``) at ``at``: its Evicted and Preempted conditions."""
        if self.timestamps.preempted(wl, reason, at, tree):
            self._reorder(wl)

    def evicted(self, wl: Workload, reason: str, at: datetime, tree: str) -> None:
        """``wl`` was evicted by the workload controller (``reason``: PodsReadyTimeout,
        AdmissionCheck) at ``at``: its Evicted condition."""
        if self.timestamps.evicted(wl, reason, at, tree):
            self._reorder(wl)

    def eviction_finished(self, wl: Workload) -> bool | None:
        """``wl``'s eviction finished (the job reconciler's step): whether its input admission
        was removed with it (``eviction_clears_admission``; None: the input does not say, and
        the admission is kept).  A removed one drops every memo that read its flavors."""
        if wl.admission is None or wl.key in self.cleared_admissions:
            return True
        cleared = eviction_clears_admission(wl, self.options)
        if cleared:
            self.cleared_admissions.add(wl.key)
            self.statics.pop((wl.key, self.cluster.cluster_queue_name_of(wl)), None)
            self.nominations.pop(wl.key, None)
        return cleared

    def finished(self, key: str) -> None:
        """``key`` left the run: its timestamp is never read again."""
        self.timestamps.forget(key)

    def _reorder(self, wl: Workload) -> None:
        """``wl``'s queue-order timestamp changed: drop every memo that read the old one (a
        shared nomination's ``kin_key`` holds the timestamp wherever a policy reads it)."""
        self.order_keys.pop(wl.key, None)
        self.statics.pop((wl.key, self.cluster.cluster_queue_name_of(wl)), None)
        self.nominations.pop(wl.key, None)
