"""The quota tree: ClusterQueues under flat and hierarchical cohorts, with SubtreeQuota, usage,
available and potential-available quota at every node exactly as Kueue computes them.

    nodes       the tree's nodes (ClusterQueue, Cohort) and their ResourceQuotas
    arithmetic  available / potential available quota, usage up the tree, borrowing
    drs         dominant resource share (fair sharing)
    snapshot    the scheduler's Snapshot and build_snapshot
    views       read views for reports (QuotaView, cohort paths)
    whatif      the snapshot with some ResourceQuotas changed (counterfactuals)

The names below are the package's interface; a module may import from the concrete module.
"""

from quotactl.kueue.quota.arithmetic import (
    UsageOverlay,
    add_usage,
    available,
    borrowing,
    borrowing_with,
    cq_available,
    find_height_of_lowest_subtree_that_fits,
    is_within_nominal_in_resources,
    local_available,
    local_quota,
    node_height,
    potential_available,
    quantities_fit_in_quota,
    remove_usage,
)
from quotactl.kueue.quota.drs import (
    DRS,
    NEGATIVE_DRS,
    calculate_lendable,
    compare_drs,
    dominant_resource_share,
    lendable_of,
    lendables_up,
    potentials_below,
    root_potentials,
)
from quotactl.kueue.quota.nodes import (
    FR,
    ZERO_QUOTA,
    ClusterQueueNode,
    CohortNode,
    InactiveReason,
    QuotaNode,
    ResourceGroupView,
    ResourceQuota,
)
from quotactl.kueue.quota.snapshot import Snapshot, build_snapshot
from quotactl.kueue.quota.views import QuotaView, cohort_path, cq_path, quota_view, quota_views_to_root
from quotactl.kueue.quota.whatif import QuotaChanges, cq_available_with, with_quotas

__all__ = [
    "DRS", "FR", "NEGATIVE_DRS", "ZERO_QUOTA", "ClusterQueueNode", "CohortNode", "InactiveReason",
    "QuotaChanges", "QuotaNode", "QuotaView", "ResourceGroupView", "ResourceQuota", "Snapshot", "UsageOverlay",
    "add_usage", "available", "borrowing", "borrowing_with", "build_snapshot", "calculate_lendable",
    "cohort_path", "compare_drs", "cq_available", "cq_available_with", "cq_path", "dominant_resource_share",
    "find_height_of_lowest_subtree_that_fits", "is_within_nominal_in_resources", "lendable_of", "lendables_up",
    "local_available",
    "local_quota", "node_height", "potential_available", "potentials_below", "quantities_fit_in_quota",
    "quota_view", "quota_views_to_root", "remove_usage", "root_potentials", "with_quotas",
]
