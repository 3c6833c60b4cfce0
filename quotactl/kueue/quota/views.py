"""Read views of the quota tree for reports and tests."""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.kueue.quota.arithmetic import (
    available,
    borrowing,
    cq_available,
    local_quota,
    potential_available,
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
    q = node.quotas.get(fr) or ZERO_QUOTA
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
