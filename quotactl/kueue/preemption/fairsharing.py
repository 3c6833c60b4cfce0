"""Fair-sharing preemption: candidates across the whole cohort tree, the target ClusterQueue
ordering by dominant resource share, and the S2-a / S2-b strategies.

Source: ``pkg/scheduler/preemption/preemption.go: fairPreemptions, findCandidates, cqIsBorrowing,
fsStrategyUnsatisfiable, queueWithinNominalInResourcesNeedingPreemption``,
``pkg/scheduler/preemption/strategy.go: FairPreemptionPlan, iterateWithFirstFsStrategy,
iterateWithSecondFsStrategy``, ``pkg/scheduler/preemption/fairsharing/{ordering,target,
least_common_ancestor,strategy}.go``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import NamedTuple

from quotactl.kueue.options import LESS_THAN_INITIAL_SHARE, LESS_THAN_OR_EQUAL_TO_FINAL_SHARE
from quotactl.kueue.preemption.common import (
    IN_CLUSTER_QUEUE,
    IN_COHORT_FAIR_SHARING,
    IN_COHORT_RECLAMATION,
    PreemptionCtx,
    ShareCheck,
    Target,
    candidates_ordering_key,
    fill_back_workloads,
    restore_snapshot,
    shortfall,
    sort_candidates,
    workload_fits,
)
from quotactl.kueue.preemption.policy import NEVER, policy_rejection, satisfies_preemption_policy
from quotactl.kueue.quota import (
    DRS,
    NEGATIVE_DRS,
    ClusterQueueNode,
    CohortNode,
    QuotaNode,
    borrowing,
    compare_drs,
    dominant_resource_share,
    lendable_of,
    potentials_below,
    root_potentials,
)
from quotactl.kueue.workload import AdmittedWorkload

Strategy = Callable[[DRS, DRS, DRS], bool]


def less_than_or_equal_to_final_share(preemptor_new: DRS, _target_old: DRS, target_new: DRS) -> bool:
    """Rule S2-a."""
    return compare_drs(preemptor_new, target_new) <= 0


def less_than_initial_share(preemptor_new: DRS, target_old: DRS, _target_new: DRS | None = None) -> bool:
    """Rule S2-b."""
    return compare_drs(preemptor_new, target_old) < 0


STRATEGIES: dict[str, Strategy] = {
    LESS_THAN_OR_EQUAL_TO_FINAL_SHARE: less_than_or_equal_to_final_share,
    LESS_THAN_INITIAL_SHARE: less_than_initial_share,
}


def strategy_name(fn: Strategy) -> str:
    return next((k for k, v in STRATEGIES.items() if v is fn), getattr(fn, "__name__", "?"))


def share_value(d: DRS) -> float | None:
    """A share as a number for reports (None for +Inf: a borrowing node with weight 0)."""
    v = d.precise_weighted_share()
    return None if math.isinf(v) else round(v, 3)


def _fmt_share(d: DRS) -> str:
    v = share_value(d)
    return "+Inf" if v is None else f"{v:g}"


def _strategy_text(name: str, p_new: DRS, t_old: DRS, t_new: DRS | None, passed: bool) -> str:
    if name == LESS_THAN_OR_EQUAL_TO_FINAL_SHARE:
        op = "<=" if passed else ">"
        return (f"{name}: preemptor share with the workload {_fmt_share(p_new)} {op} target share without this "
                f"workload {_fmt_share(t_new)}" + ("" if passed else ": kept for the next strategy"))
    op = "<" if passed else ">="
    return f"{name}: preemptor share with the workload {_fmt_share(p_new)} {op} target share {_fmt_share(t_old)}"


def cq_is_borrowing(cq: ClusterQueueNode, frs) -> bool:
    if cq.parent is None:
        return False
    return any(borrowing(cq, fr) for fr in frs)


def subtree_cluster_queues(node: QuotaNode) -> Iterator[ClusterQueueNode]:
    """Active ClusterQueues under a cohort (the snapshot's ``SubtreeClusterQueues``)."""
    if isinstance(node, ClusterQueueNode):
        yield node
        return
    for cohort in node.subtree_cohorts():
        yield from cohort.child_cqs


def _why_not(pre, wl: AdmittedWorkload, frs, field_name: str, policy: str) -> str | None:
    """Tracing only: why a workload is not a fair-sharing candidate (None: it is one)."""
    if not wl.uses_resources(frs):
        return ("uses none of the flavor-resources that need preemption ("
                + ", ".join(f"{r} in {f}" for f, r in sorted(frs)) + ")")
    if not satisfies_preemption_policy(pre, wl, policy):
        return policy_rejection(field_name, policy, pre.priority, wl.priority)
    return None


def find_candidates(ctx: PreemptionCtx) -> list[AdmittedWorkload]:
    """``findCandidates``: own-CQ workloads passing withinClusterQueue; with reclaimWithinCohort,
    workloads of every other borrowing ClusterQueue of the whole root tree passing it."""
    cq, pre, frs = ctx.cq, ctx.preemptor, ctx.frs_need_preemption
    tracing = ctx.trace is not None
    out = []
    policy = cq.preemption.within_cluster_queue
    if policy != NEVER:
        out.extend(wl for wl in cq.workloads.values()
                   if satisfies_preemption_policy(pre, wl, policy) and wl.uses_resources(frs))
    if tracing:
        for wl in cq.workloads.values():
            why = _why_not(pre, wl, frs, "withinClusterQueue", policy)
            if why is not None:
                ctx.record("excluded", wl, why)
    if cq.parent is None:
        return out
    policy = cq.preemption.reclaim_within_cohort
    for other in _all_cluster_queues(cq.root()) if tracing else subtree_cluster_queues(cq.root()):
        if other is cq:
            continue
        if tracing:
            why = None
            if not other.active:
                why = f"ClusterQueue {other.name} is inactive: its workloads are never preemption candidates"
            elif policy == NEVER:
                why = "reclaimWithinCohort is Never: no workload of another ClusterQueue can be preempted"
            elif not cq_is_borrowing(other, frs):
                why = (f"ClusterQueue {other.name} is not borrowing "
                       + ", ".join(f"{r} in {f}" for f, r in sorted(frs)) + " (usage within nominal): nothing to reclaim")
            if why is not None:
                for wl in other.workloads.values():
                    ctx.record("excluded", wl, why)
                continue
        elif policy == NEVER or not cq_is_borrowing(other, frs):
            continue
        for wl in other.workloads.values():
            if satisfies_preemption_policy(pre, wl, policy) and wl.uses_resources(frs):
                out.append(wl)
            elif tracing:
                ctx.record("excluded", wl, _why_not(pre, wl, frs, "reclaimWithinCohort", policy))
    return out


def _all_cluster_queues(node: QuotaNode) -> Iterator[ClusterQueueNode]:
    """Every ClusterQueue under a cohort, inactive ones too (tracing only)."""
    if isinstance(node, ClusterQueueNode):
        yield node
        return
    for cohort in node.subtree_cohorts():
        yield from cohort.all_child_cqs


def _almost_lca(cq: ClusterQueueNode, lca: CohortNode) -> QuotaNode:
    node: QuotaNode = cq
    for ancestor in cq.path_parent_to_root():
        if ancestor is lca:
            return node
        node = ancestor
    raise ValueError("could not find the least common ancestor")  # unreachable in one tree


class TargetClusterQueue:
    """A ClusterQueue yielding candidates (``fairsharing.TargetClusterQueue``)."""

    def __init__(self, ordering: TargetClusterQueueOrdering, cq: ClusterQueueNode):
        self.ordering = ordering
        self.cq = cq

    @property
    def in_cluster_queue_preemption(self) -> bool:
        return self.cq is self.ordering.preemptor_cq

    def has_workload(self) -> bool:
        return self.ordering.has_workload(self.cq)

    def pop_workload(self) -> AdmittedWorkload:
        return self.ordering.by_cq[self.cq.name].pop(0)

    def _almost_lcas(self) -> tuple[QuotaNode, QuotaNode]:
        lca = None
        for ancestor in self.cq.path_parent_to_root():
            if ancestor in self.ordering.preemptor_ancestors:
                lca = ancestor
                break
        return _almost_lca(self.ordering.preemptor_cq, lca), _almost_lca(self.cq, lca)

    def compute_shares(self) -> tuple[DRS, DRS]:
        """(preemptor's almostLCA share with the incoming workload, target's almostLCA share)."""
        p, t = self._almost_lcas()
        return dominant_resource_share(p), dominant_resource_share(t)

    def share_after_removal(self, wl: AdmittedWorkload) -> DRS:
        snap = self.ordering.snapshot
        snap.remove_usage(self.cq, wl.usage)
        try:
            return dominant_resource_share(self._almost_lcas()[1])
        finally:
            snap.add_usage(self.cq, wl.usage)


class TargetClusterQueueOrdering:
    """``TargetClusterQueueOrdering``: walk from the root to the child with the highest share."""

    def __init__(self, ctx: PreemptionCtx, candidates: list[AdmittedWorkload]):
        self.snapshot = ctx.snapshot
        self.preemptor_cq = ctx.cq
        self.preemptor_ancestors = set(ctx.cq.path_parent_to_root())
        self.by_cq: dict[str, list[AdmittedWorkload]] = {}
        for wl in candidates:
            self.by_cq.setdefault(wl.cluster_queue, []).append(wl)
        self.pruned_cqs: set[str] = set()
        self.pruned_cohorts: set[str] = set()
        self._order_key = candidates_ordering_key(ctx.cq.name)

    def has_workload(self, cq: ClusterQueueNode) -> bool:
        return bool(self.by_cq.get(cq.name))

    def drop_queue(self, t: TargetClusterQueue) -> None:
        self.pruned_cqs.add(t.cq.name)

    def __iter__(self) -> Iterator[TargetClusterQueue]:
        if self.preemptor_cq.parent is None:
            t = TargetClusterQueue(self, self.preemptor_cq)
            while t.has_workload():
                yield t
            return
        root = self.preemptor_cq.root()
        while root.name not in self.pruned_cohorts:
            t = self._next_target(root)
            if t is None:
                continue
            yield t

    def _next_target(self, root: CohortNode) -> TargetClusterQueue | None:
        """``nextTarget`` from ``root`` until it finds a ClusterQueue, or the root is pruned.

        Kueue recurses into the child cohort with the highest share and, when a cohort turns out
        to hold nothing to preempt, prunes it and starts again at the root.  Nothing has been
        preempted in between, so the shares are unchanged and that new walk makes the same choices
        down to the pruned cohort's parent: this goes back to the parent instead (a dead-end
        chain of n cohorts costs n steps, not n²/2), and keeps the path in a list, not on the
        stack (a chain of cohorts may be deeper than Python's stack: both found by the fuzzer).
        Each cohort's potential available quota comes from its parent's in one step."""
        path = [(root, root_potentials(root))]
        while path:
            cohort, potentials = path[-1]
            lendable = lendable_of(potentials)  # what every child's share is measured against
            highest_cq, highest_cq_drs = self._highest_child_cq(cohort, lendable)
            highest_cohort, highest_cohort_drs = self._highest_child_cohort(cohort, lendable)
            if highest_cohort is None and highest_cq is None:
                self.pruned_cohorts.add(cohort.name)
                path.pop()
            elif compare_drs(highest_cohort_drs, highest_cq_drs) < 0:
                return TargetClusterQueue(self, highest_cq)
            else:
                path.append((highest_cohort, potentials_below(highest_cohort, potentials)))
        return None

    def _highest_child_cq(self, cohort: CohortNode, lendable: dict[str, int]) -> tuple[ClusterQueueNode | None, DRS]:
        """The child ClusterQueue with the highest share (pruning those with nothing to give)."""
        highest_cq, highest_cq_drs = None, NEGATIVE_DRS
        for cq in cohort.child_cqs:
            if cq.name in self.pruned_cqs:
                continue
            drs = dominant_resource_share(cq, parent_lendable=lendable)
            if (drs.is_zero() and cq is not self.preemptor_cq) or not self.has_workload(cq):
                self.pruned_cqs.add(cq.name)
                continue
            c = compare_drs(drs, highest_cq_drs)
            if c == 0:
                new_first = self.by_cq[cq.name][0]
                cur_first = self.by_cq[highest_cq.name][0]
                if self._order_key(new_first) < self._order_key(cur_first):
                    highest_cq = cq
            elif c == 1:
                highest_cq, highest_cq_drs = cq, drs
        return highest_cq, highest_cq_drs

    def _highest_child_cohort(self, cohort: CohortNode, lendable: dict[str, int]) -> tuple[CohortNode | None, DRS]:
        """The child cohort with the highest share (pruning those not borrowing, unless on the
        preemptor's path)."""
        highest_cohort, highest_cohort_drs = None, NEGATIVE_DRS
        for child in cohort.child_cohorts:
            if child.name in self.pruned_cohorts:
                continue
            drs = dominant_resource_share(child, parent_lendable=lendable)
            if drs.is_zero() and child not in self.preemptor_ancestors:
                self.pruned_cohorts.add(child.name)
            elif compare_drs(drs, highest_cohort_drs) >= 0:
                highest_cohort, highest_cohort_drs = child, drs
        return highest_cohort, highest_cohort_drs


def fs_strategy_unsatisfiable(preemptor_new: DRS, target_old: DRS) -> bool:
    """A zero-weight borrowing preemptor (+Inf share) can never pass against a finite target."""
    return preemptor_new.zero_weight_borrows() and not target_old.zero_weight_borrows()


def _within_nominal(ctx: PreemptionCtx) -> bool:
    """``queueWithinNominalInResourcesNeedingPreemption`` (usage includes the incoming workload)."""
    return not any(borrowing(ctx.cq, fr) for fr in ctx.frs_need_preemption)


def fair_preemptions(ctx: PreemptionCtx, strategies: tuple[str, ...]) -> list[Target]:
    """``fairPreemptions``: first strategy over the target ordering, then S2-b on the retry list,
    then the add-back minimisation with borrowing allowed."""
    candidates = find_candidates(ctx)
    if not candidates:
        return []
    candidates = sort_candidates(candidates, ctx.cq.name, ctx.snapshot.afs)
    fns = [STRATEGIES[s] for s in strategies if s in STRATEGIES] or [
        less_than_or_equal_to_final_share, less_than_initial_share]
    search = _FairSearch(ctx)
    snap, cq, usage = ctx.snapshot, ctx.cq, ctx.workload_usage
    gates = snap.options.gates
    snap.add_usage(cq, usage)  # shares must include the incoming workload
    try:
        first = search.first_strategy(candidates, fns[0])
        if not first.fits and gates.enabled("FairSharingReevaluatePreemptionCandidates") and any(
                t.cluster_queue == cq.name for t in search.targets):
            first = search.first_strategy(first.retry, fns[0])
        fits = first.fits or (len(fns) > 1 and search.second_strategy(first.retry))
    finally:
        snap.remove_usage(cq, usage)
    if not fits:
        if ctx.trace is not None:
            ctx.record("exhausted", None, "no more candidates pass the fair-sharing strategies", allow_borrowing=True,
                       shortfall=shortfall(ctx, True))
        restore_snapshot(snap, search.targets)
        return []
    ctx.record("fits", None, "the workload fits", allow_borrowing=True)
    targets = fill_back_workloads(ctx, search.targets, True)
    restore_snapshot(snap, targets)
    return targets


class _FirstPass(NamedTuple):
    retry: list[AdmittedWorkload]  # candidates the strategy rejected, for S2-b or a second pass
    fits: bool


class _FairSearch:
    """The state of one ``fairPreemptions`` run: the targets taken so far (removed from the
    snapshot, which holds the incoming workload's usage while the strategies run)."""

    def __init__(self, ctx: PreemptionCtx):
        self.ctx = ctx
        self.targets: list[Target] = []

    def take(self, target: Target) -> bool:
        """Record a target (already removed); True when the preemptor now fits."""
        ctx = self.ctx
        self.targets.append(target)
        ctx.snapshot.remove_usage(ctx.cq, ctx.workload_usage)
        try:
            return workload_fits(ctx, True)
        finally:
            ctx.snapshot.add_usage(ctx.cq, ctx.workload_usage)

    def _remove(self, wl: AdmittedWorkload, reason: str, detail: str, shares: ShareCheck | None = None) -> bool:
        self.ctx.snapshot.remove_workload(wl)
        self.ctx.record("removed", wl, detail, reason=reason, shares=shares)
        return self.take(Target(wl, reason))

    def first_strategy(self, cands: list[AdmittedWorkload], strategy: Strategy) -> _FirstPass:
        ctx = self.ctx
        ordering = TargetClusterQueueOrdering(ctx, cands)
        within_nominal = ctx.snapshot.options.gates.enabled("FairSharingPreemptWithinNominal") and _within_nominal(ctx)
        name = strategy_name(strategy)
        retry: list[AdmittedWorkload] = []
        for t in ordering:
            if t.in_cluster_queue_preemption:
                if self._remove(t.pop_workload(), IN_CLUSTER_QUEUE, "the preemptor's own ClusterQueue: no share check"):
                    return _FirstPass(retry, True)
                continue
            if within_nominal:
                if self._remove(t.pop_workload(), IN_COHORT_RECLAMATION,
                                f"the preemptor's ClusterQueue {ctx.cq.name} stays within its nominal quota "
                                "(FairSharingPreemptWithinNominal): no share check"):
                    return _FirstPass(retry, True)
                continue
            p_new, t_old = t.compute_shares()
            if fs_strategy_unsatisfiable(p_new, t_old):
                while t.has_workload():
                    wl = t.pop_workload()
                    ctx.record("deferred", wl, f"{name}: the preemptor's share is +Inf (weight 0, borrowing) and can "
                               "never be at or below a finite share",
                               shares=ShareCheck(name, share_value(p_new), share_value(t_old)))
                    retry.append(wl)
                continue
            while t.has_workload():
                wl = t.pop_workload()
                t_new = t.share_after_removal(wl)
                shares = ShareCheck(name, share_value(p_new), share_value(t_old), share_value(t_new))
                if strategy(p_new, t_old, t_new):
                    if self._remove(wl, IN_COHORT_FAIR_SHARING, _strategy_text(name, p_new, t_old, t_new, True),
                                    shares):
                        return _FirstPass(retry, True)
                    break  # shares changed: pick the next ClusterQueue again
                ctx.record("deferred", wl, _strategy_text(name, p_new, t_old, t_new, False), shares=shares)
                retry.append(wl)
        return _FirstPass(retry, False)

    def second_strategy(self, retry: list[AdmittedWorkload]) -> bool:
        """S2-b (LessThanInitialShare) over the candidates the first strategy deferred."""
        ordering = TargetClusterQueueOrdering(self.ctx, retry)
        for t in ordering:
            p_new, t_old = t.compute_shares()
            passed = less_than_initial_share(p_new, t_old)
            wl = t.pop_workload()
            shares = ShareCheck(LESS_THAN_INITIAL_SHARE, share_value(p_new), share_value(t_old))
            text = _strategy_text(LESS_THAN_INITIAL_SHARE, p_new, t_old, None, passed)
            if passed:
                if self._remove(wl, IN_COHORT_FAIR_SHARING, text, shares):
                    return True
            else:
                self.ctx.record("rejected", wl, text, shares=shares)
            ordering.drop_queue(t)  # S2-b applies at most once per ClusterQueue
        return False
