"""The domains of a TAS flavor's topology tree, with the counts Kueue's placement algorithm keeps
per domain while it runs (``tas_topology_tree.go``'s ``domain``/``leafDomain`` and
``tas_flavor_snapshot.go``'s ``domainState``), and the parameters of one placement run."""

from __future__ import annotations

import copy

from quotactl.kueue.tas.feasibility import ExclusionStats
from quotactl.kueue.tas.resources import Requests
from quotactl.model.kueue_tas import Node


def domain_id(values) -> str:
    """``utiltas.DomainID``."""
    return ",".join(values)


class Domain:
    """A topology domain and the algorithm's per-run counts (reset by every ``_fill_in_counts``)."""

    __slots__ = ("id", "values", "parent", "children", "pod_count", "slice_count", "pod_count_with_leader",
                 "slice_count_with_leader", "leader_count", "affinity_score", "slice_count_with_tail",
                 "slice_count_with_leader_and_tail")

    def __init__(self, id_: str, values: tuple[str, ...]):
        self.id = id_
        self.values = values
        self.parent: Domain | None = None
        self.children: list[Domain] = []
        self.reset()

    def reset(self) -> None:
        self.pod_count = self.slice_count = self.pod_count_with_leader = 0
        self.slice_count_with_leader = self.leader_count = 0
        self.affinity_score = 0
        # whole slices next to the partial slice (``partial_slices.py``; -1: it does not fit)
        self.slice_count_with_tail = self.slice_count_with_leader_and_tail = 0


class Leaf(Domain):
    """A lowest-level domain: its capacity, free capacity and TAS usage, and its node (when the
    lowest level is the hostname)."""

    __slots__ = ("capacity", "free", "tas_usage", "node", "version")

    def __init__(self, id_: str, values: tuple[str, ...], node: Node | None):
        super().__init__(id_, values)
        self.capacity: Requests = {}
        self.free: Requests = {}
        self.tas_usage: Requests = {}
        self.node = node
        self.version = 0  # the flavor's usage version when ``free`` or ``tas_usage`` last changed


class PlacementParams:
    """The inputs of one placement run (``topologyAssignmentParameters``)."""

    __slots__ = ("slice_size_at_level", "slice_size", "tail_size", "count", "leader_count", "requested_level",
                 "slice_level", "required", "unconstrained", "multi_layer", "stats", "per_level", "level_orders",
                 "touched")

    def __init__(self, count: int):
        self.slice_size_at_level: dict[int, int] = {}
        self.slice_size = 1
        self.tail_size = 0  # pods of the partial slice (TASPartialSlices): count % slice_size, else 0
        self.count = count
        self.leader_count = 0
        self.requested_level = 0
        self.slice_level = 0
        self.required = False
        self.unconstrained = False
        self.multi_layer: tuple = ()
        self.stats = ExclusionStats()
        # the tree the counts are in (the flavor's own, or a cached copy: ``counts_cache``), the
        # orderings of whole levels kept with those counts (None: not kept), and the domains the
        # descent rewrote (the cache restores them before the next run)
        self.per_level: list[dict[str, Domain]] = []
        self.level_orders: dict | None = None
        self.touched: list[Domain] = []


def leader_and_worker_domains(fit: list[Domain]) -> tuple[list[Domain], list[Domain]]:
    """The leader's domains (a copy of each counting its leader) and the workers' domains."""
    leader_domains, worker_domains = [], []
    for d in fit:
        if d.leader_count > 0:
            clone = copy.copy(d)
            clone.pod_count = d.leader_count
            leader_domains.append(clone)
        if d.pod_count > 0:
            worker_domains.append(d)
    return leader_domains, worker_domains
