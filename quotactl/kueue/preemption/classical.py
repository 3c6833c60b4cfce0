"""Classical preemption (fair sharing off): candidate discovery per policy through the cohort
tree, classification into variants, and the remove-until-fits / add-back search.

Source: ``pkg/scheduler/preemption/classical/hierarchical_preemption.go``,
``pkg/scheduler/preemption/classical/candidate_generator.go``,
``pkg/scheduler/preemption/preemption.go: classicalPreemptions, queueUnderNominalInResourcesNeedingPreemption``,
``pkg/scheduler/preemption/strategy.go: ClassicalPreemptionPlan``.
"""

from __future__ import annotations

import enum
import heapq
from collections.abc import Iterator
from operator import itemgetter
from typing import NamedTuple

from quotactl.kueue.preemption.common import (
    IN_CLUSTER_QUEUE,
    IN_COHORT_RECLAIM_WHILE_BORROWING,
    IN_COHORT_RECLAMATION,
    PreemptionCtx,
    Target,
    by_local_queue_usage,
    fill_back_workloads,
    restore_snapshot,
    shortfall,
    workload_fits,
)
from quotactl.kueue.preemption.policy import (
    NEVER,
    borrowing_within_cohort_allowed,
    highest_preemptable_priority,
    policy_rejection,
    preempts_anything,
    satisfies_preemption_policy,
)
from quotactl.kueue.quota import (
    ClusterQueueNode,
    CohortNode,
    cq_available,
    is_within_nominal_in_resources,
    local_available,
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


class Candidate(NamedTuple):
    """``candidateElem``: a workload, the lowest common ancestor cohort with the preemptor's CQ
    (None for same-CQ candidates) and its variant (``why``: how it was classified, for reports).
    (A named tuple: searches create many of them, and a frozen dataclass is slow to build.)"""

    workload: AdmittedWorkload
    lca: CohortNode | None
    variant: Variant
    why: str = ""


def _borrowing_threshold(cq: ClusterQueueNode) -> tuple[bool, int | None]:
    """``IsBorrowingWithinCohortAllowed``: whether borrowWithinCohort allows it, and its
    maxPriorityThreshold (None when not allowed)."""
    p = cq.preemption
    if not borrowing_within_cohort_allowed(p):
        return False, None
    return True, p.max_priority_threshold


def _policy_for(ctx: PreemptionCtx, wl: AdmittedWorkload) -> tuple[str, str]:
    if wl.cluster_queue == ctx.cq.name:
        return "withinClusterQueue", ctx.cq.preemption.within_cluster_queue
    return "reclaimWithinCohort", ctx.cq.preemption.reclaim_within_cohort


def _above_borrowing_threshold(candidate: int, incoming: int, threshold: int | None) -> bool:
    if candidate >= incoming:
        return True
    return threshold is not None and candidate > threshold


def _classify(ctx: PreemptionCtx, wl: AdmittedWorkload, hierarchical_advantage: bool,
              explain: bool = False) -> tuple[Variant, str]:
    """``classifyPreemptionVariant``; with ``explain``, also the rule that decided it."""
    if not wl.uses_resources(ctx.frs_need_preemption):
        return Variant.NEVER, (f"uses none of the flavor-resources that need preemption "
                               f"({_frs_text(ctx.frs_need_preemption)})" if explain else "")
    field_name, policy = _policy_for(ctx, wl)
    if not satisfies_preemption_policy(ctx.preemptor, wl, policy):
        return Variant.NEVER, (policy_rejection(field_name, policy, ctx.preemptor.priority, wl.priority)
                               if explain else "")
    if wl.cluster_queue == ctx.cq.name:
        return Variant.WITHIN_CQ, f"same ClusterQueue ({policy})" if explain else ""
    if hierarchical_advantage:
        return Variant.HIERARCHICAL_RECLAIM, ("the preemptor has a closer claim on the quota it uses "
                                              "(hierarchical advantage): priority does not matter" if explain else "")
    allowed, threshold = _borrowing_threshold(ctx.cq)
    if not allowed:
        return Variant.RECLAIM_WITHOUT_BORROWING, ("borrowWithinCohort is not enabled: only usable if the "
                                                   "preemptor ends within its nominal quota" if explain else "")
    if _above_borrowing_threshold(wl.priority, ctx.preemptor.priority, threshold):
        if not explain:
            return Variant.RECLAIM_WITHOUT_BORROWING, ""
        if wl.priority >= ctx.preemptor.priority:
            why = f"priority {wl.priority} is not lower than the preemptor's {ctx.preemptor.priority}"
        else:
            why = f"priority {wl.priority} is above maxPriorityThreshold {threshold}"
        return Variant.RECLAIM_WITHOUT_BORROWING, why + ": only usable if the preemptor ends within its nominal quota"
    if not explain:
        return Variant.RECLAIM_WHILE_BORROWING, ""
    return Variant.RECLAIM_WHILE_BORROWING, ("lower priority" + (f", at or below maxPriorityThreshold {threshold}"
                                                                 if threshold is not None else "")
                                             + ": may be preempted while the preemptor borrows (borrowWithinCohort)")


def classify(ctx: PreemptionCtx, wl: AdmittedWorkload, hierarchical_advantage: bool) -> Variant:
    """``classifyPreemptionVariant``."""
    return _classify(ctx, wl, hierarchical_advantage)[0]


def _frs_text(frs) -> str:
    return ", ".join(f"{r} in {f}" for f, r in sorted(frs))


def _variant_fn(ctx: PreemptionCtx, advantage: bool):
    """``_classify`` without the explanations, with everything that depends only on the
    preemptor hoisted out of the per-workload loop (the scheduler's hot path)."""
    frs = ctx.frs_need_preemption
    cq_name = ctx.cq.name
    preemptor = ctx.preemptor
    incoming = preemptor.priority
    within, reclaim = ctx.cq.preemption.within_cluster_queue, ctx.cq.preemption.reclaim_within_cohort
    allowed, threshold = _borrowing_threshold(ctx.cq)

    def variant(wl: AdmittedWorkload) -> Variant:
        if wl.flavor_resources.isdisjoint(frs):
            return Variant.NEVER
        same = wl.cluster_queue == cq_name
        if not satisfies_preemption_policy(preemptor, wl, within if same else reclaim):
            return Variant.NEVER
        if same:
            return Variant.WITHIN_CQ
        if advantage:
            return Variant.HIERARCHICAL_RECLAIM
        if not allowed or _above_borrowing_threshold(wl.priority, incoming, threshold):
            return Variant.RECLAIM_WITHOUT_BORROWING
        return Variant.RECLAIM_WHILE_BORROWING

    return variant


_NO_SCAN = object()


def _scan_params(ctx: PreemptionCtx, advantage: bool, same: bool):
    """(variant function, highest preemptable priority or None) for scanning a ClusterQueue
    (the preemptor's own when ``same``), or ``_NO_SCAN`` when its policy is Never.  They
    depend only on the context, so one search computes them once per kind of scan."""
    limit = _scan_limit(ctx, same)
    if limit is _NO_SCAN:
        return _NO_SCAN
    return _variant_fn(ctx, advantage), limit


def _scan_limit(ctx: PreemptionCtx, same: bool):
    """The highest priority the policy lets a scan preempt (None: any), or ``_NO_SCAN``."""
    policy = ctx.cq.preemption.within_cluster_queue if same else ctx.cq.preemption.reclaim_within_cohort
    if not preempts_anything(policy):
        return _NO_SCAN
    return highest_preemptable_priority(policy, ctx.preemptor.priority)


def _cached_scan_params(ctx: PreemptionCtx, cq: ClusterQueueNode, advantage: bool):
    """``_scan_params`` for scanning ``cq``, computed once per search and kind of scan."""
    same = cq.name == ctx.cq.name
    params = ctx.scan_cache.get((advantage, same))
    if params is None:
        params = ctx.scan_cache[(advantage, same)] = _scan_params(ctx, advantage, same)
    return params


def _candidates_from_cq(ctx: PreemptionCtx, cq: ClusterQueueNode, lca: CohortNode | None,
                        advantage: bool) -> list[Candidate]:
    out = []
    if ctx.trace is None:
        # The workloads in candidate order: once past the evicted ones, priorities only grow,
        # so the scan stops at the first priority the policy protects (all later ones are too).
        params = _cached_scan_params(ctx, cq, advantage)
        if params is _NO_SCAN:
            return out
        variant, limit = params
        frs = ctx.frs_need_preemption
        never = Variant.NEVER
        for of, wl in cq.ordered_workloads():
            if limit is not None and of[0] and of[1] > limit:
                break
            if wl.flavor_resources.isdisjoint(frs):
                continue  # variant() would say NEVER
            v = variant(wl)
            if v != never:
                out.append(Candidate(wl, lca, v))
        return out
    for wl in cq.workloads.values():
        v, why = _classify(ctx, wl, advantage, True)
        if v == Variant.NEVER:
            ctx.record("excluded", wl, why)
        else:
            out.append(Candidate(wl, lca, v, why))
    return out


def _source_from_cq(ctx: PreemptionCtx, cq: ClusterQueueNode, lca: CohortNode | None,
                    advantage: bool) -> tuple | None:
    """What ``_candidates_from_cq`` would scan, for the lazy search (``_lazy_stream``): the
    workloads in candidate order (the live list itself: the search moves usage only,
    ``Snapshot.lift_usage``, and the lists stay as they are until it returns), the scan parameters
    and the lca; None when the scan would find nothing: the policy allows nothing, there are no
    workloads, or the first one is already past the priority limit (as are all later ones)."""
    rows = cq.ordered_workloads()
    if not rows:
        return None
    limit = _scan_limit(ctx, cq.name == ctx.cq.name)  # cheaper than the variant function
    first = rows[0][0]
    if limit is _NO_SCAN or (limit is not None and first[0] and first[1] > limit):
        return None
    variant, limit = _cached_scan_params(ctx, cq, advantage)
    return rows, variant, limit, lca


def _lazy_stream(ctx: PreemptionCtx, rows, variant, limit: int | None, lcas: dict) -> Iterator[tuple]:
    """``_candidates_from_cq`` one candidate at a time, as ``(ordering fields, candidate)``, over
    ``(ordering fields, workload)`` rows in candidate order (``lcas``: ClusterQueue -> lca)."""
    frs = ctx.frs_need_preemption
    for of, wl in rows:
        if limit is not None and of[0] and of[1] > limit:
            return
        if wl.flavor_resources.isdisjoint(frs):
            continue  # variant() would say NEVER
        v = variant(wl)
        if v:  # not Variant.NEVER
            yield of, Candidate(wl, lcas[wl.cluster_queue], v)


def _bucket_stream(ctx: PreemptionCtx, sources: list[tuple]) -> Iterator[tuple]:
    """One bucket's candidates sorted by ``ordering_fields``: its sources' rows merged (what
    sorting the concatenation gives: keys are unique, ties go to the source collected first),
    then classified one at a time.  The sources of a bucket share their scan parameters (one
    kind of scan: the same advantage, never the preemptor's ClusterQueue), so the first row
    past the priority limit ends them all: later rows of every source are past it too."""
    _rows, variant, limit, _lca = sources[0]
    lcas = {rows[0][1].cluster_queue: lca for rows, _v, _l, lca in sources}
    if len(sources) == 1:
        return _lazy_stream(ctx, sources[0][0], variant, limit, lcas)
    merged = heapq.merge(*(rows for rows, _v, _l, _lca in sources), key=itemgetter(0))
    return _lazy_stream(ctx, merged, variant, limit, lcas)


def _exclude_all(ctx: PreemptionCtx, node, why: str) -> None:
    """Tracing only: every workload under ``node`` is out for the same reason."""
    if ctx.trace is None:
        return
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ClusterQueueNode):
            if n is not ctx.cq:
                for wl in n.workloads.values():
                    ctx.record("excluded", wl, why)
            continue
        stack.extend(n.child_cohorts)
        stack.extend(n.all_child_cqs)


