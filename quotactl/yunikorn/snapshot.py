"""The preemptor's per-queue arithmetic (``QueuePreemptionSnapshot``, preemption.go).

A snapshot is one queue's guaranteed / allocated / preempting resources with a link to its
parent's snapshot and to the ask queue's snapshot.  Resources are ``dict[str, int]`` or ``None``
(nil) exactly as in ``quotactl.model.yunikorn_resources``; nil and empty are kept apart because
YuniKorn's answers depend on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.model.yunikorn_resources import Resource, add, component_wise_min, sub, sub_only_existing


@dataclass(eq=False)
class QueueSnapshot:
    path: str
    guaranteed: Resource | None = None
    allocated: Resource | None = None
    preempting: Resource | None = None
    parent: QueueSnapshot | None = None
    ask_queue: QueueSnapshot | None = None  # the root snapshot never has one (created before it)
    leaf: bool = True
    max: Resource | None = None
    potential_victims: list = field(default_factory=list)  # the leaf's candidate allocations

    # ---------------------------------------------------------------------------------------
    def add_allocation(self, res: Resource | None) -> None:
        """``AddAllocation``: the queue and every ancestor grow by ``res``."""
        snap: QueueSnapshot | None = self
        while snap is not None:
            snap.allocated = add(snap.allocated, res)
            snap = snap.parent

    def remove_allocation(self, res: Resource | None) -> None:
        """``RemoveAllocation``: the queue and every ancestor shrink by ``res`` (types kept at 0)."""
        snap: QueueSnapshot | None = self
        while snap is not None:
            snap.allocated = sub(snap.allocated, res)
            snap = snap.parent

    # ---------------------------------------------------------------------------------------
    def used(self) -> Resource:
        """``allocated - preempting`` over the types of ``allocated`` only."""
        return sub_only_existing(self.allocated, self.preempting)

    def preemptable(self) -> Resource | None:
        """``GetPreemptableResource``: what this queue holds above its guarantee, per type.

        nil without usage; otherwise ``used - guaranteed`` over the used types (a type without a
        guarantee counts fully), keeping only positive values, each capped by the parent's
        preemptable value where the parent has that type.
        """
        if not self.allocated:
            return None
        used = self.used()
        diff = sub_only_existing(used, self.guaranteed)
        positive = {k: v for k, v in diff.items() if v > 0}
        if not positive:
            return {}
        parent = self.parent.preemptable() if self.parent is not None else None
        if parent:
            for k in positive:
                if k in parent:
                    positive[k] = min(positive[k], parent[k])
        return positive

    def own_remaining(self) -> Resource:
        """``guaranteed - used`` over the guaranteed types only (negative = over guarantee)."""
        used = self.used()
        return {k: v - used.get(k, 0) for k, v in (self.guaranteed or {}).items()}

    def remaining_guaranteed(self) -> Resource | None:
        """``GetRemainingGuaranteedResource``: how far below its guarantee the queue is.

        nil ("no guarantee") when neither this queue nor an ancestor has one.  The ask queue keeps
        its own values and takes the parent's only for types it lacks; an ancestor of an ask queue
        that has its own guarantee does not cap it (nil); otherwise the component-wise minimum
        with the parent's remaining.  The ancestor test is a plain string prefix on the path, as
        in YuniKorn (``root.parent`` is a "prefix" of ``root.parent1.child3``).
        """
        parent = self.parent.remaining_guaranteed() if self.parent is not None else None
        if not parent and not self.guaranteed:
            return None
        own = self.own_remaining()
        ask = self.ask_queue
        if own and ask is not None and ask.path == self.path:
            merged = dict(parent or {})
            merged.update(own)
            return merged
        if own and ask is not None and ask.path.startswith(self.path) and ask.own_remaining():
            return None
        if parent is None:
            return own
        return component_wise_min(own, parent)


def is_ask_queue_under_guaranteed(ask: Resource | None, remaining: Resource | None) -> bool:
    """``isAskQueueUnderGuaranteed``: no type of the ask is negative in the queue's remaining."""
    rem = remaining or {}
    return not any(rem.get(k, 0) < 0 for k in (ask or {}) if k in rem)


def is_victim_queue_over_guaranteed(ask: Resource | None, remaining: Resource | None) -> bool:
    """``isVictimQueueOverGuaranteed``: some type of the ask is negative in the victim's remaining."""
    rem = remaining or {}
    return any(rem[k] < 0 for k in (ask or {}) if k in rem)


def duplicate_snapshots(snaps: dict[str, QueueSnapshot]) -> dict[str, QueueSnapshot]:
    """``duplicateQueueSnapshots``: deep copies with the parent and ask-queue links remapped."""
    out: dict[str, QueueSnapshot] = {}
    for path, s in snaps.items():
        out[path] = QueueSnapshot(path, s.guaranteed, dict(s.allocated) if s.allocated is not None else None,
                                  dict(s.preempting) if s.preempting is not None else None, leaf=s.leaf,
                                  max=s.max, potential_victims=list(s.potential_victims))

    def copy_of(snap: QueueSnapshot | None) -> QueueSnapshot | None:
        if snap is None:
            return None
        found = out.get(snap.path)
        if found is None:  # a link outside the map (never in practice): copy it too
            found = out[snap.path] = QueueSnapshot(snap.path, snap.guaranteed, dict(snap.allocated or {}),
                                                   dict(snap.preempting or {}), copy_of(snap.parent),
                                                   leaf=snap.leaf, max=snap.max)
        return found

    for path, s in snaps.items():
        out[path].parent = copy_of(s.parent)
        out[path].ask_queue = copy_of(s.ask_queue)
    return out


def build_snapshots(queues: list[dict], ask_queue: str | None = None) -> dict[str, QueueSnapshot]:
    """Snapshots for ``[{path, guaranteed, allocated, preempting}]`` (parents listed first), linked
    by path; every snapshot except root references the ask queue's, as in
    ``FindEligiblePreemptionVictims``."""
    out: dict[str, QueueSnapshot] = {}
    for q in queues:
        path = q["path"]
        parent = out.get(path.rpartition(".")[0]) if "." in path else None
        snap = QueueSnapshot(path, q.get("guaranteed"), q.get("allocated"), q.get("preempting"), parent)
        if parent is not None:
            parent.leaf = False
        out[path] = snap
    if ask_queue is not None and ask_queue in out:
        target = out[ask_queue]
        for snap in out.values():
            if snap.parent is not None:
                snap.ask_queue = target
    return out


__all__ = [
    "QueueSnapshot", "build_snapshots", "duplicate_snapshots", "is_ask_queue_under_guaranteed", "is_victim_queue_over_guaranteed",
]
