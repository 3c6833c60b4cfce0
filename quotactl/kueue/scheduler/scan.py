"""Where each pending workload's flavor scans stopped (Kueue's ``workload.Info.LastAssignment``,
read by ``flavorassigner.NextFlavorToTryForPodSetResource``): state of the queue manager, not a
memo, so it is part of a cohort tree's end-of-cycle fingerprint (``Marks``)."""

from __future__ import annotations

from typing import NamedTuple

from quotactl.kueue.assign import Assignment
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.scheduler.queues import Marks


class ScanProgress(NamedTuple):
    """Where a workload's flavor scans stopped (Kueue's ``workload.Info.LastAssignment``)."""

    cycle: int
    evictions: int  # the ClusterQueue's eviction count at that cycle
    last_tried: dict  # (pod set, resource group) -> the last flavor index tried, -1 = all tried


class FlavorScans:
    """The scan progress of every pending workload, with a fingerprint per cohort tree."""

    def __init__(self, options: EngineOptions, marks: Marks):
        self.options = options
        self.marks = marks
        self.scan: dict[str, ScanProgress] = {}  # written by _set / drop only
        self.scan_tree: dict[str, tuple[str, int]] = {}  # workload -> (cohort tree, mark) of its scan record
        self.scan_fp: dict[str, int] = {}  # tree -> fingerprint of its workloads' scan records
        self.evictions: dict[str, int] = {}  # ClusterQueue -> admitted workloads that left it
        # (scan cycle, cycle) of every stale-scan decision (start) the distance between cycle
        # numbers decides; a list only where numbering may differ from one process's (simulate/split.py)
        self.gap_reads: list[tuple[int, int]] | None = None

    def evicted(self, cluster_queue: str) -> None:
        """An admitted workload left ``cluster_queue`` (evicted or finished)."""
        self.evictions[cluster_queue] = self.evictions.get(cluster_queue, 0) + 1

    def fingerprint(self, tree: str) -> int:
        return self.scan_fp.get(tree, 0)

    def _set(self, key: str, tree: str, progress: ScanProgress) -> None:
        self.drop(key)
        # memoised: a parked workload records the same scan state again at every retry
        mark = self.marks(("S", key, tuple(sorted(progress.last_tried.items()))))
        self.scan[key], self.scan_tree[key] = progress, (tree, mark)
        self.scan_fp[tree] = self.scan_fp.get(tree, 0) + mark

    def drop(self, key: str) -> None:
        if self.scan.pop(key, None) is not None:
            tree, mark = self.scan_tree.pop(key)
            self.scan_fp[tree] -= mark

    def start(self, key: str, cluster_queue: str, cycle: int) -> tuple:
        """``NextFlavorToTryForPodSetResource``: resume each (pod set, resource group) scan after
        the flavor tried last, unless that scan state is outdated (FlavorFungibilityPreserveScanProgress:
        state from the current or previous cycle is kept; older state is dropped once an admitted
        workload left the ClusterQueue)."""
        st = self.scan.get(key)
        if st is None or not self.options.gates.enabled("FlavorFungibility"):
            return ()
        preserve = self.options.gates.enabled("FlavorFungibilityPreserveScanProgress")
        evicted_since = self.evictions.get(cluster_queue, 0) > st.evictions
        if evicted_since and preserve and self.gap_reads is not None and any(v >= 0 for v in st.last_tried.values()):
            # only a state resuming some scan reads differently kept or dropped: without one, the
            # start is the first flavor either way and the cycle's requeue rewrites or drops it
            self.gap_reads.append((st.cycle, cycle))
        if evicted_since and (not preserve or st.cycle < cycle - 1):
            self.drop(key)
            return ()
        return tuple(sorted((k, v + 1) for k, v in st.last_tried.items() if v + 1 > 0))

    def record(self, key: str, cluster_queue: str, tree: str, assignment: Assignment | None, cycle: int) -> None:
        """Keep where this cycle's scans of ``key`` stopped (``requeueAndUpdate``)."""
        if assignment is None:
            return
        idx: dict = {}
        for ps in assignment.pod_sets:
            for res, fa in ps.flavors.items():
                g = ps.resource_groups.get(res) if ps.resource_groups else None
                if g is None:
                    continue
                k = (ps.name, g)
                idx[k] = max(idx.get(k, -1), fa.tried_flavor_idx)
        self._set(key, tree, ScanProgress(cycle, self.evictions.get(cluster_queue, 0), idx))

    def pending_flavors(self, key: str) -> bool:
        """Some scan of ``key`` has flavors left to try: BestEffortFIFO requeues it at once."""
        st = self.scan.get(key)
        return st is not None and any(v != -1 for v in st.last_tried.values())
