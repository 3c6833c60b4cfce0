"""What a simulation returns: frozen data the renderers format (they compute nothing).
Times are integer microseconds from t0 (``clock.seconds`` turns them into JSON numbers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter
from typing import NamedTuple

from quotactl.kueue.scheduler import Livelock, PendingWorkload
from quotactl.model.cached import cached_attribute


@dataclass(frozen=True)
class Eviction:
    at: int
    reason: str
    by: str | None  # the preemptor; None for the workload controller's evictions (phases.py)


@dataclass(frozen=True)
class WorkloadRun:
    """One workload's life on the clock."""

    workload: str
    cluster_queue: str | None
    klass: str | None  # generator class / quotactl.io/class label
    created: int | None  # creationTimestamp (negative: before t0); None when it has none
    arrival: int  # when it was queued (0 for one created at or before t0)
    admissions: tuple[int, ...]  # admissions during the run (not one the input already held)
    evictions: tuple[Eviction, ...]
    finished: int | None
    runtime: int | None  # None: never finishes
    runtime_source: str | None  # annotation | maximumExecutionTimeSeconds | default | None
    admitted_in_input: bool
    started: int | None  # an input admission: when it started (negative: before t0)
    overdue: bool  # admitted in the input, its finish time was before t0: finished at t0
    lost_work: int  # runtime thrown away by evictions
    # topology-aware scheduling: per admission of the run, pod set -> its topology assignment (None
    # on a non-TAS flavor), or None for an admission without TAS; empty when none used TAS
    topology: tuple = ()
    # admission checks and waitForPodsReady (phases.py): each Admitted=True transition (the same as
    # admissions when no check applies), when it was deactivated, status.requeueState.count
    admitted_at: tuple[int, ...] = ()
    deactivated: int | None = None
    requeue_count: int = 0
    reserved_at_end: bool = False  # holds a quota reservation at the end, not Admitted (its checks)

    @cached_attribute  # read by every summary and every row
    def wait(self) -> int | None:
        """First admission of the run minus arrival (None: not admitted by the run)."""
        if self.admitted_in_input or not self.admissions:
            return None
        return self.admissions[0] - self.arrival


def workload_run(packed: tuple) -> WorkloadRun:
    """A WorkloadRun from its fields as plain tuples, evictions too (``run._Track.packed``: cheap
    to pickle between processes)."""
    return WorkloadRun(*packed[:6], tuple(Eviction(*e) for e in packed[6]), *packed[7:])


RUN_ORDER = attrgetter("arrival", "workload")  # the order of SimulationResult.workloads


@dataclass(frozen=True)
class WaitStats:
    count: int
    mean: float | None  # seconds (to the microsecond)
    p50: float | None  # nearest rank
    p95: float | None
    max: float | None


@dataclass(frozen=True)
class QueueStats:
    """One ClusterQueue over the run."""

    name: str
    admitted: int  # admissions made during the run (re-admissions included)
    finished: int
    preemptions: int  # evictions of its workloads
    preemptions_by_reason: dict  # reason -> count
    lost_work: int  # microseconds
    wait: WaitStats
    usage: dict  # resource -> time-averaged fraction of nominal quota in use (None: no nominal quota)
    pending_at_end: int


@dataclass(frozen=True)
class LifecycleStats:
    """One ClusterQueue's admission checks and waitForPodsReady over the run (its workloads')."""

    name: str
    reservations: int  # quota reservations during the run
    admitted: int  # Admitted=True transitions
    reserved_at_end: int  # holding a reservation, not Admitted, at the end
    requeues: int  # PodsReadyTimeout evictions that requeued (requeueState.count, summed)
    deactivated: int


@dataclass(frozen=True)
class ClassStats:
    name: str
    workloads: int
    admitted: int
    finished: int
    wait: WaitStats


class Sample(NamedTuple):
    """One ClusterQueue's state at the end of an instant that changed it (for plots; a named
    tuple: a run takes one per changed ClusterQueue and instant)."""

    at: int
    pending: int  # queued workloads (active and inadmissible)
    usage: tuple  # ((resource, fraction of nominal quota in use), ...) sorted by resource


@dataclass(frozen=True)
class SimulationResult:
    start: datetime  # t0
    end: int  # the last instant simulated (or --until)
    converged: bool
    livelock: Livelock | None
    livelock_at: int | None
    stopped: str  # drained | until | livelock | limit | admitted (the awaited workloads, explain --eta)
    cycle_interval: int  # 0: fixpoint mode
    admission_cost: int
    cycles: int
    workloads: tuple[WorkloadRun, ...]  # by arrival, then name
    cluster_queues: tuple[QueueStats, ...]  # by name
    classes: tuple[ClassStats, ...]  # by name
    series: dict  # ClusterQueue -> tuple[Sample, ...]
    pending: tuple[PendingWorkload, ...]  # at the end, with the engine's reason
    no_runtime: int  # workloads that never finish for want of a runtime
    overdue: int
    nominal: dict = field(default_factory=dict)  # ClusterQueue -> resource -> nominal quota (to total the usage)
    limits: dict = field(default_factory=dict)  # the cadence's other limits in force (writeRate, ...): none are 0
    shown: object = None  # kueue.selection.Shown when -n cut the report's lists of workloads
    lifecycle: bool = False  # admission checks or waitForPodsReady modelled: rows say admittedAt, ...
    lifecycle_stats: tuple[LifecycleStats, ...] = ()  # by ClusterQueue (when lifecycle)
