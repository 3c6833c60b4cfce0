"""Workload priority (and where it came from) and the timestamps Kueue orders workloads by.

Source: ``pkg/util/priority/priority.go``, ``pkg/workload/workload.go: Ordering.GetQueueOrderTimestamp``,
``pkg/scheduler/preemption/common/ordering.go: quotaReservationTime``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache

from quotactl.model.features import FeatureGates
from quotactl.model.kueue import KueueCluster, Workload

PRIORITY_BOOST_ANNOTATION = "kueue.x-k8s.io/priority-boost"

# A time after every timestamp of a snapshot: Kueue uses "now" for a workload that has no
# QuotaReserved=True condition yet, and every recorded timestamp lies in the past.
NOW = datetime(9999, 12, 31, tzinfo=timezone.utc)
# Go's zero time: a missing creationTimestamp sorts first.
ZERO_TIME = datetime(1, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class PriorityInfo:
    """The priority Kueue's scheduler uses for a workload, and where the number comes from."""

    value: int  # effective priority (base + boost when PriorityBoost is on)
    base: int
    boost: int
    source: str  # WorkloadPriorityClass | PriorityClass | spec.priority | default
    class_name: str | None = None
    note: str | None = None  # e.g. spec.priority disagrees with the class value


def workload_priority(cluster: KueueCluster, wl: Workload, gates: FeatureGates | None = None) -> PriorityInfo:
    """Priority of ``wl`` as Kueue's scheduler sees it.

    The scheduler reads only ``spec.priority`` (nil -> 0).  When the Workload references a
    WorkloadPriorityClass present in the input, Kueue's WPC controller converges spec.priority
    to that class's current value, so the class value is used (and a mismatch noted).
    """
    ref = wl.priority_class_ref
    spec_value = wl.priority
    base: int
    source: str
    name = ref.name if ref else None
    note = None
    if ref is not None and ref.is_workload_priority_class and name in cluster.workload_priority_classes \
            and cluster.workload_priority_classes[name].value is not None:
        base = cluster.workload_priority_classes[name].value
        source = "WorkloadPriorityClass"
        if spec_value is not None and spec_value != base:
            note = (f"spec.priority is {spec_value} but WorkloadPriorityClass {name} has value {base}; "
                    "Kueue updates spec.priority to the class value")
    elif ref is not None and ref.is_pod_priority_class:
        base = spec_value if spec_value is not None else 0
        source = "PriorityClass"
        pc = cluster.priority_classes.get(name or "")
        if pc is not None and pc.value is not None and spec_value is not None and pc.value != spec_value:
            note = (f"spec.priority is {spec_value}; PriorityClass {name} now has value {pc.value} "
                    "(Kueue does not follow PriorityClass changes)")
    elif ref is not None and ref.is_workload_priority_class:
        base = spec_value if spec_value is not None else 0
        source = "WorkloadPriorityClass"
        note = f"WorkloadPriorityClass {name} is not in the input; using spec.priority"
    elif spec_value is not None:
        base, source = spec_value, "spec.priority"
    else:
        base, source = 0, "default"
    boost = 0
    if gates is not None and gates.enabled("PriorityBoost"):
        raw = wl.annotations.get(PRIORITY_BOOST_ANNOTATION)
        try:
            boost = int(raw) if raw is not None else 0
        except ValueError:
            boost = 0
    return PriorityInfo(base + boost, base, boost, source, name, note)


def parse_time(text: str | None) -> datetime | None:
    """RFC 3339 timestamp -> aware datetime (None when absent or unreadable)."""
    if not text:
        return None
    return _parse_rfc3339(str(text))


@lru_cache(maxsize=8192)
def _parse_rfc3339(text: str) -> datetime | None:
    """``parse_time`` of a string, cached: a run reads the same timestamps again and again
    (datetimes are immutable)."""
    t = text.strip()
    if t.endswith("Z") or t.endswith("z"):
        t = t[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(t)
    except ValueError:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt


def queue_order_timestamp(wl: Workload, gates: FeatureGates | None = None,
                          requeuing_timestamp: str = "Eviction") -> datetime:
    """``Ordering.GetQueueOrderTimestamp``: the FIFO timestamp, first match wins."""
    evicted = wl.conditions.get("Evicted")
    if evicted is not None and evicted.status == "True":
        if requeuing_timestamp == "Eviction" and evicted.reason == "PodsReadyTimeout":
            t = parse_time(evicted.last_transition_time)
            if t is not None:
                return t
        if evicted.reason == "AdmissionCheck":
            t = parse_time(evicted.last_transition_time)
            if t is not None:
                return t
    if gates is not None and not gates.enabled("PrioritySortingWithinCohort"):
        pre = wl.conditions.get("Preempted")
        if pre is not None and pre.status == "True" and pre.reason == "InCohortReclaimWhileBorrowing":
            t = parse_time(pre.last_transition_time)
            if t is not None:
                return t + timedelta(milliseconds=1)
    return parse_time(wl.creation_timestamp) or ZERO_TIME


def quota_reservation_time(wl: Workload) -> datetime:
    """lastTransitionTime of QuotaReserved=True, or "now" when there is none."""
    c = wl.conditions.get("QuotaReserved")
    if c is None or c.status != "True":
        return NOW
    return parse_time(c.last_transition_time) or ZERO_TIME


def is_evicted(wl: Workload) -> bool:
    return wl.condition_true("Evicted")
