"""What the scheduler's cache holds during a run (Kueue's ``pkg/cache/scheduler``): the snapshot
of quota and admitted workloads, the cohort tree of each ClusterQueue, a version per tree that
moves with every admission or eviction there (a nomination made on one version stays valid
while it lasts), and the fingerprint of each ClusterQueue's admitted workloads (``Marks``)."""

from __future__ import annotations

from datetime import datetime

from quotactl.kueue.assign import Assignment
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.priority import PriorityInfo
from quotactl.kueue.queue_order import creation_time
from quotactl.kueue.quota import ClusterQueueNode, Snapshot, build_snapshot
from quotactl.kueue.scheduler.queues import Marks
from quotactl.kueue.scheduler.results import UsageRow
from quotactl.kueue.tas.state import placed_usage
from quotactl.kueue.workload import AdmittedWorkload
from quotactl.model.kueue import KueueCluster, Workload


class AdmittedInRun(AdmittedWorkload):
    """A workload admitted during the run (its admission is the assignment, not the input's)."""

    def __init__(self, wl: Workload, cq: str, cluster: KueueCluster, options: EngineOptions,
                 assignment: Assignment, reserved_at: datetime, priority: PriorityInfo | None = None,
                 tas_usage: tuple | None = None):
        """``tas_usage``: the placements' usage when the caller has it already (else computed here)."""
        self.key = wl.key
        self.workload = wl
        self.cluster_queue = cq
        self._cluster = cluster
        self._options = options
        self._priority = priority
        self._queue_ts = None
        self._reserved_at = reserved_at
        self._evicted = False
        self.usage = {fr: v for fr, v in assignment.usage.items() if v}
        if tas_usage is None:
            tas_usage = placed_usage(wl.pod_sets, assignment.topology) if assignment.topology else ()
        self.tas_usage = tas_usage
        frs = set()
        ps_rows = []
        for ps in assignment.pod_sets:
            flavors = {res: fa.flavor for res, fa in ps.flavors.items()}
            for res, fl in flavors.items():
                frs.add((fl, res))
            ps_usage = {}
            for res, fl in flavors.items():
                v = ps.requests.get(res, 0)
                if v:
                    ps_usage[(fl, res)] = v
            ps_rows.append((ps.name, ps.count, ps_usage, flavors))
        self.flavor_resources = frozenset(frs)
        self._rows = ps_rows

    def _assignments(self):
        yield from self._rows

    def pod_set_flavors(self) -> dict[str, dict[str, str]]:
        return {name: flavors for name, _count, _usage, flavors in self._rows}

    @property
    def queue_order_timestamp(self) -> datetime:
        # admitted in the run, its Evicted and Preempted conditions are False (SetQuotaReservation,
        # see queue_order), so GetQueueOrderTimestamp gives its creation time
        if self._queue_ts is None:
            self._queue_ts = creation_time(self.workload)
        return self._queue_ts


