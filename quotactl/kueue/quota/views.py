"""Read views of the quota tree for reports and tests."""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.kueue.quota.arithmetic import (
    available,
    available_given_parent,
    borrowing,
    cq_available,
    local_quota,
    path_below_root,
    potential_available,
    potential_available_given_parent,
)
from quotactl.kueue.quota.nodes import FR, ZERO_QUOTA, ClusterQueueNode, QuotaNode

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
    avail = cq_available(node, fr) if isinstance(node, ClusterQueueNode) else available(node, fr)
    return _view(node, fr, avail, potential_available(node, fr))


def quota_views_to_root(node: QuotaNode, fr: FR) -> list[QuotaView]:
    """``quota_view`` of the node and of each ancestor up to the root, in that order. Available and
    potential quota are computed in one walk down the path (each node's from its parent's), not
    one walk to the root per node: that was quadratic in the depth (explain --all on a chain of
    3,000 cohorts spent most of its 47 s there; found by the fuzzer)."""
    path, root = path_below_root(node)
    avail = root.subtree_quota.get(fr, 0) - root.usage.get(fr, 0)
    potential = root.subtree_quota.get(fr, 0)
    views = [(root, avail, potential)]
    for below in reversed(path):
        avail = available_given_parent(below, fr, avail)
        potential = potential_available_given_parent(below, fr, potential)
        views.append((below, avail, potential))
    return [_view(n, fr, max(a, 0) if isinstance(n, ClusterQueueNode) else a, p) for n, a, p in reversed(views)]


def _view(node: QuotaNode, fr: FR, avail: int, potential: int) -> QuotaView:
    q = node.quotas.get(fr) or ZERO_QUOTA
    return QuotaView(
        node=node.name, kind="Cohort" if node.is_cohort else "ClusterQueue", flavor=fr[0], resource=fr[1],
        nominal=q.nominal, borrowing_limit=q.borrowing_limit, lending_limit=q.lending_limit,
        subtree_quota=node.subtree_quota.get(fr, 0), local_quota=local_quota(node, fr),
        usage=node.usage.get(fr, 0), available=avail, potential_available=potential,
        borrowing=node.parent is not None and borrowing(node, fr),
    )


def cohort_path(node: QuotaNode) -> list[str]:
    """Cohort names from the root down to the node's parent."""
    return [n.name for n in reversed(list(node.path_parent_to_root()))]


def cq_path(cq: ClusterQueueNode) -> str:
    """Kueue's path notation: ``/root/.../cq`` (``/cq`` without a cohort)."""
    return "/" + "/".join(cohort_path(cq) + [cq.name])
