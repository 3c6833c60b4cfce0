"""The cluster as YuniKorn's core sees it: queues with their live usage, nodes, applications,
running allocations and pending asks (yunikorn-core ``objects/queue.go``, ``application.go``,
``allocation.go``).

Data only (frozen dataclasses).  ``quotactl.yunikorn.shim`` builds a ``Cluster`` from Kubernetes
``Node`` / ``Pod`` objects the way the k8s shim does; the engines (``priority``, ``scheduling``,
``preemptor``) read it and never change it.

Resources are ``dict[str, int]`` in YuniKorn's internal units (``vcore`` in millicores, bytes for
``memory``), as in ``quotactl.model.yunikorn_resources``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from quotactl.model.podspec import PodSpecInfo, Taint
from quotactl.model.yunikorn import Limit
from quotactl.model.yunikorn_resources import Resource, add, sub

MIN_PRIORITY = -(2**31)
MAX_PRIORITY = 2**31 - 1


def clamp_priority(value: int) -> int:
    """YuniKorn priorities are int32: offsets that overflow are clamped."""
    return max(MIN_PRIORITY, min(MAX_PRIORITY, value))


@dataclass(frozen=True)
class QueueInfo:
    """One queue of the partition as the core builds it (configured or created by a placement rule)."""

    path: str  # lower-cased dotted path, as YuniKorn keys queues
    name: str
    parent: str | None
    children: tuple[str, ...]
    leaf: bool
    dynamic: bool  # created by a placement rule (not in the config)
    guaranteed: Resource | None  # applied (a map without a positive value is unset)
    max: Resource | None  # the queue's own applied max (root: the cluster size)
    priority_policy: str  # default | fence
    priority_offset: int
    preemption_policy: str  # default | fence | disabled (after inheritance)
    preemption_delay: int  # nanoseconds
    sort_policy: str  # fifo | fair (leaf); parents always fair
    sort_priority: bool  # application.sort.priority enabled
    max_applications: int = 0
    submit_acl: str = ""
    admin_acl: str = ""
    limits: tuple[Limit, ...] = ()

    @property
    def is_root(self) -> bool:
        return self.parent is None


@dataclass(frozen=True)
class Node:
    """A Kubernetes node as a YuniKorn node: schedulable resource = ``status.allocatable``."""

    name: str
    capacity: Resource
    allocated: Resource  # YuniKorn allocations on the node
    occupied: Resource  # pods YuniKorn does not schedule (foreign allocations)
    schedulable: bool = True  # false when cordoned (spec.unschedulable)
    ready: bool = True
    labels: dict[str, str] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()

    @property
    def available(self) -> Resource:
        """``total - allocated - occupied``."""
        return sub(sub(self.capacity, self.allocated), self.occupied)


@dataclass(frozen=True)
class Task:
    """A YuniKorn pod: a running allocation (``node`` set) or a pending ask."""

    key: str  # namespace/name: the allocation key quotactl shows
    namespace: str
    name: str
    uid: str
    application: str
    queue: str | None  # leaf path; None when the placement rules reject the application
    resource: Resource
    priority: int
    create_time: float  # epoch seconds (metadata.creationTimestamp)
    node: str | None = None  # running on this node
    allow_preempt_self: bool = True  # may be a victim
    allow_preempt_other: bool = True  # may preempt others (preemptionPolicy != Never)
    originator: bool = False
    required_node: str | None = None  # DaemonSet pods pinned to a node
    placeholder: bool = False
    user: str = "nobody"
    groups: tuple[str, ...] = ()
    spec: PodSpecInfo = PodSpecInfo()
    sources: tuple[str, ...] = ()  # where the priority / flags came from (for reports)

    @property
    def running(self) -> bool:
        return self.node is not None


@dataclass(frozen=True)
class Application:
    id: str
    queue: str | None
    submitted: float  # the first pod's creation time
    user: str = "nobody"
    groups: tuple[str, ...] = ()
    placement: str = ""  # how the queue was chosen


@dataclass(frozen=True)
class ForeignPod:
    key: str
    node: str
    resource: Resource
    static: bool = False


@dataclass(frozen=True)
class Cluster:
    """One partition with its queues, nodes and tasks."""

    partition: str
    queues: dict[str, QueueInfo]
    nodes: tuple[Node, ...]
    tasks: tuple[Task, ...]
    applications: dict[str, Application]
    foreign: tuple[ForeignPod, ...] = ()
    has_nodes: bool = False
    pods_resource: bool = False  # every pod carries the implicit ``pods: 1``
    preemption_enabled: bool = True
    node_sort_policy: str = "fair"
    resource_weights: dict[str, float] = field(default_factory=dict)
    rejected: tuple[tuple[str, str], ...] = ()  # (pod key, why YuniKorn rejects its application)
    ignored: tuple[tuple[str, str], ...] = ()  # (pod key, why YuniKorn never sees it as an ask)
    notes: tuple[str, ...] = ()

    # ----------------------------------------------------------------------------- lookups ----
    def queue(self, path: str) -> QueueInfo | None:
        return self.queues.get(path)

    def node(self, name: str) -> Node | None:
        return next((n for n in self.nodes if n.name == name), None)

    def task(self, key: str) -> Task | None:
        return next((t for t in self.tasks if t.key == key), None)

    def ancestors(self, path: str) -> list[QueueInfo]:
        """The queue and its ancestors, leaf first, root last."""
        out = []
        cur = self.queues.get(path)
        while cur is not None:
            out.append(cur)
            cur = self.queues.get(cur.parent) if cur.parent else None
        return out

    @property
    def running(self) -> tuple[Task, ...]:
        return tuple(t for t in self.tasks if t.running)

    @property
    def pending(self) -> tuple[Task, ...]:
        return tuple(t for t in self.tasks if not t.running and t.queue is not None)

    def _subtree_sums(self, running: bool) -> dict[str, Resource]:
        """Per queue path, the resources of its subtree's running (or pending) tasks, summed in
        task order: one pass over the tasks, each added to its queue and every ancestor."""
        sums: dict[str, Resource] = {}
        for t in self.tasks:
            if t.running != running or t.queue is None:
                continue
            for path in queue_and_ancestors(t.queue):
                sums[path] = add(sums.get(path), t.resource)
        return sums

    @cached_property
    def _usage(self) -> dict[str, Resource]:
        return self._subtree_sums(running=True)

    @cached_property
    def _pending(self) -> dict[str, Resource]:
        return self._subtree_sums(running=False)

    @cached_property
    def _by_queue(self) -> dict[str | None, list[Task]]:
        out: dict[str | None, list[Task]] = {}
        for t in self.tasks:
            out.setdefault(t.queue, []).append(t)
        return out

    @cached_property
    def ask_priorities(self) -> dict[str, int]:
        """Application -> the highest priority of its pending asks (``askMaxPriority``)."""
        out: dict[str, int] = {}
        for t in self.tasks:
            if not t.running:
                out[t.application] = max(out.get(t.application, t.priority), t.priority)
        return out

    def allocated(self, path: str) -> Resource:
        """A queue's allocated resource: every running allocation in its subtree (a copy)."""
        return dict(self._usage.get(path, {}))

    def pending_resource(self, path: str) -> Resource:
        """The pending asks of a queue's subtree (a copy)."""
        return dict(self._pending.get(path, {}))

    def tasks_in(self, path: str) -> list[Task]:
        return list(self._by_queue.get(path, ()))

    def in_subtree(self, path: str, queue: str | None) -> bool:
        return queue is not None and (queue == path or queue.startswith(path + "."))

    def root_max(self) -> Resource | None:
        """Root's max: the sum of the nodes' schedulable resources (unknown without nodes)."""
        if not self.has_nodes:
            return None
        total: Resource = {}
        for n in self.nodes:
            total = add(total, n.capacity)
        return total


def queue_and_ancestors(queue: str) -> list[str]:
    """``root.a.b`` -> ``root``, ``root.a``, ``root.a.b``: the paths whose subtree holds ``queue``."""
    parts = queue.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
