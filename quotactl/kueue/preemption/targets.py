"""``GetTargets``: the workloads Kueue would evict so a preemptor fits (classical or fair).

Source: ``pkg/scheduler/preemption/preemption.go: GetTargets, getTargets, buildContext,
flavorResourcesNeedPreemption``.  The flavor assigner's oracle calls the same search for a
single flavor-resource (``oracle.py``); the ``preempt`` command calls it for a whole assignment.
"""

from __future__ import annotations

from quotactl.kueue.preemption.classical import CandidateIterator, classical_preemptions
from quotactl.kueue.preemption.common import PreemptionCtx, Preemptor, Target
from quotactl.kueue.preemption.fairsharing import fair_preemptions, find_candidates
from quotactl.kueue.quota import ClusterQueueNode, Snapshot


def get_targets(snapshot: Snapshot, cq: ClusterQueueNode, preemptor: Preemptor,
                frs_need_preemption, workload_usage: dict, trace: list | None = None) -> list[Target]:
    """Victims for ``preemptor`` in ``cq``: ``frs_need_preemption`` are the frs whose assigned
    flavor has mode Preempt; ``workload_usage`` is the preemptor's whole request per fr.
    The snapshot is left exactly as it was.  ``trace``: a list that receives every step of the
    search (``TraceEvent``), for reports."""
    ctx = PreemptionCtx(preemptor, cq, snapshot, frozenset(frs_need_preemption), dict(workload_usage), trace)
    if snapshot.options.fair_sharing:
        return fair_preemptions(ctx, snapshot.options.preemption_strategies)
    return classical_preemptions(ctx)


def candidate_workloads(snapshot: Snapshot, cq: ClusterQueueNode, preemptor: Preemptor,
                        frs_need_preemption, workload_usage: dict) -> list:
    """Every workload the preemption policies allow Kueue to consider (before the search that
    picks victims): for explaining why no victim set was found."""
    ctx = PreemptionCtx(preemptor, cq, snapshot, frozenset(frs_need_preemption), dict(workload_usage))
    if snapshot.options.fair_sharing:
        return find_candidates(ctx)
    return [c.workload for c in CandidateIterator(ctx).candidates]
