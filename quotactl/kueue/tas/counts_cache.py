"""Phase 1 of the placement (``fillInCounts`` of ``tas_flavor_snapshot.go``) kept per request shape.

Kueue counts, for every nomination, how many pods each leaf of the flavor's tree can take and sums
them up the tree.  The counts depend only on the shape of the request (per-pod requests, the
leader's, simulate-empty, the node filter, the slice parameters) and on each leaf's usage, so a
``CountTree`` keeps them for one shape on its own copy of the tree.  Before each run it recounts
only the leaves whose usage changed since (``Leaf.version`` and the flavor's ``usage_log``, both
kept by the flavor whenever a leaf's free capacity or TAS usage changes) and the ancestors of those, plus the domains the previous run's
descent rewrote (``PlacementParams.touched``): same counts as a fresh fill, without visiting every leaf.

``s`` below is the flavor's ``snapshot.FlavorTopology`` (its per-leaf count and per-domain roll-up),
passed in by the snapshot, which imports this module.
"""

from __future__ import annotations

from typing import NamedTuple

from quotactl.kueue.tas import partial_slices
from quotactl.kueue.tas.domain import Domain, Leaf, PlacementParams
from quotactl.kueue.tas.resources import Requests


class Shape(NamedTuple):
    """What the counts of one fill depend on, besides the leaves' usage."""

    requests: Requests
    leader_requests: Requests | None
    simulate_empty: bool
    slice_size: int
    tail_size: int
    slice_level: int
    at_level: dict[int, int]
    leader_required: bool

    @classmethod
    def of(cls, requests: Requests, leader_requests: Requests | None, simulate_empty: bool,
           p: PlacementParams) -> Shape:
        return cls(requests, leader_requests, simulate_empty, p.slice_size, p.tail_size, p.slice_level,
                   p.slice_size_at_level, p.leader_count > 0)

    def key(self, node_filter: tuple | None) -> tuple:
        return (tuple(sorted(self.requests.items())),
                tuple(sorted(self.leader_requests.items())) if self.leader_requests is not None else None,
                self.simulate_empty, node_filter, self.slice_size, self.tail_size, self.slice_level,
                tuple(sorted(self.at_level.items())), self.leader_required)


class CountTree:
    """A copy of the flavor's tree holding the counts of one request shape."""

    def __init__(self, s, matched: list[tuple[Leaf, int]], shape: Shape):
        self.shape = shape
        self.per_level: list[dict[str, Domain]] = []
        for level in s.per_level:
            self.per_level.append({did: Domain(did, d.values) for did, d in level.items()})
        for depth, level in enumerate(s.per_level[:-1]):
            twins, below = self.per_level[depth], self.per_level[depth + 1]
            for did, d in level.items():  # the children in the flavor's own order
                twin = twins[did]
                twin.children = [below[c.id] for c in d.children]
                for c in twin.children:
                    c.parent = twin
        leaves = self.per_level[-1]
        # the leaves the pod set may use: (its leaf, the copy, the affinity score)
        self.feasible = [(leaf, leaves[leaf.id], score) for leaf, score in matched]
        self.twin_of = {leaf: (twin, score) for leaf, twin, score in self.feasible}
        self.counted: dict[Domain, tuple[int, int, int, int, int]] = {}  # leaf copy -> its counts as filled
        self.limiting: dict[Domain, str] = {}  # leaves that take no pod -> the resource that stops them
        self.limits: dict[str, int] = {}  # those counted by resource
        self.level_orders: dict = {}  # (level, unconstrained, leader) -> the level's domains in placement order
        self.touched: list[Domain] = []
        self.synced = s.usage_version
        for leaf, twin, score in self.feasible:
            self._count_leaf(s, leaf, twin, score)
        for root in self.per_level[0].values():
            s._fill_helper(root, shape.slice_size, shape.slice_level, 0, shape.at_level, shape.leader_required,
                           shape.tail_size)

    def _count_leaf(self, s, leaf: Leaf, twin: Domain, score: int) -> None:
        shape = self.shape
        pods, with_leader, leaders, limiting = s._leaf_counts(leaf, shape.requests, shape.leader_requests, {},
                                                              shape.simulate_empty)
        twin.reset()
        twin.pod_count, twin.pod_count_with_leader, twin.leader_count = pods, with_leader, leaders
        twin.affinity_score = score
        if len(self.per_level) - 1 == shape.slice_level:  # _fill_helper's rule for a leaf
            twin.slice_count = pods // shape.slice_size
            twin.slice_count_with_leader = with_leader // shape.slice_size
            if shape.tail_size:
                partial_slices.fill_at_slice_level(twin, shape.slice_size, shape.tail_size)
        self.counted[twin] = (pods, with_leader, leaders, twin.slice_count, twin.slice_count_with_leader)
        self._limit(twin, limiting if pods == 0 else "")

    def _limit(self, twin: Domain, resource: str) -> None:
        old = self.limiting.pop(twin, "")
        if old:
            left = self.limits[old] - 1
            if left:
                self.limits[old] = left
            else:
                del self.limits[old]
        if resource:
            self.limiting[twin] = resource
            self.limits[resource] = self.limits.get(resource, 0) + 1

    def _changed_leaves(self, s) -> list[Leaf]:
        """The usable leaves whose usage changed since the last sync: from the flavor's log of
        changes (``usage_log[v - 1]`` changed at version v) when it is shorter than the leaves."""
        if s.usage_version - self.synced < len(self.feasible):
            return [leaf for leaf in set(s.usage_log[self.synced:s.usage_version]) if leaf in self.twin_of]
        return [leaf for leaf, _twin, _score in self.feasible if leaf.version > self.synced]

    def sync(self, s) -> None:
        """Bring the counts up to the flavor's usage and undo the last descent's rewrites."""
        if self.synced == s.usage_version and not self.touched:
            return
        dirty: list[set[Domain]] = [set() for _ in self.per_level]
        if self.synced != s.usage_version:
            for leaf in self._changed_leaves(s):
                twin, score = self.twin_of[leaf]
                self._count_leaf(s, leaf, twin, score)
                up = twin.parent
                while up is not None and up not in dirty[len(up.values) - 1]:
                    dirty[len(up.values) - 1].add(up)
                    up = up.parent
            self.synced = s.usage_version
            self.level_orders.clear()
        for d in self.touched:  # after the changed leaves: their walk up stops at a marked domain
            if d.children:
                dirty[len(d.values) - 1].add(d)
            elif d in self.counted:
                (d.pod_count, d.pod_count_with_leader, d.leader_count, d.slice_count,
                 d.slice_count_with_leader) = self.counted[d]
            else:
                d.reset()  # a leaf the pod set may not use counts nothing
                if self.shape.tail_size and len(self.per_level) - 1 == self.shape.slice_level:
                    partial_slices.fill_at_slice_level(d, self.shape.slice_size, self.shape.tail_size)
        self.touched = []
        shape = self.shape
        for depth in range(len(self.per_level) - 2, -1, -1):
            for d in dirty[depth]:
                s._roll_up(d, shape.slice_size, shape.slice_level, depth, shape.at_level, shape.leader_required,
                           shape.tail_size)
