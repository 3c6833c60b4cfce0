"""The reasons and messages Kueue writes on a pending workload's QuotaReserved=False condition
(KEP-10852 reasons), in Kueue's own words, so that ``explain``, ``preempt`` and ``schedule`` say
exactly the same thing."""

from __future__ import annotations

from quotactl.kueue.options import EngineOptions

# KEP-10852 QuotaReserved=False reasons.
MISCONFIGURED = "Misconfigured"
SUSPENDED = "Suspended"
PENDING_EVALUATION = "PendingEvaluation"
WAITING_FOR_QUOTA = "WaitingForQuota"
WAITING_FOR_PREEMPTED_WORKLOADS = "WaitingForPreemptedWorkloads"
WAITING_FOR_PODS_READY = "Waiting"  # scheduler.go: UnsetQuotaReservationWithCondition(e.Obj, "Waiting", ...)

# Messages of the scheduler's processing of nominated entries.
MSG_NO_LONGER_FITS = "Workload no longer fits after processing another workload"
MSG_OVERLAP = "Workload has overlapping preemption targets with another workload"
MSG_WAITING_FOR_PODS_READY = "waiting for all admitted workloads to be in PodsReady condition"
MSG_DEFERRED = ("Workload has overlapping preemption targets with another workload, but will fit after these "
                "preemptions complete")

# Messages of the workload controller's and scheduler's checks before flavor assignment.
MSG_NO_QUEUE_NAME = "Workload has no queue name"
MSG_FAILED_ADMISSION_CHECKS = "The workload has failed admission checks"
MSG_NAMESPACE_MISMATCH = "Workload namespace doesn't match ClusterQueue selector"


def pending_preemption(message: str, victims: int) -> str:
    """The message of a workload whose victims are being evicted (its assignment's message first)."""
    return f"{message}. Pending the preemption of {victims} workload(s)"


def local_queue_missing(name: str) -> str:
    return f"LocalQueue {name} doesn't exist"


def local_queue_stopped(name: str) -> str:
    return f"LocalQueue {name} is stopped"


def cluster_queue_missing(name: str | None) -> str:
    return f"ClusterQueue {name} doesn't exist"


def cluster_queue_inactive(name: str) -> str:
    return f"ClusterQueue {name} is inactive"


def condition_reason(reason: str | None, options: EngineOptions) -> str | None:
    """The reason this Kueue configuration writes: the KEP-10852 one with
    UnadmittedWorkloadsObservability (default on since 0.19), ``Pending`` without it."""
    if reason is None:
        return None
    if options.gates.enabled("UnadmittedWorkloadsObservability"):
        return reason
    return "Pending"
