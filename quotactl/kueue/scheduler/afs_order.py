"""Admission fair sharing in the scheduler (kueue ``pkg/cache/queue`` ordering by LocalQueue
usage, ``workload_controller.go updateAfsConsumedUsage``): the queues of the ClusterQueues using
it pop by usage, and the Admitted transition settles a workload's entry penalty. The ledger and
its arithmetic are ``kueue/afs.py``; mixed into ``loop.Scheduler``."""

from __future__ import annotations

from datetime import datetime

from quotactl.kueue.afs import AfsLedger, lq_key_of
from quotactl.kueue.scheduler.queues import UsageOrder
from quotactl.model.kueue import Workload


class AfsOrder:
    """Admission fair sharing's part of ``loop.Scheduler`` (its ``afs`` ledger, queues, clock)."""

    def _order_by_usage(self, afs: AfsLedger) -> None:
        """The queues of the ClusterQueues using admission fair sharing order by LocalQueue usage;
        the ledger's clock starts at the snapshot's instant (simulate moves it: ``start_clock``)."""
        afs.start_clock(self.start, ticks=False)
        afs.group_by(self.tree_of)  # nominations are reused per cohort tree (_nominate)
        workloads = self.cluster.workloads

        def local_queue(key: str) -> tuple[str, str]:
            return lq_key_of(workloads[key])

        for name in afs.cluster_queues:
            if name in self.queues:
                self.queues[name].afs_usage = UsageOrder(local_queue, afs.usage, afs.local_queue_count(name))

    def workload_admitted(self, wl: Workload, cluster_queue: str, usage: dict) -> None:
        """The workload's Admitted condition turned True (with no admission check, at its quota
        reservation): admission fair sharing folds its entry penalty into its LocalQueue's
        consumed usage (``updateAfsConsumedUsage``)."""
        if self.afs is not None:
            self.afs.settle_entry_penalty(wl, cluster_queue, usage, self._afs_clock())

    def _afs_clock(self) -> datetime:
        """The instant of the ledger's updates: simulate's clock, else the snapshot's instant
        (``schedule``'s cycles all answer for it)."""
        return self.event_time if self.event_time is not None else self.start
