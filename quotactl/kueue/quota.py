"""The quota tree: ClusterQueues under flat and hierarchical cohorts, with SubtreeQuota, usage,
available and potential-available quota at every node exactly as Kueue computes them
(kueue-scheduling.md §3).

Source: ``pkg/cache/scheduler/resource_node.go`` (``localQuota``, ``LocalAvailable``,
``available``, ``potentialAvailable``, ``addUsage``, ``removeUsage``, ``accumulateFromChild``,
``QuantitiesFitInQuota``, ``IsWithinNominalInResources``), ``pkg/cache/scheduler/snapshot.go``
(inactive ClusterQueues), ``pkg/cache/scheduler/fair_sharing.go`` (dominant resource share),
``pkg/scheduler/preemption/classical/hierarchical_preemption.go``
(``FindHeightOfLowestSubtreeThatFits``, ``getNodeHeight``).

A ``Snapshot`` is the scheduler's per-cycle snapshot: it is mutable only through
``add_workload``/``remove_workload``/``add_usage``/``remove_usage`` (the preemption
simulations), which always restore what they change.  Everything else here is a pure function
of the nodes.  Amounts are ints (see ``amounts``); a flavor-resource ``fr`` is a
``(flavor, resource)`` tuple.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from fractions import Fraction

from quotactl.kueue.amounts import saturate, to_amount
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.workload import AdmittedWorkload, counts_against_quota
from quotactl.model.kueue import (
    ClusterQueue,
    Cohort,
    FlavorFungibility,
    KueueCluster,
    Preemption,
    ResourceFlavor,
    ResourceGroup,
)

FR = tuple  # (flavor, resource)


# ------------------------------------------------------------------------------ the nodes ---

@dataclass(frozen=True)
class ResourceQuota:
    """Kueue's ``ResourceQuota`` for one fr of one node, in amounts."""

    nominal: int
    borrowing_limit: int | None = None
    lending_limit: int | None = None


@dataclass(frozen=True)
class ResourceGroupView:
    covered_resources: tuple[str, ...]
    flavors: tuple[str, ...]


@dataclass(frozen=True)
class InactiveReason:
    """Why a ClusterQueue is not Active, as Kueue would say it (condition Active=False)."""

    reason: str  # Stopped | FlavorNotFound | AdmissionCheckNotFound | AdmissionCheckInactive | CohortCycle
    message: str


