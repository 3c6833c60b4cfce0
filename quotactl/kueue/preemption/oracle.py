"""The preemption oracle the flavor assigner consults for one flavor-resource.

Source: ``pkg/scheduler/preemption/preemption_oracle.go: SimulatePreemption``.  It runs the real
target search (classical or fair sharing) with ``frsNeedPreemption = {fr}`` and a request of
only that fr, then reports whether candidates exist, whether any is in the preemptor's own
ClusterQueue (``preempt``) or all are elsewhere (``reclaim``), and the borrowing level once they
are gone.  The final victims are computed again after the assignment, over all frs.
"""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.kueue.preemption.common import PreemptionPossibility, Preemptor, Target
from quotactl.kueue.preemption.targets import get_targets
from quotactl.kueue.quota import ClusterQueueNode, Snapshot, find_height_of_lowest_subtree_that_fits


@dataclass(frozen=True)
class OracleResult:
    possibility: PreemptionPossibility
    borrow: int  # borrowing level after the simulated preemptions (or now, without candidates)
    targets: tuple[Target, ...] = ()


def simulate_preemption(snapshot: Snapshot, cq: ClusterQueueNode, preemptor: Preemptor,
                        fr: tuple, quantity: int) -> OracleResult:
    targets = get_targets(snapshot, cq, preemptor, {fr}, {fr: quantity})
    if not targets:
        borrow, _ = find_height_of_lowest_subtree_that_fits(cq, fr, quantity)
        return OracleResult(PreemptionPossibility.NO_CANDIDATES, borrow)
    # SimulateWorkloadUsageRemoval: only the usage goes, then comes back.
    for t in targets:
        snapshot.remove_usage(snapshot.cluster_queues[t.cluster_queue], t.workload.usage)
    try:
        borrow, _ = find_height_of_lowest_subtree_that_fits(cq, fr, quantity)
    finally:
        for t in targets:
            snapshot.add_usage(snapshot.cluster_queues[t.cluster_queue], t.workload.usage)
    possibility = (PreemptionPossibility.PREEMPT if any(t.cluster_queue == cq.name for t in targets)
                   else PreemptionPossibility.RECLAIM)
    return OracleResult(possibility, borrow, tuple(targets))