def collect_same_queue_candidates(ctx: PreemptionCtx) -> list[Candidate]:
    if ctx.cq.preemption.within_cluster_queue == NEVER:
        if ctx.trace is not None:
            for wl in ctx.cq.workloads.values():
                ctx.record("excluded", wl, "withinClusterQueue is Never")
        return []
    return _candidates_from_cq(ctx, ctx.cq, None, False)


def _collect_in_subtree(ctx: PreemptionCtx, start: CohortNode, subtree_root: CohortNode,
                        skip: CohortNode | None, advantage: bool, result: list, lazy: bool = False) -> None:
    """Each cohort's ClusterQueues after those of its child cohorts (in order; ``skip`` and the
    cohorts within their quota left out).  Kueue recurses; this keeps the path down in a list (a
    chain of cohorts may be deeper than Python's stack: found by the fuzzer), in the same order.
    ``lazy``: ``result`` receives sources (``_source_from_cq``) instead of candidates."""
    path = [(start, iter(start.child_cohorts))]
    while path:
        current, children = path[-1]
        child = next(children, None)
        if child is None:
            path.pop()
            _collect_from_child_cqs(ctx, current, subtree_root, advantage, result, lazy)
        elif child is skip:
            continue  # already visited from below
        elif is_within_nominal_in_resources(child, ctx.frs_need_preemption):
            if ctx.trace is not None:
                _exclude_all(ctx, child, f"cohort {child.name} is within its quota on "
                                         f"{_frs_text(ctx.frs_need_preemption)}: nothing to reclaim below it")
            # a subtree within its quota has nothing to give back
        else:
            path.append((child, iter(child.child_cohorts)))


