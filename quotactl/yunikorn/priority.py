"""Application and queue priorities, and the order YuniKorn tries queues and applications in
(yunikorn-core queue.go ``recalculatePriority`` / ``priorityValueByPolicy``, application.go
``updateAskMaxPriority``, sorters.go).

* application priority = the highest priority of its *pending* asks (``MinPriority`` without any);
* leaf ``current`` = max over its applications; parent ``current`` = max over its children's
  exposed priorities (``MinPriority`` without any);
* exposed = ``MinPriority`` when nothing is pending, the offset for a ``fence`` queue, otherwise
  ``current + offset`` clamped to int32.
"""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.model.yunikorn_resources import Resource, add
from quotactl.yunikorn.cluster import MIN_PRIORITY, Cluster, QueueInfo, clamp_priority


def priority_value_by_policy(policy: str, offset: int, current: int) -> int:
    """``priorityValueByPolicy``: the priority a queue shows its parent."""
    if current == MIN_PRIORITY:
        return MIN_PRIORITY
    if policy == "fence":
        return offset
    return clamp_priority(current + offset)


def app_priority(cluster: Cluster, app_id: str) -> int:
    """``askMaxPriority``: the highest pending ask priority of the application."""
    return cluster.ask_priorities.get(app_id, MIN_PRIORITY)


@dataclass(frozen=True)
class QueuePriority:
    path: str
    current: int  # before the queue's own policy / offset
    exposed: int  # what the parent sees
    policy: str
    offset: int

    @property
    def pending(self) -> bool:
        return self.current != MIN_PRIORITY


def queue_priorities(cluster: Cluster) -> dict[str, QueuePriority]:
    out: dict[str, QueuePriority] = {}
    app_prio: dict[str, int] = {}
    for t in cluster.tasks:
        if not t.running and t.queue is not None:
            app_prio[t.application] = max(app_prio.get(t.application, MIN_PRIORITY), t.priority)

    by_queue: dict[str | None, list[int]] = {}
    for a, p in app_prio.items():
        by_queue.setdefault(cluster.applications[a].queue, []).append(p)

    def walk(q: QueueInfo) -> int:
        if q.leaf:
            current = max(by_queue.get(q.path, ()), default=MIN_PRIORITY)
        else:
            current = max([walk(cluster.queues[c]) for c in q.children], default=MIN_PRIORITY)
        exposed = priority_value_by_policy(q.priority_policy, q.priority_offset, current)
        out[q.path] = QueuePriority(q.path, current, exposed, q.priority_policy, q.priority_offset)
        return exposed

    walk(cluster.queues["root"])
    return out


# ------------------------------------------------------------------------------- sorting ------

def _usage_share(used: Resource, base: Resource | None) -> float:
    """The largest used / base ratio over the types of ``base`` (0 without a base)."""
    if not base:
        return 0.0
    share = 0.0
    for k, v in base.items():
        if v > 0:
            share = max(share, used.get(k, 0) / v)
    return share


def fair_share(cluster: Cluster, q: QueueInfo) -> float:
    """The "fair" queue sort key: usage over guaranteed, or over the max without a guarantee."""
    used = cluster.allocated(q.path)
    return _usage_share(used, q.guaranteed) if q.guaranteed else _usage_share(used, q.max)


def sorted_children(cluster: Cluster, parent: QueueInfo, prios: dict[str, QueuePriority]) -> list[str]:
    """The children of ``parent`` that have something pending, in the order YuniKorn tries them:
    "fair" (least used first, then larger pending first), with the exposed priority first when
    the parent's ``application.sort.priority`` is enabled, as a tie-breaker otherwise."""
    kids = [cluster.queues[c] for c in parent.children if prios[c].pending]

    def pending_size(q: QueueInfo) -> int:
        return sum(max(0, v) for v in cluster.pending_resource(q.path).values())

    def key(q: QueueInfo):
        share, prio = fair_share(cluster, q), -prios[q.path].exposed
        return (prio, share, -pending_size(q)) if parent.sort_priority else (share, prio, -pending_size(q))

    return [q.path for q in sorted(kids, key=key)]


def sorted_applications(cluster: Cluster, leaf: QueueInfo) -> list[str]:
    """Applications of a leaf with pending asks, in YuniKorn's order: ``fifo`` = submission time,
    ``fair`` = usage; priority first when ``application.sort.priority`` is enabled."""
    apps = [a for a in cluster.applications.values() if a.queue == leaf.path and app_priority(cluster, a.id) != MIN_PRIORITY]

    def usage(app_id: str) -> float:
        used: Resource = {}
        for t in cluster.tasks:
            if t.application == app_id and t.running:
                used = add(used, t.resource)
        base = leaf.guaranteed or leaf.max
        return _usage_share(used, base) if base else float(sum(used.values()))

    def secondary(a) -> float:
        return usage(a.id) if leaf.sort_policy == "fair" else a.submitted

    def key(a):
        prio = -app_priority(cluster, a.id)
        return (prio, secondary(a), a.id) if leaf.sort_priority else (secondary(a), prio, a.id)

    return [a.id for a in sorted(apps, key=key)]


def priority_path(cluster: Cluster, leaf: str, prios: dict[str, QueuePriority]) -> list[QueuePriority]:
    """The priorities from the leaf up to root."""
    return [prios[q.path] for q in cluster.ancestors(leaf)]
