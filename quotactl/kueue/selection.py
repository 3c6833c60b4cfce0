"""What ``-n/--namespace``, ``--cluster-queue`` and ``-l/--selector`` leave in a report.

The engines always compute with the whole input (a workload of another namespace still holds
quota, still blocks the queue and can still be preempted); a selection only cuts the report's
lists of workloads down to the selected ones, and records how many there were before, so a filter
never reads as an empty cluster. Cluster-scoped parts of a report (usage per ClusterQueue and
cohort, statistics per ClusterQueue, a livelock) stay whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from quotactl.model.kueue import KueueCluster, LabelSelector, Workload


@dataclass(frozen=True)
class Selection:
    """The filters given on the command line (empty: everything is reported)."""

    namespace: str | None = None
    cluster_queues: tuple[str, ...] = ()
    selector: LabelSelector | None = None
    selector_text: str | None = None  # as typed, for the report

    def __bool__(self) -> bool:
        return bool(self.namespace or self.cluster_queues or self.selector_text)

    def matches(self, wl: Workload, cluster_queue: str | None, labels: Mapping[str, str]) -> bool:
        if self.namespace and wl.namespace != self.namespace:
            return False
        if self.cluster_queues and cluster_queue not in self.cluster_queues:
            return False
        return self.selector is None or self.selector.matches(dict(labels))


@dataclass(frozen=True)
class Shown:
    """What a report shows of what it would show unfiltered: per list (named as in the JSON
    document), (list, shown, total)."""

    selection: Selection
    counts: tuple[tuple[str, int, int], ...]


def selected_keys(cluster: KueueCluster, selection: Selection,
                  owner_labels: Mapping[str, Mapping[str, str]] | None = None) -> frozenset[str]:
    """The keys of the workloads ``selection`` takes. A workload's labels are its own over those
    of the job it stands for (``owner_labels``: workload key -> the job's labels), so ``-l`` finds
    a job's Workload by the labels the user gave the job. Its ClusterQueue is the one holding its
    admission, else the one its LocalQueue points to."""
    owner_labels = owner_labels or {}
    out = set()
    for key, wl in cluster.workloads.items():
        cq = wl.admission.cluster_queue if wl.admission is not None else cluster.cluster_queue_name_of(wl)
        labels = {**owner_labels.get(key, {}), **wl.labels}
        if selection.matches(wl, cq, labels):
            out.add(key)
    return frozenset(out)


def kept(rows: Iterable, keys: frozenset[str], key=lambda row: row.workload) -> tuple:
    """The rows of the selected workloads, in their order."""
    return tuple(row for row in rows if key(row) in keys)


def restrict_schedule(result, selection: Selection, keys: frozenset[str]):
    """``schedule``'s result with only the selected workloads' admissions, preemptions, pending
    entries and cycle events; the cycles, usage and livelock stay those of the whole run."""
    from quotactl.kueue.scheduler import CycleReport

    cycles = tuple(CycleReport(c.number, kept(c.heads, keys), kept(c.admitted, keys), kept(c.preempted, keys))
                   for c in result.cycles)
    admitted, preempted, pending = kept(result.admitted, keys), kept(result.preempted, keys), kept(result.pending, keys)
    shown = Shown(selection, (("admitted", len(admitted), len(result.admitted)),
                              ("preempted", len(preempted), len(result.preempted)),
                              ("pending", len(pending), len(result.pending))))
    final = {k: v for k, v in result.final_admitted.items() if k in keys}
    return replace(result, cycles=cycles, admitted=admitted, preempted=preempted, pending=pending,
                   final_admitted=final, shown=shown)


def restrict_diff(result, selection: Selection, keys: frozenset[str]):
    """``diff``'s result with only the selected workloads' changes (and both runs restricted as
    ``schedule``'s); capacity and usage changes stay whole. ``--fail-on`` then gates on these."""
    changes = kept(result.workloads, keys)
    shown = Shown(selection, (("workloads", len(changes), len(result.workloads)),))
    return replace(result, base=restrict_schedule(result.base, selection, keys),
                   head=restrict_schedule(result.head, selection, keys), workloads=changes,
                   only_in_base=kept(result.only_in_base, keys, key=str),
                   only_in_head=kept(result.only_in_head, keys, key=str), shown=shown)


def restrict_simulation(result, selection: Selection, keys: frozenset[str]):
    """``simulate``'s result with only the selected workloads' rows and pending entries; the
    statistics per ClusterQueue and class stay those of every workload."""
    workloads, pending = kept(result.workloads, keys), kept(result.pending, keys)
    shown = Shown(selection, (("workloads", len(workloads), len(result.workloads)),
                              ("pending", len(pending), len(result.pending))))
    return replace(result, workloads=workloads, pending=pending, shown=shown)


def restrict_heads(heads: tuple, tree, selection: Selection, keys: frozenset[str]) -> tuple[tuple, object]:
    """``shares``' queue heads of the selected workloads (their order numbers stay those of the
    whole tournament), and the tree that says so; the tree's nodes stay whole."""
    mine = kept(heads, keys)
    return mine, replace(tree, shown=Shown(selection, (("heads", len(mine), len(heads)),)))


def selected_pending(pending: list[Workload], selection: Selection, keys: frozenset[str]) -> tuple[list, Shown]:
    """``explain --all``'s selected pending workloads (each is still explained against the whole
    input), and what that shows."""
    out = [wl for wl in pending if wl.key in keys]
    return out, Shown(selection, (("workloads", len(out), len(pending)),))
