"""Phase 1 of Kueue's placement (``fillInCounts`` and ``fillInCountsHelper`` of
``pkg/cache/scheduler/tas_flavor_snapshot.go``): how many pods, slices and leaders each domain of a
flavor's tree can take, counted per leaf from its remaining capacity and summed up the tree,
bounded at the usage level under a virtual hostname level (``recordUsageDomainCaps``).  The counts
of a request shape are kept from run to run (``counts_cache``) unless pods assumed in this cycle
change the leaves.  ``PhaseOneCounts`` is mixed into ``snapshot.FlavorTopology``, whose tree,
leaves and usage it reads; phase 2 (the level, the domains, the descent) stays there.
"""

from __future__ import annotations

from quotactl.kueue.tas import partial_slices
from quotactl.kueue.tas.counts_cache import CountTree, Shape
from quotactl.kueue.tas.domain import Domain, Leaf, PlacementParams
from quotactl.kueue.tas.feasibility import ExclusionStats, NodeRequirements, feasible_leaves
from quotactl.kueue.tas.resources import INT32_MAX, Requests, add, count_in, count_in_with_limit, sub


class PhaseOneCounts:
    """The phase-1 methods of ``FlavorTopology``."""

    COUNT_TREES = 32  # request shapes whose counts a flavor keeps (the least recently used go)

    def _fill_in_counts(self, node_req: NodeRequirements, requests: Requests, leader_requests: Requests | None,
                        assumed: dict[str, Requests], simulate_empty: bool, p: PlacementParams,
                        assumed_in_domains: bool = False) -> None:
        """``fillInCounts``: the counts of a request shape kept from run to run (``counts_cache``),
        or counted afresh on the flavor's own tree when pods assumed in this cycle change the leaves
        (or the usage domains)."""
        matched = self._matched_leaves(node_req, p.stats)
        if assumed or assumed_in_domains or not self.levels or self.COUNT_TREES <= 0:
            p.per_level = self.per_level
            self._fill_own_tree(matched, requests, leader_requests, assumed, simulate_empty, p)
            return
        shape = Shape.of(requests, leader_requests, simulate_empty, p)
        key = shape.key(node_req.key() if self.lowest_is_node else None)
        tree = self.count_trees.pop(key, None)
        if tree is None:
            tree = CountTree(self, matched, shape)
            if len(self.count_trees) >= self.COUNT_TREES:
                del self.count_trees[next(iter(self.count_trees))]
        else:
            tree.sync(self)
        self.count_trees[key] = tree  # the most recently used last
        add(p.stats.resources, tree.limits)
        p.per_level, p.level_orders, p.touched = tree.per_level, tree.level_orders, tree.touched

    def _matched_leaves(self, node_req: NodeRequirements, stats: ExclusionStats) -> list[tuple[Leaf, int]]:
        """(leaf, affinity score) of the leaves the pod set may use, the others counted in ``stats``."""
        if self.lowest_is_node:
            return self._feasible(node_req, stats)
        stats.total_nodes += len(self.leaves)
        return [(leaf, 0) for leaf in self.leaves.values()]

    def _fill_own_tree(self, matched: list[tuple[Leaf, int]], requests: Requests, leader_requests: Requests | None,
                       assumed: dict[str, Requests], simulate_empty: bool, p: PlacementParams) -> None:
        for d in self.all_domains():
            d.reset()
        for leaf, score in matched:
            leaf.affinity_score += score
            leaf.pod_count, leaf.pod_count_with_leader, leaf.leader_count, limiting = self._leaf_counts(
                leaf, requests, leader_requests, assumed, simulate_empty)
            if leaf.pod_count == 0 and limiting:
                p.stats.resources[limiting] = p.stats.resources.get(limiting, 0) + 1
        for root in self.roots.values():
            self._fill_helper(root, p.slice_size, p.slice_level, 0, p.slice_size_at_level, p.leader_count > 0,
                              p.tail_size)

    def _feasible(self, req: NodeRequirements, stats: ExclusionStats) -> list:
        """``feasible_leaves``, once per pod requirement: nodes, labels and taints never change
        during a run (Kueue caches the matching leaves per pod set, ``TASCacheNodeMatchResults``)."""
        key = req.key()
        hit = self._feasible_memo.get(key)
        if hit is None:
            found = ExclusionStats()
            hit = self._feasible_memo[key] = (feasible_leaves(self.leaves.values(), req, found), found)
        stats.add(hit[1])
        return hit[0]

    def _leaf_counts(self, leaf: Leaf, requests: Requests, leader_requests: Requests | None,
                     assumed: dict[str, Requests], simulate_empty: bool) -> tuple[int, int, int, str]:
        """(pods, pods beside the leader, leaders, the resource that limits the pods) of one leaf."""
        remaining = self.remaining(leaf, simulate_empty)
        if leaf.id in assumed:
            sub(remaining, assumed[leaf.id])
        return _counts_in(remaining, requests, leader_requests)

    def _set_caps(self, requests: Requests, leader_requests: Requests | None, simulate_empty: bool,
                  assumed_domains: dict[str, Requests]) -> None:
        self._caps = DomainCaps(self, requests, leader_requests, simulate_empty,
                                 assumed_domains) if self.virtual_node else None

    def _roll_up(self, d: Domain, slice_size: int, slice_level: int, level: int, at_level: dict[int, int],
                 leader_required: bool, tail: int = 0) -> None:
        """A domain's counts from its children's, bounded at the usage level by what the domain
        itself still holds (``recordUsageDomainCaps``: its admitted usage is charged to no leaf),
        then its room for a partial slice (``tail`` pods) at or above the slice level."""
        self._sum_children(d, slice_size, slice_level, level, at_level, leader_required)
        if level == self.usage_level and self._caps is not None:
            self._bound_by_caps(d, slice_size, slice_level, level)
        if tail and level <= slice_level:
            partial_slices.fill_parent(d, slice_size, tail, level == slice_level, leader_required)

    def _bound_by_caps(self, d: Domain, slice_size: int, slice_level: int, level: int) -> None:
        """``recordUsageDomainCaps``'s bound applied to a domain of the usage level."""
        pods, with_leader, leaders = self._caps.of(d.id)
        d.pod_count = min(d.pod_count, pods)
        d.pod_count_with_leader = min(d.pod_count_with_leader, with_leader)
        d.leader_count = min(d.leader_count, leaders)
        if level == slice_level:
            d.slice_count = d.pod_count // slice_size
            d.slice_count_with_leader = d.pod_count_with_leader // slice_size

    def _fill_helper(self, d: Domain, slice_size: int, slice_level: int, level: int, at_level: dict[int, int],
                     leader_required: bool, tail: int = 0) -> None:
        if not d.children:
            if level == slice_level:
                d.slice_count = d.pod_count // slice_size
                d.slice_count_with_leader = d.pod_count_with_leader // slice_size
                if tail:
                    partial_slices.fill_at_slice_level(d, slice_size, tail)
            return
        for c in d.children:
            self._fill_helper(c, slice_size, slice_level, level + 1, at_level, leader_required, tail)
        self._roll_up(d, slice_size, slice_level, level, at_level, leader_required, tail)

    def _sum_children(self, d: Domain, slice_size: int, slice_level: int, level: int, at_level: dict[int, int],
                      leader_required: bool) -> None:
        """A domain's counts from its children's (``fillInCountsHelper`` after the recursion)."""
        pods = slices = leaders = 0
        affinity = 0
        contributor = False
        min_pod_diff = min_slice_diff = INT32_MAX
        inner = at_level.get(level + 1)
        for c in d.children:
            c_pods, c_pods_leader = c.pod_count, c.pod_count_with_leader
            if inner is not None:
                c_pods = (c.pod_count // inner) * inner
                c_pods_leader = (c.pod_count_with_leader // inner) * inner
            c_slices, c_leaders = c.slice_count, c.leader_count
            pods += c_pods
            slices += c_slices
            if not leader_required or c_leaders > 0:
                contributor = True
                # comparisons, not min()/max() calls: this runs for every child of a changed domain
                if c_pods - c_pods_leader < min_pod_diff:
                    min_pod_diff = c_pods - c_pods_leader
                if c_slices - c.slice_count_with_leader < min_slice_diff:
                    min_slice_diff = c_slices - c.slice_count_with_leader
            if c_leaders > leaders:
                leaders = c_leaders
            affinity += c.affinity_score
        d.pod_count = pods
        slices_with_leader = 0
        if contributor:
            d.pod_count_with_leader = pods - min_pod_diff
            slices_with_leader = slices - min_slice_diff
        else:
            d.pod_count_with_leader = 0
        d.leader_count = leaders
        d.affinity_score = affinity
        if level == slice_level:
            slices = d.pod_count // slice_size
            slices_with_leader = d.pod_count_with_leader // slice_size
        d.slice_count = slices
        d.slice_count_with_leader = slices_with_leader


def _counts_in(remaining: Requests, requests: Requests,
               leader_requests: Requests | None) -> tuple[int, int, int, str]:
    """(pods, pods beside the leader, leaders, the resource that limits the pods) in ``remaining``
    (consumed)."""
    pods, limiting = count_in_with_limit(requests, remaining)
    if leader_requests is not None and count_in(leader_requests, remaining) > 0:
        sub(remaining, leader_requests)
        return pods, count_in(requests, remaining), 1, limiting
    return pods, pods, 0, limiting  # nothing taken out for a leader


class DomainCaps:
    """The counts each usage domain itself bounds (``domainRemainingCapacity`` less what this cycle
    assumed there) for one run's requests, computed when a roll-up first needs them."""

    def __init__(self, f: PhaseOneCounts, requests: Requests, leader_requests: Requests | None,
                 simulate_empty: bool, assumed_domains: dict[str, Requests]):
        self.f, self.requests, self.leader_requests = f, requests, leader_requests
        self.simulate_empty, self.assumed = simulate_empty, assumed_domains
        self.known: dict[str, tuple[int, int, int]] = {}

    def of(self, did: str) -> tuple[int, int, int]:
        hit = self.known.get(did)
        if hit is None:
            f = self.f
            remaining = f.domain_remaining(f.per_level[f.usage_level][did], self.simulate_empty)
            if did in self.assumed:
                sub(remaining, self.assumed[did])
            pods, with_leader, leaders, _limiting = _counts_in(remaining, self.requests, self.leader_requests)
            hit = self.known[did] = (pods, with_leader, leaders)
        return hit
