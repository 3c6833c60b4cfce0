"""Kueue's scheduler, in the shape of Kueue's ``pkg/scheduler`` and ``pkg/cache/queue``.

- ``loop``: the cycle (``scheduler.go: schedule``): heads, nominate, order, process, requeue;
  ``schedule`` runs it to the fixpoint, ``Scheduler`` is the state ``simulate`` drives.
- ``queues``: each ClusterQueue's pending workloads (``cluster_queue.go``): heap, inadmissible
  set, parking, sticky preemptor.
- ``nominator``: the pre-checks and the nomination of a head, and every memo of the run, keyed
  by what their functions read (``nomination.kin_key`` for shared nominations).
- ``cache``: the snapshot a run changes, cohort trees, their versions and fingerprints.
- ``scan``: each pending workload's flavor scan progress (``LastAssignment``).
- ``entry``: a nominated head and the working values of one cycle.
- ``observer``: fixpoint and livelock detection, fed by cycle reports.
- ``results``: what a run reports (frozen).
"""

from quotactl.kueue.scheduler.loop import (
    DEFAULT_START,
    FixpointRun,
    Scheduler,
    newest_time,
    run_to_fixpoint,
    schedule,
)
from quotactl.kueue.scheduler.observer import TreeWatch
from quotactl.kueue.scheduler.queues import STARTUP_REQUEUE_AFTER_CYCLE
from quotactl.kueue.scheduler.results import (
    ADMITTED,
    DEFERRED,
    NOT_NOMINATED,
    PENDING,
    PREEMPTING,
    SKIPPED,
    Admission,
    CycleReport,
    HeadOutcome,
    Livelock,
    PendingWorkload,
    Preemption,
    ScheduleResult,
    TreeLivelock,
    UsageRow,
)

__all__ = [
    "ADMITTED", "DEFAULT_START", "DEFERRED", "NOT_NOMINATED", "PENDING", "PREEMPTING", "SKIPPED",
    "STARTUP_REQUEUE_AFTER_CYCLE", "Admission", "CycleReport", "FixpointRun", "HeadOutcome", "Livelock",
    "PendingWorkload", "Preemption", "ScheduleResult", "Scheduler", "TreeLivelock", "TreeWatch", "UsageRow",
    "newest_time", "run_to_fixpoint", "schedule",
]