class ClusterState:
    """The snapshot a run changes in place, with the cohort trees' versions and fingerprints."""

    def __init__(self, cluster: KueueCluster, options: EngineOptions, marks: Marks):
        self.snapshot: Snapshot = build_snapshot(cluster, options)
        self.marks = marks
        self.tree_names: dict[str, str] = {}  # ClusterQueue -> its cohort tree (see tree)
        self.tree_cqs: dict[str, list[str]] = {}  # cohort tree -> its ClusterQueues, sorted
        self.versions: dict[str, int] = {}  # cohort tree -> bumped by every admission and eviction there
        self.held_pairs: dict[str, set] = {}  # ClusterQueue -> see _held_fp
        self.held_fp: dict[str, int] = {}  # ClusterQueue -> fingerprint of its held_pairs
        # bumped by every admission or eviction holding topology assignments: the TAS flavors'
        # nodes are shared by every cohort tree, so each tree's nominations may read them
        self.tas_version = 0
        for name, cq in sorted(self.snapshot.cluster_queues.items()):
            self.tree_cqs.setdefault(self.tree(cq), []).append(name)

    def tree(self, cq: ClusterQueueNode) -> str:
        """The name of ``cq``'s cohort tree (the snapshot's tree shape never changes in a run)."""
        t = self.tree_names.get(cq.name)
        if t is None:
            t = self.tree_names[cq.name] = cq.root().name if cq.parent is not None else "\0" + cq.name
        return t

    def tree_of(self, cluster_queue: str) -> str:
        """The cohort tree of a ClusterQueue (its root cohort, or itself without a cohort)."""
        return self.tree(self.snapshot.cluster_queues[cluster_queue])

    def version(self, tree: str) -> int:
        # both parts only grow, so their sum moves whenever either does
        return self.versions.get(tree, 0) + self.tas_version

    def _touch(self, cq: ClusterQueueNode) -> None:
        t = self.tree(cq)
        self.versions[t] = self.versions.get(t, 0) + 1

    def admit(self, info: AdmittedWorkload) -> None:
        """Charge an admitted workload to its ClusterQueue for good."""
        cq = self.snapshot.cluster_queues[info.cluster_queue]
        old = cq.workloads.get(info.key)
        self.snapshot.add_workload(info)
        if old is not None:
            self._hold_pair(cq.name, old, -1)
        self._hold_pair(cq.name, info, +1)
        self._touch(cq)
        if info.tas_usage:
            self.tas_version += 1

    def evict(self, w: AdmittedWorkload) -> None:
        """Release an evicted workload's quota for good."""
        cq = self.snapshot.cluster_queues[w.cluster_queue]
        self.snapshot.remove_workload(w)
        self._hold_pair(cq.name, w, -1)
        self._touch(cq)
        if w.tas_usage:
            self.tas_version += 1

    def held_fingerprint(self, name: str) -> int:
        """The fingerprint of the (workload, flavor-resources) pairs of the workloads ClusterQueue
        ``name`` holds: read from the snapshot once, then kept up to date by ``admit`` and
        ``evict``, the only changes of its workloads that last (the searches restore what they
        remove)."""
        if name not in self.held_pairs:
            workloads = self.snapshot.cluster_queues[name].workloads
            pairs = self.held_pairs[name] = {self._pair(w) for w in workloads.values()}
            self.held_fp[name] = sum(self.marks(("H",) + p) for p in pairs)
        return self.held_fp[name]

    @staticmethod
    def _pair(w: AdmittedWorkload) -> tuple:
        return w.key, tuple(sorted(w.flavor_resources))

    def _hold_pair(self, name: str, w: AdmittedWorkload, sign: int) -> None:
        pairs = self.held_pairs.get(name)
        if pairs is None:
            return
        p = self._pair(w)
        if (p in pairs) != (sign > 0):
            (pairs.add if sign > 0 else pairs.discard)(p)
            self.held_fp[name] += sign * self.marks(("H",) + p)

    def usage_rows(self) -> tuple[UsageRow, ...]:
        rows = []
        snap = self.snapshot
        for name in sorted(snap.cluster_queues):
            cq = snap.cluster_queues[name]
            for fr in sorted(set(cq.quotas) | {fr for fr, v in cq.usage.items() if v}, key=lambda f: (f[1], f[0])):
                q = cq.quota_for(fr)
                lim = None if (cq.parent is not None and q.borrowing_limit is None) else \
                    q.nominal + (q.borrowing_limit or 0) if cq.parent is not None else q.nominal
                rows.append(UsageRow(name, "ClusterQueue", fr[0], fr[1], cq.usage.get(fr, 0), q.nominal, lim,
                                     q.lending_limit))
        for name in sorted(snap.cohorts):
            c = snap.cohorts[name]
            for fr in sorted(set(c.subtree_quota) | {fr for fr, v in c.usage.items() if v}, key=lambda f: (f[1], f[0])):
                q = c.quotas.get(fr)
                rows.append(UsageRow(name, "Cohort", fr[0], fr[1], c.usage.get(fr, 0), c.subtree_quota.get(fr, 0),
                                     None, q.lending_limit if q is not None else None))
        return tuple(rows)

    def final_admitted(self) -> dict:
        out = {}
        for cq in self.snapshot.cluster_queues.values():
            for k, w in cq.workloads.items():
                out[k] = (cq.name, {ps: dict(sorted(fl.items())) for ps, fl in w.pod_set_flavors().items()})
        return dict(sorted(out.items()))

