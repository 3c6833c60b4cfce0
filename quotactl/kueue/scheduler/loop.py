"""Kueue's scheduling cycle, run cycle after cycle (``pkg/scheduler/scheduler.go``).

One cycle (``schedule``): pop one head per active ClusterQueue (``queues``), nominate every
head against the cycle's snapshot (``nominator``: the pre-checks, then flavor assignment with
its preemption oracle and the victims of Preempt-mode assignments), order the entries
(classical sort or the fair-sharing tournament of ``fairshare.FairSharingIterator``), then
process them one by one against the shared snapshot: admit, issue preemptions, reserve
capacity for a Preempt head without candidates, skip an entry whose victims overlap an earlier
one (or recompute it: HEAD gate ``RecomputeAssignmentUponPreemptionTargetsOverlap``) or that no
longer fits; requeue the heads (``requeueAndUpdate``).  Between cycles the workload
controller's handlers run: victims release their quota and go back to their queue by their
queue-order timestamp (``queue_order``: the conditions the cycle wrote), still carrying the
flavors of an admission they had in the input (``workload.nomination_requests``); the
inadmissible workloads of their cohort tree are requeued.

All rules of assignment and victim search live in ``assign`` and ``preemption``; this module
only sequences them. Mixed in: ``refill`` (FairSharingRefill), ``pods_ready`` (blockAdmission's
wait) and ``afs_order`` (admission fair sharing's queue order and Admitted transition).  The engine is pure: no printing, no IO; results are frozen dataclasses.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import NamedTuple

import quotactl.kueue.scheduler.equivalence as equivalence
from quotactl.kueue.assign import Mode
from quotactl.kueue.fairshare import FairSharingIterator
from quotactl.kueue.nomination import queue_blocker
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.priority import parse_time
from quotactl.kueue.queue_order import (
    Preemptors,
    classical_order_key,
    prioritizes_preemptors,
    reserves_capacity,
)
from quotactl.kueue.quota import ClusterQueueNode, UsageOverlay, borrowing, cq_available
from quotactl.kueue.quota.snapshot import quotas_from_status
from quotactl.kueue.reasons import (
    MSG_DEFERRED,
    MSG_NO_LONGER_FITS,
    MSG_OVERLAP,
    MSG_WAITING_FOR_PODS_READY,
    PENDING_EVALUATION,
    SUSPENDED,
    WAITING_FOR_PODS_READY,
    WAITING_FOR_PREEMPTED_WORKLOADS,
    WAITING_FOR_QUOTA,
    cluster_queue_inactive,
    pending_preemption,
)
from quotactl.kueue.scheduler.afs_order import AfsOrder
from quotactl.kueue.scheduler.cache import AdmittedInRun, ClusterState
from quotactl.kueue.scheduler.entry import CycleWork, Entry, Head
from quotactl.kueue.scheduler.nominator import Nominator
from quotactl.kueue.scheduler.observer import TreeWatch
from quotactl.kueue.scheduler.pods_ready import PodsReadyWait
from quotactl.kueue.scheduler.queues import (
    FINGERPRINT_MOD,
    STARTUP_REQUEUE_AFTER_CYCLE,
    Marks,
    Queue,
)
from quotactl.kueue.scheduler.refill import RefillPass, refill_budget
from quotactl.kueue.scheduler.results import (
    ADMITTED,
    DEFERRED,
    NOT_NOMINATED,
    PENDING,
    PREEMPTING,
    SKIPPED,
    WAITING,
    Admission,
    CycleReport,
    HeadOutcome,
    PendingWorkload,
    Preemption,
    ScheduleResult,
)
from quotactl.kueue.scheduler.scan import FlavorScans
from quotactl.kueue.tas.state import placed_usage
from quotactl.kueue.workload import AdmittedWorkload
from quotactl.model.gc_pause import fewer_gc_pauses
from quotactl.model.kueue import KueueCluster, Workload

DEFAULT_START = datetime(2026, 3, 2, 9, 0, 0, tzinfo=timezone.utc)




def newest_time(cluster: KueueCluster) -> datetime | None:
    """The newest creationTimestamp or condition lastTransitionTime of any Workload."""
    best = None
    for wl in cluster.workloads.values():
        for raw in [wl.creation_timestamp] + [c.last_transition_time for c in wl.conditions.values()]:
            t = parse_time(raw) if raw else None
            if t is not None and (best is None or t > best):
                best = t
    return best


class _Live(NamedTuple):
    """The ClusterQueues and cohort trees not settled yet, each sorted by name."""

    version: int  # ``Scheduler.awake_version`` when this was taken
    cluster_queues: list[str]
    trees: list[str]


class Scheduler(AfsOrder, PodsReadyWait, RefillPass):
    """The cycle machinery over one cluster model (mutable inside; results are frozen)."""

    def __init__(self, cluster: KueueCluster, options: EngineOptions, *, queue_pending: bool = True):
        """``queue_pending``: queue the input's pending workloads now, every cohort tree awake
        (``schedule``); off, the queues start empty and no tree is awake until ``arrive`` or
        ``finish`` wakes one (``simulate``, whose clock queues each workload when it arrives)."""
        self.cluster = cluster
        self.options = options
        self.marks = Marks()
        self.state = ClusterState(cluster, options, self.marks)
        self.snapshot = self.state.snapshot
        self.nominator = Nominator(cluster, self.snapshot, options)
        self.hashing = options.gates.enabled("SchedulingEquivalenceHashing")
        self.scans = FlavorScans(options, self.marks)
        # PrioritizePreemptorWorkloads: each ClusterQueue's preemptor goes first and keeps its
        # capacity (cluster_queue.go preemptorWorkload); tracked only when the gate reads it
        self.preemptor_first = prioritizes_preemptors(options.gates)
        self.preemptors = Preemptors()
        self.refill_budget = refill_budget(options)
        # the time of the conditions a cycle writes (simulate's clock; None: the cycle's own
        # clock, see _condition_clock)
        self.event_time: datetime | None = None
        self.blocked: dict[str, PendingWorkload] = {}  # never queued (queue checks failed)
        self.last: dict[str, HeadOutcome] = {}
        self.awake: set[str] = set()  # trees still simulated (not settled: see TreeWatch)
        self.awake_version = 0  # bumped by every change of ``awake`` (see _live)
        self._live_cache: _Live | None = None  # see _live
        self.cycle_no = 0
        # blockAdmission (scheduler.go waitForPodsReadyIfNeeded): the quota holders lacking
        # PodsReady=True (cache WorkloadsNotReady); the input's, then each admission's until the
        # caller (simulate's clock) says its pods are ready
        self.pods_not_ready: set[str] = set()
        self.waiting = False  # this cycle stopped to wait for them
        if options.block_admission:
            self.pods_not_ready = {key for cq in self.snapshot.cluster_queues.values() for key in cq.workloads
                                   if not cluster.workloads[key].condition_true("PodsReady")}
        latest = newest_time(cluster)
        self.start = DEFAULT_START if latest is None or latest < DEFAULT_START else \
            latest.replace(microsecond=0) + timedelta(seconds=1)
        self.tree_cqs = self.state.tree_cqs  # cohort tree -> its ClusterQueues
        self.queues: dict[str, Queue] = {
            name: Queue(name, cq.spec.queueing_strategy == "StrictFIFO", self.marks)
            for name, cq in sorted(self.snapshot.cluster_queues.items())}
        self.afs = self.snapshot.afs  # admission fair sharing (kueue/afs.py), None when no ClusterQueue uses it
        # the caller (simulate/run.py with admission checks or waitForPodsReady) reports each
        # Admitted transition through ``workload_admitted``; else a reservation is the admission
        self.admitted_by_caller = False
        if self.afs is not None:
            self._order_by_usage(self.afs)
        if not queue_pending:
            return
        self.awake.update(self.tree_cqs)
        for wl in cluster.workloads.values():  # any order: queues keep their own order
            if wl.is_queueable:
                self._enqueue(wl)

    @property
    def gap_reads(self) -> list[tuple[int, int]] | None:
        """See ``FlavorScans.gap_reads`` (simulate/split.py sets and reads it)."""
        return self.scans.gap_reads

    @gap_reads.setter
    def gap_reads(self, value: list[tuple[int, int]] | None) -> None:
        self.scans.gap_reads = value

    # -- queues --------------------------------------------------------------------------
    def _enqueue(self, wl: Workload) -> str | None:
        """Queue ``wl`` in its ClusterQueue (returned), or record why it cannot be (None)."""
        checked = queue_blocker(self.cluster, self.snapshot, wl)
        blocker = checked.blocker
        if blocker is not None and blocker.reason != PENDING_EVALUATION:
            self.blocked[wl.key] = PendingWorkload(wl.key, checked.cluster_queue, blocker.reason, blocker.message,
                                                   False)
            return None
        self.blocked.pop(wl.key, None)
        q = self.queues[checked.cluster_queue]
        # equivalence.py: a workload of a class that failed in this queue is parked at once
        if equivalence.applies(q, self.hashing) and equivalence.bypassed(q, wl, self.nominator.classes):
            q.park(self.nominator.order_key(wl))
        else:
            q.push(self.nominator.order_key(wl))
        return checked.cluster_queue

    # -- cohort trees (what the fixpoint observer reads: observer.Trees) ------------------
    def tree_of(self, cluster_queue: str) -> str:
        """The cohort tree of a ClusterQueue (its root cohort, or itself without a cohort)."""
        return self.state.tree_of(cluster_queue)

    def tree_cluster_queues(self, tree: str) -> list[str]:
        return self.tree_cqs[tree]

    def tree_state(self, tree: str) -> tuple:
        """Everything the future of one cohort tree depends on: the workloads its ClusterQueues
        hold (with flavors), their queues (active order, parked set, sticky head) and the flavor
        scan progress, and what the run changed of its order (``_order_state``).  Trees share no
        quota and are nominated and ordered independently, so each one evolves on its own.
        Each part is a fingerprint kept up to date by the changes (``Marks``), so taking the
        state costs one step per ClusterQueue, not per workload.  (Only pending workloads have
        scan records at the end of a cycle: admitted and evicted ones lose theirs.)"""
        queues = tuple(self.queues[name].state() for name in self.tree_cqs[tree])
        held = sum(self.state.held_fingerprint(name) for name in self.tree_cqs[tree]) % FINGERPRINT_MOD
        return held, queues, self.scans.fingerprint(tree) % FINGERPRINT_MOD, self._order_state(tree)

    def _order_state(self, tree: str) -> int:
        """The tree's queue-order timestamps the run changed and, when they are read, its
        preemptors (0: none, the usual case)."""
        timestamps = self.nominator.timestamps
        fp = timestamps.state(tree, self._condition_clock(self.cycle_no + 1), self.marks) if timestamps else 0
        if self.preemptor_first:
            fp += self.preemptors.state(self.tree_cqs[tree], self.marks)
        if self.afs is not None:  # the LocalQueues' usage orders the queues
            fp += self.afs.state(self.tree_cqs[tree], self.marks)
        return fp % FINGERPRINT_MOD

    def tree_has_active_heads(self, tree: str) -> bool:
        return any(self.queues[n].active for n in self.tree_cqs[tree] if self.snapshot.cluster_queues[n].active)

    def has_active_heads(self) -> bool:
        """Some awake tree has a head to take, and the scheduler is not waiting for pods."""
        if self.admission_blocked:
            return False
        return any(self.tree_has_active_heads(t) for t in self._live().trees)

    def live_trees(self) -> list[str]:
        return self._live().trees

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
        cq = self._release(key, cluster_queue)
        if cq is None:
            return None
        self.nominator.finished(key)
        tree = self.state.tree(cq)
        if requeue:
            self.requeue_tree(tree)
        return tree

    def evict(self, key: str, cluster_queue: str, reason: str, at: datetime, *, requeue: bool) -> str | None:
        """The workload controller evicts a quota holder (``reason``: AdmissionCheck for a check in
        Retry, PodsReadyTimeout; ``workload_controller.go``): it releases its quota, the parked
        workloads of its tree come back, its Evicted condition orders it (``queue_order``).
        ``requeue``: back to its queue now; else the caller queues it later (``arrive``: a backoff
        or requeueAfterSeconds).  Returns the tree, None when it holds no quota there."""
        cq = self._release(key, cluster_queue)
        if cq is None:
            return None
        self.scans.drop(key)
        wl = self.cluster.workloads[key]
        self.nominator.eviction_finished(wl)
        tree = self.state.tree(cq)
        self.nominator.evicted(wl, reason, at, tree)
        self.requeue_tree(tree)
        if requeue:
            self._enqueue(wl)
        return tree

    def _release(self, key: str, cluster_queue: str) -> ClusterQueueNode | None:
        """``key`` leaves ``cluster_queue``'s quota (None: it held none there)."""
        cq = self.snapshot.cluster_queues.get(cluster_queue)
        w = cq.workloads.get(key) if cq is not None else None
        if w is None:
            return None
        self.state.evict(w)
        if self.afs is not None:  # its usage leaves; a penalty still pending never settles
            self.afs.released(key)
            self.afs.drop_entry_penalty(key)
        self.last.pop(key, None)
        self.pods_not_ready.discard(key)
        self.scans.evicted(cluster_queue)  # it left the ClusterQueue
        return cq

    def requeue_tree(self, tree: str) -> None:
        """Every parked workload of the cohort tree back to its queue; the tree wakes."""
        for name in self.tree_cqs[tree]:
            self.queues[name].requeue_inadmissible()
        self.wake(tree)

    # -- one cycle (scheduler.go: schedule) ----------------------------------------------
    def run_cycle(self, number: int) -> CycleReport:
        """One scheduling cycle: pop one head per active ClusterQueue, nominate them, process the
        entries in Kueue's order, requeue the heads, then let the victims go."""
        self.cycle_no = number
        if self.afs is not None:
            self.afs.begin_cycle()
        live = self._live().cluster_queues
        heads = self._pop_heads(live)
        entries = [self._nominate(self.cluster.workloads[h.okey[-1]], self.snapshot.cluster_queues[h.queue.name])
                   for h in heads]
        work = CycleWork(number, self.start + timedelta(seconds=number - 1))
        processed: list[Entry] = [e for e in entries if e.outcome == NOT_NOMINATED]
        recompute = self.options.gates.enabled("RecomputeAssignmentUponPreemptionTargetsOverlap")
        nominated = [e for e in entries if e.outcome != NOT_NOMINATED]
        if self.refill_budget:
            self._run_with_refill(nominated, heads, entries, processed, work, recompute)
        else:
            for e in self._order(nominated):
                processed.append(e)
                self._process(e, work, recompute)
        work.release(self.snapshot)
        self.waiting = False
        self._requeue_heads(heads, {e.wl.key: e for e in entries})
        outcomes = self._head_outcomes(processed)
        self._release_victims(work.preempted, number)
        for name in live:
            self.queues[name].forget_gone_sticky()
        self._forget_gone_preemptors()
        return CycleReport(number, outcomes, tuple(work.admitted), tuple(work.preempted))

    def _pop_heads(self, live: list[str]) -> list[Head]:
        heads = []
        for name in live:
            if not self.snapshot.cluster_queues[name].active:
                continue
            q = self.queues[name]
            okey = q.pop()
            if okey is not None:
                heads.append(Head(q, okey))
        return heads

    def _nominate(self, wl: Workload, cq: ClusterQueueNode) -> Entry:
        st = self.nominator.static(wl, cq)
        e = Entry(wl, cq, None, (), st.priority, st.queue_order_timestamp, kept_flavors=st.preset, static=st)
        if self.preemptor_first:  # manager.go heads: IsPreemptor
            e.is_preemptor = self.preemptors.is_preemptor(cq.name, wl.key)
        failed = st.failed
        if failed is not None:
            e.outcome, e.reason, e.message = NOT_NOMINATED, failed.blocker.reason, failed.blocker.message
            e.drop_inadmissible, e.unmatched = failed.parked, failed.unmatched
            return e
        # The nomination reads only the cycle-start snapshot of the workload's cohort tree and
        # the workload's scan progress (and, with admission fair sharing, the LocalQueues' usage
        # that orders preemption candidates): it is reused while none of them changed.
        tree = self.state.tree(cq)
        made_on = (tree, self.state.version(tree), self.scans.start(wl.key, cq.name, self.cycle_no))
        if self.afs is not None:
            made_on += (self.afs.version(tree),)
        nom = self.nominator.nominate(wl, cq, st, made_on)
        e.assignment, e.targets = nom.assignment, nom.targets
        return e

    def _order(self, entries: list[Entry]):
        if self.options.fair_sharing:
            it = FairSharingIterator(self.snapshot, entries)
            while it.has_next():
                yield it.pop()
            return
        yield from sorted(entries, key=classical_order_key(self.options.gates))  # makeClassicalIterator

    # -- processing one entry (scheduler.go: schedule's loop over the ordered entries) ----
    def _process(self, e: Entry, work: CycleWork, recompute: bool) -> None:
        """Kueue's processing of one nominated entry against the cycle's shared snapshot."""
        if self.waiting:  # the scheduler is waiting for pods: nothing else happens meanwhile
            self._wait(e)
            return
        deferred = False
        if recompute and e.targets and any(t.key in work.claimed for t in e.targets):
            self._recompute(e, work.claimed_in_tree.get(self.state.tree(e.cq), []))
            if e.assignment.representative_mode == Mode.Fit:
                deferred = True
        elif not self._tas_fits(e, work) and self.options.gates.enabled("TASRecomputeAssignmentWithinSchedulingCycle"):
            # placed on the cycle's first snapshot, its domains were taken by an earlier entry
            init = self.nominator.renominate(e.static, e.cq, self.snapshot)
            e.assignment, e.targets = init.assignment, tuple(init.targets)
        a = e.assignment
        mode = a.representative_mode
        usage = e.usage
        if e.refilled and (mode == Mode.Preempt or deferred):
            # refill.go: a refilled workload acts on its assignment only when it is Fit; Preempt
            # and DeferredFit are requeued for the next cycle (its snapshot's membership is stale)
            e.outcome, e.reason, e.message, e.immediate = PENDING, WAITING_FOR_QUOTA, a.message(), True
            return
        if mode == Mode.NoFit:
            e.outcome, e.reason, e.message = PENDING, a.no_fit_reason or WAITING_FOR_QUOTA, a.message()
            return
        if mode == Mode.Preempt and not e.targets:
            e.outcome, e.reason, e.message = PENDING, WAITING_FOR_QUOTA, a.message()
            if reserves_capacity(e.cq.preemption.reclaim_within_cohort, e.is_preemptor, self.options.gates):
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
        tree = self.state.tree(e.cq)
        if not self._fits(e.cq, usage, work.claimed_in_tree.get(tree, []) + [t.workload for t in e.targets]) or (
                not self._tas_fits(e, work)):
            e.outcome, e.reason, e.message, e.immediate = SKIPPED, WAITING_FOR_QUOTA, MSG_NO_LONGER_FITS, True
            return
        for t in e.targets:
            work.claim(t.workload, self.tree_of(t.cluster_queue))
        if mode == Mode.Preempt:
            self._issue_preemptions(e, usage, work)
            return
        if self.admission_blocked:  # a Fit entry (no targets): it waits, and so does everything else
            self.waiting = True
            self._wait(e)
            return
        self._admit_entry(e, usage, work)

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

    def _tas_fits(self, e: Entry, work: CycleWork) -> bool:
        """``ClusterQueueSnapshot.Fits``' TAS half: the entry's placements still fit on their nodes
        once the victims claimed so far (and its own) are gone."""
        a = e.assignment
        tas = self.snapshot.tas
        if tas is None or a is None or not a.topology:
            return True
        usage = self._placed(e)
        if not usage:
            return True
        removed = [w for w in work.claimed.values() if w.tas_usage]
        if e.targets:
            seen = {w.key for w in removed}
            removed += [w for w in {t.workload.key: t.workload for t in e.targets}.values()
                        if w.tas_usage and w.key not in seen]
        for w in removed:
            tas.apply(w.tas_usage, -1)
        try:
            return tas.fits(usage)
        finally:
            for w in removed:
                tas.apply(w.tas_usage, 1)

    @staticmethod
    def _placed(e: Entry) -> tuple:
        """The TAS usage of ``e``'s placements, computed once per assignment (an assignment is
        replaced, never changed in place)."""
        a = e.assignment
        if e.placed_for is not a:
            e.placed_for, e.placed = a, placed_usage(e.wl.pod_sets, a.topology) if a.topology else ()
        return e.placed

    def _reserve(self, e: Entry) -> dict:
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

    def _recompute(self, e: Entry, claimed: list[AdmittedWorkload]) -> None:
        """HEAD: the victims overlap earlier claims; recompute as if those were already gone.
        ``claimed``: the claims in ``e``'s cohort tree (the nomination reads nothing else)."""
        snap = self.snapshot
        gone = [w for w in claimed if w.key in snap.cluster_queues[w.cluster_queue].workloads]
        for w in gone:
            snap.remove_workload(w)
        try:
            init = self.nominator.renominate(e.static, e.cq, snap)
        finally:
            for w in gone:
                snap.add_workload(w)
        e.assignment, e.targets = init.assignment, tuple(init.targets)

    def _stick(self, e: Entry) -> None:
        """Keep ``e`` at the head of a BestEffortFIFO queue while its preemptions complete."""
        q = self.queues[e.cq.name]
        if self.preemptor_first:  # the preemptor, in either queueing strategy
            self.preemptors.set(e.cq.name, e.wl.key)
        if not q.strict:
            q.sticky = e.wl.key

    def _issue_preemptions(self, e: Entry, usage: dict, work: CycleWork) -> None:
        work.hold(self.snapshot, e.cq, usage)
        n = len(e.targets)
        e.outcome, e.reason, e.immediate = PREEMPTING, WAITING_FOR_PREEMPTED_WORKLOADS, True
        e.message = pending_preemption(e.assignment.message(), n)
        for t in e.targets:
            work.preempted.append(Preemption(t.key, t.cluster_queue, e.wl.key, t.reason, work.number,
                                             t.workload.priority))
        self._stick(e)

    def _admit_entry(self, e: Entry, usage: dict, work: CycleWork) -> None:
        a = e.assignment
        self.state.admit(AdmittedInRun(e.wl, e.cq.name, self.cluster, self.options, a, work.now,
                                       self.nominator.priority(e.wl), self._placed(e)))
        e.outcome, e.reason, e.message = ADMITTED, None, ""
        if self.options.block_admission:  # not ready until the caller says so, this cycle's too
            self.pods_not_ready.add(e.wl.key)
        self.nominator.quota_reserved(e.wl, self.state.tree(e.cq))
        if self.afs is not None:  # updateEntryPenalty
            self.afs.quota_reserved(e.wl, e.cq.name, usage)
            if not self.admitted_by_caller:  # Admitted at its reservation (no lifecycle modelled)
                self.workload_admitted(e.wl, e.cq.name, usage)
        kept = bool(e.kept_flavors)
        # kept flavors count as non-borrowing for Kueue's ordering; report what the admission does
        borrows = a.borrows() or (kept and any(borrowing(e.cq, fr) for fr in usage))
        work.admitted.append(Admission(e.wl.key, e.cq.name, work.number, borrows,
                                       {ps.name: {r: fa.flavor for r, fa in sorted(ps.flavors.items())}
                                        for ps in a.pod_sets},
                                       {ps.name: ps.count for ps in a.pod_sets}, e.priority, kept,
                                       {ps.name: (a.topology[ps.name].assignment if ps.name in a.topology else None)
                                        for ps in a.pod_sets} if a.topology else None))

    # -- after processing (requeueAndUpdate, the workload controller's handlers) ---------
    def _requeue_heads(self, heads: list[Head], by_key: dict[str, Entry]) -> None:
        """``requeueAndUpdate``: record the flavor scan progress and put each head back (active or
        parked) unless it was admitted."""
        preserve = self.options.gates.enabled("FlavorFungibilityPreserveScanProgress")
        scans = self.scans
        for q, okey in heads:
            e = by_key[okey[-1]]
            if e.outcome == WAITING:  # untouched: it is taken again when the wait is over
                q.push(okey)
                continue
            if e.outcome in (ADMITTED, PREEMPTING, DEFERRED) or (e.outcome == SKIPPED and not preserve):
                scans.drop(e.wl.key)
            elif e.outcome != NOT_NOMINATED:
                scans.record(e.wl.key, e.cq.name, self.state.tree(e.cq), e.assignment, self.cycle_no)
            if e.outcome == ADMITTED:
                if q.sticky == e.wl.key:
                    q.sticky = None
                self.preemptors.clear(q.name, e.wl.key)  # it left the queue
                continue
            pending_flavors = e.outcome == PENDING and not q.strict and scans.pending_flavors(e.wl.key)
            if e.immediate or pending_flavors or (q.strict and not e.drop_inadmissible):
                q.push(okey)
                continue
            q.park(okey, unmatched=e.unmatched)
            if e.outcome == PENDING and equivalence.applies(q, self.hashing):  # NoFit, PreemptionNoCandidates
                equivalence.park_class(q, e.wl, self.nominator.classes)

    def _head_outcomes(self, processed: list[Entry]) -> tuple[HeadOutcome, ...]:
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
            self.state.evict(w)
            if self.afs is not None:
                self.afs.released(p.workload)
            self.last.pop(p.workload, None)
            self.pods_not_ready.discard(p.workload)
            self.scans.drop(p.workload)
            self.scans.evicted(p.cluster_queue)
            tree = self.tree_of(p.cluster_queue)
            trees.add(tree)
            # the model object keeps the input's status.admission: whether the eviction removed it
            # decides whether the victim comes back on its flavors (nomination_requests)
            victims.append(self.cluster.workloads[p.workload])
            self.nominator.eviction_finished(victims[-1])
            # its Evicted and Preempted conditions, written in this cycle
            self.nominator.preempted(victims[-1], p.reason, self._condition_clock(number), tree)
        if number == STARTUP_REQUEUE_AFTER_CYCLE:
            for q in self.queues.values():
                q.requeue_inadmissible()
        else:
            for t in sorted(trees):
                for name in self.tree_cqs[t]:
                    self.queues[name].requeue_inadmissible()
        for wl in victims:
            self._enqueue(wl)

    def _forget_gone_preemptors(self) -> None:
        """A preemptor is one until it leaves its queue (admitted, or gone)."""
        for name, key in list(self.preemptors.by_cluster_queue.items()):
            q = self.queues[name]
            if key != q.sticky and not q.holds(key):
                self.preemptors.clear(name, key)

    def _condition_clock(self, number: int) -> datetime:
        """When the conditions cycle ``number`` writes are written."""
        return self.event_time if self.event_time is not None else self.start + timedelta(seconds=number - 1)

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
                elif self.admission_blocked:  # never taken: the scheduler waits for pods
                    out.append(PendingWorkload(key, name, WAITING_FOR_PODS_READY, MSG_WAITING_FOR_PODS_READY, parked))
                else:
                    out.append(PendingWorkload(key, name, "Pending",
                                               f"waiting in ClusterQueue {name}'s queue behind other workloads", parked))
        return tuple(sorted(out, key=lambda p: p.workload))


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


def schedule(cluster: KueueCluster, options: EngineOptions, *, cycles: int | None = None,
             max_cycles: int = 10_000, on_cycle=None) -> ScheduleResult:
    """Run cycles until the fixpoint (no active head left, or a cycle changes neither workloads
    nor queues), a livelock (an earlier end-of-cycle state repeats after changes), or ``cycles``.
    ``on_cycle(scheduler, report)``: an optional observer (property tests check invariants there)."""
    with fewer_gc_pauses():
        return _schedule(cluster, options, cycles, max_cycles, on_cycle)


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
    return ScheduleResult(tuple(reports), admitted, preempted, s.pending(), s.state.final_admitted(),
                          s.state.usage_rows(), converged=livelock is None and stopped != "limit", livelock=livelock,
                          last_change=last, fair_sharing=options.fair_sharing, stopped=stopped,
                          quotas_from_status=quotas_from_status(cluster, options),
                          local_queue_usage=s.afs.usages() if s.afs is not None else ())
