"""What a run of the scheduler reports: the outcome of each head in each cycle, the admissions and
preemptions, what stays pending, the usage at the end and the livelock if any (frozen values,
rendered by ``report.schedule_*`` and ``simulate``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

# Outcomes of one head in one cycle.
ADMITTED = "Admitted"
PREEMPTING = "Preempting"  # issued preemptions, waits for the victims to go
DEFERRED = "Deferred"  # DeferredFit: will fit once earlier preemptions complete
SKIPPED = "Skipped"  # failed after nomination (overlap / no longer fits): requeued at once
PENDING = "Pending"  # NoFit / Preempt without candidates
NOT_NOMINATED = "NotNominated"  # namespace selector, admission checks
WAITING = "Waiting"  # blockAdmission: the scheduler waits for every quota holder's PodsReady


class Admission(NamedTuple):
    """One admission of a cycle (a named tuple: a run makes one per admission)."""

    workload: str
    cluster_queue: str
    cycle: int
    borrowing: bool
    flavors: dict  # pod set -> resource -> flavor
    counts: dict  # pod set -> admitted count
    priority: int
    kept_flavors: bool = False  # a victim back on the flavors of its earlier admission (no scan)
    # topology-aware scheduling: pod set -> its topology assignment (None on a non-TAS flavor);
    # None when no pod set of the workload uses TAS
    topology: dict | None = None


@dataclass(frozen=True)
class Preemption:
    workload: str
    cluster_queue: str
    by: str
    reason: str
    cycle: int
    priority: int


class HeadOutcome(NamedTuple):
    """One head's outcome in one cycle (a tuple: every cycle makes one per head)."""

    workload: str
    cluster_queue: str
    outcome: str
    reason: str | None
    message: str
    borrowing: bool = False
    victims: tuple[str, ...] = ()
    kept_flavors: dict | None = None  # pod set -> resource -> flavor, taken without a scan (None: none)


@dataclass(frozen=True)
class CycleReport:
    number: int
    heads: tuple[HeadOutcome, ...]  # in processing order
    admitted: tuple[Admission, ...]
    preempted: tuple[Preemption, ...]

    @property
    def changed(self) -> bool:
        return bool(self.admitted or self.preempted)


@dataclass(frozen=True)
class PendingWorkload:
    workload: str
    cluster_queue: str | None
    reason: str
    message: str
    inadmissible: bool


@dataclass(frozen=True)
class UsageRow:
    node: str
    kind: str  # ClusterQueue | Cohort
    flavor: str
    resource: str
    usage: int
    nominal: int  # a cohort: its subtree quota
    limit: int | None  # nominal + borrowingLimit (ClusterQueue), None when unlimited
    lending_limit: int | None


@dataclass(frozen=True)
class TreeLivelock:
    """One cohort tree (or ClusterQueue without a cohort) whose end-of-cycle state repeats after
    admissions or preemptions: Kueue flops there forever."""
    tree: str  # the root cohort, or the ClusterQueue
    workloads: tuple[str, ...]
    period: int
    first_cycle: int  # the cycle whose end state repeats
    why: tuple[str, ...]


@dataclass(frozen=True)
class Livelock:
    """Every flopping tree of the run together: the whole cluster repeats with the least common
    multiple of their periods."""
    workloads: tuple[str, ...]
    period: int
    first_cycle: int
    why: tuple[str, ...]
    trees: tuple[TreeLivelock, ...] = ()


@dataclass(frozen=True)
class ScheduleResult:
    cycles: tuple[CycleReport, ...]
    admitted: tuple[Admission, ...]
    preempted: tuple[Preemption, ...]
    pending: tuple[PendingWorkload, ...]
    final_admitted: dict  # workload -> (cluster queue, flavors)
    usage: tuple[UsageRow, ...]
    converged: bool
    livelock: Livelock | None
    last_change: int  # the last cycle that admitted or preempted (0: none)
    fair_sharing: bool
    stopped: str  # fixpoint | cycles | livelock | limit
    shown: object = None  # selection.Shown when -n/--cluster-queue/-l cut the report's lists
    # Kind/name of the ClusterQueues and Cohorts whose quota is their status.effectiveQuotas
    quotas_from_status: tuple[str, ...] = ()
    # admission fair sharing: ("ns/name", usage) of every LocalQueue of a ClusterQueue using it,
    # after the run (kueue/afs.py); () without it
    local_queue_usage: tuple[tuple[str, float], ...] = ()

    @property
    def cycles_run(self) -> int:
        return len(self.cycles)

