"""When will a pending workload start?  ``explain --eta``: one simulation from the snapshot (the
runtime rules and cadence of ``simulate``), stopped once every asked-for workload was admitted.

From that run, per workload: the estimated start; the completions in its cohort tree, on a
resource it requests, up to its admission (what finishes first to make room, in order); the
evictions its admission causes; and the assumptions the estimate rests on (where runtimes came
from, running workloads that never finish because they have no runtime, overdue ones).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from quotactl.kueue.options import EngineOptions
from quotactl.kueue.scope import tree_cluster_queues
from quotactl.kueue.workload import pod_set_requests
from quotactl.model.kueue import KueueCluster, Workload
from quotactl.simulate.result import SimulationResult, WorkloadRun
from quotactl.simulate.run import SimulationOptions, simulate

ADMITTED = "admitted"  # the simulation admitted it: ``start`` is the estimate
RUNNING = "running"  # the snapshot already admitted it
NEVER = "never"  # the simulation ran out of events with it still pending
UNKNOWN = "unknown"  # the simulation stopped first (a livelock, the cycle limit, --until)


@dataclass(frozen=True)
class Freed:
    """A completion before the workload's admission that released quota it requests."""

    workload: str
    cluster_queue: str | None
    at: int  # microseconds from t0


@dataclass(frozen=True)
class Victim:
    workload: str
    cluster_queue: str | None
    reason: str
    at: int


@dataclass(frozen=True)
class Eta:
    workload: str
    cluster_queue: str | None
    t0: datetime
    status: str  # ADMITTED | RUNNING | NEVER | UNKNOWN
    start: int | None  # microseconds from t0 (negative for RUNNING: it started before t0)
    why: str  # one line: how the estimate ended
    finishes_first: tuple[Freed, ...]
    preempts: tuple[Victim, ...]
    runtime_sources: dict  # source ("annotation", ..., "none") -> workloads simulated
    no_runtime_running: tuple[str, ...]  # in its cohort tree, holding quota, never finishing
    overdue: tuple[str, ...]  # in its cohort tree: admitted in the snapshot, finished at t0


@dataclass(frozen=True)
class Explained:
    """``explain WORKLOAD --eta``: the explanation of now and the estimate of later."""

    explanation: object  # kueue.explain.Explanation
    eta: Eta


@dataclass(frozen=True)
class ExplainedAll:
    """``explain --all --eta``: every pending workload's explanation, and its ETA by key."""

    explanations: tuple
    etas: dict


def estimate(cluster: KueueCluster, options: EngineOptions, sim: SimulationOptions,
             targets: list[Workload], t0: datetime | None = None) -> dict[str, Eta]:
    """The ETA of each of ``targets``, from one simulation that stops once all were admitted."""
    awaited = frozenset(w.key for w in targets if not w.has_quota_reservation)
    result = simulate(cluster, options, replace(sim, stop_when_admitted=awaited), t0=t0)
    return {w.key: eta_of(cluster, options, result, w) for w in targets}


def eta_of(cluster: KueueCluster, options: EngineOptions, result: SimulationResult, wl: Workload) -> Eta:
    runs = {r.workload: r for r in result.workloads}
    me = runs.get(wl.key)
    cq = me.cluster_queue if me is not None else None
    tree = tree_cluster_queues(cluster, cq) if cq else set()
    in_tree = [r for r in result.workloads if r.cluster_queue in tree]
    status, start, why = _outcome(me, result)
    return Eta(
        workload=wl.key, cluster_queue=cq, t0=result.start, status=status, start=start, why=why,
        finishes_first=_freed(cluster, options, wl, in_tree, start) if status == ADMITTED else (),
        preempts=_victims(result.workloads, wl.key, start) if status == ADMITTED else (),
        runtime_sources=runtime_sources(result.workloads),
        no_runtime_running=tuple(sorted(r.workload for r in in_tree if _holds_forever(r) and r.workload != wl.key)),
        overdue=tuple(sorted(r.workload for r in in_tree if r.overdue)))


def _outcome(me: WorkloadRun | None, result: SimulationResult) -> tuple[str, int | None, str]:
    if me is None:
        return UNKNOWN, None, "not simulated: it is finished, inactive or not in the input"
    if me.admitted_in_input:
        return RUNNING, me.started, "already admitted in the snapshot"
    if me.admissions:
        return ADMITTED, me.admissions[0], "admitted by the simulation"
    if result.stopped == "drained":
        return NEVER, None, "still pending when nothing more happens (no arrival or completion left)"
    if result.livelock is not None:
        return UNKNOWN, None, "the simulation stopped at a livelock (Kueue would flop forever)"
    return UNKNOWN, None, f"the simulation stopped ({result.stopped}) before admitting it"


def _resources(cluster: KueueCluster, options: EngineOptions, key: str) -> set[str]:
    wl = cluster.workloads.get(key)
    if wl is None:
        return set()
    return {res for ps in pod_set_requests(wl, options) for res, v in ps.total.items() if v}


def _freed(cluster, options, wl: Workload, in_tree: list[WorkloadRun], start: int) -> tuple[Freed, ...]:
    """Completions in its cohort tree, of workloads holding a resource it requests, at or before
    its admission, in the order they happened (a workload can only take quota that is free)."""
    wanted = _resources(cluster, options, wl.key)
    done = [r for r in in_tree if r.finished is not None and r.finished <= start and r.workload != wl.key
            and wanted & _resources(cluster, options, r.workload)]
    return tuple(Freed(r.workload, r.cluster_queue, r.finished) for r in sorted(done, key=lambda r: (r.finished,
                                                                                                      r.workload)))


def _victims(runs, key: str, start: int) -> tuple[Victim, ...]:
    """The evictions it caused up to its admission (in tick mode the victims go a tick earlier)."""
    out = [Victim(r.workload, r.cluster_queue, e.reason, e.at) for r in runs for e in r.evictions
           if e.by == key and e.at <= start]
    return tuple(sorted(out, key=lambda v: (v.at, v.workload)))


def _holds_forever(r: WorkloadRun) -> bool:
    """Holding quota at the end of the run with no runtime: it never gives the quota back."""
    held = r.admitted_in_input or bool(r.admissions)
    return held and r.runtime is None and r.finished is None and len(r.evictions) < len(r.admissions) + \
        (1 if r.admitted_in_input else 0)


def runtime_sources(runs) -> dict:
    out: dict[str, int] = {}
    for r in runs:
        k = r.runtime_source or "none"
        out[k] = out.get(k, 0) + 1
    return dict(sorted(out.items()))
