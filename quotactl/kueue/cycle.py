"""Kueue's scheduling cycle, run cycle after cycle.

One cycle (``pkg/scheduler/scheduler.go: schedule``): pop one head per active ClusterQueue,
nominate every head against the cycle's snapshot (flavor assignment with its preemption oracle,
victims for Preempt-mode assignments: ``assign.initial_assignment``), order the entries
(classical sort or the fair-sharing tournament of ``fairshare.FairSharingIterator``), then
process them one by one against the shared snapshot: admit, issue preemptions, reserve
capacity for a Preempt head without candidates, skip an entry whose victims overlap an earlier
one (or recompute it: HEAD gate ``RecomputeAssignmentUponPreemptionTargetsOverlap``) or that no
longer fits.  Between cycles the workload controller's handlers run: victims release
their quota and go back to their queue by creation time, still carrying the flavors of an
admission they had in the input (``workload.nomination_requests``); the inadmissible workloads
of their cohort tree are requeued.

All rules of assignment and victim search live in ``assign`` and ``preemption``; this module
only sequences them.  The engine is pure: no printing, no IO; results are frozen dataclasses.
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import NamedTuple

from quotactl.kueue.admissibility import resource_validation_error
from quotactl.kueue.assign import Assignment, FlavorAssigner, Mode, initial_assignment
from quotactl.kueue.fairshare import FairSharingIterator
from quotactl.kueue.nomination import (
    admission_check_blocker,
    make_assigner,
    namespace_check,
    preemptor_for,
    queue_blocker,
)
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.preemption.common import Preemptor, Target
from quotactl.kueue.preemption.policy import ANY, compares_queue_order_timestamps
from quotactl.kueue.priority import PriorityInfo, parse_time, workload_priority
from quotactl.kueue.queueing import queue_order_key
from quotactl.kueue.quota import (
    ClusterQueueNode,
    Snapshot,
    UsageOverlay,
    borrowing,
    build_snapshot,
    cq_available,
)
from quotactl.kueue.reasons import (
    MISCONFIGURED,
    MSG_DEFERRED,
    MSG_FAILED_ADMISSION_CHECKS,
    MSG_NO_LONGER_FITS,
    MSG_OVERLAP,
    PENDING_EVALUATION,
    SUSPENDED,
    WAITING_FOR_PREEMPTED_WORKLOADS,
    WAITING_FOR_QUOTA,
    cluster_queue_inactive,
    pending_preemption,
)
from quotactl.kueue.workload import AdmittedWorkload, PodSetRequest, nomination_requests, pod_set_requests
from quotactl.model.gc_pause import fewer_gc_pauses
from quotactl.model.kueue import KueueCluster, Workload

# Outcomes of one head in one cycle.
ADMITTED = "Admitted"
PREEMPTING = "Preempting"  # issued preemptions, waits for the victims to go
DEFERRED = "Deferred"  # DeferredFit: will fit once earlier preemptions complete
SKIPPED = "Skipped"  # failed after nomination (overlap / no longer fits): requeued at once
PENDING = "Pending"  # NoFit / Preempt without candidates
NOT_NOMINATED = "NotNominated"  # namespace selector, admission checks

# Kueue's queue manager batches "requeue inadmissible workloads" requests for one second; adding
# the ClusterQueues when Kueue starts queues one for every ClusterQueue and cohort tree, and it
# fires after the first scheduling cycle.  So every head parked in cycle 1 is retried in cycle 2
# (observed on every kueue-fix-schedule case whose first cycle parks heads).
STARTUP_REQUEUE_AFTER_CYCLE = 1
DEFAULT_START = datetime(2026, 3, 2, 9, 0, 0, tzinfo=timezone.utc)


# ----------------------------------------------------------------------------- results ---

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

    @property
    def cycles_run(self) -> int:
        return len(self.cycles)


# -------------------------------------------------------------------- simulation state ---

class _Admitted(AdmittedWorkload):
    """A workload admitted during the run (its admission is the assignment, not the input's)."""

    def __init__(self, wl: Workload, cq: str, cluster: KueueCluster, options: EngineOptions,
                 assignment: Assignment, reserved_at: datetime, priority: PriorityInfo | None = None):
        self.key = wl.key
        self.workload = wl
        self.cluster_queue = cq
        self._cluster = cluster
        self._options = options
        self._priority = priority
        self._queue_ts = None
        self._reserved_at = reserved_at
        self._evicted = False
        self.usage = {fr: v for fr, v in assignment.usage.items() if v}
        frs = set()
        ps_rows = []
        for ps in assignment.pod_sets:
            flavors = {res: fa.flavor for res, fa in ps.flavors.items()}
            for res, fl in flavors.items():
                frs.add((fl, res))
            ps_usage = {}
            for res, fl in flavors.items():
                v = ps.requests.get(res, 0)
                if v:
                    ps_usage[(fl, res)] = v
            ps_rows.append((ps.name, ps.count, ps_usage, flavors))
        self.flavor_resources = frozenset(frs)
        self._rows = ps_rows

    def _assignments(self):
        yield from self._rows

    def pod_set_flavors(self) -> dict[str, dict[str, str]]:
        return {name: flavors for name, _count, _usage, flavors in self._rows}


@dataclass
class _Entry:
    wl: Workload
    cq: ClusterQueueNode
    assignment: Assignment | None
    targets: tuple[Target, ...]
    priority: int
    ts: datetime
    outcome: str = PENDING
    reason: str | None = None
    message: str = ""
    immediate: bool = False  # requeue into the heap whatever the strategy
    drop_inadmissible: bool = False  # namespace mismatch, invalid requests: parked even under StrictFIFO
    unmatched: bool = False  # namespace mismatch: also stays parked when the queue is requeued
    kept_flavors: dict = field(default_factory=dict)  # flavors of an earlier admission, taken without a scan

    # TournamentEntry protocol
    @property
    def key(self) -> str:
        return self.wl.key

    @property
    def cluster_queue(self) -> str:
        return self.cq.name

    @property
    def usage(self) -> dict:
        return {fr: v for fr, v in (self.assignment.usage if self.assignment else {}).items() if v}

    @property
    def queue_order_timestamp(self) -> datetime:
        return self.ts


class _Precheck(NamedTuple):
    """A check before nomination that failed (namespace selector, admission checks, requests
    above limits): the entry's outcome fields."""

    reason: str
    message: str
    drop_inadmissible: bool  # parked even under StrictFIFO
    unmatched: bool  # namespace mismatch: stays parked when the queue is requeued


class _Static(NamedTuple):
    """What a nomination needs that never changes during the run (see ``Scheduler._static``)."""

    priority: int
    queue_order_timestamp: datetime
    failed: _Precheck | None  # the first failing pre-check; then nothing below is needed
    preemptor: Preemptor | None
    requests: tuple[PodSetRequest, ...] | None
    preset: dict | None  # flavors of an earlier admission (workload.nomination_requests)
    kin: tuple | None = None  # see Scheduler._kin


class _KinNomination(NamedTuple):
    """A nomination another workload of the same kin (``Scheduler._kin``) may take as it is."""

    made_on: tuple  # (cohort tree, the tree's version, scan start)
    pod_sets: tuple  # the model's pod sets it was made for (the kin key holds their id)
    assignment: Assignment
    targets: tuple[Target, ...]


class _Nomination(NamedTuple):
    """A cached nomination, reusable while its cohort tree and scan start are unchanged."""

    made_on: tuple  # (cohort tree, the tree's version, scan start)
    assignment: Assignment
    targets: tuple[Target, ...]


class _ScanProgress(NamedTuple):
    """Where a workload's flavor scans stopped (Kueue's ``workload.Info.LastAssignment``)."""

    cycle: int
    evictions: int  # the ClusterQueue's eviction count at that cycle
    last_tried: dict  # (pod set, resource group) -> the last flavor index tried, -1 = all tried


class _Live(NamedTuple):
    """The ClusterQueues and cohort trees not settled yet, each sorted by name."""

    version: int  # ``Scheduler.awake_version`` when this was taken
    cluster_queues: list[str]
    trees: list[str]


class _Head(NamedTuple):
    """A queue head popped for this cycle: its queue and its order key (the workload key last)."""

    queue: _Queue
    okey: tuple


@dataclass
class _CycleWork:
    """What processing one cycle's entries claims and changes (shared by its steps)."""

    number: int
    now: datetime  # the cycle's clock (admission times)
    claimed: dict[str, AdmittedWorkload] = field(default_factory=dict)  # victims taken by earlier entries
    claimed_in_tree: dict[str, list[AdmittedWorkload]] = field(default_factory=dict)  # the same, by cohort tree
    held: list[tuple[ClusterQueueNode, dict]] = field(default_factory=list)  # temporary usage (see hold)
    admitted: list[Admission] = field(default_factory=list)
    preempted: list[Preemption] = field(default_factory=list)

    def hold(self, snapshot: Snapshot, cq: ClusterQueueNode, usage: dict) -> None:
        """Charge usage for this cycle only (a preemptor's request, a reservation)."""
        snapshot.add_usage(cq, usage)
        self.held.append((cq, usage))

    def release(self, snapshot: Snapshot) -> None:
        for cq, usage in reversed(self.held):
            snapshot.remove_usage(cq, usage)

    def claim(self, victim: AdmittedWorkload, tree: str) -> None:
        self.claimed[victim.key] = victim
        self.claimed_in_tree.setdefault(tree, []).append(victim)


FINGERPRINT_MOD = 1 << 128
PARKED = 0x9E3779B97F4A7C15F39CC0605CEDC835  # a large odd multiplier: a parked workload's weight


class _Marks:
    """A 128-bit random mark per element of a state (a workload in a queue's active heap, a
    parked one, a held admission, a flavor-scan record), drawn when the element is first seen.
    A state's fingerprint is the sum of its elements' marks modulo 2**128, kept up to date by
    every change instead of being taken again each cycle: comparing end-of-cycle states then
    costs nothing however long the queues are.  Two different states share a fingerprint with
    probability 2**-128.  Fingerprints are compared only within one process (a forked worker
    draws on from its parent's state), and the generator is seeded, so a run is reproducible."""

    __slots__ = ("_memo", "_workloads", "_bits")

    def __init__(self):
        self._memo: dict = {}
        self._workloads: dict[str, int] = {}  # workload key -> the mark of (key,): the queues ask most
        self._bits = random.Random(0x9E3779B9).getrandbits

    def __call__(self, item: tuple) -> int:
        m = self._memo.get(item)
        if m is None:
            m = self._memo[item] = self._bits(128)
        return m

    def workload(self, key: str) -> int:
        """``self((key,))``, without building the tuple each time."""
        m = self._workloads.get(key)
        if m is None:
            m = self._workloads[key] = self._bits(128)
        return m


class _Queue:
    """One ClusterQueue's pending workloads: the active heap (sorted list) and the inadmissible set,
    with the fingerprint of both (see ``_Marks``; the heap is always sorted, so its contents fix
    its order): the sums of the marks of the active and of the parked workloads, a parked
    workload counting ``PARKED`` times its mark, so that requeueing every parked workload moves
    one sum into the other."""

    __slots__ = ("name", "active", "inadmissible", "sticky", "strict", "unmatched", "active_sum", "parked_sum",
                 "marks")

    def __init__(self, name: str, strict: bool, marks: _Marks):
        self.name = name
        self.active: list[tuple] = []  # (order key, workload key)
        self.inadmissible: dict[str, tuple] = {}
        self.sticky: str | None = None
        self.strict = strict
        self.unmatched: set[str] = set()  # parked for a namespace mismatch: no requeue brings them back
        self.active_sum = 0
        self.parked_sum = 0
        self.marks = marks

    def push(self, okey: tuple) -> None:
        key = okey[-1]
        m = self.marks.workload(key)
        if self.inadmissible.pop(key, None) is not None:
            self.parked_sum -= m
        self.unmatched.discard(key)
        bisect.insort(self.active, okey)
        self.active_sum += m

    def pop(self) -> tuple | None:
        if not self.active:
            return None
        okey = None
        if self.sticky is not None:
            for i, k in enumerate(self.active):
                if k[-1] == self.sticky:
                    okey = self.active.pop(i)
                    break
        if okey is None:
            okey = self.active.pop(0)
        self.active_sum -= self.marks.workload(okey[-1])
        return okey

    def park(self, okey: tuple, unmatched: bool = False) -> None:
        key = okey[-1]
        if key not in self.inadmissible:
            self.parked_sum += self.marks.workload(key)
        self.inadmissible[key] = okey
        if unmatched:
            self.unmatched.add(key)

    def park_active(self, parked: list[tuple], kept: list[tuple]) -> None:
        """Split the active heap: ``parked`` go to the inadmissible set, ``kept`` (in order) stay."""
        marks = self.marks
        self.active = kept
        for okey in parked:
            self.active_sum -= marks.workload(okey[-1])
            self.park(okey)

    def requeue_inadmissible(self) -> None:
        """``queueInadmissibleWorkloads``: everything parked goes back to the heap, except
        workloads whose namespace the ClusterQueue does not select."""
        if not self.inadmissible:
            return
        if not self.unmatched:  # the usual case: all of them, in one merge (order keys are unique)
            self.active = sorted(self.active + list(self.inadmissible.values()))
            self.active_sum += self.parked_sum
            self.parked_sum = 0
            self.inadmissible = {}
            return
        kept = {}
        for key, okey in self.inadmissible.items():
            if key in self.unmatched:
                kept[key] = okey
            else:
                bisect.insort(self.active, okey)
                m = self.marks.workload(key)
                self.active_sum += m
                self.parked_sum -= m
        self.inadmissible = kept

    def state(self) -> tuple:
        return ((self.active_sum + PARKED * self.parked_sum) % FINGERPRINT_MOD, self.sticky)


def newest_time(cluster: KueueCluster) -> datetime | None:
    """The newest creationTimestamp or condition lastTransitionTime of any Workload."""
    best = None
    for wl in cluster.workloads.values():
        for raw in [wl.creation_timestamp] + [c.last_transition_time for c in wl.conditions.values()]:
            t = parse_time(raw) if raw else None
            if t is not None and (best is None or t > best):
                best = t
    return best


class Scheduler:
    """The cycle machinery over one cluster model (mutable inside; results are frozen)."""

    def __init__(self, cluster: KueueCluster, options: EngineOptions, *, queue_pending: bool = True):
        """``queue_pending``: queue the input's pending workloads now, every cohort tree awake
        (``schedule``); off, the queues start empty and no tree is awake until ``arrive`` or
        ``finish`` wakes one (``simulate``, whose clock queues each workload when it arrives)."""
        self.cluster = cluster
        self.options = options
        self.snapshot: Snapshot = build_snapshot(cluster, options)
        self.queues: dict[str, _Queue] = {}
        self.blocked: dict[str, PendingWorkload] = {}  # never queued (queue checks failed)
        self.last: dict[str, HeadOutcome] = {}
        self.okeys: dict[str, tuple] = {}
        self.shapes: dict[str, tuple] = {}
        self.priorities: dict[str, PriorityInfo] = {}  # workload key -> its priority (see _priority)
        self.tree_names: dict[str, str] = {}  # ClusterQueue -> its cohort tree (see _tree)
        # (priority, id(pod sets)) -> (pod sets, shape) and (id(pod sets), reclaimable pods) ->
        # (pod sets, requests): a generator's workloads of one kind share their pod set objects
        # (model.kueue.build_workload), and both read nothing else of the workload; the pod sets
        # are kept so that an id is never reused while its entry lives
        self.shape_by_pod_sets: dict[tuple, tuple] = {}
        self.requests_by_pod_sets: dict[tuple, tuple] = {}
        self.resource_errors: dict[int, tuple] = {}  # id(pod sets) -> (pod sets, limits error or None)
        self.namespace_blockers: dict[tuple, str | None] = {}  # (ClusterQueue, namespace) -> mismatch message
        self.shape_ids: dict[str, int] = {}  # workload -> the number of its shape (see _shape_id)
        self.shape_numbers: dict[tuple, int] = {}
        self.versions: dict[str, int] = {}
        self.nominations: dict[str, _Nomination] = {}
        self.kin_nominations: dict[tuple, _KinNomination] = {}  # (ClusterQueue, kin) -> the last one made
        self.held_pairs: dict[str, set] = {}  # ClusterQueue -> see _held_pairs
        self.held_fp: dict[str, int] = {}  # ClusterQueue -> fingerprint of its held_pairs
        self.marks = _Marks()
        self.statics: dict[tuple, _Static] = {}  # (workload, ClusterQueue) -> see _static
        self.awake: set[str] = set()  # trees still simulated (not settled: see TreeWatch)
        self.awake_version = 0  # bumped by every change of ``awake`` (see _live)
        self._live_cache: _Live | None = None  # see _live
        # flavor scan progress (Kueue's workload.Info.LastAssignment)
        self.scan: dict[str, _ScanProgress] = {}  # written by _set_scan / _drop_scan only
        self.scan_tree: dict[str, tuple[str, int]] = {}  # workload -> (cohort tree, mark) of its scan record
        self.scan_fp: dict[str, int] = {}  # tree -> fingerprint of its workloads' scan records
        self.evictions: dict[str, int] = {}
        self.cycle_no = 0
        # (scan cycle, cycle) of every stale-scan decision (_scan_start) the distance between cycle
        # numbers decides; a list only where numbering may differ from one process's (simulate/split.py)
        self.gap_reads: list[tuple[int, int]] | None = None
        latest = newest_time(cluster)
        self.start = DEFAULT_START if latest is None or latest < DEFAULT_START else \
            latest.replace(microsecond=0) + timedelta(seconds=1)
        self.tree_cqs: dict[str, list[str]] = {}  # cohort tree (see _tree) -> its ClusterQueues
        for name, cq in sorted(self.snapshot.cluster_queues.items()):
            self.queues[name] = _Queue(name, cq.spec.queueing_strategy == "StrictFIFO", self.marks)
            self.tree_cqs.setdefault(self._tree(cq), []).append(name)
        if not queue_pending:
            return
        self.awake.update(self.tree_cqs)
        for wl in cluster.workloads.values():  # any order: queues keep their own order
            if wl.is_queueable:
                self._enqueue(wl)

    # -- queues --------------------------------------------------------------------------
    def _okey(self, wl: Workload) -> tuple:
        k = self.okeys.get(wl.key)
        if k is None:
            k = self.okeys[wl.key] = queue_order_key(self.cluster, wl, self.options, self._priority(wl).value)
        return k

    def _enqueue(self, wl: Workload) -> str | None:
        """Queue ``wl`` in its ClusterQueue (returned), or record why it cannot be (None)."""
        checked = queue_blocker(self.cluster, self.snapshot, wl)
        blocker = checked.blocker
        if blocker is not None and blocker.reason != PENDING_EVALUATION:
            self.blocked[wl.key] = PendingWorkload(wl.key, checked.cluster_queue, blocker.reason, blocker.message,
                                                   False)
            return None
        self.blocked.pop(wl.key, None)
        self.queues[checked.cluster_queue].push(self._okey(wl))
        return checked.cluster_queue

    def _shape(self, wl: Workload) -> tuple:
        s = self.shapes.get(wl.key)
        if s is None:
            pr = self._priority(wl).value
            k = (pr, id(wl.pod_sets))
            hit = self.shape_by_pod_sets.get(k)
            if hit is not None and hit[0] is wl.pod_sets:
                s = hit[1]
            else:
                s = (pr, tuple((ps.name, ps.count, ps.min_count, tuple(sorted(r.per_pod.items())),
                                tuple(sorted(ps.pod.node_selector.items())), repr(ps.pod.tolerations))
                               for ps, r in zip(wl.pod_sets, self._requests(wl), strict=False)))
                self.shape_by_pod_sets[k] = (wl.pod_sets, s)
            self.shapes[wl.key] = s
        return s

    def _priority(self, wl: Workload) -> PriorityInfo:
        """``workload_priority``, once per workload (the model does not change during the run)."""
        info = self.priorities.get(wl.key)
        if info is None:
            info = self.priorities[wl.key] = workload_priority(self.cluster, wl, self.options.gates)
        return info

    def _requests(self, wl: Workload) -> tuple[PodSetRequest, ...]:
        """``pod_set_requests(wl)``, once per pod set objects and reclaimable pods."""
        k = (id(wl.pod_sets), tuple(sorted(wl.reclaimable_pods.items())) if wl.reclaimable_pods else ())
        hit = self.requests_by_pod_sets.get(k)
        if hit is not None and hit[0] is wl.pod_sets:
            return hit[1]
        reqs = pod_set_requests(wl, self.options)
        self.requests_by_pod_sets[k] = (wl.pod_sets, reqs)
        return reqs

    def tree_state(self, tree: str) -> tuple:
        """Everything the future of one cohort tree depends on: the workloads its ClusterQueues
        hold (with flavors), their queues (active order, parked set, sticky head) and the flavor
        scan progress.  Trees share no quota and are nominated and ordered independently, so each
        one evolves on its own.
        Each part is a fingerprint kept up to date by the changes (``_Marks``), so taking the
        state costs one step per ClusterQueue, not per workload.  (Only pending workloads have
        scan records at the end of a cycle: admitted and evicted ones lose theirs.)"""
        queues = tuple(self.queues[name].state() for name in self.tree_cqs[tree])
        held = sum(self._held_fp(name) for name in self.tree_cqs[tree]) % FINGERPRINT_MOD
        return held, queues, self.scan_fp.get(tree, 0) % FINGERPRINT_MOD

    def _held_fp(self, name: str) -> int:
        """The fingerprint of the (workload, flavor-resources) pairs of the workloads ClusterQueue
        ``name`` holds: read from the snapshot once, then kept up to date by ``_admit`` and
        ``_evict``, the only changes of its workloads that last (the searches restore what they
        remove)."""
        if name not in self.held_pairs:
            workloads = self.snapshot.cluster_queues[name].workloads
            pairs = self.held_pairs[name] = {self._pair(w) for w in workloads.values()}
            self.held_fp[name] = sum(self.marks(("H",) + p) for p in pairs)
        return self.held_fp[name]

    @staticmethod
    def _pair(w: AdmittedWorkload) -> tuple:
        return w.key, tuple(sorted(w.flavor_resources))

    def _hold_pair(self, name: str, w: AdmittedWorkload, sign: int) -> None:
        pairs = self.held_pairs.get(name)
        if pairs is None:
            return
        p = self._pair(w)
        if (p in pairs) != (sign > 0):
            (pairs.add if sign > 0 else pairs.discard)(p)
            self.held_fp[name] += sign * self.marks(("H",) + p)

    def _set_scan(self, key: str, cq: ClusterQueueNode, progress: _ScanProgress) -> None:
        self._drop_scan(key)
        tree = self._tree(cq)
        # memoised: a parked workload records the same scan state again at every retry
        mark = self.marks(("S", key, tuple(sorted(progress.last_tried.items()))))
        self.scan[key], self.scan_tree[key] = progress, (tree, mark)
        self.scan_fp[tree] = self.scan_fp.get(tree, 0) + mark

    def _drop_scan(self, key: str) -> None:
        if self.scan.pop(key, None) is not None:
            tree, mark = self.scan_tree.pop(key)
            self.scan_fp[tree] -= mark

    def tree_has_active_heads(self, tree: str) -> bool:
        return any(self.queues[n].active for n in self.tree_cqs[tree] if self.snapshot.cluster_queues[n].active)

    def has_active_heads(self) -> bool:
        return any(self.tree_has_active_heads(t) for t in self._live().trees)

    def _live(self) -> _Live:
        """The ClusterQueues and trees not settled yet.  Per-cycle loops go over
        these only: on a large cluster most trees settle early, and walking every ClusterQueue
        each cycle would make the run grow with ClusterQueues x cycles."""
        if self._live_cache is None or self._live_cache.version != self.awake_version:
            trees = sorted(self.awake)
            names = sorted(n for t in trees for n in self.tree_cqs[t])
            self._live_cache = _Live(self.awake_version, names, trees)
        return self._live_cache

    def settle(self, tree: str) -> None:
        """Stop simulating ``tree``: it reached its fixpoint or a livelock."""
        if tree in self.awake:
            self.awake.discard(tree)
            self.awake_version += 1

    def wake(self, tree: str) -> None:
        """Simulate ``tree`` again: something outside the cycles changed it."""
        if tree not in self.awake:
            self.awake.add(tree)
            self.awake_version += 1

    def tree_of(self, cluster_queue: str) -> str:
        """The cohort tree of a ClusterQueue (its root cohort, or itself without a cohort)."""
        return self._tree(self.snapshot.cluster_queues[cluster_queue])

    # -- changes from outside the cycles (a clock: arrivals and completions) -------------
    def arrive(self, wl: Workload) -> str | None:
        """Queue a workload that was just created, as Kueue's queue manager does; wake its tree.
        Returns its ClusterQueue, or None when it cannot be queued (see ``blocked``)."""
        cq = self._enqueue(wl)
        if cq is not None:
            self.wake(self.tree_of(cq))
        return cq

    def finish(self, key: str, cluster_queue: str, *, requeue: bool = True) -> str | None:
        """A workload holding quota finished: it releases its quota, and the inadmissible
        workloads of its cohort tree go back to their queues (Kueue's requeue on a finished
        workload; ``requeue=False`` leaves that to one ``requeue_tree`` for several completions
        at once); the tree wakes.  Returns the tree, None when it holds no quota there."""
        cq = self.snapshot.cluster_queues.get(cluster_queue)
        w = cq.workloads.get(key) if cq is not None else None
        if w is None:
            return None
        self._evict(w)
        self.last.pop(key, None)
        self.evictions[cluster_queue] = self.evictions.get(cluster_queue, 0) + 1  # it left the ClusterQueue
        tree = self._tree(cq)
        if requeue:
            self.requeue_tree(tree)
        return tree

    def requeue_tree(self, tree: str) -> None:
        """Every parked workload of the cohort tree back to its queue; the tree wakes."""
        for name in self.tree_cqs[tree]:
            self.queues[name].requeue_inadmissible()
        self.wake(tree)

    # -- one cycle -----------------------------------------------------------------------
    def _static(self, wl: Workload, cq: ClusterQueueNode) -> _Static:
        """What a nomination needs that depends only on the workload and its ClusterQueue (the
        model does not change during the run)."""
        k = (wl.key, cq.name)
        st = self.statics.get(k)
        if st is not None:
            return st
        pre = preemptor_for(self.cluster, self.snapshot, wl, cq.name, self._priority(wl))
        failed = self._failed_precheck(wl, cq)
        if failed is not None:
            st = _Static(pre.priority, pre.queue_order_timestamp, failed, None, None, None)
        else:
            requests, preset = nomination_requests(wl, self.options, self._requests(wl))
            st = _Static(pre.priority, pre.queue_order_timestamp, None, pre, requests, preset,
                         self._kin(wl, cq, pre, preset))
        self.statics[k] = st
        return st

    @staticmethod
    def _kin(wl: Workload, cq: ClusterQueueNode, pre: Preemptor, preset: dict) -> tuple | None:
        """Everything of a workload its nomination in ``cq`` reads: its pod sets (the model
        objects themselves: a generator's workloads of one shape share them) and reclaimable pods
        (with the engine's options, they make its requests), its priority and, where a preemption policy of ``cq`` compares them, its queue-order
        timestamp (the flavor assigner and the victim search read nothing else of it).  Two
        workloads of one kin get the same nomination from the same snapshot of their cohort tree
        (Kueue's equivalent workloads, here exact).  None for one keeping an earlier admission's
        flavors."""
        if preset:
            return None
        ts = pre.queue_order_timestamp if compares_queue_order_timestamps(cq.preemption) else None
        # the requests are those of the pod sets less the reclaimable pods (workload.pod_set_requests)
        reclaimable = tuple(sorted(wl.reclaimable_pods.items())) if wl.reclaimable_pods else ()
        return id(wl.pod_sets), reclaimable, pre.priority, ts

    def _failed_precheck(self, wl: Workload, cq: ClusterQueueNode) -> _Precheck | None:
        """The first of the scheduler's checks before nomination that fails, if any."""
        if admission_check_blocker(wl):
            return _Precheck(PENDING_EVALUATION, MSG_FAILED_ADMISSION_CHECKS, False, False)
        # ValidateAdmissibility's order: the namespace selector, then the resources.
        ns_key = (cq.name, wl.namespace)  # the selector check reads nothing else
        if ns_key not in self.namespace_blockers:
            blocker = namespace_check(self.cluster, cq, wl).blocker
            self.namespace_blockers[ns_key] = None if blocker is None else blocker.message
        message = self.namespace_blockers[ns_key]
        if message is not None:
            return _Precheck(MISCONFIGURED, message, True, True)
        hit = self.resource_errors.get(id(wl.pod_sets))  # the limits check reads the pod sets only
        if hit is None or hit[0] is not wl.pod_sets:
            hit = self.resource_errors[id(wl.pod_sets)] = (wl.pod_sets, resource_validation_error(wl))
        if hit[1] is not None:
            return _Precheck(MISCONFIGURED, hit[1], True, False)
        return None

    def _nominate(self, wl: Workload, cq: ClusterQueueNode) -> _Entry:
        st = self._static(wl, cq)
        e = _Entry(wl, cq, None, (), st.priority, st.queue_order_timestamp, kept_flavors=st.preset or {})
        failed = st.failed
        if failed is not None:
            e.outcome, e.reason, e.message = NOT_NOMINATED, failed.reason, failed.message
            e.drop_inadmissible, e.unmatched = failed.drop_inadmissible, failed.unmatched
            return e
        # The nomination reads only the cycle-start snapshot of the workload's cohort tree: reuse
        # it while nothing was admitted to or evicted from that tree.
        tree = self._tree(cq)
        version = self.versions.get(tree, 0)
        start = self._scan_start(wl, cq)
        made_on = (tree, version, start)
        hit = self.nominations.get(wl.key)
        if hit is not None and hit.made_on == made_on:
            e.assignment, e.targets = hit.assignment, hit.targets
            return e
        kin = (cq.name, st.kin) if st.kin is not None else None
        shared = self.kin_nominations.get(kin) if kin is not None else None
        if shared is not None and shared.made_on == made_on and shared.pod_sets is wl.pod_sets:
            e.assignment, e.targets = shared.assignment, shared.targets
        else:
            assigner = FlavorAssigner(self.snapshot, cq, st.preemptor, wl.pod_sets, st.requests, preset=st.preset,
                                      scan_start=dict(start))  # make_assigner, with the static parts cached
            init = initial_assignment(assigner)
            e.assignment, e.targets = init.assignment, tuple(init.targets)
            if kin is not None:
                self.kin_nominations[kin] = _KinNomination(made_on, wl.pod_sets, e.assignment, e.targets)
        self.nominations[wl.key] = _Nomination(made_on, e.assignment, e.targets)
        return e

    def _scan_start(self, wl: Workload, cq: ClusterQueueNode) -> tuple:
        """``NextFlavorToTryForPodSetResource``: resume each (pod set, resource group) scan after
        the flavor tried last, unless that scan state is outdated (FlavorFungibilityPreserveScanProgress:
        state from the current or previous cycle is kept; older state is dropped once an admitted
        workload left the ClusterQueue)."""
        st = self.scan.get(wl.key)
        if st is None or not self.options.gates.enabled("FlavorFungibility"):
            return ()
        preserve = self.options.gates.enabled("FlavorFungibilityPreserveScanProgress")
        evicted_since = self.evictions.get(cq.name, 0) > st.evictions
        if evicted_since and preserve and self.gap_reads is not None and any(v >= 0 for v in st.last_tried.values()):
            # only a state resuming some scan reads differently kept or dropped: without one, the
            # start is the first flavor either way and the cycle's requeue rewrites or drops it
            self.gap_reads.append((st.cycle, self.cycle_no))
        if evicted_since and (not preserve or st.cycle < self.cycle_no - 1):
            self._drop_scan(wl.key)
            return ()
        return tuple(sorted((k, v + 1) for k, v in st.last_tried.items() if v + 1 > 0))

    def _record_scan(self, e: _Entry) -> None:
        a = e.assignment
        if a is None:
            return
        idx: dict = {}
        for ps in a.pod_sets:
            for res, fa in ps.flavors.items():
                g = ps.resource_groups.get(res) if ps.resource_groups else None
                if g is None:
                    continue
                k = (ps.name, g)
                idx[k] = max(idx.get(k, -1), fa.tried_flavor_idx)
        self._set_scan(e.wl.key, e.cq, _ScanProgress(self.cycle_no, self.evictions.get(e.cq.name, 0), idx))

    def _pending_flavors(self, key: str) -> bool:
        st = self.scan.get(key)
        return st is not None and any(v != -1 for v in st.last_tried.values())

    def _tree(self, cq: ClusterQueueNode) -> str:
        """The name of ``cq``'s cohort tree (the snapshot's tree shape never changes in a run)."""
        t = self.tree_names.get(cq.name)
        if t is None:
            t = self.tree_names[cq.name] = cq.root().name if cq.parent is not None else "\0" + cq.name
        return t

    def _touch(self, cq: ClusterQueueNode) -> None:
        t = self._tree(cq)
        self.versions[t] = self.versions.get(t, 0) + 1

    def _admit(self, info: AdmittedWorkload) -> None:
        """Charge an admitted workload to its ClusterQueue for good."""
        cq = self.snapshot.cluster_queues[info.cluster_queue]
        old = cq.workloads.get(info.key)
        self.snapshot.add_workload(info)
        if old is not None:
            self._hold_pair(cq.name, old, -1)
        self._hold_pair(cq.name, info, +1)
        self._touch(cq)

    def _evict(self, w: AdmittedWorkload) -> None:
        """Release an evicted workload's quota for good."""
        cq = self.snapshot.cluster_queues[w.cluster_queue]
        self.snapshot.remove_workload(w)
        self._hold_pair(cq.name, w, -1)
        self._touch(cq)

    def _order(self, entries: list[_Entry]):
        if self.options.fair_sharing:
            it = FairSharingIterator(self.snapshot, entries)
            while it.has_next():
                yield it.pop()
            return
        psort = self._psort
        entries = sorted(entries, key=lambda e: (e.assignment.borrowing,
                                                 -e.priority if psort else 0, e.ts, e.wl.key))
        yield from entries

    @property
    def _psort(self) -> bool:
        return self.options.gates.enabled("PrioritySortingWithinCohort")

    def _fits(self, cq: ClusterQueueNode, usage: dict, removed: list[AdmittedWorkload]) -> bool:
        """Does ``usage`` fit in ``cq`` once ``removed`` have released their quota?  The removals
        are replayed on an overlay (only ``cq``'s tree and ``usage``'s frs can matter), so the
        snapshot is not touched."""
        if not removed:
            return all(cq_available(cq, fr) >= v for fr, v in usage.items())
        snap = self.snapshot
        overlay = UsageOverlay(usage)
        for w in removed:
            overlay.remove(snap.cluster_queues[w.cluster_queue], w.usage)
        return all(overlay.cq_available(cq, fr) >= v for fr, v in usage.items())

    def _reserve(self, e: _Entry) -> dict:
        cq = e.cq
        out = {}
        for fr, v in e.usage.items():
            q = cq.quota_for(fr)
            used = cq.usage.get(fr, 0)
            if e.assignment.borrowing > 0:
                out[fr] = v if q.borrowing_limit is None else min(v, q.nominal + q.borrowing_limit - used)
            else:
                out[fr] = max(0, min(v, q.nominal - used))
        return {fr: v for fr, v in out.items() if v > 0}

    def _recompute(self, e: _Entry, claimed: list[AdmittedWorkload]) -> None:
        """HEAD: the victims overlap earlier claims; recompute as if those were already gone.
        ``claimed``: the claims in ``e``'s cohort tree (the nomination reads nothing else)."""
        snap = self.snapshot
        gone = [w for w in claimed if w.key in snap.cluster_queues[w.cluster_queue].workloads]
        for w in gone:
            snap.remove_workload(w)
        try:
            init = initial_assignment(make_assigner(self.cluster, snap, e.wl, e.cq))
        finally:
            for w in gone:
                snap.add_workload(w)
        e.assignment, e.targets = init.assignment, tuple(init.targets)

    def run_cycle(self, number: int) -> CycleReport:
        """One scheduling cycle: pop one head per active ClusterQueue, nominate them, process the
        entries in Kueue's order, requeue the heads, then let the victims go."""
        self.cycle_no = number
        live = self._live().cluster_queues
        heads = self._pop_heads(live)
        entries = [self._nominate(self.cluster.workloads[h.okey[-1]], self.snapshot.cluster_queues[h.queue.name])
                   for h in heads]
        work = _CycleWork(number, self.start + timedelta(seconds=number - 1))
        processed: list[_Entry] = [e for e in entries if e.outcome == NOT_NOMINATED]
        recompute = self.options.gates.enabled("RecomputeAssignmentUponPreemptionTargetsOverlap")
        for e in self._order([e for e in entries if e.outcome != NOT_NOMINATED]):
            processed.append(e)
            self._process(e, work, recompute)
        work.release(self.snapshot)
        self._requeue_heads(heads, {e.wl.key: e for e in entries})
        outcomes = self._head_outcomes(processed)
        self._release_victims(work.preempted, number)
        self._drop_stale_sticky(live)
        return CycleReport(number, outcomes, tuple(work.admitted), tuple(work.preempted))

    def _pop_heads(self, live: list[str]) -> list[_Head]:
        heads = []
        for name in live:
            if not self.snapshot.cluster_queues[name].active:
                continue
            q = self.queues[name]
            okey = q.pop()
            if okey is not None:
                heads.append(_Head(q, okey))
        return heads

    def _process(self, e: _Entry, work: _CycleWork, recompute: bool) -> None:
        """Kueue's processing of one nominated entry against the cycle's shared snapshot."""
        deferred = False
        if recompute and e.targets and any(t.key in work.claimed for t in e.targets):
            self._recompute(e, work.claimed_in_tree.get(self._tree(e.cq), []))
            if e.assignment.representative_mode == Mode.Fit:
                deferred = True
        a = e.assignment
        mode = a.representative_mode
        usage = e.usage
        if mode == Mode.NoFit:
            e.outcome, e.reason, e.message = PENDING, a.no_fit_reason or WAITING_FOR_QUOTA, a.message()
            return
        if mode == Mode.Preempt and not e.targets:
            e.outcome, e.reason, e.message = PENDING, WAITING_FOR_QUOTA, a.message()
            if e.cq.preemption.reclaim_within_cohort != ANY:
                r = self._reserve(e)
                if r:
                    work.hold(self.snapshot, e.cq, r)
            return
        if deferred:
            work.hold(self.snapshot, e.cq, usage)
            e.outcome, e.reason, e.message, e.immediate = DEFERRED, WAITING_FOR_PREEMPTED_WORKLOADS, MSG_DEFERRED, True
            self._stick(e)  # requeued as pending preemption (its targets are being evicted)
            return
        if any(t.key in work.claimed for t in e.targets):
            e.outcome, e.reason, e.message, e.immediate = SKIPPED, WAITING_FOR_QUOTA, MSG_OVERLAP, True
            return
        tree = self._tree(e.cq)
        if not self._fits(e.cq, usage, work.claimed_in_tree.get(tree, []) + [t.workload for t in e.targets]):
            e.outcome, e.reason, e.message, e.immediate = SKIPPED, WAITING_FOR_QUOTA, MSG_NO_LONGER_FITS, True
            return
        for t in e.targets:
            work.claim(t.workload, self._tree(self.snapshot.cluster_queues[t.cluster_queue]))
        if mode == Mode.Preempt:
            self._issue_preemptions(e, usage, work)
            return
        self._admit_entry(e, usage, work)

    def _stick(self, e: _Entry) -> None:
        """Keep ``e`` at the head of a BestEffortFIFO queue while its preemptions complete."""
        q = self.queues[e.cq.name]
        if not q.strict:
            q.sticky = e.wl.key

    def _issue_preemptions(self, e: _Entry, usage: dict, work: _CycleWork) -> None:
        work.hold(self.snapshot, e.cq, usage)
        n = len(e.targets)
        e.outcome, e.reason, e.immediate = PREEMPTING, WAITING_FOR_PREEMPTED_WORKLOADS, True
        e.message = pending_preemption(e.assignment.message(), n)
        for t in e.targets:
            work.preempted.append(Preemption(t.key, t.cluster_queue, e.wl.key, t.reason, work.number,
                                             t.workload.priority))
        self._stick(e)

    def _admit_entry(self, e: _Entry, usage: dict, work: _CycleWork) -> None:
        a = e.assignment
        self._admit(_Admitted(e.wl, e.cq.name, self.cluster, self.options, a, work.now, self._priority(e.wl)))
        e.outcome, e.reason, e.message = ADMITTED, None, ""
        self.nominations.pop(e.wl.key, None)  # never reusable (its tree's version moved): free it
        kept = bool(e.kept_flavors)
        # kept flavors count as non-borrowing for Kueue's ordering; report what the admission does
        borrows = a.borrows() or (kept and any(borrowing(e.cq, fr) for fr in usage))
        work.admitted.append(Admission(e.wl.key, e.cq.name, work.number, borrows,
                                       {ps.name: {r: fa.flavor for r, fa in sorted(ps.flavors.items())}
                                        for ps in a.pod_sets},
                                       {ps.name: ps.count for ps in a.pod_sets}, e.priority, kept))

    def _requeue_heads(self, heads: list[_Head], by_key: dict[str, _Entry]) -> None:
        """``requeueAndUpdate``: record the flavor scan progress and put each head back (active or
        parked) unless it was admitted."""
        preserve = self.options.gates.enabled("FlavorFungibilityPreserveScanProgress")
        hashing = self.options.gates.enabled("SchedulingEquivalenceHashing")
        for q, okey in heads:
            e = by_key[okey[-1]]
            if e.outcome in (ADMITTED, PREEMPTING, DEFERRED) or (e.outcome == SKIPPED and not preserve):
                self._drop_scan(e.wl.key)
            elif e.outcome != NOT_NOMINATED:
                self._record_scan(e)
            if e.outcome == ADMITTED:
                if q.sticky == e.wl.key:
                    q.sticky = None
                continue
            pending_flavors = e.outcome == PENDING and not q.strict and self._pending_flavors(e.wl.key)
            if e.immediate or pending_flavors or (q.strict and not e.drop_inadmissible):
                q.push(okey)
                continue
            q.park(okey, unmatched=e.unmatched)
            if hashing and e.outcome == PENDING and not q.strict:
                self._park_equivalent(q, e.wl)

    def _park_equivalent(self, q: _Queue, wl: Workload) -> None:
        """SchedulingEquivalenceHashing: the queued workloads of the same shape cannot fit either."""
        sid = self._shape_id(wl)
        ids = self.shape_ids
        parked, kept = [], []
        for k in q.active:  # one pass: this runs for every head that does not fit
            i = ids.get(k[-1])
            if i is None:
                i = self._shape_id(self.cluster.workloads[k[-1]])
            (parked if i == sid else kept).append(k)
        if parked:
            q.park_active(parked, kept)

    def _shape_id(self, wl: Workload) -> int:
        """A small number per distinct ``_shape`` (compared for every queued workload)."""
        i = self.shape_ids.get(wl.key)
        if i is None:
            i = self.shape_ids[wl.key] = self.shape_numbers.setdefault(self._shape(wl), len(self.shape_numbers))
        return i

    def _head_outcomes(self, processed: list[_Entry]) -> tuple[HeadOutcome, ...]:
        outcomes = []
        for e in processed:
            outcomes.append(HeadOutcome(e.wl.key, e.cq.name, e.outcome, e.reason, e.message,
                                        bool(e.assignment and e.assignment.borrows()),
                                        tuple(t.key for t in e.targets) if e.outcome == PREEMPTING else (),
                                        e.kept_flavors))
            self.last[e.wl.key] = outcomes[-1]
        return tuple(outcomes)

    def _release_victims(self, preempted: list[Preemption], number: int) -> None:
        """Between cycles: victims release their quota and are requeued; their trees'
        inadmissible workloads come back."""
        snap = self.snapshot
        trees: set[str] = set()
        victims: list[Workload] = []
        for p in preempted:
            w = snap.cluster_queues[p.cluster_queue].workloads.get(p.workload)
            if w is None:
                continue
            self._evict(w)
            self.last.pop(p.workload, None)
            self._drop_scan(p.workload)
            self.evictions[p.cluster_queue] = self.evictions.get(p.cluster_queue, 0) + 1
            trees.add(self._tree(snap.cluster_queues[p.cluster_queue]))
            # the model object keeps the input's status.admission: see nomination_requests
            victims.append(self.cluster.workloads[p.workload])
        if number == STARTUP_REQUEUE_AFTER_CYCLE:
            for q in self.queues.values():
                q.requeue_inadmissible()
        else:
            for t in sorted(trees):
                for name in self.tree_cqs[t]:
                    self.queues[name].requeue_inadmissible()
        for wl in victims:
            self._enqueue(wl)

    def _drop_stale_sticky(self, live: list[str]) -> None:
        for name in live:
            q = self.queues[name]
            if q.sticky is not None and q.sticky not in {k[-1] for k in q.active} and q.sticky not in q.inadmissible:
                q.sticky = None

    # -- results -------------------------------------------------------------------------
    def pending(self) -> tuple[PendingWorkload, ...]:
        out = list(self.blocked.values())
        for name, q in self.queues.items():
            cq = self.snapshot.cluster_queues[name]
            for okey, parked in [(k, False) for k in q.active] + [(k, True) for k in q.inadmissible.values()]:
                key = okey[-1]
                h = self.last.get(key)
                if not cq.active:
                    out.append(PendingWorkload(key, name, SUSPENDED, cluster_queue_inactive(name), parked))
                elif h is not None and h.outcome != ADMITTED:
                    out.append(PendingWorkload(key, name, h.reason or WAITING_FOR_QUOTA, h.message, parked))
                else:
                    out.append(PendingWorkload(key, name, "Pending",
                                               f"waiting in ClusterQueue {name}'s queue behind other workloads", parked))
        return tuple(sorted(out, key=lambda p: p.workload))

    def usage_rows(self) -> tuple[UsageRow, ...]:
        rows = []
        snap = self.snapshot
        for name in sorted(snap.cluster_queues):
            cq = snap.cluster_queues[name]
            for fr in sorted(set(cq.quotas) | {fr for fr, v in cq.usage.items() if v}, key=lambda f: (f[1], f[0])):
                q = cq.quota_for(fr)
                lim = None if (cq.parent is not None and q.borrowing_limit is None) else \
                    q.nominal + (q.borrowing_limit or 0) if cq.parent is not None else q.nominal
                rows.append(UsageRow(name, "ClusterQueue", fr[0], fr[1], cq.usage.get(fr, 0), q.nominal, lim,
                                     q.lending_limit))
        for name in sorted(snap.cohorts):
            c = snap.cohorts[name]
            for fr in sorted(set(c.subtree_quota) | {fr for fr, v in c.usage.items() if v}, key=lambda f: (f[1], f[0])):
                q = c.quotas.get(fr)
                rows.append(UsageRow(name, "Cohort", fr[0], fr[1], c.usage.get(fr, 0), c.subtree_quota.get(fr, 0),
                                     None, q.lending_limit if q is not None else None))
        return tuple(rows)

    def final_admitted(self) -> dict:
        out = {}
        for cq in self.snapshot.cluster_queues.values():
            for k, w in cq.workloads.items():
                out[k] = (cq.name, {ps: dict(sorted(fl.items())) for ps, fl in w.pod_set_flavors().items()})
        return dict(sorted(out.items()))


class TreeWatch:
    """Fixpoint and livelock detection, one cohort tree at a time.  A tree whose end-of-cycle
    state repeats never does anything new (its future depends only on that state): if some cycle
    in between admitted or preempted there, Kueue flops on it forever (a livelock), otherwise its
    remaining heads are retaken without effect.  Either way the tree is settled and no longer
    simulated, so one flopping tree neither hides the others' fixpoints nor keeps a large
    cluster cycling until every tree happens to repeat at once.  States are recorded from the
    end of the start-up requeue's cycle on: the cycles before it do not repeat."""

    def __init__(self, scheduler: Scheduler):
        self.s = scheduler
        self.seen: dict[str, dict[tuple, int]] = {}  # tree -> end-of-cycle state -> its cycle
        self.changes: dict[str, list[tuple[int, CycleReport]]] = {}
        self.loops: list[TreeLivelock] = []

    def reset(self, tree: str) -> None:
        """Forget ``tree``'s history: something outside the cycles changed it (``simulate``)."""
        self.seen.pop(tree, None)
        self.changes.pop(tree, None)

    def after_cycle(self, rep: CycleReport) -> None:
        s, n = self.s, rep.number
        touched = {s._tree(s.snapshot.cluster_queues[a.cluster_queue]) for a in rep.admitted}
        touched |= {s._tree(s.snapshot.cluster_queues[p.cluster_queue]) for p in rep.preempted}
        for t in touched:
            self.changes.setdefault(t, []).append((n, rep))
        if n < STARTUP_REQUEUE_AFTER_CYCLE:
            return
        for tree in list(s._live().trees):
            if not s.tree_has_active_heads(tree):
                s.settle(tree)
                continue
            state = s.tree_state(tree)
            seen = self.seen.setdefault(tree, {})
            first = seen.get(state)
            if first is None:
                seen[state] = n
                continue
            s.settle(tree)
            window = [r for c, r in self.changes.get(tree, ()) if c > first]
            if window:
                self.loops.append(self._loop(tree, first, n, window))

    def _loop(self, tree: str, first: int, n: int, window: list[CycleReport]) -> TreeLivelock:
        cqs = set(self.s.tree_cqs[tree])
        pre = [p for r in window for p in r.preempted if p.cluster_queue in cqs]
        adm = [a for r in window for a in r.admitted if a.cluster_queue in cqs]
        flop = sorted({p.workload for p in pre} | {a.workload for a in adm})
        why = sorted({f"{p.workload} preempted by {p.by} ({p.reason}) in cycle {p.cycle}" for p in pre})
        return TreeLivelock(tree.lstrip("\0"), tuple(flop), n - first, first, tuple(why))

    def livelock(self) -> Livelock | None:
        if not self.loops:
            return None
        loops = sorted(self.loops, key=lambda t: t.tree)
        return Livelock(tuple(sorted({w for t in loops for w in t.workloads})),
                        math.lcm(*(t.period for t in loops)), min(t.first_cycle for t in loops),
                        tuple(sorted({w for t in loops for w in t.why})), tuple(loops))


def schedule(cluster: KueueCluster, options: EngineOptions, *, cycles: int | None = None,
             max_cycles: int = 10_000, on_cycle=None) -> ScheduleResult:
    """Run cycles until the fixpoint (no active head left, or a cycle changes neither workloads
    nor queues), a livelock (an earlier end-of-cycle state repeats after changes), or ``cycles``.
    ``on_cycle(scheduler, report)``: an optional observer (property tests check invariants there)."""
    with fewer_gc_pauses():
        return _schedule(cluster, options, cycles, max_cycles, on_cycle)


class FixpointRun(NamedTuple):
    reports: list[CycleReport]
    hit_limit: bool  # stopped by the cycle limit, not by the fixpoint


def run_to_fixpoint(s: Scheduler, watch: TreeWatch, first: int, limit: int, on_cycle=None) -> FixpointRun:
    """Cycles numbered ``first``, ``first + 1``, ... on the awake cohort trees until none of them
    has an active head left (each tree settles at its own fixpoint or livelock: ``watch``), or
    until cycle number ``limit`` ran.  ``schedule`` runs it once; ``simulate`` at every instant
    of its clock, on the trees its events woke."""
    reports: list[CycleReport] = []
    n = first - 1
    while n < limit:
        if not s.has_active_heads():
            return FixpointRun(reports, False)
        n += 1
        rep = s.run_cycle(n)
        reports.append(rep)
        if on_cycle is not None:
            on_cycle(s, rep)
        watch.after_cycle(rep)
    return FixpointRun(reports, True)


def _schedule(cluster: KueueCluster, options: EngineOptions, cycles: int | None, max_cycles: int,
              on_cycle) -> ScheduleResult:
    s = Scheduler(cluster, options)
    watch = TreeWatch(s)
    if cycles is not None:
        reports = []
        for n in range(1, cycles + 1):
            reports.append(s.run_cycle(n))
            if on_cycle is not None:
                on_cycle(s, reports[-1])
        stopped = "cycles"
    else:
        run = run_to_fixpoint(s, watch, 1, max_cycles, on_cycle)
        reports = run.reports
        stopped = "limit" if run.hit_limit else "fixpoint"
    livelock = watch.livelock()
    if livelock is not None and stopped == "fixpoint":
        stopped = "livelock"
    admitted = tuple(a for r in reports for a in r.admitted)
    preempted = tuple(p for r in reports for p in r.preempted)
    last = max((r.number for r in reports if r.changed), default=0)
    return ScheduleResult(tuple(reports), admitted, preempted, s.pending(), s.final_admitted(), s.usage_rows(),
                          converged=livelock is None and stopped != "limit", livelock=livelock, last_change=last,
                          fair_sharing=options.fair_sharing, stopped=stopped)