def _collect_from_child_cqs(ctx: PreemptionCtx, current: CohortNode, subtree_root: CohortNode, advantage: bool,
                            result: list, lazy: bool) -> None:
    for child_cq in current.child_cqs:
        if child_cq is ctx.cq:
            continue
        if not is_within_nominal_in_resources(child_cq, ctx.frs_need_preemption):
            if lazy:
                source = _source_from_cq(ctx, child_cq, subtree_root, advantage)
                if source is not None:
                    result.append(source)
            else:
                result.extend(_candidates_from_cq(ctx, child_cq, subtree_root, advantage))
        elif ctx.trace is not None:
            _exclude_all(ctx, child_cq, f"ClusterQueue {child_cq.name} is not borrowing "
                                        f"{_frs_text(ctx.frs_need_preemption)} (usage within nominal): "
                                        "nothing to reclaim")
    if ctx.trace is not None:
        for child_cq in current.all_child_cqs:
            if not child_cq.active:
                _exclude_all(ctx, child_cq, f"ClusterQueue {child_cq.name} is inactive: its workloads are "
                                            "never preemption candidates")


def collect_candidates_for_hierarchical_reclaim(ctx: PreemptionCtx, priority_bucket: bool = True,
                                                lazy: bool = False) -> tuple[list, list]:
    """``collectCandidatesForHierarchicalReclaim``: (hierarchy candidates, priority candidates).
    ``priority_bucket=False``: leave the priority candidates out (the caller will not use them).
    ``lazy``: sources to scan (``_source_from_cq``) instead of candidates."""
    hierarchy: list[Candidate] = []
    priority: list[Candidate] = []
    cq = ctx.cq
    if cq.parent is None:
        return hierarchy, priority
    if cq.preemption.reclaim_within_cohort == NEVER:
        _exclude_all(ctx, cq.root(), "reclaimWithinCohort is Never: no workload of another ClusterQueue "
                                     "can be preempted")
        return hierarchy, priority
    advantage, remaining = quantities_fit_in_quota(cq, ctx.workload_usage)
    previous = None
    for subtree_root in cq.path_parent_to_root():
        if advantage or priority_bucket:
            _collect_in_subtree(ctx, subtree_root, subtree_root, previous, advantage,
                                hierarchy if advantage else priority, lazy)
        fits, remaining = quantities_fit_in_quota(subtree_root, remaining)
        advantage = advantage or fits
        previous = subtree_root
    return hierarchy, priority


