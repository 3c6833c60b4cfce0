"""Fair sharing: the dominant-resource-share tree behind ``quotactl
shares``, and the admission tournament that orders a scheduling cycle's heads when fair sharing
is on (the ``schedule`` command iterates with ``FairSharingIterator``).

The share of one node is ``quota.dominant_resource_share`` (the single implementation of
Kueue's ``dominantResourceShare``); this module only lays it out per resource for humans, and
runs the tournament over it.

Source: ``pkg/cache/scheduler/fair_sharing.go``, ``pkg/scheduler/fair_sharing_iterator.go``
(``pop``, ``computeDRS``, ``runTournament``, ``entryComparer.less``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from quotactl.kueue.quota import (
    DRS,
    ClusterQueueNode,
    CohortNode,
    QuotaNode,
    Snapshot,
    calculate_lendable,
    compare_drs,
    dominant_resource_share,
    lendables_up,
)

# ------------------------------------------------------------------------ the share tree ---


@dataclass(frozen=True)
class FlavorShare:
    """One flavor-resource of a node."""

    flavor: str
    resource: str
    nominal: int  # the node's own nominalQuota (a cohort's own resourceGroups)
    quota: int  # SubtreeQuota
    usage: int
    borrowed: int  # max(0, usage - quota)


@dataclass(frozen=True)
class ResourceShare:
    """One resource name of a node, summed over flavors the way Kueue sums it."""

    resource: str
    quota: int
    usage: int
    borrowed: int  # only flavors where the node is above its quota contribute
    lendable: int  # what the parent could potentially provide (the denominator)
    share: float | None  # borrowed * 1000 / lendable (per mille); None when nothing is lendable


@dataclass(frozen=True)
class ShareNode:
    name: str
    kind: str  # Cohort | ClusterQueue
    parent: str | None
    depth: int
    weight: float
    implicit: bool  # a cohort that only exists as a name (no Cohort object)
    active: bool
    flavors: tuple[FlavorShare, ...]
    resources: tuple[ResourceShare, ...]
    borrowing: bool
    dominant_resource: str | None
    unweighted_share: float  # the dominant ratio, per mille
    weighted_share: float | None  # unweighted / weight; None = +Inf (weight 0 and borrowing)
    status_weighted_share: int  # what Kueue writes in status.fairSharing.weightedShare
    children: tuple[str, ...]
    rank: int | None = None  # 1 = lowest share among its siblings (the tournament's favourite)

    @property
    def has_share(self) -> bool:
        """Only nodes with a parent have a share."""
        return self.parent is not None


@dataclass(frozen=True)
class ShareTree:
    nodes: tuple[ShareNode, ...]  # depth-first, each root followed by its subtree
    fair_sharing: bool
    shown: object = None  # selection.Shown when -n cut the queue heads of the report

    def node(self, name: str, kind: str | None = None) -> ShareNode | None:
        return next((n for n in self.nodes if n.name == name and (kind is None or n.kind == kind)), None)


def _share_node(node: QuotaNode, depth: int, drs: DRS) -> ShareNode:
    frs = sorted(set(node.subtree_quota) | set(node.usage), key=lambda fr: (fr[1], fr[0]))
    flavors = []
    for fr in frs:
        q = node.quotas.get(fr)
        quota = node.subtree_quota.get(fr, 0)
        used = node.usage.get(fr, 0)
        flavors.append(FlavorShare(fr[0], fr[1], q.nominal if q else 0, quota, used, max(0, used - quota)))
    lendable = calculate_lendable(node.parent) if node.parent is not None else {}
    resources = []
    for res in sorted({fr[1] for fr in frs}):
        mine = [f for f in flavors if f.resource == res]
        borrowed = sum(f.borrowed for f in mine)
        lend = lendable.get(res, 0)
        share = borrowed * 1000.0 / lend if node.parent is not None and lend > 0 else None
        resources.append(ResourceShare(res, sum(f.quota for f in mine), sum(f.usage for f in mine), borrowed,
                                       lend, share))
    weighted = drs.precise_weighted_share()
    children = [c.name for c in _children(node)]
    return ShareNode(
        name=node.name, kind="Cohort" if node.is_cohort else "ClusterQueue",
        parent=node.parent.name if node.parent is not None else None, depth=depth, weight=node.fair_weight,
        implicit=bool(getattr(node, "implicit", False)),
        active=node.active if isinstance(node, ClusterQueueNode) else True,
        flavors=tuple(flavors), resources=tuple(resources), borrowing=drs.borrowing,
        dominant_resource=drs.dominant_resource or None, unweighted_share=drs.unweighted_ratio,
        weighted_share=None if math.isinf(weighted) else weighted, status_weighted_share=drs.weighted_share(),
        children=tuple(children))


def share_tree(snapshot: Snapshot) -> ShareTree:
    """Every cohort tree and standalone ClusterQueue with its shares, roots sorted by name,
    children cohorts first then ClusterQueues (each sorted by name).  ``rank`` orders siblings
    by ``CompareDRS`` (1 = lowest share: the sibling the tournament favours)."""
    out: list[ShareNode] = []

    roots: list[QuotaNode] = sorted((c for c in snapshot.cohorts.values() if c.parent is None), key=lambda n: n.name)
    roots += sorted((q for q in snapshot.cluster_queues.values() if q.parent is None), key=lambda n: n.name)
    # depth-first, parents before children, without recursion: a chain of cohorts may be deeper
    # than Python's stack (found by the fuzzer)
    stack: list[tuple[QuotaNode, int, int | None]] = [(r, 0, None) for r in reversed(roots)]
    while stack:
        node, depth, rank = stack.pop()
        out.append(replace(_share_node(node, depth, dominant_resource_share(node)), rank=rank))
        kids = _children(node)
        ranks = _ranks(kids)
        stack.extend((k, depth + 1, ranks[id(k)]) for k in reversed(kids))
    return ShareTree(tuple(out), snapshot.options.fair_sharing)


def _ranks(nodes: list[QuotaNode]) -> dict[int, int]:
    shares = [(dominant_resource_share(n), n) for n in nodes]
    ranks: dict[int, int] = {}
    for d, n in shares:
        ranks[id(n)] = 1 + sum(1 for e, _m in shares if compare_drs(e, d) < 0)
    return ranks


def _children(node: QuotaNode) -> list[QuotaNode]:
    if not isinstance(node, CohortNode):
        return []
    return sorted(node.child_cohorts, key=lambda n: n.name) + sorted(node.all_child_cqs, key=lambda n: n.name)


# -------------------------------------------------------------------------- the tournament ---

class TournamentEntry(Protocol):
    """What the tournament reads from a scheduling entry (one head per ClusterQueue)."""

    key: str
    cluster_queue: str
    usage: dict  # fr -> amount of its assignment (what admitting it adds)
    priority: int
    queue_order_timestamp: datetime
    is_preemptor: bool  # its ClusterQueue's preemptor (``queue_order.Preemptors``)


@dataclass(frozen=True)
class Head:
    """A ready-made ``TournamentEntry``."""

    key: str
    cluster_queue: str
    usage: dict
    priority: int
    queue_order_timestamp: datetime
    is_preemptor: bool = False  # a snapshot knows of no preemptor


@dataclass(frozen=True)
class Standing:
    """How one entry looked from one cohort during a pop (for reports and tests)."""

    cohort: str
    entry: str
    node: str  # the cohort's child on the path to the entry's ClusterQueue
    share: float | None  # weighted share of ``node`` with the entry admitted (None = +Inf)
    borrowing: bool  # ``node`` borrows on a flavor-resource the entry requests


class FairSharingIterator:
    """``fairSharingIterator``: hands out the entries of a cycle in fair-sharing order.

    Each ``pop`` recomputes the shares from the snapshot *as it is now*, so a caller that adds
    an admitted entry's usage to the snapshot before the next ``pop`` gets Kueue's behaviour
    (shares reflect earlier admissions of the cycle).  Across different cohort trees Kueue's
    order is unspecified (a Go map); here the tree of the first remaining entry (input order)
    goes first.  Within a tree Kueue keeps the first of fully tied candidates; children are
    visited cohorts first, then ClusterQueues, each by name.
    """

    def __init__(self, snapshot: Snapshot, entries: Iterable[TournamentEntry]):
        self.snapshot = snapshot
        self.gates = snapshot.options.gates
        self.prioritize_preemptors = self.gates.enabled("PrioritizePreemptorWorkloads")
        self.by_cq: dict[str, TournamentEntry] = {}
        for e in entries:
            self.by_cq.setdefault(e.cluster_queue, e)  # one head per ClusterQueue
        self.standings: list[Standing] = []  # of the last pop

    def has_next(self) -> bool:
        return bool(self.by_cq)

    def __iter__(self):
        while self.has_next():
            yield self.pop()

    def pop(self) -> TournamentEntry:
        name = next(iter(self.by_cq))
        cq = self.snapshot.cluster_queues.get(name)
        self.standings = []
        if cq is None or cq.parent is None:
            return self.by_cq.pop(name)
        root = cq.root()
        values = self._compute_drs(root)
        winner = self._run_tournament(root, values)
        return self.by_cq.pop(winner.cluster_queue)

    def _compute_drs(self, root: CohortNode) -> dict[tuple[str, str], tuple[DRS, bool]]:
        """``computeDRS``: per (ancestor cohort, entry) the DRS of the ancestor's child on the
        path to the entry's ClusterQueue, with the entry's usage added."""
        values: dict[tuple[str, str], tuple[DRS, bool]] = {}
        for cq in _subtree_cqs(root):
            e = self.by_cq.get(cq.name)
            if e is None:
                continue
            requested = {fr: v for fr, v in e.usage.items() if v > 0}
            self.snapshot.add_usage(cq, e.usage)
            try:
                path = [cq, *cq.path_parent_to_root()]
                lendables = lendables_up(path)  # each node's parent's, from one walk (a chain may be long)
                for child, ancestor, lendable in zip(path, path[1:], lendables[1:], strict=False):
                    drs = dominant_resource_share(child, parent_lendable=lendable)
                    values[(ancestor.name, e.key)] = (drs, drs.is_borrowing_on(requested))
                    self.standings.append(Standing(ancestor.name, e.key, child.name,
                                                   _finite(drs), drs.is_borrowing_on(requested)))
            finally:
                self.snapshot.remove_usage(cq, e.usage)
        return values

    def _run_tournament(self, root: CohortNode, values) -> TournamentEntry | None:
        """``runTournament``: each cohort's winner from its children's, leaves first. Kueue recurses;
        this walks the cohorts in reverse pre-order (a chain may be deeper than Python's stack)."""
        winners: dict[int, TournamentEntry | None] = {}
        for cohort in reversed(root.subtree_cohorts()):
            candidates = []
            for child in sorted(cohort.child_cohorts, key=lambda n: n.name):
                if winners[id(child)] is not None:
                    candidates.append(winners[id(child)])
            for cq in sorted(cohort.child_cqs, key=lambda n: n.name):
                if cq.name in self.by_cq:
                    candidates.append(self.by_cq[cq.name])
            best = candidates[0] if candidates else None
            for current in candidates[1:]:
                if self.less(current, best, cohort.name, values):
                    best = current
            winners[id(cohort)] = best
        return winners[id(root)]

    def less(self, a: TournamentEntry, b: TournamentEntry, cohort: str, values) -> bool:
        """``entryComparer.less``."""
        if self.prioritize_preemptors and a.is_preemptor != b.is_preemptor:
            return a.is_preemptor
        a_drs, a_borrows = values[(cohort, a.key)]
        b_drs, b_borrows = values[(cohort, b.key)]
        if self.gates.enabled("FairSharingPrioritizeNonBorrowing") and a_borrows != b_borrows:
            return not a_borrows
        c = compare_drs(a_drs, b_drs)
        if c != 0:
            return c < 0
        if self.gates.enabled("PrioritySortingWithinCohort") and a.priority != b.priority:
            return a.priority > b.priority
        return a.queue_order_timestamp < b.queue_order_timestamp


def tournament_order(snapshot: Snapshot, entries: Iterable[TournamentEntry]) -> list[TournamentEntry]:
    """The order the tournament would hand the entries out if none of them were admitted
    (nothing is added to the snapshot between pops)."""
    return list(FairSharingIterator(snapshot, entries))


def _subtree_cqs(node: CohortNode):
    for cohort in node.subtree_cohorts():
        yield from cohort.child_cqs


def _finite(d: DRS) -> float | None:
    v = d.precise_weighted_share()
    return None if math.isinf(v) else v


# ----------------------------------------------------------------- the current heads, ranked ---

@dataclass(frozen=True)
class RankedHead:
    """A ClusterQueue's queue head and the place the tournament gives it (``shares`` report)."""

    order: int
    workload: str
    cluster_queue: str
    mode: str  # Fit | Preempt | NoFit (its flavor assignment now)
    priority: int
    share: float | None  # weighted share of its ClusterQueue with the workload admitted (None = +Inf)
    borrowing: bool  # its ClusterQueue would borrow on a requested flavor-resource


def ranked_heads(cluster, snapshot: Snapshot) -> tuple[RankedHead, ...]:
    """The head of every active ClusterQueue's queue (in queue order), with its flavor assignment,
    in the order the tournament hands them out when none of them changes the usage (i.e. the
    ranking at the start of a cycle; ``schedule`` adds each admission before the next pop)."""
    from quotactl.kueue.assign import initial_assignment
    from quotactl.kueue.nomination import make_assigner
    from quotactl.kueue.queue_order import queue_order_key

    heads: dict[str, tuple] = {}
    for wl in cluster.workloads.values():
        if not wl.is_queueable:
            continue
        cq_name = cluster.cluster_queue_name_of(wl)
        cq = snapshot.cluster_queue(cq_name)
        if cq is None:
            continue
        k = queue_order_key(cluster, wl, snapshot.options)
        if cq.name not in heads or k < heads[cq.name][0]:
            heads[cq.name] = (k, wl)
    entries = []
    modes = {}
    for cq_name in sorted(heads):
        wl = heads[cq_name][1]
        cq = snapshot.cluster_queues[cq_name]
        assigner = make_assigner(cluster, snapshot, wl, cq)
        a = initial_assignment(assigner).assignment
        modes[wl.key] = a.representative_mode.name
        entries.append(Head(wl.key, cq_name, {fr: v for fr, v in a.usage.items() if v}, assigner.preemptor.priority,
                            assigner.preemptor.queue_order_timestamp))
    it = FairSharingIterator(snapshot, entries)
    out = []
    while it.has_next():
        e = it.pop()
        cq = snapshot.cluster_queues[e.cluster_queue]
        snapshot.add_usage(cq, e.usage)
        try:
            drs = dominant_resource_share(cq)
            requested = {fr: v for fr, v in e.usage.items() if v > 0}
            out.append(RankedHead(len(out) + 1, e.key, e.cluster_queue, modes[e.key], e.priority, _finite(drs),
                                  drs.is_borrowing_on(requested)))
        finally:
            snapshot.remove_usage(cq, e.usage)
    return tuple(out)
