"""FairSharingRefill (kueue ``pkg/scheduler/refill.go``): under fair sharing, a fresh admission
lets its ClusterQueue's next workload into the running cycle, up to a budget of extra pops.
Mixed into ``loop.Scheduler``, whose cycle calls ``_run_with_refill`` when the budget is not 0."""

from __future__ import annotations

from quotactl.kueue.assign import Mode
from quotactl.kueue.fairshare import FairSharingIterator
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.scheduler.entry import CycleWork, Entry, Head
from quotactl.kueue.scheduler.results import ADMITTED, NOT_NOMINATED

DEFAULT_REFILL_BUDGET = 8  # refill.go defaultRefillBudget


def refill_budget(options: EngineOptions) -> int:
    """FairSharingRefill's extra pops per cycle, 0 when refill does not run (``newRefillPass``):
    the gate off, fair sharing off (only its tournament reranks a refilled entry), or
    waitForPodsReady with blockAdmission (the cache's pods-ready tracking serializes the cycle)."""
    if not options.gates.enabled("FairSharingRefill") or not options.fair_sharing:
        return 0
    if options.block_admission:
        return 0
    return DEFAULT_REFILL_BUDGET


class RefillPass:
    """The refill pass of ``loop.Scheduler`` (its snapshot, queues, ``_nominate``, ``_process``)."""

    def _run_with_refill(self, nominated: list[Entry], heads: list[Head], entries: list[Entry],
                         processed: list[Entry], work: CycleWork, recompute: bool) -> None:
        """The fair-sharing tournament with FairSharingRefill (kueue pkg/scheduler/refill.go
        ``refillPass``): after a fresh admission its ClusterQueue's next workload is popped into the
        running cycle, nominated against the snapshot as it is now and reranked on the next pop;
        at most ``refill_budget`` extra pops per cycle (``defaultRefillBudget``)."""
        it = FairSharingIterator(self.snapshot, nominated)
        budget = self.refill_budget
        while it.has_next():
            e = it.pop()
            processed.append(e)
            self._process(e, work, recompute)
            # tryRefill: only a fresh admission frees its ClusterQueue's head slot
            if budget <= 0 or e.outcome != ADMITTED or e.wl.has_quota_reservation:
                continue
            q = self.queues[e.cq.name]
            okey = q.pop()
            if okey is None:
                continue  # an empty backlog consumes no budget
            budget -= 1
            nxt = self._nominate(self.cluster.workloads[okey[-1]], e.cq)
            nxt.refilled = True
            heads.append(Head(q, okey))
            entries.append(nxt)
            if nxt.outcome == NOT_NOMINATED or nxt.assignment.representative_mode == Mode.NoFit:
                processed.append(nxt)  # not nominated: parks through the cycle's requeue step
                if nxt.outcome != NOT_NOMINATED:
                    self._process(nxt, work, recompute)
                continue
            it.by_cq[nxt.cq.name] = nxt  # fairSharingIterator.push