class QuotaNode:
    """Shared representation of a ClusterQueue or a Cohort (Kueue's ``resourceNode``)."""

    __slots__ = ("name", "parent", "quotas", "subtree_quota", "usage", "fair_weight",
                 "child_cqs", "child_cohorts")
    is_cohort = False

    def __init__(self, name: str, quotas: dict[FR, ResourceQuota], fair_weight: float):
        self.name = name
        self.parent: CohortNode | None = None
        self.quotas = quotas
        self.subtree_quota: dict[FR, int] = {}
        self.usage: dict[FR, int] = {}
        self.fair_weight = fair_weight
        self.child_cqs: list[ClusterQueueNode] = []
        self.child_cohorts: list[CohortNode] = []

    @property
    def has_parent(self) -> bool:
        return self.parent is not None

    def path_parent_to_root(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def root(self) -> QuotaNode:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"


class CohortNode(QuotaNode):
    __slots__ = ("spec", "all_child_cqs", "implicit")
    is_cohort = True

    def __init__(self, name: str, spec: Cohort | None, quotas: dict[FR, ResourceQuota], fair_weight: float):
        super().__init__(name, quotas, fair_weight)
        self.spec = spec
        self.implicit = spec is None
        self.all_child_cqs: list[ClusterQueueNode] = []  # inactive ones too (they still count)


class ClusterQueueNode(QuotaNode):
    __slots__ = ("spec", "resource_groups", "workloads", "inactive", "flavor_fungibility", "preemption",
                 "_rg_by_resource", "_ordered")

    def __init__(self, spec: ClusterQueue, quotas: dict[FR, ResourceQuota], fair_weight: float,
                 resource_groups: tuple[ResourceGroupView, ...]):
        super().__init__(spec.name or "", quotas, fair_weight)
        self.spec = spec
        self.resource_groups = resource_groups
        self.workloads: dict[str, AdmittedWorkload] = {}
        self.inactive: InactiveReason | None = None
        self.flavor_fungibility: FlavorFungibility = spec.flavor_fungibility
        self.preemption: Preemption = spec.preemption
        self._rg_by_resource = {}
        for rg in resource_groups:
            for r in rg.covered_resources:
                self._rg_by_resource.setdefault(r, rg)
        self._ordered: list | None = None  # see ordered_workloads

    def ordered_workloads(self) -> list:
        """``(ordering_fields, workload)`` of every workload, sorted: the preemption candidate
        order (``CandidatesOrdering`` without its preemptor-dependent field).  Built on first
        use, then kept up to date by ``Snapshot.add_workload``/``remove_workload`` (the only
        writers of ``workloads`` after the snapshot is built).  Callers must not mutate it, nor
        hold on to it across a change of ``workloads``."""
        rows = self._ordered
        if rows is None:
            rows = self._ordered = sorted((w.ordering_fields, w) for w in self.workloads.values())
        return rows

    def _ordered_add(self, wl: AdmittedWorkload, replaced: bool) -> None:
        rows = self._ordered
        if rows is None:
            return
        if replaced:
            self._ordered = None
            return
        of = wl.ordering_fields
        rows.insert(bisect.bisect_left(rows, (of,)), (of, wl))

    def _ordered_remove(self, wl: AdmittedWorkload) -> None:
        rows = self._ordered
        if rows is None:
            return
        of = wl.ordering_fields
        i = bisect.bisect_left(rows, (of,))
        if i < len(rows) and rows[i][1] is wl:
            del rows[i]
        else:  # not the object we indexed (same key, another object): rebuild on next use
            self._ordered = None

    @property
    def active(self) -> bool:
        return self.inactive is None

    def rg_by_resource(self, resource: str) -> ResourceGroupView | None:
        return self._rg_by_resource.get(resource)

    def quota_for(self, fr: FR) -> ResourceQuota:
        return self.quotas.get(fr) or _ZERO_QUOTA

    def nominal(self, fr: FR) -> int:
        q = self.quotas.get(fr)
        return q.nominal if q else 0


_ZERO_QUOTA = ResourceQuota(0)


# ----------------------------------------------------------------------------- quota math ---
# (The functions the scheduler calls most clip at zero with ``x if x > 0 else 0`` rather than
# ``max(0, x)``: the same int, without a call.)

def local_quota(node: QuotaNode, fr: FR) -> int:
    """The part of the node's SubtreeQuota it does not lend (0 without a lendingLimit)."""
    q = node.quotas.get(fr)
    if q is not None and q.lending_limit is not None:
        lq = node.subtree_quota.get(fr, 0) - q.lending_limit
        return lq if lq > 0 else 0
    return 0


def local_available(node: QuotaNode, fr: FR) -> int:
    """``LocalAvailable``: protected quota not yet used."""
    la = local_quota(node, fr) - node.usage.get(fr, 0)
    return la if la > 0 else 0


def available(node: QuotaNode, fr: FR) -> int:
    """``available``: what the node can still take, may be negative (over-admission)."""
    parent = node.parent
    if parent is None:
        return node.subtree_quota.get(fr, 0) - node.usage.get(fr, 0)
    parent_available = available(parent, fr)
    u = node.usage.get(fr, 0)
    q = node.quotas.get(fr)
    if q is None:  # local quota 0 (``local_quota`` / ``local_available`` inlined: the hot path)
        return (-u if u < 0 else 0) + parent_available
    lq = 0
    if q.lending_limit is not None:
        lq = node.subtree_quota.get(fr, 0) - q.lending_limit
        lq = lq if lq > 0 else 0
    if q.borrowing_limit is not None:
        stored_in_parent = node.subtree_quota.get(fr, 0) - lq
        used_in_parent = u - lq if u > lq else 0
        parent_available = min(stored_in_parent - used_in_parent + q.borrowing_limit, parent_available)
    return (lq - u if lq > u else 0) + parent_available


def cq_available(cq: ClusterQueueNode, fr: FR) -> int:
    """``ClusterQueueSnapshot.Available``: ``available`` clipped at 0 (only at the CQ)."""
    a = available(cq, fr)
    return a if a > 0 else 0


def potential_available(node: QuotaNode, fr: FR) -> int:
    """``potentialAvailable``: the most the node could ever get, ignoring all usage."""
    if node.parent is None:
        return node.subtree_quota.get(fr, 0)
    value = local_quota(node, fr) + potential_available(node.parent, fr)
    q = node.quotas.get(fr)
    if q is not None and q.borrowing_limit is not None:
        value = min(node.subtree_quota.get(fr, 0) + q.borrowing_limit, value)
    return value


def add_usage(node: QuotaNode, fr: FR, val: int) -> None:
    """``addUsage``: usage beyond the node's free local quota bubbles up to the parent.
    (``local_available`` inlined: this runs for every simulated removal and restore.)"""
    while node is not None:
        usage = node.usage
        u = usage.get(fr, 0)
        q = node.quotas.get(fr)
        lq = 0
        if q is not None and q.lending_limit is not None:
            lq = node.subtree_quota.get(fr, 0) - q.lending_limit
            lq = lq if lq > 0 else 0
        la = lq - u if lq > u else 0
        usage[fr] = u + val
        if node.parent is None or val <= la:
            return
        val -= la
        node = node.parent


def remove_usage(node: QuotaNode, fr: FR, val: int) -> None:
    """``removeUsage``: mirror of ``add_usage`` (``local_quota`` inlined)."""
    while node is not None:
        usage = node.usage
        u = usage.get(fr, 0)
        q = node.quotas.get(fr)
        lq = 0
        if q is not None and q.lending_limit is not None:
            lq = node.subtree_quota.get(fr, 0) - q.lending_limit
            lq = lq if lq > 0 else 0
        stored_in_parent = u - lq
        usage[fr] = u - val
        if stored_in_parent <= 0 or node.parent is None:
            return
        if stored_in_parent < val:
            val = stored_in_parent
        node = node.parent


class UsageOverlay:
    """What-if usage on top of the live tree, without touching it: ``remove`` replays
    ``remove_usage`` step for step on a private copy of the usages it changes, ``cq_available``
    reads through that copy.  Only the frs asked for are replayed (frs never interact), so
    the answer is exactly what ``remove_usage`` then ``cq_available`` on the tree would give."""

    __slots__ = ("usage", "frs")

    def __init__(self, frs):
        self.usage: dict[tuple, int] = {}  # (id(node), fr) -> usage
        self.frs = frs

    def _get(self, node: QuotaNode, fr: FR) -> int:
        u = self.usage.get((id(node), fr))
        return node.usage.get(fr, 0) if u is None else u

    def remove(self, node: QuotaNode, usage: dict[FR, int]) -> None:
        frs = self.frs
        for fr, val in usage.items():
            if fr not in frs:
                continue
            n = node
            while n is not None:
                u = self._get(n, fr)
                q = n.quotas.get(fr)
                lq = 0
                if q is not None and q.lending_limit is not None:
                    lq = max(0, n.subtree_quota.get(fr, 0) - q.lending_limit)
                stored_in_parent = u - lq
                self.usage[(id(n), fr)] = u - val
                if stored_in_parent <= 0 or n.parent is None:
                    break
                val = min(val, stored_in_parent)
                n = n.parent

    def available(self, node: QuotaNode, fr: FR) -> int:
        """``available`` with the overlay's usages."""
        u = self._get(node, fr)
        if node.parent is None:
            return node.subtree_quota.get(fr, 0) - u
        parent_available = self.available(node.parent, fr)
        q = node.quotas.get(fr)
        lq = 0
        if q is not None and q.lending_limit is not None:
            lq = max(0, node.subtree_quota.get(fr, 0) - q.lending_limit)
        if q is not None and q.borrowing_limit is not None:
            stored_in_parent = node.subtree_quota.get(fr, 0) - lq
            used_in_parent = max(0, u - lq)
            parent_available = min(stored_in_parent - used_in_parent + q.borrowing_limit, parent_available)
        return max(0, lq - u) + parent_available

    def cq_available(self, cq: ClusterQueueNode, fr: FR) -> int:
        return max(0, self.available(cq, fr))


def borrowing_with(node: QuotaNode, fr: FR, val: int) -> bool:
    """``BorrowingWith``: usage + val above the node's SubtreeQuota (a CQ's nominal)."""
    return node.usage.get(fr, 0) + val > node.subtree_quota.get(fr, 0)


def borrowing(node: QuotaNode, fr: FR) -> bool:
    return borrowing_with(node, fr, 0)


def quantities_fit_in_quota(node: QuotaNode, requests: dict[FR, int]) -> tuple[bool, dict[FR, int]]:
    """``QuantitiesFitInQuota``: fits without borrowing, and the remainder for the parent."""
    fits = True
    remaining = {}
    for fr, v in requests.items():
        if node.usage.get(fr, 0) + v > node.subtree_quota.get(fr, 0):
            fits = False
        rest = v - local_available(node, fr)
        remaining[fr] = rest if rest > 0 else 0
    return fits, remaining


def is_within_nominal_in_resources(node: QuotaNode, frs) -> bool:
    """``IsWithinNominalInResources``: usage <= SubtreeQuota on every fr of ``frs``."""
    for fr in frs:
        if node.usage.get(fr, 0) > node.subtree_quota.get(fr, 0):
            return False
    return True


def node_height(cohort: CohortNode) -> int:
    """``getNodeHeight``: distance to the furthest leaf (children in the snapshot only)."""
    h = min(len(cohort.child_cqs) + len(cohort.child_cohorts), 1)
    for child in cohort.child_cohorts:
        h = max(h, node_height(child) + 1)
    return h


def find_height_of_lowest_subtree_that_fits(cq: ClusterQueueNode, fr: FR, val: int) -> tuple[int, bool]:
    """The borrowing level for ``val`` more of ``fr`` in ``cq`` (§3.7), and whether the subtree
    that could hold it is smaller than the whole tree ("mayReclaimInHierarchy")."""
    parent = cq.parent
    if parent is None or cq.usage.get(fr, 0) + val <= cq.subtree_quota.get(fr, 0):  # not borrowing_with
        return 0, parent is not None
    remaining = val - local_available(cq, fr)
    tracking = parent
    while True:
        if tracking.usage.get(fr, 0) + remaining <= tracking.subtree_quota.get(fr, 0):  # not borrowing_with
            return node_height(tracking), tracking.parent is not None
        if tracking.parent is None:
            return node_height(tracking), False
        remaining -= local_available(tracking, fr)
        tracking = tracking.parent


# ------------------------------------------------------------------ dominant resource share ---

@dataclass(frozen=True)
class DRS:
    """A node's dominant resource share (§8.2), comparable with ``compare_drs``."""

    fair_weight: float = 1.0
    unweighted_ratio: float = 0.0
    dominant_resource: str = ""
    borrowing: bool = False
    borrowed_frs: tuple = ()

    def is_zero(self) -> bool:
        return self.unweighted_ratio == 0

    def zero_weight_borrows(self) -> bool:
        return self.fair_weight == 0 and self.borrowing

    def precise_weighted_share(self) -> float:
        if self.zero_weight_borrows():
            return math.inf
        if self.is_zero():
            return 0.0
        return self.unweighted_ratio / self.fair_weight

    def weighted_share(self) -> int:
        """The value Kueue reports in ``status.fairSharing.weightedShare``."""
        if self.zero_weight_borrows():
            return 2**63 - 1
        return int(math.ceil(self.precise_weighted_share()))

    def is_borrowing_on(self, requested: dict) -> bool:
        return any(requested.get(fr, 0) > 0 for fr in self.borrowed_frs)


NEGATIVE_DRS = DRS(fair_weight=1.0, unweighted_ratio=-1.0)


def compare_drs(a: DRS, b: DRS) -> int:
    """``CompareDRS``: zero-weight borrowers after everyone, else by weighted share."""
    az, bz = a.zero_weight_borrows(), b.zero_weight_borrows()
    if az and bz:
        return (a.unweighted_ratio > b.unweighted_ratio) - (a.unweighted_ratio < b.unweighted_ratio)
    if az:
        return 1
    if bz:
        return -1
    x, y = a.precise_weighted_share(), b.precise_weighted_share()
    return (x > y) - (x < y)


def calculate_lendable(node: QuotaNode) -> dict[str, int]:
    """``calculateLendable``: per resource name, Σ over the root's frs of potentialAvailable(node)."""
    root = node.root()
    lendable: dict[str, int] = {}
    for fr in root.subtree_quota:
        lendable[fr[1]] = lendable.get(fr[1], 0) + potential_available(node, fr)
    return lendable


def dominant_resource_share(node: QuotaNode, extra: dict[FR, int] | None = None) -> DRS:
    """``dominantResourceShare``: borrowed / what the parent could lend, max over resources."""
    if node.parent is None:
        return DRS(fair_weight=node.fair_weight)
    borrowed: dict[str, int] = {}
    borrowed_frs = []
    for fr, quota in node.subtree_quota.items():
        b = (extra.get(fr, 0) if extra else 0) + node.usage.get(fr, 0) - quota
        if b > 0:
            borrowed[fr[1]] = borrowed.get(fr[1], 0) + b
            borrowed_frs.append(fr)
    if not borrowed:
        return DRS(fair_weight=node.fair_weight)
    lendable = calculate_lendable(node.parent)
    ratio, dominant = 0.0, ""
    for res, b in borrowed.items():
        lr = lendable.get(res, 0)
        if lr > 0:
            r = float(b) * 1000.0 / float(lr)
            if r > ratio or (r == ratio and res < dominant):
                ratio, dominant = r, res
    return DRS(node.fair_weight, ratio, dominant, True, tuple(borrowed_frs))


# ------------------------------------------------------------------------------- snapshot ---

class Snapshot:
    """Kueue's scheduler snapshot built from a model (``Cache.Snapshot``)."""

    def __init__(self):
        self.cluster_queues: dict[str, ClusterQueueNode] = {}  # every CQ, active or not
        self.cohorts: dict[str, CohortNode] = {}  # every cohort not caught in a cycle
        self.cycle_cohorts: set[str] = set()
        self.resource_flavors: dict[str, ResourceFlavor] = {}
        self.options: EngineOptions = EngineOptions()
        self.cluster: KueueCluster | None = None

    # -- lookups ------------------------------------------------------------------------
    def cluster_queue(self, name: str | None) -> ClusterQueueNode | None:
        """The active ClusterQueue (what the scheduler sees), or None."""
        cq = self.cluster_queues.get(name or "")
        return cq if cq is not None and cq.active else None

    def workload(self, key: str) -> AdmittedWorkload | None:
        for cq in self.cluster_queues.values():
            if key in cq.workloads:
                return cq.workloads[key]
        return None

    # -- simulation (always undone by the caller) ----------------------------------------
    def remove_workload(self, wl: AdmittedWorkload) -> None:
        cq = self.cluster_queues[wl.cluster_queue]
        old = cq.workloads.pop(wl.key)
        if cq._ordered is not None:
            cq._ordered_remove(old)
        for fr, v in wl.usage.items():
            remove_usage(cq, fr, v)

    def add_workload(self, wl: AdmittedWorkload) -> None:
        cq = self.cluster_queues[wl.cluster_queue]
        old = cq.workloads.get(wl.key)
        if cq._ordered is not None:
            cq._ordered_add(wl, old is not None)
        cq.workloads[wl.key] = wl
        for fr, v in wl.usage.items():
            add_usage(cq, fr, v)

    @staticmethod
    def add_usage(node: QuotaNode, usage: dict[FR, int]) -> None:
        for fr, v in usage.items():
            add_usage(node, fr, v)

    @staticmethod
    def remove_usage(node: QuotaNode, usage: dict[FR, int]) -> None:
        for fr, v in usage.items():
            remove_usage(node, fr, v)


def _weight(fs) -> float:
    """``parseFairWeight``: the fairSharing weight, 1 when absent."""
    if fs is None or fs.weight is None:
        return 1.0
    return float(Fraction(fs.weight.nanos, 10**9))


def _quotas(groups: tuple[ResourceGroup, ...]) -> dict[FR, ResourceQuota]:
    quotas: dict[FR, ResourceQuota] = {}
    for rg in groups:
        for fq in rg.flavors:
            if not fq.name:
                continue
            for rq in fq.resources:
                if not rq.name:
                    continue
                fr = (fq.name, rq.name)
                if fr in quotas:
                    continue
                quotas[fr] = ResourceQuota(
                    nominal=to_amount(rq.name, rq.nominal) if rq.nominal is not None else 0,
                    borrowing_limit=to_amount(rq.name, rq.borrowing_limit) if rq.borrowing_limit is not None else None,
                    lending_limit=to_amount(rq.name, rq.lending_limit) if rq.lending_limit is not None else None,
                )
    return quotas


def _resource_group_views(cq: ClusterQueue) -> tuple[ResourceGroupView, ...]:
    return tuple(
        ResourceGroupView(tuple(rg.covered_resources), tuple(f.name for f in rg.flavors if f.name))
        for rg in cq.resource_groups
    )


def _inactive_reason(cq: ClusterQueue, snapshot: Snapshot, options: EngineOptions,
                     in_cycle: bool) -> InactiveReason | None:
    """Why Kueue would mark the ClusterQueue inactive (condition Active=False), if it would."""
    missing = [f for f in cq.flavor_names if f not in snapshot.resource_flavors]
    if missing:
        names = ", ".join(sorted(dict.fromkeys(missing)))
        return InactiveReason("FlavorNotFound", f"Can't admit new workloads: references missing ResourceFlavor(s): {names}")
    checks = [c.name for c in cq.admission_checks if c.name]
    if checks and options.admission_checks is not None:
        absent = [c for c in checks if c not in options.admission_checks]
        if absent:
            return InactiveReason("AdmissionCheckNotFound",
                                  f"Can't admit new workloads: references missing AdmissionCheck(s): {', '.join(absent)}")
        inactive = [c for c in checks if not options.admission_checks[c]]
        if inactive:
            return InactiveReason("AdmissionCheckInactive",
                                  f"Can't admit new workloads: references inactive AdmissionCheck(s): {', '.join(inactive)}")
    if cq.stop_policy and cq.stop_policy != "None":
        return InactiveReason("Stopped", f"Can't admit new workloads: stopPolicy is {cq.stop_policy}")
    if in_cycle:
        return InactiveReason("CohortCycle",
                              f"Can't admit new workloads: cohort {cq.cohort} is part of a cycle of parentName references")
    return None


def build_snapshot(cluster: KueueCluster, options: EngineOptions | None = None,
                   workload_filter=None) -> Snapshot:
    """The scheduler snapshot for a model: quota tree, usage of every admitted workload.

    ``workload_filter`` (optional ``Workload -> bool``) limits which admitted workloads are
    accounted; callers use it only to skip workloads that cannot influence the answer.
    """
    options = options or EngineOptions()
    snap = Snapshot()
    snap.options = options
    snap.cluster = cluster
    snap.resource_flavors = dict(cluster.resource_flavors)

    names = cluster.cohort_names()
    snap.cycle_cohorts = set(cluster.cohort_cycles().doomed)
    for name in sorted(names):
        if name in snap.cycle_cohorts:
            continue
        spec = cluster.cohorts.get(name)
        quotas = _quotas(spec.resource_groups) if spec is not None else {}
        weight = _weight(spec.fair_sharing) if spec is not None else 1.0
        snap.cohorts[name] = CohortNode(name, spec, quotas, weight)
    for node in snap.cohorts.values():
        parent = node.spec.parent if node.spec is not None else None
        if parent and parent in snap.cohorts:
            node.parent = snap.cohorts[parent]
            node.parent.child_cohorts.append(node)

    for name in sorted(cluster.cluster_queues):
        spec = cluster.cluster_queues[name]
        cq = ClusterQueueNode(spec, _quotas(spec.resource_groups), _weight(spec.fair_sharing),
                              _resource_group_views(spec))
        in_cycle = bool(spec.cohort) and spec.cohort in snap.cycle_cohorts
        cq.inactive = _inactive_reason(spec, snap, options, in_cycle)
        if spec.cohort and spec.cohort in snap.cohorts:
            parent = snap.cohorts[spec.cohort]
            cq.parent = parent
            parent.all_child_cqs.append(cq)
            if cq.active:
                parent.child_cqs.append(cq)
        snap.cluster_queues[name] = cq

    # Usage of admitted workloads, charged to their ClusterQueue (cohorts are derived below).
    for wl in cluster.workloads.values():
        if wl.admission is None or not counts_against_quota(wl):
            continue
        cq = snap.cluster_queues.get(wl.admission.cluster_queue or "")
        if cq is None:
            continue  # Kueue's cache cannot account it: the ClusterQueue does not exist
        if workload_filter is not None and not workload_filter(wl):
            continue
        info = AdmittedWorkload(wl, cq.name, cluster, options)
        cq.workloads[info.key] = info
        usage = cq.usage
        for fr, v in info.usage.items():
            usage[fr] = saturate(usage.get(fr, 0) + v)

    for cq in snap.cluster_queues.values():
        cq.subtree_quota = {fr: q.nominal for fr, q in cq.quotas.items()}
    for cohort in snap.cohorts.values():
        if cohort.parent is None:
            _update_cohort(cohort)
    return snap


def _accumulate(parent: CohortNode, child: QuotaNode) -> None:
    """``accumulateFromChild``: a child lends what it does not keep, and charges its parent only
    the usage beyond its local quota."""
    sq, usage = parent.subtree_quota, parent.usage
    for fr, q in child.subtree_quota.items():
        sq[fr] = sq.get(fr, 0) + q - local_quota(child, fr)
    for fr, u in child.usage.items():
        excess = max(0, u - local_quota(child, fr))
        usage[fr] = usage.get(fr, 0) + excess


def _update_cohort(cohort: CohortNode) -> None:
    """``updateCohortResourceNode``: SubtreeQuota and usage, from the leaves up."""
    cohort.subtree_quota = {fr: q.nominal for fr, q in cohort.quotas.items()}
    cohort.usage = {}
    for child in cohort.child_cohorts:
        _update_cohort(child)
        _accumulate(cohort, child)
    for child in cohort.all_child_cqs:
        _accumulate(cohort, child)


# ----------------------------------------------------------------------------- read views ---

@dataclass(frozen=True)
class QuotaView:
    """Everything Kueue knows about one fr at one node (for reports and tests)."""

    node: str
    kind: str  # ClusterQueue | Cohort
    flavor: str
    resource: str
    nominal: int
    borrowing_limit: int | None
    lending_limit: int | None
    subtree_quota: int
    local_quota: int
    usage: int
    available: int  # clipped at 0 for a ClusterQueue, raw for a cohort
    potential_available: int
    borrowing: bool


def quota_view(node: QuotaNode, fr: FR) -> QuotaView:
    q = node.quotas.get(fr) or _ZERO_QUOTA
    avail = cq_available(node, fr) if isinstance(node, ClusterQueueNode) else available(node, fr)
    return QuotaView(
        node=node.name, kind="Cohort" if node.is_cohort else "ClusterQueue", flavor=fr[0], resource=fr[1],
        nominal=q.nominal, borrowing_limit=q.borrowing_limit, lending_limit=q.lending_limit,
        subtree_quota=node.subtree_quota.get(fr, 0), local_quota=local_quota(node, fr),
        usage=node.usage.get(fr, 0), available=avail, potential_available=potential_available(node, fr),
        borrowing=node.parent is not None and borrowing(node, fr),
    )


def cohort_path(node: QuotaNode) -> list[str]:
    """Cohort names from the root down to the node's parent."""
    return [n.name for n in reversed(list(node.path_parent_to_root()))]


def cq_path(cq: ClusterQueueNode) -> str:
    """Kueue's path notation: ``/root/.../cq`` (``/cq`` without a cohort)."""
    return "/" + "/".join(cohort_path(cq) + [cq.name])


# ------------------------------------------------------------------------ what-if changes ---

def recompute_tree(node: QuotaNode) -> None:
    """Recompute SubtreeQuota and cohort usage of the whole tree holding ``node`` (after a
    quota change).  ClusterQueue usage is the source of truth and is left alone."""
    root = node.root()
    if isinstance(root, ClusterQueueNode):
        root.subtree_quota = {fr: q.nominal for fr, q in root.quotas.items()}
        return
    stack = [root]
    while stack:
        c = stack.pop()
        for cq in c.all_child_cqs:
            cq.subtree_quota = {fr: q.nominal for fr, q in cq.quotas.items()}
        stack.extend(c.child_cohorts)
    _update_cohort(root)


class QuotaOverride:
    """Temporarily replace ResourceQuotas on nodes (``with QuotaOverride({(node, fr): rq}):``)."""

    def __init__(self, changes: dict):
        self.changes = changes
        self.saved: list = []

    def __enter__(self):
        for (node, fr), rq in self.changes.items():
            self.saved.append((node, fr, node.quotas.get(fr)))
            quotas = dict(node.quotas)
            quotas[fr] = rq
            node.quotas = quotas
        for node in {n for (n, _fr) in self.changes}:
            recompute_tree(node)
        return self

    def __exit__(self, *exc):
        for node, fr, old in reversed(self.saved):
            quotas = dict(node.quotas)
            if old is None:
                quotas.pop(fr, None)
            else:
                quotas[fr] = old
            node.quotas = quotas
        for node in {n for (n, _fr, _old) in self.saved}:
            recompute_tree(node)
        return False
