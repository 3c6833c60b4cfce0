"""The working values of one scheduling cycle: a nominated head (``scheduler.go: entry``), what
processing the cycle's entries claims and holds, and a popped head with its queue."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from quotactl.kueue.assign import Assignment
from quotactl.kueue.preemption.common import Target
from quotactl.kueue.quota import ClusterQueueNode, Snapshot
from quotactl.kueue.scheduler.nominator import Static
from quotactl.kueue.scheduler.queues import Queue
from quotactl.kueue.scheduler.results import PENDING, Admission, Preemption
from quotactl.kueue.workload import AdmittedWorkload
from quotactl.model.kueue import Workload


@dataclass
class Entry:
    """A nominated head of one cycle (``scheduler.go: entry``): its outcome fields are set by processing."""

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
    static: Static | None = None  # its pre-checks and nomination inputs (Nominator.static)
    is_preemptor: bool = False  # Kueue's Head.IsPreemptor, read with PrioritizePreemptorWorkloads
    refilled: bool = False  # FairSharingRefill: popped mid-cycle after its ClusterQueue's admission
    # the TAS usage of ``placed_for``'s placements (``_tas_fits`` asks twice per assignment)
    placed_for: Assignment | None = None
    placed: tuple = ()

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


class Head(NamedTuple):
    """A queue head popped for this cycle: its queue and its order key (the workload key last)."""

    queue: Queue
    okey: tuple


@dataclass
class CycleWork:
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