def _ordering_fields(c: Candidate) -> tuple:
    return c.workload.ordering_fields


def _workload_of(c: Candidate) -> AdmittedWorkload:
    return c.workload


def _stays_above_nominal(ctx: PreemptionCtx, same: list[Candidate]) -> bool:
    """With every same-ClusterQueue candidate removed, the request still exceeds the
    ClusterQueue's nominal quota on some fr (``borrowing_with``), so ``workload_fits`` without
    borrowing fails at every step of a run: only those removals lower the ClusterQueue's own
    usage, each by exactly its amount (frs with a negative amount are not concluded on)."""
    cq = ctx.cq
    for fr, v in ctx.workload_usage.items():
        u = cq.usage.get(fr, 0)
        for c in same:
            x = c.workload.usage.get(fr, 0)
            if x < 0:
                break
            u -= x
        else:
            if u + v > cq.subtree_quota.get(fr, 0):
                return True
    return False


class CandidateIterator:
    """``candidateIterator``: evicted candidates first (hierarchy, priority, same CQ), then the
    rest in the same bucket order; validity is re-checked against the live snapshot."""

    def __init__(self, ctx: PreemptionCtx, for_search: bool = False):
        """``for_search``: only the candidates ``classical_preemptions`` can take.  Without
        borrowWithinCohort, every priority candidate is RECLAIM_WITHOUT_BORROWING, which a run
        letting the preemptor borrow passes over.  When the preemptor's ClusterQueue is not
        under nominal quota, every run lets it borrow (``attempt_plan``); when even the removal
        of all same-ClusterQueue candidates leaves it above nominal quota, a run forbidding
        borrowing never fits (``_stays_above_nominal``), so only the borrowing run can find
        victims.  Either way (``borrowing_only``) the priority candidates are not collected and
        ``candidates`` is incomplete (tracing always collects everything)."""
        self.ctx = ctx
        self._stream = None
        afs = ctx.snapshot.afs
        if for_search and ctx.trace is None and afs is None:  # the lazy streams know no LocalQueue usage
            self._init_lazy()
            return
        same = collect_same_queue_candidates(ctx)
        self.borrowing_only = False
        hierarchy, priority = collect_candidates_for_hierarchical_reclaim(ctx)

        def ordered(cands: list[Candidate]) -> list[Candidate]:
            # CandidatesOrdering (common.candidates_ordering_key): within one bucket the "in the
            # preemptor's ClusterQueue" field is the same for all (``same`` holds only the
            # preemptor's CQ, the others never include it), so the cached preemptor-independent
            # fields give the same order; they end with the workload key, so no ties.
            # With admission fair sharing, LocalQueue usage before priority (by_local_queue_usage).
            return by_local_queue_usage(sorted(cands, key=_ordering_fields), afs, _workload_of)

        same, hierarchy, priority = ordered(same), ordered(hierarchy), ordered(priority)

        def split(cands):
            return [c for c in cands if c.workload.evicted], [c for c in cands if not c.workload.evicted]

        eh, nh = split(hierarchy)
        ep, np_ = split(priority)
        es, ns = split(same)
        self.candidates = eh + ep + es + nh + np_ + ns
        self.none_at_all = not self.candidates
        self.no_candidate_from_other_queues = not hierarchy and not priority
        self.no_candidate_for_hierarchical_reclaim = not hierarchy

    def _init_lazy(self) -> None:
        """The search's candidates, produced only as far as the runs consume them: a run
        usually stops after a few of the cohort's candidates.  Each bucket (hierarchy,
        priority, same ClusterQueue) is the merge of its ClusterQueues' workloads, already kept
        in candidate order, classified one at a time; the order is the eager one (evicted
        ones of each bucket first, then the rest).  The runs change usage only (the workload
        lists stay as they are) and the classification does not read the snapshot, so nothing they change
        affects which candidates come, nor their order (``candidates`` is not set)."""
        ctx = self.ctx
        allowed = borrowing_within_cohort_allowed(ctx.cq.preemption)
        if ctx.cq.preemption.within_cluster_queue == NEVER:
            same_src = None
        else:
            same_src = _source_from_cq(ctx, ctx.cq, None, False)
        if not allowed and queue_under_nominal_in_resources_needing_preemption(ctx):
            same = [] if same_src is None else list(_bucket_stream(ctx, [same_src]))
            self.borrowing_only = _stays_above_nominal(ctx, [t[1] for t in same])
            same_it = iter(same)
        else:
            self.borrowing_only = not allowed
            same_it = iter(()) if same_src is None else _bucket_stream(ctx, [same_src])
        hierarchy, priority = collect_candidates_for_hierarchical_reclaim(ctx, not self.borrowing_only, lazy=True)
        its = [_bucket_stream(ctx, hierarchy) if hierarchy else iter(()),
               _bucket_stream(ctx, priority) if priority else iter(()),
               same_it]
        heads = [next(it, None) for it in its]
        self.none_at_all = heads[0] is None and heads[1] is None and heads[2] is None
        self.no_candidate_from_other_queues = heads[0] is None and heads[1] is None
        self.no_candidate_for_hierarchical_reclaim = heads[0] is None
        self._taken: list[Candidate] = []
        self._stream = self._ordered_stream(its, heads)

    @staticmethod
    def _ordered_stream(its: list, heads: list) -> Iterator[Candidate]:
        for b, it in enumerate(its):  # the evicted candidates of each bucket
            h = heads[b]
            while h is not None and not h[0][0]:
                yield h[1]
                h = next(it, None)
            heads[b] = h
        for b, it in enumerate(its):
            h = heads[b]
            while h is not None:
                yield h[1]
                h = next(it, None)

    def why_invalid(self, c: Candidate, borrow: bool) -> str | None:
        """Why the run passes over a candidate now (None: it is valid), evaluated on the live
        snapshot, i.e. after the removals so far."""
        ctx = self.ctx
        if c.workload.cluster_queue == ctx.cq.name:
            return None
        if borrow and c.variant == Variant.RECLAIM_WITHOUT_BORROWING:
            return "this run lets the preemptor borrow, so it may only take workloads it may preempt while " \
                   f"borrowing ({c.why})"
        cand_cq = ctx.snapshot.cluster_queues[c.workload.cluster_queue]
        if is_within_nominal_in_resources(cand_cq, ctx.frs_need_preemption):
            return f"ClusterQueue {cand_cq.name} is no longer borrowing after the removals so far"
        for node in cand_cq.path_parent_to_root():
            if node is c.lca:
                break
            if is_within_nominal_in_resources(node, ctx.frs_need_preemption):
                return f"cohort {node.name} is no longer over its quota after the removals so far"
        return None

    def _lazy_candidates(self) -> Iterator[Candidate]:
        """Every candidate in order: the ones an earlier run produced, then new ones."""
        taken = self._taken
        yield from taken  # may grow only below, not while this loop runs
        stream = self._stream
        for c in stream:
            taken.append(c)
            yield c

    def iterate(self, borrow: bool) -> Iterator[tuple[AdmittedWorkload, str]]:
        """One run over the candidates; validity is evaluated lazily, after earlier removals."""
        if self._stream is None:
            cands: Iterator[Candidate] = iter(self.candidates)
        else:
            cands = self._lazy_candidates()
        for c in cands:
            why = self.why_invalid(c, borrow)
            if why is None:
                yield c.workload, c.variant.reason
            else:
                self.ctx.record("skipped", c.workload, why)


