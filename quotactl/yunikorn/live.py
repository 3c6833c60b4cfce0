"""The live numbers ``quotactl queues`` adds when the input also holds Nodes and Pods: usage,
pending asks, each queue's current and exposed priority and its place in the scheduling order
(yunikorn-core queue.go ``recalculatePriority``, sorters.go)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from quotactl.model.yunikorn_resources import Resource
from quotactl.yunikorn.cluster import MIN_PRIORITY, Cluster, queue_and_ancestors
from quotactl.yunikorn.priority import app_priority, queue_priorities, sorted_applications, sorted_children


@dataclass(frozen=True)
class LiveApp:
    id: str
    priority: int | None  # highest pending ask priority (None: nothing pending)
    running: int
    pending: int


@dataclass(frozen=True)
class LiveQueue:
    path: str
    dynamic: bool
    allocated: Resource
    pending: Resource
    running_pods: int
    pending_pods: int
    current_priority: int | None  # None: nothing pending below (MinPriority)
    exposed_priority: int | None
    rank: int | None  # 1-based place among the parent's children with pending asks
    over_guarantee: bool
    apps: tuple[LiveApp, ...]  # leaf: applications in scheduling order (pending first), then the rest


@dataclass(frozen=True)
class LiveState:
    partition: str
    queues: dict[str, LiveQueue]
    nodes: int
    pods: int
    notes: tuple[str, ...] = ()

    def get(self, path: str) -> LiveQueue | None:
        return self.queues.get(path.lower())


def _prio(value: int) -> int | None:
    return None if value == MIN_PRIORITY else value


def live_state(cluster: Cluster) -> LiveState:
    prios = queue_priorities(cluster)
    ranks: dict[str, int] = {}
    for q in cluster.queues.values():
        if not q.leaf:
            for i, c in enumerate(sorted_children(cluster, q, prios), 1):
                ranks[c] = i
    counts = _task_counts(cluster)
    apps_by_queue: dict[str, list[str]] = {}
    for a in cluster.applications.values():
        apps_by_queue.setdefault(a.queue, []).append(a.id)
    out: dict[str, LiveQueue] = {}
    for path, q in cluster.queues.items():
        allocated = cluster.allocated(path)
        apps: tuple[LiveApp, ...] = ()
        if q.leaf:
            ordered = sorted_applications(cluster, q)
            listed = set(ordered)
            rest = sorted(a for a in apps_by_queue.get(path, ()) if a not in listed)
            apps = tuple(
                LiveApp(a, _prio(app_priority(cluster, a)), counts.get((path, a, True), 0), counts.get((path, a, False), 0))
                for a in ordered + rest)
        over = bool(q.guaranteed) and any(allocated.get(k, 0) > v for k, v in (q.guaranteed or {}).items())
        out[path] = LiveQueue(path, q.dynamic, allocated, cluster.pending_resource(path),
                              counts.get((path, None, True), 0), counts.get((path, None, False), 0),
                              _prio(prios[path].current), _prio(prios[path].exposed), ranks.get(path), over, apps)
    return LiveState(cluster.partition, out, len(cluster.nodes), len(cluster.tasks), cluster.notes)


def _task_counts(cluster: Cluster) -> Counter:
    """(queue path, application or None for all, running?) -> tasks in the queue's subtree: one
    pass over the tasks instead of one per queue."""
    counts: Counter = Counter()
    for t in cluster.tasks:
        if t.queue is None:
            continue
        for path in queue_and_ancestors(t.queue):
            counts[(path, None, t.running)] += 1
            counts[(path, t.application, t.running)] += 1
    return counts
