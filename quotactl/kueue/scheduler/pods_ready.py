"""waitForPodsReady with blockAdmission (kueue ``scheduler.go waitForPodsReadyIfNeeded``, the
cache's ``WorkloadsNotReady``): while a workload holding quota lacks PodsReady=True the scheduler
admits nothing. Mixed into ``loop.Scheduler`` (its ``pods_not_ready`` set, options and trees);
simulate reports the PodsReady transitions (``simulate/phases.py``)."""

from __future__ import annotations

from quotactl.kueue.reasons import MSG_WAITING_FOR_PODS_READY, WAITING_FOR_PODS_READY
from quotactl.kueue.scheduler.entry import Entry
from quotactl.kueue.scheduler.results import WAITING


class PodsReadyWait:
    """blockAdmission's wait, on ``loop.Scheduler``."""

    @property
    def admission_blocked(self) -> bool:
        """blockAdmission: the scheduler waits while a quota holder lacks PodsReady=True."""
        return bool(self.pods_not_ready) and self.options.block_admission

    def pods_ready(self, key: str) -> bool:
        """``key``'s pods are ready (or it left); True when that ends the wait of blockAdmission:
        the caller wakes the trees with heads (``wake_all``)."""
        if key not in self.pods_not_ready:
            return False
        self.pods_not_ready.discard(key)
        return not self.pods_not_ready

    def wake_all(self) -> list[str]:
        """Every tree with an active head wakes (the scheduler stopped waiting); returns them."""
        trees = [t for t in sorted(self.tree_cqs) if self.tree_has_active_heads(t)]
        for t in trees:
            self.wake(t)
        return trees

    @staticmethod
    def _wait(e: Entry) -> None:
        """``waitForPodsReadyIfNeeded``: the entry is admitted once every quota holder's pods are
        ready; here it goes back to the front of its queue and the cycle ends (the clock runs
        the next cycle when the wait is over)."""
        e.outcome, e.reason, e.message, e.immediate = WAITING, WAITING_FOR_PODS_READY, MSG_WAITING_FOR_PODS_READY, True