def queue_under_nominal_in_resources_needing_preemption(ctx: PreemptionCtx) -> bool:
    """Usage strictly below nominal on every fr needing preemption."""
    cq = ctx.cq
    return all(cq.nominal(fr) > cq.usage.get(fr, 0) for fr in ctx.frs_need_preemption)


def attempt_plan(ctx: PreemptionCtx, iterator: CandidateIterator) -> list[bool]:
    """The allowBorrowing values to try, in order."""
    forbidden = not borrowing_within_cohort_allowed(ctx.cq.preemption)
    if iterator.borrowing_only:
        return [True]  # a run without borrowing cannot fit (CandidateIterator)
    if iterator.no_candidate_from_other_queues or (
            forbidden and not queue_under_nominal_in_resources_needing_preemption(ctx)):
        return [True]
    if forbidden and iterator.no_candidate_for_hierarchical_reclaim:
        return [False, True]
    return [True, False]


def request_is_inert(cq: ClusterQueueNode, fr: tuple, amount: int) -> bool:
    """Is ``amount`` of ``fr`` (not needing preemption) in the request read by no step of
    ``classical_preemptions`` in ``cq`` with any outcome but the one the search without it
    gets?  The search reads the request in three places, and such an amount passes all three
    at every step when it fits without borrowing in ``cq`` and, as ``quantities_fit_in_quota``
    passes the remainder up, in every cohort above, and ``cq`` has it available: the cohorts'
    ``fits`` (advantage) then depend on the other frs only; ``_stays_above_nominal`` and
    ``workload_fits`` (borrowing or not) compare it with the ClusterQueue's nominal quota and
    available quota, which removals only make larger (every state of a search is the
    snapshot minus some of its victims)."""
    if amount <= 0 or amount > cq_available(cq, fr):
        return False
    node, remaining = cq, amount
    while node is not None:
        if node.usage.get(fr, 0) + remaining > node.subtree_quota.get(fr, 0):
            return False
        remaining = max(0, remaining - local_available(node, fr))
        node = node.parent
    return True


