"""Finding workloads by the names users type (``namespace/name`` or a unique ``name``)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from quotactl.model.kueue import KueueCluster, Workload


@dataclass(frozen=True)
class Lookup:
    workload: Workload | None
    suggestions: tuple[str, ...] = ()
    ambiguous: tuple[str, ...] = ()


def find_workload(cluster: KueueCluster, query: str) -> Lookup:
    """``namespace/name``, or ``name`` when that is unique; close names when nothing matches."""
    if query in cluster.workloads:
        return Lookup(cluster.workloads[query])
    if "/" not in query:
        hits = sorted(k for k, w in cluster.workloads.items() if w.name == query)
        if len(hits) == 1:
            return Lookup(cluster.workloads[hits[0]])
        if len(hits) > 1:
            return Lookup(None, ambiguous=tuple(hits))
    keys = sorted(cluster.workloads)
    names = sorted({w.name for w in cluster.workloads.values() if w.name})
    close = difflib.get_close_matches(query, keys, n=5, cutoff=0.6)
    if "/" not in query:
        for n in difflib.get_close_matches(query, names, n=5, cutoff=0.6):
            close.extend(k for k in keys if cluster.workloads[k].name == n)
    return Lookup(None, suggestions=tuple(dict.fromkeys(close))[:5])


def pending_workloads(cluster: KueueCluster) -> list[Workload]:
    """The workloads waiting in a queue (``Workload.is_queueable``), sorted by key."""
    return [w for _k, w in sorted(cluster.workloads.items()) if w.is_queueable]
