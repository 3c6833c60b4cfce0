"""When will a pending workload start?  ``explain --eta``: one simulation from the snapshot (the
runtime rules and cadence of ``simulate``), stopped once every asked-for workload was admitted.

From that run, per workload: the estimated start; the completions in its cohort tree, of
workloads holding a resource it requests, from its arrival to its admission (what finishes first
to make room, in order); the
evictions its admission causes; and the assumptions the estimate rests on (where runtimes came
from, running workloads that never finish because they have no runtime, overdue ones).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from datetime import datetime

from quotactl.kueue.options import EngineOptions
from quotactl.kueue.scope import tree_cluster_queues
from quotactl.kueue.workload import pod_set_requests
from quotactl.model.kueue import KueueCluster, Workload
from quotactl.simulate.eta_status import ADMITTED, NEVER, RUNNING, UNKNOWN  # noqa: F401 (the statuses)
from quotactl.simulate.result import SimulationResult, WorkloadRun
from quotactl.simulate.run import SimulationOptions, simulate

LISTED = 20  # names listed per ETA at most (the count says how many there are)


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
    finishes_first: tuple[Freed, ...]  # the last LISTED before its admission, in order
    finishes_first_total: int
    preempts: tuple[Victim, ...]
    runtime_sources: dict  # source ("annotation", ..., "none") -> workloads simulated
    no_runtime_running: tuple[str, ...]  # in its cohort tree, holding quota, never finishing (the first LISTED)
    no_runtime_total: int
    overdue: tuple[str, ...]  # in its cohort tree: admitted in the snapshot, finished at t0 (the first LISTED)
    overdue_total: int


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
    shown: object = None  # kueue.selection.Shown when -n/--cluster-queue/-l cut the rows


def estimate(cluster: KueueCluster, options: EngineOptions, sim: SimulationOptions,
             targets: list[Workload], t0: datetime | None = None) -> dict[str, Eta]:
    """The ETA of each of ``targets``, from one simulation that stops once all were admitted."""
    awaited = frozenset(w.key for w in targets if not w.has_quota_reservation)
    result = simulate(cluster, options, replace(sim, stop_when_admitted=awaited), t0=t0)
    index = _Index(cluster, options, result)
    return {w.key: index.eta(w.key) for w in targets}


class _Index:
    """The run read once for every ETA asked (``explain --all`` asks one per pending workload):
    per cohort tree its completions in time order, its never-finishing and overdue workloads;
    per preemptor its victims."""

    def __init__(self, cluster: KueueCluster, options: EngineOptions, result: SimulationResult):
        self.cluster, self.options, self.result = cluster, options, result
        self.runs = {r.workload: r for r in result.workloads}
        self.sources = runtime_sources(result.workloads)
        self.tree_of: dict[str, frozenset] = {}
        self.trees: dict[frozenset, _Tree] = {}
        self.victims: dict[str, list[Victim]] = {}
        self.resources: dict[str, frozenset] = {}
        for r in result.workloads:
            for e in r.evictions:
                self.victims.setdefault(e.by, []).append(Victim(r.workload, r.cluster_queue, e.reason, e.at))
            if r.cluster_queue is not None:
                self.tree(r.cluster_queue).add(r)
        for tree in self.trees.values():
            tree.freeze()

    def tree(self, cq: str) -> _Tree:
        key = self.tree_of.get(cq)
        if key is None:
            key = frozenset(tree_cluster_queues(self.cluster, cq))
            for member in key:
                self.tree_of[member] = key
        return self.trees.setdefault(key, _Tree())

    def requested(self, key: str) -> frozenset:
        """The resources a workload requests (cached: asked once per completion per ETA)."""
        got = self.resources.get(key)
        if got is None:
            wl = self.cluster.workloads.get(key)
            got = frozenset() if wl is None else frozenset(
                res for ps in pod_set_requests(wl, self.options) for res, v in ps.total.items() if v)
            self.resources[key] = got
        return got

    def eta(self, key: str) -> Eta:
        me = self.runs.get(key)
        cq = me.cluster_queue if me is not None else None
        tree = self.tree(cq) if cq else _Tree()
        status, start, why = _outcome(me, self.result)
        freed: list[Freed] = []
        if status == ADMITTED:
            wanted = self.requested(key)
            freed = [f for f in tree.finished_between(me.arrival, start)
                     if f.workload != key and wanted & self.requested(f.workload)]
        forever = [k for k in tree.forever if k != key]
        return Eta(
            workload=key, cluster_queue=cq, t0=self.result.start, status=status, start=start, why=why,
            finishes_first=tuple(freed[-LISTED:]), finishes_first_total=len(freed),
            preempts=tuple(sorted((v for v in self.victims.get(key, ()) if status == ADMITTED and v.at <= start),
                                  key=lambda v: (v.at, v.workload))),
            runtime_sources=self.sources,
            no_runtime_running=tuple(forever[:LISTED]), no_runtime_total=len(forever),
            overdue=tuple(tree.overdue[:LISTED]), overdue_total=len(tree.overdue))


class _Tree:
    __slots__ = ("finishes", "times", "forever", "overdue")

    def __init__(self):
        self.finishes: list[Freed] = []
        self.times: list[int] = []
        self.forever: list[str] = []
        self.overdue: list[str] = []

    def add(self, r: WorkloadRun) -> None:
        if r.finished is not None:
            self.finishes.append(Freed(r.workload, r.cluster_queue, r.finished))
        if _holds_forever(r):
            self.forever.append(r.workload)
        if r.overdue:
            self.overdue.append(r.workload)

    def freeze(self) -> None:
        self.finishes.sort(key=lambda f: (f.at, f.workload))
        self.times = [f.at for f in self.finishes]
        self.forever.sort()
        self.overdue.sort()

    def finished_between(self, lo: int, hi: int) -> list[Freed]:
        """Completions at lo..hi (a workload can only take quota freed after it arrived)."""
        return self.finishes[bisect.bisect_left(self.times, lo):bisect.bisect_right(self.times, hi)]


def _outcome(me: WorkloadRun | None, result: SimulationResult) -> tuple[str, int | None, str]:
    if me is None:
        return UNKNOWN, None, "not simulated: it is finished, inactive or not in the input"
    if me.admitted_in_input:
        return RUNNING, me.started, "already admitted in the snapshot"
    admitted = me.admitted_at if result.lifecycle else me.admissions  # Admitted=True, after its checks
    if admitted:
        return ADMITTED, admitted[0], "admitted by the simulation"
    if me.admissions and result.stopped == "drained":
        return NEVER, None, "holds a quota reservation, but its admission checks never all turn Ready"
    if result.stopped == "drained":
        return NEVER, None, "still pending when nothing more happens (no arrival or completion left)"
    if result.livelock is not None:
        return UNKNOWN, None, "the simulation stopped at a livelock (Kueue would flop forever)"
    return UNKNOWN, None, f"the simulation stopped ({result.stopped}) before admitting it"


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
