"""What-if quota changes: a view of the snapshot in which some ResourceQuotas are different
(``counterfactual`` asks Kueue's flavor assigner whether a change would admit a workload).

The view copies only the trees holding a changed node, with SubtreeQuota and cohort usage
recomputed; every other ClusterQueue and cohort is the snapshot's own.  The snapshot itself is
never changed."""

from __future__ import annotations

import copy

from quotactl.kueue.quota.nodes import FR, ClusterQueueNode, CohortNode, QuotaNode, ResourceQuota
from quotactl.kueue.quota.snapshot import Snapshot, update_cohort

QuotaChanges = dict[tuple[QuotaNode, FR], ResourceQuota]  # (node of the snapshot, fr) -> its new quota


def with_quotas(snapshot: Snapshot, changes: QuotaChanges) -> Snapshot:
    """The snapshot as it would be with ``changes`` applied."""
    by_node: dict[int, dict[FR, ResourceQuota]] = {}
    for (node, fr), rq in changes.items():
        by_node.setdefault(id(node), {})[fr] = rq
    copies: dict[int, QuotaNode] = {}
    for root in {id(node.root()): node.root() for (node, _fr) in changes}.values():
        _recompute(_copy_tree(root, None, by_node, copies))
    view = copy.copy(snapshot)
    view.cluster_queues = {name: copies.get(id(cq), cq) for name, cq in snapshot.cluster_queues.items()}
    view.cohorts = {name: copies.get(id(c), c) for name, c in snapshot.cohorts.items()}
    return view


def _copy_tree(node: QuotaNode, parent: CohortNode | None, by_node: dict[int, dict[FR, ResourceQuota]],
               copies: dict[int, QuotaNode]) -> QuotaNode:
    twin = copy.copy(node)
    copies[id(node)] = twin
    twin.parent = parent
    twin.quotas = {**node.quotas, **by_node.get(id(node), {})}
    if isinstance(node, ClusterQueueNode):
        # Preemption simulations add and remove workloads on the view: give it its own.
        twin.usage = dict(node.usage)
        twin.workloads = dict(node.workloads)
        twin._ordered = None
        return twin
    twin.child_cohorts = [_copy_tree(c, twin, by_node, copies) for c in node.child_cohorts]
    twin.all_child_cqs = [_copy_tree(c, twin, by_node, copies) for c in node.all_child_cqs]
    twin.child_cqs = [copies[id(c)] for c in node.child_cqs]
    return twin


def _recompute(root: QuotaNode) -> None:
    """SubtreeQuota and cohort usage of a copied tree (ClusterQueue usage is the source of truth)."""
    if isinstance(root, ClusterQueueNode):
        root.subtree_quota = {fr: q.nominal for fr, q in root.quotas.items()}
        return
    stack = [root]
    while stack:
        c = stack.pop()
        for cq in c.all_child_cqs:
            cq.subtree_quota = {fr: q.nominal for fr, q in cq.quotas.items()}
        stack.extend(c.child_cohorts)
    update_cohort(root)
