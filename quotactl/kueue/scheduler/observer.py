"""Fixpoint and livelock detection: an observer fed the report of each cycle, which asks the
scheduler only what ``Trees`` offers (no scheduler internals), and tells it which cohort trees
are settled."""

from __future__ import annotations

import math
from typing import Protocol

from quotactl.kueue.scheduler.queues import STARTUP_REQUEUE_AFTER_CYCLE
from quotactl.kueue.scheduler.results import CycleReport, Livelock, TreeLivelock


class Trees(Protocol):
    """What the observer reads of the scheduler, and the one change it makes (``settle``)."""

    def tree_of(self, cluster_queue: str) -> str: ...

    def tree_cluster_queues(self, tree: str) -> list[str]: ...

    def live_trees(self) -> list[str]: ...

    def tree_has_active_heads(self, tree: str) -> bool: ...

    def tree_state(self, tree: str) -> tuple: ...

    def settle(self, tree: str) -> None: ...


class TreeWatch:
    """Fixpoint and livelock detection, one cohort tree at a time.  A tree whose end-of-cycle
    state repeats never does anything new (its future depends only on that state): if some cycle
    in between admitted or preempted there, Kueue flops on it forever (a livelock), otherwise its
    remaining heads are retaken without effect.  Either way the tree is settled and no longer
    simulated, so one flopping tree neither hides the others' fixpoints nor keeps a large
    cluster cycling until every tree happens to repeat at once.  States are recorded from the
    end of the start-up requeue's cycle on: the cycles before it do not repeat."""

    def __init__(self, trees: Trees):
        self.trees = trees
        self.seen: dict[str, dict[tuple, int]] = {}  # tree -> end-of-cycle state -> its cycle
        self.changes: dict[str, list[tuple[int, CycleReport]]] = {}
        self.loops: list[TreeLivelock] = []

    def reset(self, tree: str) -> None:
        """Forget ``tree``'s history: something outside the cycles changed it (``simulate``)."""
        self.seen.pop(tree, None)
        self.changes.pop(tree, None)

    def after_cycle(self, rep: CycleReport) -> None:
        trees, n = self.trees, rep.number
        touched = {trees.tree_of(a.cluster_queue) for a in rep.admitted}
        touched |= {trees.tree_of(p.cluster_queue) for p in rep.preempted}
        for t in touched:
            self.changes.setdefault(t, []).append((n, rep))
        if n < STARTUP_REQUEUE_AFTER_CYCLE:
            return
        for tree in list(trees.live_trees()):
            if not trees.tree_has_active_heads(tree):
                trees.settle(tree)
                continue
            state = trees.tree_state(tree)
            seen = self.seen.setdefault(tree, {})
            first = seen.get(state)
            if first is None:
                seen[state] = n
                continue
            trees.settle(tree)
            window = [r for c, r in self.changes.get(tree, ()) if c > first]
            if window:
                self.loops.append(self._loop(tree, first, n, window))

    def _loop(self, tree: str, first: int, n: int, window: list[CycleReport]) -> TreeLivelock:
        cqs = set(self.trees.tree_cluster_queues(tree))
        pre = [p for r in window for p in r.preempted if p.cluster_queue in cqs]
        adm = [a for r in window for a in r.admitted if a.cluster_queue in cqs]
        flop = sorted({p.workload for p in pre} | {a.workload for a in adm})
        why = sorted({f"{p.workload} preempted by {p.by} ({p.reason}) in cycle {p.cycle}" for p in pre}
                     | {_kept_flavors_note(a) for a in adm if a.kept_flavors})
        return TreeLivelock(tree.lstrip("\0"), tuple(flop), n - first, first, tuple(why))

    def livelock(self) -> Livelock | None:
        if not self.loops:
            return None
        loops = sorted(self.loops, key=lambda t: t.tree)
        return Livelock(tuple(sorted({w for t in loops for w in t.workloads})),
                        math.lcm(*(t.period for t in loops)), min(t.first_cycle for t in loops),
                        tuple(sorted({w for t in loops for w in t.why})), tuple(loops))


def _kept_flavors_note(a) -> str:
    """Why a re-admission took no flavor scan: it says which assumption the loop rests on."""
    return (f"{a.workload} re-admitted in cycle {a.cycle} on the flavors of its input admission, as not "
            "borrowing: its status.admission outlived the eviction, as Kueue's eviction patch leaves it "
            "unless Kueue's field manager (kueue-admission) owns it, which the input's managedFields do not show")
