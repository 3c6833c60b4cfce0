"""What-if quota changes: a view of the snapshot in which some ResourceQuotas are different
(``counterfactual`` asks Kueue's flavor assigner whether a change would admit a workload).

The view copies the trees holding a changed node (shallowly: usage and admitted workloads get
their own dicts, since preemption simulations add and remove workloads on the view) and
recomputes SubtreeQuota and cohort usage only where they change: the changed nodes and their
ancestors.  Every other ClusterQueue and cohort is the snapshot's own, and the snapshot itself is
never changed."""

from __future__ import annotations

import copy

from quotactl.kueue.quota.arithmetic import available_given_parent, local_quota, path_below_root
from quotactl.kueue.quota.nodes import FR, ClusterQueueNode, CohortNode, QuotaNode, ResourceQuota
from quotactl.kueue.quota.snapshot import Snapshot, accumulate

QuotaChanges = dict[tuple[QuotaNode, FR], ResourceQuota]  # (node of the snapshot, fr) -> its new quota

_UNSET = object()


def _slots(cls: type) -> tuple[str, ...]:
    return tuple(s for c in cls.__mro__ for s in getattr(c, "__slots__", ()))


_SLOTS = {cls: _slots(cls) for cls in (ClusterQueueNode, CohortNode)}


def with_quotas(snapshot: Snapshot, changes: QuotaChanges) -> Snapshot:
    """The snapshot as it would be with ``changes`` applied."""
    by_node: dict[int, dict[FR, ResourceQuota]] = {}
    for (node, fr), rq in changes.items():
        by_node.setdefault(id(node), {})[fr] = rq
    copies: dict[int, QuotaNode] = {}
    for root in {id(node.root()): node.root() for (node, _fr) in changes}.values():
        _copy_tree(root, by_node, copies)
    _recompute([copies[id(node)] for (node, _fr) in changes])
    view = copy.copy(snapshot)
    view.cluster_queues = {name: copies.get(id(cq), cq) for name, cq in snapshot.cluster_queues.items()}
    view.cohorts = {name: copies.get(id(c), c) for name, c in snapshot.cohorts.items()}
    return view


def _clone(node: QuotaNode) -> QuotaNode:
    """A shallow copy (``copy.copy`` goes through ``__reduce_ex__``, slow for slotted classes)."""
    twin = object.__new__(type(node))
    for name in _SLOTS[type(node)]:
        value = getattr(node, name, _UNSET)
        if value is not _UNSET:
            setattr(twin, name, value)
    return twin


def _copy_tree(root: QuotaNode, by_node: dict[int, dict[FR, ResourceQuota]], copies: dict[int, QuotaNode]) -> None:
    """Copy ``root`` and every node below it into ``copies`` (by the original's id), linked as the
    originals are.  Walked without recursion (a chain of cohorts may be deeper than Python's stack:
    found by the fuzzer): every node is copied parents first, then the cohorts' child lists are
    pointed at the copies."""
    cohorts = root.subtree_cohorts() if isinstance(root, CohortNode) else []
    _copy_node(root, None, by_node, copies)
    for cohort in cohorts:
        twin = copies[id(cohort)]
        for child in (*cohort.child_cohorts, *cohort.all_child_cqs):
            _copy_node(child, twin, by_node, copies)
    for cohort in cohorts:
        twin = copies[id(cohort)]
        twin.child_cohorts = [copies[id(c)] for c in cohort.child_cohorts]
        twin.all_child_cqs = [copies[id(c)] for c in cohort.all_child_cqs]
        twin.child_cqs = [copies[id(c)] for c in cohort.child_cqs]


def _copy_node(node: QuotaNode, parent: CohortNode | None, by_node: dict[int, dict[FR, ResourceQuota]],
               copies: dict[int, QuotaNode]) -> None:
    """One node's copy, under ``parent`` (its own usage dict, and workloads for a ClusterQueue)."""
    twin = _clone(node)
    copies[id(node)] = twin
    twin.parent = parent
    changed = by_node.get(id(node))
    if changed:
        twin.quotas = {**node.quotas, **changed}
    twin.usage = dict(node.usage)
    if isinstance(node, ClusterQueueNode):
        twin.workloads = dict(node.workloads)
        twin._ordered = None


def _recompute(changed: list[QuotaNode]) -> None:
    """SubtreeQuota and cohort usage of the changed nodes and their ancestors, deepest first
    (``updateCohortResourceNode`` on exactly the nodes whose inputs changed; ClusterQueue usage
    is the source of truth)."""
    depth: dict[int, tuple[int, QuotaNode]] = {}
    for node in changed:
        chain = [node, *node.path_parent_to_root()]
        for d, n in enumerate(reversed(chain)):
            depth[id(n)] = (d, n)
    for _d, node in sorted(depth.values(), key=lambda dn: -dn[0]):
        node.subtree_quota = {fr: q.nominal for fr, q in node.quotas.items()}
        if isinstance(node, CohortNode):
            node.usage = {}
            for child in (*node.child_cohorts, *node.all_child_cqs):
                accumulate(node, child)


class _PathNode:
    """One recomputed node of ``cq_available_with``: the three things the arithmetic reads, for one fr."""

    __slots__ = ("quotas", "subtree_quota", "usage")

    def __init__(self, fr: FR, quota: ResourceQuota | None, subtree_quota: int, usage: int):
        self.quotas = {fr: quota} if quota is not None else {}
        self.subtree_quota, self.usage = {fr: subtree_quota}, {fr: usage}


def cq_available_with(snapshot: Snapshot, cq_name: str, fr: FR, changes: QuotaChanges) -> int | None:
    """``cq_available`` of the ClusterQueue, for ``fr``, in ``with_quotas(snapshot, changes)``,
    without building that view: only the ClusterQueue's path to its root, only ``fr`` (frs never
    interact). A counterfactual's binary search asks this once per probe; copying a tree of 3,000
    cohorts per probe made ``explain --all`` take 80 s (found by the fuzzer). The nodes
    recomputed are exactly ``_recompute``'s (every changed node and its ancestors, each from its
    children). None when a changed node is off the path: then build the view."""
    cq = snapshot.cluster_queues[cq_name]
    path, root = path_below_root(cq)
    chain = [*path, root]
    at = {id(node): i for i, node in enumerate(chain)}
    if any(id(node) not in at for node, _fr in changes):
        return None
    new_quota = {id(node): rq for (node, changed_fr), rq in changes.items() if changed_fr == fr}
    lowest = min((at[id(node)] for node, _fr in changes), default=len(chain))
    view: list[QuotaNode | _PathNode] = list(chain)
    for i in range(lowest, len(chain)):
        node = chain[i]
        quota = new_quota.get(id(node), node.quotas.get(fr))
        subtree, usage = (quota.nominal if quota is not None else 0), node.usage.get(fr, 0)
        if isinstance(node, CohortNode):
            usage = 0
            for child in (*node.child_cohorts, *node.all_child_cqs):
                child = view[i - 1] if i > 0 and child is chain[i - 1] else child
                lq = local_quota(child, fr)
                subtree += child.subtree_quota.get(fr, 0) - lq
                usage += max(0, child.usage.get(fr, 0) - lq)
        view[i] = _PathNode(fr, quota, subtree, usage)
    top = view[-1]
    value = top.subtree_quota.get(fr, 0) - top.usage.get(fr, 0)
    for below in reversed(view[:-1]):
        value = available_given_parent(below, fr, value)
    return value if value > 0 else 0
