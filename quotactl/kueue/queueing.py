"""The order of pending workloads inside a ClusterQueue's queue.

Source: ``pkg/cache/queue/cluster_queue.go: queueOrderingFunc``: higher effective priority
first, then the earlier queue-order timestamp, then the lower UID.  (The sticky preemptor and
Admission Fair Sharing orderings need cycle history and are not modelled here.)
"""

from __future__ import annotations

from datetime import datetime

from quotactl.kueue.options import EngineOptions
from quotactl.kueue.priority import queue_order_timestamp, workload_priority
from quotactl.model.kueue import KueueCluster, Workload


def queue_order_key(cluster: KueueCluster, wl: Workload, options: EngineOptions, priority: int | None = None,
                    timestamp: datetime | None = None):
    """Sort key of a pending workload in its ClusterQueue's heap (``priority``: its effective
    priority when the caller has it already; ``timestamp``: its queue-order timestamp when a run
    changed it, ``queue_order.RunTimestamps``)."""
    pr = priority if priority is not None else workload_priority(cluster, wl, options.gates).value
    ts = timestamp if timestamp is not None else queue_order_timestamp(wl, options.gates, options.requeuing_timestamp)
    return (-pr, ts, wl.uid or "", wl.key)


def cluster_queue_of(cluster: KueueCluster, wl: Workload) -> str | None:
    """The ClusterQueue a pending workload is queued to (spec.queueName -> LocalQueue)."""
    lq = cluster.local_queues.get((wl.namespace, wl.queue_name or ""))
    return lq.cluster_queue if lq is not None else None


def ahead_in_queue(cluster: KueueCluster, wl: Workload, options: EngineOptions) -> list[Workload]:
    """Active pending workloads of the same ClusterQueue that Kueue orders before ``wl``."""
    cq = cluster_queue_of(cluster, wl)
    if cq is None:
        return []
    mine = queue_order_key(cluster, wl, options)
    out = []
    for other in cluster.workloads.values():
        if other is wl or not other.is_queueable:
            continue
        if cluster_queue_of(cluster, other) != cq:
            continue
        if queue_order_key(cluster, other, options) < mine:
            out.append(other)
    return sorted(out, key=lambda o: queue_order_key(cluster, o, options))


class QueueIndex:
    """Every ClusterQueue's pending workloads in queue order, built once (for ``explain --all``)."""

    def __init__(self, cluster: KueueCluster, options: EngineOptions):
        self._cluster = cluster
        self._options = options
        by_cq: dict[str, list[tuple]] = {}
        for wl in cluster.workloads.values():
            if not wl.is_queueable:
                continue
            cq = cluster_queue_of(cluster, wl)
            if cq is not None:
                by_cq.setdefault(cq, []).append((queue_order_key(cluster, wl, options), wl))
        self._by_cq = {cq: sorted(items, key=lambda kv: kv[0]) for cq, items in by_cq.items()}

    def ahead(self, wl: Workload) -> list[Workload]:
        cq = cluster_queue_of(self._cluster, wl)
        mine = queue_order_key(self._cluster, wl, self._options)
        return [w for k, w in self._by_cq.get(cq or "", []) if k < mine and w is not wl]
