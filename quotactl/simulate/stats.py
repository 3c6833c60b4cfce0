"""The result of a run from its workloads' records: per ClusterQueue and per class statistics, in
one pass. Shared by the one-process run (``run``) and the merge of the workers' parts (``split``)."""

from __future__ import annotations

import math

from quotactl.simulate.clock import seconds
from quotactl.simulate.result import (
    ClassStats,
    LifecycleStats,
    QueueStats,
    SimulationResult,
    WaitStats,
    WorkloadRun,
)
from quotactl.simulate.usage import UsageLedger


def frozen_result(run, end: int, runs: list[WorkloadRun], ledger: UsageLedger, pending_counts: dict,
                  series: dict, pending: tuple, livelock, cycles: int, lifecycle: bool = False) -> SimulationResult:
    """The result of ``run`` (a ``run._Run``) from its parts (one process's, or the workers' merged:
    split.py)."""
    names = sorted(run.s.snapshot.cluster_queues)
    return SimulationResult(
        start=run.t0, end=end, converged=run.stopped not in ("livelock", "limit"), livelock=livelock,
        livelock_at=run.now if livelock is not None else None, stopped=run.stopped,
        cycle_interval=run.cadence.interval, admission_cost=run.cadence.admission_cost, cycles=cycles,
        workloads=tuple(runs), cluster_queues=_queue_stats(names, runs, end, ledger, pending_counts),
        classes=_class_stats(runs), series={cq: tuple(samples) for cq, samples in sorted(series.items())},
        pending=pending, no_runtime=sum(1 for r in runs if r.runtime is None),
        overdue=sum(1 for r in runs if r.overdue), nominal={name: ledger.nominal(name) for name in names},
        limits=run.cadence.limits(), lifecycle=lifecycle, lifecycle_stats=_lifecycle_stats(runs) if lifecycle else ())


def _lifecycle_stats(runs: list[WorkloadRun]) -> tuple[LifecycleStats, ...]:
    """Per ClusterQueue: reservations, Admitted transitions, reservations still waiting at the end,
    requeues after a PodsReady timeout, deactivations."""
    tally: dict[str, list[int]] = {}
    for r in runs:
        if r.cluster_queue is None:
            continue
        t = tally.setdefault(r.cluster_queue, [0, 0, 0, 0, 0])
        t[0] += len(r.admissions)
        t[1] += len(r.admitted_at)
        t[2] += r.reserved_at_end
        t[3] += r.requeue_count
        t[4] += r.deactivated is not None
    return tuple(LifecycleStats(name, *t) for name, t in sorted(tally.items()))


def _queue_stats(names: list[str], runs: list[WorkloadRun], end: int, ledger: UsageLedger,
                 pending_counts: dict) -> tuple[QueueStats, ...]:
    tally: dict[str, _Tally] = {}
    for r in runs:  # one pass: a run of 50,000 workloads reads each record once
        if r.cluster_queue is None:
            continue
        t = tally.get(r.cluster_queue)
        if t is None:
            t = tally[r.cluster_queue] = _Tally()
        t.add(r)
        t.admitted += len(r.admissions)
        t.lost += r.lost_work
        for e in r.evictions:
            t.reasons[e.reason] = t.reasons.get(e.reason, 0) + 1
    out = []
    for name in names:
        t = tally.get(name) or _Tally()
        out.append(QueueStats(name, t.admitted, t.finished, sum(t.reasons.values()), dict(sorted(t.reasons.items())),
                              t.lost, wait_stats(t.waits), ledger.fractions_over(name, end), pending_counts[name]))
    return tuple(out)


def _class_stats(runs: list[WorkloadRun]) -> tuple[ClassStats, ...]:
    tally: dict[str, _Tally] = {}
    for r in runs:
        if r.klass is not None:
            t = tally.get(r.klass)
            if t is None:
                t = tally[r.klass] = _Tally()
            t.add(r)
    return tuple(ClassStats(name, t.workloads, len(t.waits), t.finished, wait_stats(t.waits))
                 for name, t in sorted(tally.items()))


class _Tally:
    """The counts of one ClusterQueue or class, summed in one pass over the records."""

    __slots__ = ("workloads", "admitted", "finished", "lost", "reasons", "waits")

    def __init__(self):
        self.workloads = self.admitted = self.finished = self.lost = 0
        self.reasons: dict[str, int] = {}
        self.waits: list[int] = []  # the waits that happened

    def add(self, r: WorkloadRun) -> None:
        self.workloads += 1
        if r.finished is not None:
            self.finished += 1
        w = r.wait
        if w is not None:
            self.waits.append(w)


def wait_stats(waits: list[int]) -> WaitStats:
    """Mean, nearest-rank p50 / p95 and max of the waits that happened, in seconds."""
    vals = sorted(waits)
    if not vals:
        return WaitStats(0, None, None, None, None)
    n = len(vals)

    def rank(q: float) -> float:
        return seconds(vals[max(0, math.ceil(q * n) - 1)])

    return WaitStats(n, seconds(round(sum(vals) / n)), rank(0.50), rank(0.95), seconds(vals[-1]))