def classical_preemptions(ctx: PreemptionCtx) -> list[Target]:
    """``classicalPreemptions``: the first run that fits wins, minimised by adding back."""
    iterator = CandidateIterator(ctx, for_search=True)
    snap = ctx.snapshot
    tracing = ctx.trace is not None
    if iterator.none_at_all and not tracing:
        return []  # no run can remove anything (most searches of the scheduler end here)
    why = {id(c.workload): c.why for c in iterator.candidates} if tracing else {}
    for allow_borrowing in attempt_plan(ctx, iterator):
        ctx.record("attempt", None, "borrowing allowed" if allow_borrowing else "within nominal quota only",
                   allow_borrowing=allow_borrowing)
        targets: list[Target] = []
        for wl, reason in iterator.iterate(allow_borrowing):
            # the search reads usage only (the lazy streams walk workload lists it never
            # changes): the lists stay as they are
            snap.lift_usage(wl)
            targets.append(Target(wl, reason))
            ctx.record("removed", wl, why.get(id(wl), ""), reason=reason)
            if workload_fits(ctx, allow_borrowing):
                ctx.record("fits", None, "the workload fits", allow_borrowing=allow_borrowing)
                targets = fill_back_workloads(ctx, targets, allow_borrowing, usage_only=True)
                restore_snapshot(snap, targets, usage_only=True)
                return targets
        if tracing:
            ctx.record("exhausted", None, "no more candidates", allow_borrowing=allow_borrowing,
                       shortfall=shortfall(ctx, allow_borrowing))
        restore_snapshot(snap, targets, usage_only=True)
    return []
