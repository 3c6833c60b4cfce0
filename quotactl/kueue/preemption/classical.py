"""Classical preemption (fair sharing off): candidate discovery per policy through the cohort
tree, classification into variants, and the remove-until-fits / add-back search
(kueue-scheduling.md §6.3–§6.6, §7).

Source: ``pkg/scheduler/preemption/classical/hierarchical_preemption.go``,
``pkg/scheduler/preemption/classical/candidate_generator.go``,
``pkg/scheduler/preemption/preemption.go: classicalPreemptions, queueUnderNominalInResourcesNeedingPreemption``,
``pkg/scheduler/preemption/strategy.go: ClassicalPreemptionPlan``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from quotactl.kueue.preemption.common import (
    ANY,
    IN_CLUSTER_QUEUE,
    IN_COHORT_RECLAIM_WHILE_BORROWING,
    IN_COHORT_RECLAMATION,
    LOWER_OR_NEWER_EQUAL_PRIORITY,
    LOWER_PRIORITY,
    NEVER,
    PreemptionCtx,
    Target,
    fill_back_workloads,
    restore_snapshot,
    sort_candidates,
    workload_fits,
)
from quotactl.kueue.quota import (
    ClusterQueueNode,
    CohortNode,
    is_within_nominal_in_resources,
    quantities_fit_in_quota,
)
from quotactl.kueue.workload import AdmittedWorkload


class Variant(enum.IntEnum):
    """``preemptionVariant``: how a candidate may be preempted."""

    NEVER = 0
    WITHIN_CQ = 1
    HIERARCHICAL_RECLAIM = 2  # the preemptor has a closer claim on the quota
    RECLAIM_WITHOUT_BORROWING = 3  # only if the preemptor ends within nominal
    RECLAIM_WHILE_BORROWING = 4  # even if the preemptor ends up borrowing

    @property
    def reason(self) -> str:
        return {
            Variant.WITHIN_CQ: IN_CLUSTER_QUEUE,
            Variant.HIERARCHICAL_RECLAIM: IN_COHORT_RECLAMATION,
            Variant.RECLAIM_WITHOUT_BORROWING: IN_COHORT_RECLAMATION,
            Variant.RECLAIM_WHILE_BORROWING: IN_COHORT_RECLAIM_WHILE_BORROWING,
        }.get(self, "Unknown")


@dataclass(frozen=True)
class Candidate:
    """``candidateElem``: a workload, the lowest common ancestor cohort with the preemptor's CQ
    (None for same-CQ candidates) and its variant."""

    workload: AdmittedWorkload
    lca: CohortNode | None
    variant: Variant


def borrowing_within_cohort_allowed(cq: ClusterQueueNode) -> tuple[bool, int | None]:
    """``IsBorrowingWithinCohortAllowed``: borrowWithinCohort policy set (not Never), threshold."""
    p = cq.preemption
    if p.borrow_within_cohort_policy in (None, "", NEVER):
        return False, None
    return True, p.max_priority_threshold


def _priority_too_high_to_preempt(ctx: PreemptionCtx, wl: AdmittedWorkload) -> bool:
    incoming, candidate = ctx.preemptor.priority, wl.priority
    policy = (ctx.cq.preemption.within_cluster_queue if wl.cluster_queue == ctx.cq.name
              else ctx.cq.preemption.reclaim_within_cohort)
    lower = incoming > candidate
    if policy == LOWER_PRIORITY:
        return not lower
    if policy == LOWER_OR_NEWER_EQUAL_PRIORITY:
        newer_equal = incoming == candidate and ctx.preemptor.queue_order_timestamp < wl.queue_order_timestamp
        return not (lower or newer_equal)
    return policy != ANY


def _above_borrowing_threshold(candidate: int, incoming: int, threshold: int | None) -> bool:
    if candidate >= incoming:
        return True
    return threshold is not None and candidate > threshold


def classify(ctx: PreemptionCtx, wl: AdmittedWorkload, hierarchical_advantage: bool) -> Variant:
    """``classifyPreemptionVariant`` (§6.3)."""
    if not wl.uses_resources(ctx.frs_need_preemption):
        return Variant.NEVER
    if _priority_too_high_to_preempt(ctx, wl):
        return Variant.NEVER
    if wl.cluster_queue == ctx.cq.name:
        return Variant.WITHIN_CQ
    if hierarchical_advantage:
        return Variant.HIERARCHICAL_RECLAIM
    allowed, threshold = borrowing_within_cohort_allowed(ctx.cq)
    if not allowed:
        return Variant.RECLAIM_WITHOUT_BORROWING
    if _above_borrowing_threshold(wl.priority, ctx.preemptor.priority, threshold):
        return Variant.RECLAIM_WITHOUT_BORROWING
    return Variant.RECLAIM_WHILE_BORROWING


def _candidates_from_cq(ctx: PreemptionCtx, cq: ClusterQueueNode, lca: CohortNode | None,
                        advantage: bool) -> list[Candidate]:
    out = []
    for wl in cq.workloads.values():
        v = classify(ctx, wl, advantage)
        if v != Variant.NEVER:
            out.append(Candidate(wl, lca, v))
    return out


def collect_same_queue_candidates(ctx: PreemptionCtx) -> list[Candidate]:
    if ctx.cq.preemption.within_cluster_queue == NEVER:
        return []
    return _candidates_from_cq(ctx, ctx.cq, None, False)


def _collect_in_subtree(ctx: PreemptionCtx, current: CohortNode, subtree_root: CohortNode,
                        skip: CohortNode | None, advantage: bool, result: list[Candidate]) -> None:
    for child in current.child_cohorts:
        if child is skip:
            continue  # already visited from below
        if is_within_nominal_in_resources(child, ctx.frs_need_preemption):
            continue  # a subtree within its quota has nothing to give back
        _collect_in_subtree(ctx, child, subtree_root, skip, advantage, result)
    for child_cq in current.child_cqs:
        if child_cq is ctx.cq:
            continue
        if not is_within_nominal_in_resources(child_cq, ctx.frs_need_preemption):
            result.extend(_candidates_from_cq(ctx, child_cq, subtree_root, advantage))


def collect_candidates_for_hierarchical_reclaim(ctx: PreemptionCtx) -> tuple[list[Candidate], list[Candidate]]:
    """``collectCandidatesForHierarchicalReclaim``: (hierarchy candidates, priority candidates)."""
    hierarchy: list[Candidate] = []
    priority: list[Candidate] = []
    cq = ctx.cq
    if cq.parent is None or cq.preemption.reclaim_within_cohort == NEVER:
        return hierarchy, priority
    advantage, remaining = quantities_fit_in_quota(cq, ctx.workload_usage)
    previous = None
    for subtree_root in cq.path_parent_to_root():
        _collect_in_subtree(ctx, subtree_root, subtree_root, previous, advantage,
                            hierarchy if advantage else priority)
        fits, remaining = quantities_fit_in_quota(subtree_root, remaining)
        advantage = advantage or fits
        previous = subtree_root
    return hierarchy, priority


class CandidateIterator:
    """``candidateIterator``: evicted candidates first (hierarchy, priority, same CQ), then the
    rest in the same bucket order; validity is re-checked against the live snapshot."""

    def __init__(self, ctx: PreemptionCtx):
        self.ctx = ctx
        same = collect_same_queue_candidates(ctx)
        hierarchy, priority = collect_candidates_for_hierarchical_reclaim(ctx)
        key_cq = ctx.cq.name

        def ordered(cands: list[Candidate]) -> list[Candidate]:
            by_wl = {id(c.workload): c for c in cands}
            return [by_wl[id(w)] for w in sort_candidates([c.workload for c in cands], key_cq)]

        same, hierarchy, priority = ordered(same), ordered(hierarchy), ordered(priority)

        def split(cands):
            return [c for c in cands if c.workload.evicted], [c for c in cands if not c.workload.evicted]

        eh, nh = split(hierarchy)
        ep, np_ = split(priority)
        es, ns = split(same)
        self.candidates = eh + ep + es + nh + np_ + ns
        self.no_candidate_from_other_queues = not hierarchy and not priority
        self.no_candidate_for_hierarchical_reclaim = not hierarchy

    def _valid(self, c: Candidate, borrow: bool) -> bool:
        ctx = self.ctx
        if c.workload.cluster_queue == ctx.cq.name:
            return True
        if borrow and c.variant == Variant.RECLAIM_WITHOUT_BORROWING:
            return False
        cand_cq = ctx.snapshot.cluster_queues[c.workload.cluster_queue]
        if is_within_nominal_in_resources(cand_cq, ctx.frs_need_preemption):
            return False
        for node in cand_cq.path_parent_to_root():
            if node is c.lca:
                break
            if is_within_nominal_in_resources(node, ctx.frs_need_preemption):
                return False
        return True

    def iterate(self, borrow: bool) -> Iterator[tuple[AdmittedWorkload, str]]:
        """One run over the candidates; validity is evaluated lazily, after earlier removals."""
        for c in self.candidates:
            if self._valid(c, borrow):
                yield c.workload, c.variant.reason


def queue_under_nominal_in_resources_needing_preemption(ctx: PreemptionCtx) -> bool:
    """Usage strictly below nominal on every fr needing preemption."""
    cq = ctx.cq
    return all(cq.nominal(fr) > cq.usage.get(fr, 0) for fr in ctx.frs_need_preemption)


def attempt_plan(ctx: PreemptionCtx, iterator: CandidateIterator) -> list[bool]:
    """The allowBorrowing values to try, in order (§6.5)."""
    forbidden = not borrowing_within_cohort_allowed(ctx.cq)[0]
    if iterator.no_candidate_from_other_queues or (
            forbidden and not queue_under_nominal_in_resources_needing_preemption(ctx)):
        return [True]
    if forbidden and iterator.no_candidate_for_hierarchical_reclaim:
        return [False, True]
    return [True, False]


def classical_preemptions(ctx: PreemptionCtx) -> list[Target]:
    """``classicalPreemptions``: the first run that fits wins, minimised by adding back."""
    iterator = CandidateIterator(ctx)
    snap = ctx.snapshot
    for allow_borrowing in attempt_plan(ctx, iterator):
        targets: list[Target] = []
        for wl, reason in iterator.iterate(allow_borrowing):
            snap.remove_workload(wl)
            targets.append(Target(wl, reason))
            if workload_fits(ctx, allow_borrowing):
                targets = fill_back_workloads(ctx, targets, allow_borrowing)
                restore_snapshot(snap, targets)
                return targets
        restore_snapshot(snap, targets)
    return []
