"""The live numbers ``quotactl queues`` adds when the input also holds Nodes and Pods: usage,
pending asks, each queue's current and exposed priority and its place in the scheduling order
(yunikorn-core queue.go ``recalculatePriority``, sorters.go)."""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.model.yunikorn_resources import Resource
from quotactl.yunikorn.cluster import MIN_PRIORITY, Cluster
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
    out: dict[str, LiveQueue] = {}
    for path, q in cluster.queues.items():
        tasks = [t for t in cluster.tasks if cluster.in_subtree(path, t.queue)]
        allocated = cluster.allocated(path)
        apps: tuple[LiveApp, ...] = ()
        if q.leaf:
            ordered = sorted_applications(cluster, q)
            rest = sorted(a.id for a in cluster.applications.values() if a.queue == path and a.id not in ordered)
            apps = tuple(
                LiveApp(a, _prio(app_priority(cluster, a)),
                        sum(1 for t in tasks if t.application == a and t.running),
                        sum(1 for t in tasks if t.application == a and not t.running))
                for a in ordered + rest)
        over = bool(q.guaranteed) and any(allocated.get(k, 0) > v for k, v in (q.guaranteed or {}).items())
        out[path] = LiveQueue(path, q.dynamic, allocated, cluster.pending_resource(path),
                              sum(1 for t in tasks if t.running), sum(1 for t in tasks if not t.running),
                              _prio(prios[path].current), _prio(prios[path].exposed), ranks.get(path), over, apps)
    return LiveState(cluster.partition, out, len(cluster.nodes), len(cluster.tasks), cluster.notes)
