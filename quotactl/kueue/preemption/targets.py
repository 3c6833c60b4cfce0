"""``GetTargets``: the workloads Kueue would evict so a preemptor fits (classical or fair).

Source: ``pkg/scheduler/preemption/preemption.go: GetTargets, getTargets, buildContext,
flavorResourcesNeedPreemption``.  The flavor assigner's oracle calls the same search for a
single flavor-resource (``oracle.py``); the ``preempt`` command calls it for a whole assignment.
"""

from __future__ import annotations

from quotactl.kueue.preemption.classical import CandidateIterator, classical_preemptions, request_is_inert
from quotactl.kueue.preemption.common import PreemptionCtx, Preemptor, Target, sort_candidates
from quotactl.kueue.preemption.fairsharing import fair_preemptions, find_candidates
from quotactl.kueue.quota import ClusterQueueNode, Snapshot


def get_targets(snapshot: Snapshot, cq: ClusterQueueNode, preemptor: Preemptor,
                frs_need_preemption, workload_usage: dict, trace: list | None = None,
                tas_fits=None) -> list[Target]:
    """Victims for ``preemptor`` in ``cq``: ``frs_need_preemption`` are the frs whose assigned
    flavor has mode Preempt; ``workload_usage`` is the preemptor's whole request per fr.
    The snapshot is left exactly as it was.  ``trace``: a list that receives every step of the
    search (``TraceEvent``), for reports.  ``tas_fits``: whether the preemptor's TAS pod sets can
    be placed on the nodes as they are (None: it places nothing on a topology)."""
    ctx = PreemptionCtx(preemptor, cq, snapshot, frozenset(frs_need_preemption), dict(workload_usage), trace,
                        tas_fits=tas_fits)
    if snapshot.options.fair_sharing:
        return fair_preemptions(ctx, snapshot.options.preemption_strategies)
    return classical_preemptions(ctx)


def searched_targets(snapshot: Snapshot, cq: ClusterQueueNode, frs_need_preemption, workload_usage: dict,
                     searches: dict) -> list[Target] | None:
    """What ``get_targets`` would answer, taken from an earlier search of the same preemptor in
    ``cq`` on the same snapshot (``searches``: (fr, amount) -> its targets), or None.  A
    classical search for one fr with the same amount of it gives the same victims when every
    other fr of the request can change none of its steps (``request_is_inert``)."""
    if snapshot.options.fair_sharing or len(frs_need_preemption) != 1:
        return None
    (fr,) = frs_need_preemption
    found = searches.get((fr, workload_usage.get(fr)))
    if found is None:
        return None
    if all(other == fr or request_is_inert(cq, other, v) for other, v in workload_usage.items()):
        return list(found)
    return None


def candidate_workloads(snapshot: Snapshot, cq: ClusterQueueNode, preemptor: Preemptor,
                        frs_need_preemption, workload_usage: dict) -> list:
    """Every workload the preemption policies allow Kueue to consider (before the search that
    picks victims): for explaining why no victim set was found."""
    ctx = PreemptionCtx(preemptor, cq, snapshot, frozenset(frs_need_preemption), dict(workload_usage))
    if snapshot.options.fair_sharing:  # in fairPreemptions' order, as the search sees them
        return sort_candidates(find_candidates(ctx), cq.name, ctx.snapshot.afs)
    return [c.workload for c in CandidateIterator(ctx).candidates]
