"""The pending workloads of each ClusterQueue, as Kueue's queue manager keeps them
(``pkg/cache/queue/cluster_queue.go``): the active heap in queue order, the inadmissible set
(parked heads, back to the heap on ``QueueInadmissibleWorkloads``), the namespace-mismatch
parking no requeue undoes, and the sticky head of a BestEffortFIFO queue whose preemptions are
under way.  Each queue also keeps the fingerprint of its contents (``Marks``), which the
fixpoint observer compares between cycles."""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Hashable
from typing import NamedTuple

# Kueue's queue manager batches "requeue inadmissible workloads" requests for one second; adding
# the ClusterQueues when Kueue starts queues one for every ClusterQueue and cohort tree, and it
# fires after the first scheduling cycle.  So every head parked in cycle 1 is retried in cycle 2
# (observed on every kueue-fix-schedule case whose first cycle parks heads).
STARTUP_REQUEUE_AFTER_CYCLE = 1

FINGERPRINT_MOD = 1 << 128
PARKED = 0x9E3779B97F4A7C15F39CC0605CEDC835  # a large odd multiplier: a parked workload's weight


class Marks:
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


class UsageOrder(NamedTuple):
    """Admission fair sharing's order of one ClusterQueue's heap: the LocalQueue of a workload,
    a LocalQueue's usage now, and how many LocalQueues feed the ClusterQueue."""

    local_queue: Callable[[str], Hashable]
    usage: Callable[[Hashable], float]
    local_queues: int


class Queue:
    """One ClusterQueue's pending workloads: the active heap (sorted list) and the inadmissible set,
    with the fingerprint of both (see ``Marks``; the heap is always sorted, so its contents fix
    its order): the sums of the marks of the active and of the parked workloads, a parked
    workload counting ``PARKED`` times its mark, so that requeueing every parked workload moves
    one sum into the other."""

    __slots__ = ("name", "active", "inadmissible", "sticky", "strict", "unmatched", "active_sum", "parked_sum",
                 "marks", "failed_classes", "afs_usage")

    def __init__(self, name: str, strict: bool, marks: Marks):
        self.name = name
        self.active: list[tuple] = []  # (order key, workload key)
        self.inadmissible: dict[str, tuple] = {}
        self.sticky: str | None = None
        self.strict = strict
        self.unmatched: set[str] = set()  # parked for a namespace mismatch: no requeue brings them back
        self.active_sum = 0
        self.parked_sum = 0
        self.marks = marks
        self.failed_classes: set[int] = set()  # equivalence.py: Kueue's hashToBulkMoveReason
        # admission fair sharing (kueue/afs.py): the LocalQueues' usage orders the heap before
        # everything else, sticky head included; None in other ClusterQueues
        self.afs_usage: UsageOrder | None = None

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
        if self.afs_usage is not None:
            return self._pop_by_usage()
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

    def _pop_by_usage(self) -> tuple:
        """``queueOrderingFunc`` with admission fair sharing: the LocalQueue's usage now, then the
        sticky head, then the order key (Kueue rebuilds the heap when usage changes: the head is
        the least of the keys as they are at the pop).  The heap is in order-key order, so within
        one LocalQueue only its first workload (or the sticky one) can win: the scan stops once
        every LocalQueue and the sticky head were met."""
        order, sticky, active = self.afs_usage, self.sticky, self.active
        usage_of: dict = {}
        best, best_i = None, 0
        sticky_met = sticky is None
        for i, okey in enumerate(active):
            key = okey[-1]
            is_sticky = key == sticky
            lq = order.local_queue(key)
            u = usage_of.get(lq)
            if u is None:
                u = usage_of[lq] = order.usage(lq)
            elif not is_sticky:
                continue  # behind its LocalQueue's first workload
            rank = (u, not is_sticky, okey)
            if best is None or rank < best:
                best, best_i = rank, i
            sticky_met = sticky_met or is_sticky
            if sticky_met and len(usage_of) >= order.local_queues:
                break
        okey = active.pop(best_i)
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
        self.failed_classes.clear()  # equivalence.py: a retry re-evaluates every class
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

    def holds(self, key: str) -> bool:
        """Is ``key`` queued or parked here?"""
        return key in self.inadmissible or key in {k[-1] for k in self.active}

    def forget_gone_sticky(self) -> None:
        """Drop the sticky head once it is neither queued nor parked (admitted, or gone)."""
        if self.sticky is not None and not self.holds(self.sticky):
            self.sticky = None
