"""Pieces shared by classical and fair-sharing preemption.

Source: ``pkg/scheduler/preemption/common/ordering.go: CandidatesOrdering``,
``pkg/scheduler/preemption/preemption.go: workloadFits, fillBackWorkloads, restoreSnapshot``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from quotactl.kueue.afs import AfsLedger
from quotactl.kueue.quota import ClusterQueueNode, Snapshot, borrowing_with, cq_available
from quotactl.kueue.workload import AdmittedWorkload

FR = tuple

# Preemption reasons (the Preempted condition's reason on a victim).
IN_CLUSTER_QUEUE = "InClusterQueue"
IN_COHORT_RECLAMATION = "InCohortReclamation"
IN_COHORT_FAIR_SHARING = "InCohortFairSharing"
IN_COHORT_RECLAIM_WHILE_BORROWING = "InCohortReclaimWhileBorrowing"

HUMAN_READABLE_REASONS = {
    IN_CLUSTER_QUEUE: "prioritization in the ClusterQueue",
    IN_COHORT_RECLAMATION: "reclamation within the cohort",
    IN_COHORT_FAIR_SHARING: "Fair Sharing within the cohort",
    IN_COHORT_RECLAIM_WHILE_BORROWING: "reclamation within the cohort while borrowing",
}


class PreemptionPossibility(enum.IntEnum):
    """What the oracle found for one fr (``preemptioncommon.PreemptionPossibility``)."""

    NO_CANDIDATES = 0
    PREEMPT = 1  # at least one target in the preemptor's own ClusterQueue
    RECLAIM = 2  # all targets in other ClusterQueues

    @property
    def label(self) -> str:
        return {0: "NoCandidates", 1: "Preempt", 2: "Reclaim"}[int(self)]


class Preemptor(NamedTuple):
    """The pending workload looking for room (the fields preemption reads)."""

    key: str
    cluster_queue: str
    priority: int
    queue_order_timestamp: datetime
    uid: str = ""


class Target(NamedTuple):
    """A workload chosen for eviction, with the Preempted condition reason it would get (a named
    tuple: a victim search makes one per workload it takes out)."""

    workload: AdmittedWorkload
    reason: str

    @property
    def key(self) -> str:
        return self.workload.key

    @property
    def cluster_queue(self) -> str:
        return self.workload.cluster_queue


@dataclass
class PreemptionCtx:
    """``preemptionCtx``: who preempts, where, for which frs and how much in total."""

    preemptor: Preemptor
    cq: ClusterQueueNode
    snapshot: Snapshot
    frs_need_preemption: frozenset
    workload_usage: dict = field(default_factory=dict)  # fr -> amount (the whole request)
    trace: list | None = None  # TraceEvents, only when a report asks how the victims were found
    # (advantage, same ClusterQueue) -> candidate scan parameters (classical._scan_params)
    scan_cache: dict = field(default_factory=dict, repr=False, compare=False)
    # topology-aware scheduling: () -> whether the preemptor's TAS pod sets can be placed now
    tas_fits: Callable[[], bool] | None = field(default=None, repr=False, compare=False)

    def record(self, kind: str, wl: AdmittedWorkload | None = None, detail: str = "", *, reason: str | None = None,
               allow_borrowing: bool | None = None, shares: ShareCheck | None = None,
               shortfall: tuple[Shortfall, ...] = ()) -> None:
        """Note one step of the search (no-op unless tracing: the scheduler path pays nothing)."""
        if self.trace is not None:
            self.trace.append(TraceEvent(kind, wl.key if wl is not None else None,
                                         wl.cluster_queue if wl is not None else None, detail,
                                         reason, allow_borrowing, shares, shortfall))


@dataclass(frozen=True)
class ShareCheck:
    """The fair-sharing strategy a candidate was tested with, and the shares it compared."""

    strategy: str
    preemptor_share: float | None  # None = +Inf
    target_share: float | None
    target_share_after: float | None = None  # the target ClusterQueue's share without the candidate


@dataclass(frozen=True)
class Shortfall:
    """A flavor-resource of the request that still does not fit at the end of a run."""

    flavor: str
    resource: str
    request: int
    available: int
    nominal_headroom: int  # nominal - usage of the preemptor's ClusterQueue


@dataclass(frozen=True)
class TraceEvent:
    """One step of a victim search, for ``quotactl preempt``'s "candidates considered" table.

    kind: ``attempt`` (a classical run starts; data allow_borrowing), ``excluded`` (never a
    candidate), ``skipped`` (a candidate the run passed over), ``removed`` (taken out of the
    snapshot), ``deferred`` (S2-a rejected it; kept for S2-b), ``rejected`` (S2-b rejected it),
    ``put-back`` / ``kept`` (the add-back pass), ``fits`` / ``exhausted`` (end of a run, with the
    shortfall per fr)."""

    kind: str
    workload: str | None
    cluster_queue: str | None
    detail: str
    reason: str | None = None  # the Preempted reason (removed / kept)
    allow_borrowing: bool | None = None  # attempt / fits / exhausted
    shares: ShareCheck | None = None  # fair-sharing steps
    shortfall: tuple[Shortfall, ...] = ()  # exhausted


def candidates_ordering_key(preemptor_cq: str):
    """``CandidatesOrdering`` as a sort key: evicted first, other ClusterQueues before the
    preemptor's, lower priority, most recently reserved, lower UID (then the key: our tie-break
    when UIDs are equal).  The preemptor-independent fields are cached on the workload."""

    def key(wl: AdmittedWorkload):
        evicted, priority, reserved, uid, wl_key = wl.ordering_fields
        return (evicted, 1 if wl.cluster_queue == preemptor_cq else 0, priority, reserved, uid, wl_key)

    return key


def sort_candidates(candidates: list[AdmittedWorkload], preemptor_cq: str,
                    afs: AfsLedger | None = None) -> list[AdmittedWorkload]:
    """``CandidatesOrdering`` (``afs``: the snapshot's admission fair sharing ledger)."""
    return by_local_queue_usage(sorted(candidates, key=candidates_ordering_key(preemptor_cq)), afs)


def by_local_queue_usage(ordered: list, afs: AfsLedger | None, workload_of: Callable = lambda c: c) -> list:
    """``CandidatesOrdering``'s admission fair sharing step on candidates already in the order of
    the other steps: two candidates of one ClusterQueue using it go by their LocalQueue's usage,
    highest first, after "evicted first" and before priority.  Kueue compares usage only within
    one ClusterQueue (``resourceUsagePreemptionEnabled``), so each such ClusterQueue's candidates
    are reordered among the places they hold, and candidates of different ClusterQueues keep
    their order (exactly Kueue's order when they come from one ClusterQueue; Kueue's comparison
    is not transitive across several)."""
    if afs is None or not afs.cluster_queues:
        return ordered
    places: dict[str, list[int]] = {}
    for i, c in enumerate(ordered):
        cq = workload_of(c).cluster_queue
        if cq in afs.cluster_queues:
            places.setdefault(cq, []).append(i)
    if not places:
        return ordered
    out = list(ordered)

    def key(c):
        wl = workload_of(c)
        of = wl.ordering_fields
        return (of[0], -afs.candidate_usage(wl.workload, wl.cluster_queue), of[1:])

    for idx in places.values():
        for i, c in zip(idx, sorted((ordered[i] for i in idx), key=key), strict=True):
            out[i] = c
    return out


def workload_fits(ctx: PreemptionCtx, allow_borrowing: bool) -> bool:
    """``workloadFits``: every fr of the request within Available (and within nominal when
    borrowing is not allowed)."""
    cq = ctx.cq
    for fr, v in ctx.workload_usage.items():
        if not allow_borrowing and borrowing_with(cq, fr, v):
            return False
        if v > cq_available(cq, fr):
            return False
    return ctx.tas_fits is None or ctx.tas_fits()


def fill_back_workloads(ctx: PreemptionCtx, targets: list[Target], allow_borrowing: bool,
                        usage_only: bool = False) -> list[Target]:
    """``fillBackWorkloads``: in reverse order (never the last removed one), put a target back
    if the preemptor still fits.  Keeps Kueue's O(1) swap-delete, so the order matches too.
    ``usage_only``: the targets were removed with ``Snapshot.lift_usage``."""
    snap = ctx.snapshot
    put, lift = (snap.put_usage, snap.lift_usage) if usage_only else (snap.add_workload, snap.remove_workload)
    if targets:
        ctx.record("kept", targets[-1].workload, "the last one removed: Kueue never puts it back",
                   reason=targets[-1].reason)
    i = len(targets) - 2
    while i >= 0:
        put(targets[i].workload)
        if workload_fits(ctx, allow_borrowing):
            ctx.record("put-back", targets[i].workload, "put back: the workload still fits without evicting it")
            targets[i] = targets[-1]
            targets.pop()
        else:
            ctx.record("kept", targets[i].workload, "needed: putting it back makes the workload not fit",
                       reason=targets[i].reason)
            lift(targets[i].workload)
        i -= 1
    return targets


def shortfall(ctx: PreemptionCtx, allow_borrowing: bool) -> tuple[Shortfall, ...]:
    """The frs of the request that still do not fit, by flavor and resource.  For reports only
    (called at the end of a run that found no fitting set)."""
    cq = ctx.cq
    out = []
    for fr, v in sorted(ctx.workload_usage.items()):
        avail = cq_available(cq, fr)
        if v > avail or (not allow_borrowing and borrowing_with(cq, fr, v)):
            out.append(Shortfall(fr[0], fr[1], v, avail, cq.nominal(fr) - cq.usage.get(fr, 0)))
    return tuple(out)


def restore_snapshot(snapshot: Snapshot, targets: list[Target], usage_only: bool = False) -> None:
    put = snapshot.put_usage if usage_only else snapshot.add_workload
    for t in targets:
        put(t.workload)
