"""Quota arithmetic on the tree exactly as Kueue computes it: local quota, available and
potential-available quota, usage added and removed up the tree, borrowing, and the height of
the lowest subtree that fits (hierarchical preemption).

Source: ``pkg/cache/scheduler/resource_node.go`` (``localQuota``, ``LocalAvailable``,
``available``, ``potentialAvailable``, ``addUsage``, ``removeUsage``, ``QuantitiesFitInQuota``,
``IsWithinNominalInResources``), ``pkg/scheduler/preemption/classical/hierarchical_preemption.go``
(``FindHeightOfLowestSubtreeThatFits``, ``getNodeHeight``).
"""

from __future__ import annotations

from quotactl.kueue.quota.nodes import FR, ClusterQueueNode, CohortNode, QuotaNode

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


def path_below_root(node: QuotaNode) -> tuple[list[QuotaNode], QuotaNode]:
    """The nodes from ``node`` up to the root's child, and the root. Kueue's tree walks recurse
    (Go's stack grows); a chain of a thousand cohorts is deeper than Python's, so the walks here
    go down this list instead (found by the fuzzer)."""
    path = []
    while node.parent is not None:
        path.append(node)
        node = node.parent
    return path, node


def available(node: QuotaNode, fr: FR) -> int:
    """``available``: what the node can still take, may be negative (over-admission)."""
    if node.parent is None:
        return node.subtree_quota.get(fr, 0) - node.usage.get(fr, 0)
    path, root = path_below_root(node)
    value = root.subtree_quota.get(fr, 0) - root.usage.get(fr, 0)
    for below in reversed(path):
        value = available_given_parent(below, fr, value)
    return value


def available_given_parent(node: QuotaNode, fr: FR, parent_available: int, u: int | None = None) -> int:
    """One step of ``available``, the parent's answer known (a walk down the tree gets every
    node's answer in one step each).  ``u``: the node's usage of ``fr`` when it is not the
    tree's (a ``UsageOverlay``)."""
    if u is None:
        u = node.usage.get(fr, 0)
    q = node.quotas.get(fr)
    if q is None:  # no quota of its own: local quota 0, no borrowing limit (the hot path)
        return (-u if u < 0 else 0) + parent_available
    lq = local_quota(node, fr)
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
    path, root = path_below_root(node)
    value = root.subtree_quota.get(fr, 0)
    for below in reversed(path):
        value = potential_available_given_parent(below, fr, value)
    return value


def potential_available_given_parent(node: QuotaNode, fr: FR, parent_potential: int) -> int:
    """One step of ``potential_available``, the parent's answer known (a walk down the tree gets
    every node's answer in one step each, not one walk to the root each)."""
    value = local_quota(node, fr) + parent_potential
    q = node.quotas.get(fr)
    if q is not None and q.borrowing_limit is not None:
        value = min(node.subtree_quota.get(fr, 0) + q.borrowing_limit, value)
    return value


def add_usage(node: QuotaNode, fr: FR, val: int) -> None:
    """``addUsage``: usage beyond the node's free local quota bubbles up to the parent.  (The
    root has no parent to pass anything to: its local quota is not asked for.)"""
    while True:
        usage = node.usage
        if node.parent is None:
            usage[fr] = usage.get(fr, 0) + val
            return
        la = local_available(node, fr)
        usage[fr] = usage.get(fr, 0) + val
        if val <= la:
            return
        val -= la
        node = node.parent


def remove_usage(node: QuotaNode, fr: FR, val: int) -> None:
    """``removeUsage``: mirror of ``add_usage``."""
    while True:
        usage = node.usage
        u = usage.get(fr, 0)
        usage[fr] = u - val
        if node.parent is None:
            return
        stored_in_parent = u - local_quota(node, fr)
        if stored_in_parent <= 0:
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
                stored_in_parent = u - local_quota(n, fr)
                self.usage[(id(n), fr)] = u - val
                if stored_in_parent <= 0 or n.parent is None:
                    break
                val = min(val, stored_in_parent)
                n = n.parent

    def available(self, node: QuotaNode, fr: FR) -> int:
        """``available`` with the overlay's usages."""
        path, root = path_below_root(node)
        value = root.subtree_quota.get(fr, 0) - self._get(root, fr)
        for below in reversed(path):
            value = available_given_parent(below, fr, value, self._get(below, fr))
        return value

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
    # = the deepest cohort below (depth d) plus one if it has any child; walked without recursion
    h = 0
    stack = [(cohort, 0)]
    while stack:
        node, depth = stack.pop()
        h = max(h, depth + min(len(node.child_cqs) + len(node.child_cohorts), 1))
        stack.extend((child, depth + 1) for child in node.child_cohorts)
    return h


def find_height_of_lowest_subtree_that_fits(cq: ClusterQueueNode, fr: FR, val: int) -> tuple[int, bool]:
    """The borrowing level for ``val`` more of ``fr`` in ``cq``, and whether the subtree
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
