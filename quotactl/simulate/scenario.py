"""Where the clock starts (t0) and what each workload brings to it: when it arrives, when it was
created, how long it runs, its class; and when a workload the input already holds started."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from quotactl.kueue.priority import parse_time
from quotactl.kueue.scheduler import DEFAULT_START, newest_time
from quotactl.model.kueue import KueueCluster, Workload
from quotactl.simulate.clock import micros_between
from quotactl.simulate.runtimes import (
    CLASS_LABEL,
    RUNTIME_ANNOTATION,
    Runtime,
    resolve_runtime,
    workload_class,
)


def start_time(cluster: KueueCluster, start: datetime | None = None) -> datetime:
    """t0: ``start`` (--start); else, when the input holds admitted workloads, the moment of the
    snapshot (its newest Workload timestamp); else the earliest Workload creationTimestamp (a
    trace to replay); else, with no Workload time at all (a generator alone), quotactl's fixed
    epoch (``scheduler.DEFAULT_START``), so that a run gives the same bytes every time."""
    if start is not None:
        return start
    if any(wl.has_quota_reservation for wl in cluster.workloads.values()):
        newest = newest_time(cluster)
        if newest is not None:
            return newest
    times = [t for t in (parse_time(wl.creation_timestamp) for wl in cluster.workloads.values()) if t is not None]
    return min(times) if times else DEFAULT_START


class WorkloadFacts(NamedTuple):
    created: int | None  # microseconds from t0
    arrival: int
    runtime: Runtime
    klass: str | None


def facts(wl: Workload, t0: datetime, default_runtime: int | None, seen: dict | None = None) -> WorkloadFacts:
    """What the clock needs of one workload (SimulationInputError on a bad runtime annotation).
    ``seen``: a memo for one run (a trace's workloads share creation times, runtimes and classes)."""
    if seen is None:
        return _facts(wl, t0, default_runtime)
    key = (wl.creation_timestamp, wl.annotations.get(RUNTIME_ANNOTATION), wl.maximum_execution_time_seconds,
           wl.labels.get(CLASS_LABEL))
    got = seen.get(key)
    if got is None:
        got = seen[key] = _facts(wl, t0, default_runtime)
    return got


def _facts(wl: Workload, t0: datetime, default_runtime: int | None) -> WorkloadFacts:
    ct = parse_time(wl.creation_timestamp)
    created = micros_between(t0, ct) if ct is not None else None
    arrival = max(0, created) if created is not None else 0
    return WorkloadFacts(created, arrival, resolve_runtime(wl, default_runtime), workload_class(wl))


def started_at(wl: Workload, t0: datetime) -> int | None:
    """When a workload the input holds started: its Admitted condition's lastTransitionTime, else
    its QuotaReserved one (None: neither is readable)."""
    for ctype in ("Admitted", "QuotaReserved"):
        c = wl.conditions.get(ctype)
        t = parse_time(c.last_transition_time) if c is not None and c.status == "True" else None
        if t is not None:
            return micros_between(t0, t)
    return None
