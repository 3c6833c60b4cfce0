"""Workload priority (and where it came from) and the timestamps Kueue orders workloads by.

Source: ``pkg/util/priority/priority.go``, ``pkg/controller/core/workloadpriorityclass_controller.go``,
``pkg/workload/workload.go: Ordering.GetQueueOrderTimestamp``,
``pkg/scheduler/preemption/common/ordering.go: quotaReservationTime``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from functools import lru_cache

from quotactl.model.features import FeatureGates
from quotactl.model.kueue import KueueCluster, PriorityClass, Workload, WorkloadPriorityClass
from quotactl.model.kueue_versions import DEFAULT_RELEASE, release_key

PRIORITY_BOOST_ANNOTATION = "kueue.x-k8s.io/priority-boost"

# A time after every timestamp of a snapshot: Kueue uses "now" for a workload that has no
# QuotaReserved=True condition yet, and every recorded timestamp lies in the past.
NOW = datetime(9999, 12, 31, tzinfo=timezone.utc)
# Go's zero time: a missing creationTimestamp sorts first.
ZERO_TIME = datetime(1, 1, 1, tzinfo=timezone.utc)


# Kueue's WorkloadPriorityClass controller (pkg/controller/core/workloadpriorityclass_controller.go,
# kubernetes-sigs/kueue#8442, in v0.15.3 and v0.16.0 on) writes a class's value into spec.priority of
# every Workload whose priorityClassRef names it, whenever the class is created (so at every manager
# start, when the informer lists it) and whenever its value changes.  Before it (v0.14), and for a
# scheduling.k8s.io PriorityClass in every release, the value copied at creation is never updated.
FOLLOWS_WORKLOAD_PRIORITY_CLASS_FROM = "v0.15"


@dataclass(frozen=True)
class PriorityInfo:
    """The priority Kueue's scheduler uses for a workload, and where the number comes from."""

    value: int  # effective priority (base + boost when PriorityBoost is on)
    base: int
    boost: int
    source: str  # WorkloadPriorityClass | PriorityClass | spec.priority | default
    class_name: str | None = None
    note: str | None = None  # why the number is not simply spec.priority, or why a class value is not used
    spec_value: int | None = None  # spec.priority as written
    class_kind: str | None = None  # WorkloadPriorityClass | PriorityClass, when the class is in the input
    class_value: int | None = None  # that class's value

    @property
    def disagrees(self) -> bool:
        """spec.priority and the value of the class it names (present in the input) differ."""
        return self.spec_value is not None and self.class_value is not None and self.spec_value != self.class_value


def follows_workload_priority_class(release: str) -> bool:
    """Whether Kueue ``release`` keeps spec.priority equal to its WorkloadPriorityClass's value."""
    return release_key(release) >= release_key(FOLLOWS_WORKLOAD_PRIORITY_CLASS_FROM)


def workload_priority(cluster: KueueCluster, wl: Workload, gates: FeatureGates | None = None) -> PriorityInfo:
    """Priority of ``wl`` as Kueue's scheduler sees it: the one answer of lint, explain, schedule,
    preempt and simulate.

    The scheduler and preemption read only ``spec.priority`` (kueue pkg/util/priority Priority: nil ->
    0) plus the priority-boost annotation when PriorityBoost is on.  Where Kueue rewrites spec.priority
    from a WorkloadPriorityClass in the input (see FOLLOWS_WORKLOAD_PRIORITY_CLASS_FROM), the class
    value is what the Workload is scheduled with once the controller has run, so that is used.
    """
    release = gates.release if gates is not None else DEFAULT_RELEASE
    ref = wl.priority_class_ref
    name = ref.name if ref else None
    spec_value = wl.priority
    cls, kind = _named_class(cluster, ref)
    class_value = cls.value if cls is not None else None
    follows = kind == "WorkloadPriorityClass" and follows_workload_priority_class(release)
    note = None
    if follows and class_value is not None:
        base, source = class_value, kind
    elif ref is not None and (ref.is_workload_priority_class or ref.is_pod_priority_class):
        base = spec_value if spec_value is not None else 0
        source = "WorkloadPriorityClass" if ref.is_workload_priority_class else "PriorityClass"
        if cls is None and ref.is_workload_priority_class:
            note = f"WorkloadPriorityClass {name} is not in the input; using spec.priority"
    elif spec_value is not None:
        base, source = spec_value, "spec.priority"
    else:
        base, source = 0, "default"
    info = PriorityInfo(base, base, 0, source, name, note, spec_value, kind, class_value)
    if info.disagrees:
        info = replace(info, note=disagreement_message(info, release))
    boost = _boost(wl, gates)
    return replace(info, value=base + boost, boost=boost)


def disagreement_message(info: PriorityInfo, release: str) -> str:
    """What Kueue ``release`` does when spec.priority and the named class's value differ, ending with
    the priority it schedules and preempts the Workload with (lint KQ420 and explain say this)."""
    head = f"spec.priority is {info.spec_value} but {info.class_kind} {info.class_name} has value {info.class_value}"
    if info.class_kind == "WorkloadPriorityClass" and follows_workload_priority_class(release):
        why = (f"Kueue {release} writes the WorkloadPriorityClass value into spec.priority (at every start of the "
               "manager and whenever the value changes)")
        used = info.class_value
    elif info.class_kind == "WorkloadPriorityClass":
        why = f"Kueue {release} copied the class value when it created the Workload and does not follow class changes"
        used = info.spec_value
    else:
        why = "Kueue copied the class value when it created the Workload and does not follow PriorityClass changes"
        used = info.spec_value
    return f"{head}; {why}, so it schedules and preempts this Workload with priority {used}"


def _named_class(cluster: KueueCluster, ref) -> tuple[WorkloadPriorityClass | PriorityClass | None, str | None]:
    """The class ``ref`` names when the input holds it with a value, and its kind."""
    if ref is None or not ref.name:
        return None, None
    if ref.is_workload_priority_class:
        cls, kind = cluster.workload_priority_classes.get(ref.name), "WorkloadPriorityClass"
    elif ref.is_pod_priority_class:
        cls, kind = cluster.priority_classes.get(ref.name), "PriorityClass"
    else:
        return None, None
    if cls is None or cls.value is None:
        return None, None
    return cls, kind


def _boost(wl: Workload, gates: FeatureGates | None) -> int:
    """The kueue.x-k8s.io/priority-boost annotation, when PriorityBoost is on (kueue pkg/util/priority
    PriorityBoost; the webhook refuses a value that is not an int32, read here as 0)."""
    if gates is None or not gates.enabled("PriorityBoost"):
        return 0
    raw = wl.annotations.get(PRIORITY_BOOST_ANNOTATION)
    try:
        return int(raw) if raw is not None else 0
    except ValueError:
        return 0


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
