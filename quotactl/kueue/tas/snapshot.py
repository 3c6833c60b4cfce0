"""One TAS flavor's topology and Kueue's placement algorithm over it
(``pkg/cache/scheduler/tas_flavor_snapshot.go``, ``tas_topology_tree.go``).

The tree: one leaf per node when the topology's lowest level is ``kubernetes.io/hostname``
(else per lowest-level domain, the nodes' capacity summed), its ancestors one per value prefix.
Each leaf holds its free capacity (allocatable minus non-TAS pods) and the TAS usage of admitted
workloads.  Under ``TASNodeFeasibilityForAllLevels`` a topology without the hostname level gets it
appended internally (Kueue's "virtual hostname", ``newTopologyTree``): one leaf per node, keyed by
the node's name; admitted workloads' usage is kept per domain of the declared lowest level (their
assignments name those domains, not nodes) and bounds that domain's counts; assignments are
published at the declared levels (the usage side: ``usage.py``).  ``find_assignments`` is
``FindTopologyAssignmentsForFlavor``: phase 1 counts the pods (and slices, leaders) each domain can
take, bottom-up (``counts.py``); phase 2 picks the level and the domains
(BestFit, or LeastFreeCapacity for unconstrained requests under ``TASProfileMixed``), then walks
down level by level keeping the fewest domains, and builds the assignment at the lowest level.
Failure texts are Kueue's, verbatim.
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from quotactl.kueue.tas import partial_slices
from quotactl.kueue.tas.balanced import balanced_placement
from quotactl.kueue.tas.counts import DomainCaps, PhaseOneCounts
from quotactl.kueue.tas.counts_cache import CountTree
from quotactl.kueue.tas.domain import Domain, Leaf, PlacementParams, domain_id, leader_and_worker_domains
from quotactl.kueue.tas.feasibility import ExclusionStats, NodeRequirements
from quotactl.kueue.tas.resources import (
    INT32_MAX,
    ONE_POD,
    Requests,
    add,
    amounts,
    plus,
)
from quotactl.kueue.tas.usage import TASUsage, pods_usage, usage_per_domain
from quotactl.model.features import FeatureGates
from quotactl.model.kueue_tas import (
    HOSTNAME,
    Node,
    TopologyAssignment,
    TopologyDomainAssignment,
    TopologyRequest,
)
from quotactl.model.podspec import PodSpecInfo, Toleration

_BEST_FIT_KEY = attrgetter("slice_count", "pod_count", "values")


class PodSetTASRequest(NamedTuple):
    """``TASPodSetRequests``: one pod set placed on one TAS flavor."""

    name: str
    count: int
    single_pod_requests: Requests
    request: TopologyRequest | None
    pod: PodSpecInfo
    implied: bool

    @property
    def group(self) -> str | None:
        return self.request.pod_set_group_name if self.request is not None else None


class PlacementResult(NamedTuple):
    assignment: TopologyAssignment | None
    reason: str  # "" when placed


class FlavorTopology(PhaseOneCounts, TASUsage):
    """``TASFlavorSnapshot`` of one TAS flavor."""

    def __init__(self, flavor: str, topology_name: str, levels: tuple[str, ...], nodes: list[Node],
                 tolerations: tuple[Toleration, ...], gates: FeatureGates):
        self.flavor = flavor
        self.topology_name = topology_name
        self.declared_levels = levels
        self.declared_hostname = bool(levels) and levels[-1] == HOSTNAME
        # Kueue's virtual hostname level (``newTopologyTree``): one leaf per node below the declared levels
        self.virtual_node = bool(levels) and not self.declared_hostname and gates.enabled(
            "TASNodeFeasibilityForAllLevels")
        self.levels = levels + (HOSTNAME,) if self.virtual_node else levels
        self.tolerations = tolerations
        self.gates = gates
        self.lowest_is_node = self.declared_hostname or self.virtual_node  # ``leafIsNode``
        # the level whose domains hold admitted workloads' usage (``domainTASUsage``): -1 when leaves do
        self.usage_level = len(levels) - 1 if self.virtual_node else -1
        self.domain_usage: dict[str, Requests] = {}
        self._caps: DomainCaps | None = None  # the usage domains' bounds for the current run
        self.leaves: dict[str, Leaf] = {}
        self.per_level: list[dict[str, Domain]] = [{} for _ in self.levels]
        self.roots: dict[str, Domain] = {}
        self.node_to_leaf: dict[str, str] = {}
        self._feasible_memo: dict[tuple, tuple[list, ExclusionStats]] = {}
        self.usage_version = 0  # bumped by every change of a leaf's usage (``Leaf.version``)
        self.usage_log: list[Leaf] = []  # the leaf changed at each version, version 1 first
        self.count_trees: dict[tuple, CountTree] = {}  # request shape -> its counts; see _fill_in_counts
        for node in nodes:
            self._add_node(node)
        self._link()

    # -- the tree ----------------------------------------------------------------------
    def _add_node(self, node: Node) -> None:
        values = tuple(node.labels.get(k, "") for k in self.declared_levels)
        if self.virtual_node:  # keyed by the node's name: two nodes sharing a hostname label stay apart
            values += (node.name or "",)
        did = values[-1] if self.lowest_is_node else domain_id(values)
        leaf = self.leaves.get(did)
        if leaf is None:
            leaf = self.leaves[did] = Leaf(did, values, node if self.lowest_is_node else None)
        allocatable = amounts(node.allocatable)
        add(leaf.capacity, allocatable)
        add(leaf.free, allocatable)
        self.node_to_leaf[node.name or ""] = did

    def _link(self) -> None:
        last = len(self.levels) - 1
        for did in sorted(self.leaves):  # children in a fixed order (sorting decides, not this)
            leaf = self.leaves[did]
            self.per_level[last][did] = leaf
            self._attach(leaf)

    def _attach(self, dom: Domain) -> None:
        if len(dom.values) == 1:
            self.roots[dom.id] = dom
            return
        parent_values = dom.values[:-1]
        pid = domain_id(parent_values)
        level = len(parent_values) - 1
        parent = self.per_level[level].get(pid)
        if parent is None:
            parent = self.per_level[level][pid] = Domain(pid, parent_values)
            self._attach(parent)
        dom.parent = parent
        parent.children.append(dom)

    def all_domains(self):
        for level in self.per_level:
            yield from level.values()

    def has_level(self, request: TopologyRequest | None) -> bool:
        """``HasLevel``: the request's level, its slice level and every slice layer exist here."""
        main = self._level_key(request)
        if main is None:
            return False
        slice_key = self._slice_level_key(request)
        declared = self.declared_levels
        if main not in declared or slice_key not in declared:
            return False
        return all(layer.topology in declared for layer in (request.slice_layers() if request else ()))

    # -- levels ----------------------------------------------------------------------------
    def _level_key(self, r: TopologyRequest | None) -> str | None:
        if r is None:
            return None
        if r.required is not None:
            return r.required
        if r.preferred is not None:
            return r.preferred
        if _slice_only(r):
            return self.levels[0]
        if r.unconstrained:
            return self.declared_levels[-1]  # ``explicitLowestLevel``
        return None

    def _slice_level_key(self, r: TopologyRequest | None) -> str:
        layers = r.slice_layers() if r is not None else ()
        return layers[0].topology if layers else self.declared_levels[-1]

    def _level_key_with_implied(self, tr: PodSetTASRequest) -> str | None:
        key = self._level_key(tr.request)
        if key is None and tr.implied:
            return self.declared_levels[-1]
        return key

    # -- FindTopologyAssignmentsForFlavor ---------------------------------------------------
    def find_assignments(self, requests: list[PodSetTASRequest], *, simulate_empty: bool = False,
                         assumed: dict[str, Requests] | None = None) -> dict[str, PlacementResult]:
        """Place the flavor's pod sets, a pod-set group (leader and workers) together, each later
        group seeing the earlier ones' pods (``assumed``, shared with other flavors under
        ``TASHandleOverlappingFlavors``). Stops at the first failure."""
        assumed = {} if assumed is None else assumed
        assumed_domains: dict[str, Requests] = {}  # virtual hostname: per published domain
        groups: dict[str, list[PodSetTASRequest]] = {}
        for i, tr in enumerate(requests):
            groups.setdefault(tr.group if tr.group is not None else str(i), []).append(tr)
        result: dict[str, PlacementResult] = {}
        for trs in groups.values():
            leader, workers = _leader_and_workers(trs)
            placed, on_nodes, reason = self.find_assignment(workers, leader, assumed, simulate_empty, assumed_domains)
            for tr in trs:
                result[tr.name] = PlacementResult(placed.get(tr.name), reason)
            if reason:
                return result
            for tr in trs:
                ta = placed.get(tr.name)
                if ta is not None:
                    per_domain = assumed_domains if self.virtual_node else assumed
                    for did, usage in usage_per_domain(ta, tr.single_pod_requests).items():
                        add(per_domain.setdefault(did, {}), usage)
                for leaf_id, pods in on_nodes.get(tr.name, {}).items():
                    add(assumed.setdefault(leaf_id, {}), pods_usage(tr.single_pod_requests, pods))
        return result

    def find_assignment(self, workers: PodSetTASRequest, leader: PodSetTASRequest | None,
                        assumed: dict[str, Requests], simulate_empty: bool,
                        assumed_domains: dict[str, Requests]) -> tuple[dict, dict, str]:
        """``findTopologyAssignment`` for one pod set (and its leader): (pod set -> assignment,
        pod set -> pods per node under a virtual hostname level, reason)."""
        p, reason = self._placement_params(workers, leader)
        if reason:
            return {}, {}, reason
        requests = plus(workers.single_pod_requests, ONE_POD)
        leader_requests = plus(leader.single_pod_requests, ONE_POD) if leader is not None else None
        node_req = NodeRequirements.of(workers.pod, self.tolerations, self.lowest_is_node,
                                       self.gates.enabled("TASRespectNodeAffinityPreferred"))
        self._set_caps(requests, leader_requests, simulate_empty, assumed_domains)
        self._fill_in_counts(node_req, requests, leader_requests, assumed, simulate_empty, p,
                             bool(assumed_domains))

        balanced = False
        fit: list[Domain] = []
        fit_level = 0
        # balanced placement distributes whole slices only: a partial slice takes the default path
        if (self.gates.enabled("TASBalancedPlacement") and not p.required and not p.unconstrained
                and not p.tail_size):
            found = balanced_placement(self, p)
            if found is not None:
                fit, fit_level = found
                balanced = True
        if not balanced:
            fit_level, fit, reason = self._find_level_with_fit_domains(p.requested_level, p)
            if reason:
                return {}, {}, reason
        if not balanced:  # balanced placement rewrites copies of the domains, never the tree's
            p.touched.extend(fit)
        fit = self._update_counts_to_minimum(fit, p.count, p.leader_count, p.slice_size, p.unconstrained, True,
                                             p.tail_size)
        fit = self._down_to_lowest_level(fit, fit_level, p, balanced)
        out: dict[str, TopologyAssignment] = {}
        on_nodes: dict[str, dict[str, int]] = {}
        placed = [(workers.name, fit)]
        if leader is not None:
            leader_domains, fit = leader_and_worker_domains(fit)
            placed = [(leader.name, leader_domains), (workers.name, fit)]
        for name, domains in placed:
            out[name] = self._build_assignment(domains)
            if self.virtual_node:  # the internal node-level placement: what this cycle assumes per node
                on_nodes[name] = {d.id: d.pod_count for d in domains if d.pod_count}
        if p.tail_size and not partial_slices.tail_placed(fit, p):
            # Kueue's guard (findTopologyAssignment): never publish a split partial slice
            return {}, {}, f"cannot place the partial slice of PodSet {workers.name} in a single topology domain"
        return out, on_nodes, ""

    def _placement_params(self, workers: PodSetTASRequest,
                          leader: PodSetTASRequest | None) -> tuple[PlacementParams, str]:
        """The request's levels, slices and mode, or why Kueue refuses it before any counting."""
        p = PlacementParams(workers.count)
        if leader is not None:
            p.leader_count = 1  # pod-set groups have a single-pod leader
        r = workers.request
        layers = r.slice_layers() if r is not None else ()
        p.slice_size = 1
        if layers:
            if layers[0].size <= 0:
                return p, "slice topology requested, but slice size not provided"
            p.slice_size = layers[0].size
        p.tail_size = partial_slices.tail_size(self.gates.enabled("TASPartialSlices"), layers, workers.count,
                                               p.slice_size)
        p.required = r is not None and r.required is not None
        p.unconstrained = bool(r is not None and r.unconstrained) or workers.implied or _slice_only(r)
        key = self._level_key_with_implied(workers)
        if key is None:
            return p, "topology level not specified"
        if key not in self.declared_levels:  # a virtual hostname level is no level to request
            return p, f"no requested topology level: {key}"
        p.requested_level = self.levels.index(key)
        slice_key = self._slice_level_key(r)
        if slice_key not in self.declared_levels:
            return p, f"no requested topology level for slices: {slice_key}"
        p.slice_level = self.levels.index(slice_key)
        if p.requested_level > p.slice_level:
            return p, f"podset slice topology {slice_key} is above the podset topology {key}"
        at_level, reason = self._slice_size_at_level(layers, p.slice_size, p.slice_level)
        if reason:
            return p, reason
        p.slice_size_at_level = at_level
        if at_level:
            p.multi_layer = layers
        return p, ""

    def _down_to_lowest_level(self, fit: list[Domain], level: int, p: PlacementParams,
                              balanced: bool) -> list[Domain]:
        """From the level that fits down to the lowest one, each level's pods spread over its
        children as Kueue does it."""
        last = len(self.levels) - 1
        while level < min(last, p.slice_level) and not balanced:
            # above the slice level: greedy over all lower domains
            level += 1
            slices = p.count // p.slice_size
            if p.leader_count == 0 and not p.tail_size:
                one = self._one_best_fit(_lower(fit), slices, p.unconstrained)
                if one is not None:
                    one.leader_count, one.pod_count, one.slice_count = 0, slices * p.slice_size, slices
                    p.touched.append(one)
                    fit = [one]
                    continue
            lower = self._sorted(_lower(fit), p.unconstrained)
            fit = self._update_counts_to_minimum(lower, p.count, p.leader_count, p.slice_size, p.unconstrained, True,
                                                 p.tail_size)
            p.touched.extend(fit or lower)
        while level < last:
            # at or below the slice level: each parent's pods go to its own children
            size = p.slice_size
            if level >= p.slice_level:
                size = p.slice_size_at_level.get(level + 1, 1)
            new: list[Domain] = []
            for d in fit:
                lower = self._sorted(d.children, p.unconstrained)
                if size > 1:
                    for c in lower:
                        c.slice_count = c.pod_count // size
                        c.slice_count_with_leader = c.pod_count_with_leader // size
                placed = self._update_counts_to_minimum(lower, d.pod_count, d.leader_count, size, p.unconstrained,
                                                        size > 1)
                if not balanced:
                    # the minimum rewrites only the domains it returns (all of them when it gives up)
                    p.touched.extend(lower if size > 1 or not placed else placed)
                new.extend(placed)
            fit = new
            level += 1
        return fit

    def _one_best_fit(self, domains: list[Domain], slices: int, unconstrained: bool) -> Domain | None:
        """What ``_update_counts_to_minimum`` over the sorted domains picks for ``slices`` slices
        without a leader when the first domain (the most slices) alone takes them under BestFit: of
        those that take them, the fewest slices, then the fewest pods, then the values, the same as
        the first of them in the sorted order; one pass in C, not a sort (the descent does this for
        every placement). None when another case applies."""
        if (self._least_free(unconstrained) or self.gates.enabled("TASRespectNodeAffinityPreferred")
                or not domains or max(d.slice_count for d in domains) < slices):
            return None
        return min([d for d in domains if d.slice_count >= slices], key=_BEST_FIT_KEY)

    def _slice_size_at_level(self, layers, slice_size: int, slice_level: int) -> tuple[dict[int, int], str]:
        """``buildSliceSizeAtLevel``: the inner slice layers' sizes per level."""
        out: dict[int, int] = {}
        prev_size, prev_level = slice_size, slice_level
        for layer in layers[1:]:
            if layer.topology not in self.declared_levels:
                return {}, f"no requested topology level for additional slice layer: {layer.topology}"
            idx = self.levels.index(layer.topology)
            if idx <= prev_level:
                return {}, (f"additional slice layer topology {layer.topology} must be at a lower level than "
                            f"{self.levels[prev_level]}")
            if layer.size == 0 or prev_size % layer.size != 0:
                return {}, (f"additional slice layer size {layer.size} must evenly divide parent layer size "
                            f"{prev_size}")
            for lvl in range(prev_level + 1, idx + 1):
                out[lvl] = layer.size
            prev_size, prev_level = layer.size, idx
        return out, ""

    # -- phase 2a ------------------------------------------------------------------------
    def _least_free(self, unconstrained: bool) -> bool:
        """The KEP-2724 matrix: LeastFreeCapacity for unconstrained requests under TASProfileMixed."""
        return unconstrained and self.gates.enabled("TASProfileMixed")

    def _find_level_with_fit_domains(self, level: int, p: PlacementParams) -> tuple[int, list[Domain], str]:
        """``findLevelWithFitDomains``. With a partial slice a domain's room is read as the whole
        slices it holds next to it, so domains are chosen only when it has a home among them."""
        ordered = self._level_ordered(level, p)
        if not ordered:
            return 0, [], f"no topology domains at level: {self.levels[level]}"
        top = ordered[0]
        slice_count = p.count // p.slice_size
        tail = p.tail_size > 0
        requested = slice_count + 1 if tail else slice_count  # the partial slice counts as one in messages
        best_fit = not self._least_free(p.unconstrained)
        if tail:
            if best_fit and top.leader_count >= p.leader_count:
                top = partial_slices.best_fit_with_tail(self, ordered, slice_count, p.leader_count)
        elif best_fit and top.slice_count_with_leader >= slice_count and top.leader_count >= p.leader_count:
            top = self._best_fit_for_slices(ordered, slice_count, p.leader_count)

        def not_fit(fit_count: int, total: int) -> str:
            if p.multi_layer:
                return self._multi_layer_not_fit(p.per_level, level, p.count, p.multi_layer, p.stats)
            return self._not_fit(fit_count, total, p.slice_size, p.stats)

        def fits(d: Domain) -> bool:
            if tail:
                return partial_slices.fits_slices(d, slice_count, p.leader_count, True)
            return d.slice_count_with_leader >= slice_count and d.leader_count >= p.leader_count

        if not best_fit:
            for cand in ordered:
                if partial_slices.fits_slices(cand, slice_count, p.leader_count, tail):
                    return level, [cand], ""
            if p.required:
                return 0, [], not_fit(ordered[-1].pod_count, requested)
        if not fits(top):
            if p.required:
                if self.gates.enabled("TASRespectNodeAffinityPreferred"):
                    for i in range(1, len(ordered)):
                        if fits(ordered[i]):
                            rest = ordered[i:]
                            best = (partial_slices.best_fit_with_tail(self, rest, slice_count, p.leader_count)
                                    if tail else self._best_fit_for_slices(rest, slice_count, p.leader_count))
                            return level, [best], ""
                return 0, [], not_fit(top.slice_count, requested)
            if level > 0 and not p.unconstrained:
                return self._find_level_with_fit_domains(level - 1, p)
            return self._spread_over_domains(level, ordered, slice_count, p, not_fit)
        return level, [top], ""

    def _level_ordered(self, level: int, p: PlacementParams, leader: bool = True) -> list[Domain]:
        """A whole level in ``sortedDomainsWithLeader`` (``sortedDomains``) order, kept with the
        counts it comes from (``p.level_orders``) when they are cached."""
        key = (level, p.unconstrained, leader)
        if p.level_orders is not None and key in p.level_orders:
            return p.level_orders[key]
        ordered = self._ordered(list(p.per_level[level].values()), p.unconstrained, leader)
        if p.level_orders is not None:
            p.level_orders[key] = ordered
        return ordered

    def _spread_over_domains(self, level: int, ordered: list[Domain], slice_count: int, p: PlacementParams,
                             not_fit) -> tuple[int, list[Domain], str]:
        """No single domain fits (top level, or unconstrained): leaders first, then as many
        domains as the slices need, then one more when none of them has room for a partial slice."""
        best_fit = not self._least_free(p.unconstrained)
        requested = slice_count + 1 if p.tail_size else slice_count
        results: list[Domain] = []
        assigned: list[int] = []  # the slices each result is expected to take (the partial slice goes beside)
        remaining_slices, remaining_leaders = slice_count, p.leader_count
        ordered = self._prioritize_leader_domain(ordered, p.count, p.leader_count, p.slice_size, True, p.tail_size)
        idx = 0
        while remaining_leaders > 0 and idx < len(ordered) and ordered[idx].leader_count > 0:
            d = ordered[idx]
            if best_fit and d.slice_count_with_leader >= remaining_slices:
                d = self._best_fit_for_slices(ordered[idx:], remaining_slices, remaining_leaders)
            results.append(d)
            assigned.append(min(d.slice_count_with_leader, remaining_slices))
            remaining_leaders -= d.leader_count
            remaining_slices -= d.slice_count_with_leader
            idx += 1
        if remaining_leaders > 0:
            return 0, [], not_fit(p.leader_count - remaining_leaders, requested)
        leaders_taken = len(results)
        if idx == 0 and p.leader_count == 0:  # the whole level, unmoved (no leader to prioritize)
            rest = self._level_ordered(level, p, False)
        else:
            rest = self._sorted(ordered[idx:], p.unconstrained)
        i = 0
        while remaining_slices > 0 and i < len(rest):
            d = rest[i]
            if best_fit and d.slice_count >= remaining_slices:
                d = self._best_fit_for_slices(rest[i:], remaining_slices, 0)
            results.append(d)
            assigned.append(min(d.slice_count, remaining_slices))
            remaining_slices -= d.slice_count
            i += 1
        if remaining_slices > 0:
            return 0, [], not_fit(slice_count - remaining_slices, requested)
        takes_leader = [j < leaders_taken for j in range(len(results))]
        if p.tail_size and not partial_slices.selection_holds_tail(results, assigned, takes_leader):
            # one more domain, any not selected yet (best fit picks out of order)
            extra = partial_slices.first_domain_hosting_tail(rest, results)
            if extra is None:
                return 0, [], not_fit(slice_count, requested)
            results.append(extra)
        return level, results, ""

    def _top_affinity_tier(self, candidates: list[Domain]) -> list[Domain]:
        if not self.gates.enabled("TASRespectNodeAffinityPreferred") or not candidates:
            return candidates
        score = candidates[0].affinity_score
        for i, c in enumerate(candidates):
            if c.affinity_score != score:
                return candidates[:i]
        return candidates

    def _best_fit_by(self, domains: list[Domain], needed: int, count_of, leader_count: int) -> Domain:
        """The first domain with the smallest count that still covers ``needed`` (else the first)."""
        candidates = self._top_affinity_tier(domains)
        best, best_count, found = candidates[0], INT32_MAX, False
        for d in candidates:
            if d.leader_count < leader_count:
                continue
            c = count_of(d)
            if needed <= c < best_count:
                best, best_count, found = d, c, True
        return best if found else candidates[0]

    def _best_fit_for_slices(self, domains: list[Domain], slice_count: int, leader_count: int) -> Domain:
        count_of = (lambda d: d.slice_count_with_leader) if leader_count > 0 else (lambda d: d.slice_count)
        return self._best_fit_by(domains, slice_count, count_of, leader_count)

    def _best_fit_for_pods(self, domains: list[Domain], count: int, leader_count: int) -> Domain:
        count_of = (lambda d: d.pod_count_with_leader) if leader_count > 0 else (lambda d: d.pod_count)
        return self._best_fit_by(domains, count, count_of, leader_count)

    # -- phase 2b ------------------------------------------------------------------------
    def _prioritize_leader_domain(self, domains: list[Domain], count: int, leader_count: int, slice_size: int,
                                  by_slices: bool, tail: int = 0) -> list[Domain]:
        """Move first a leader-capable domain whose leader costs no more than the spare capacity
        (with a partial slice, the leader and it costed together: ``leaderPenaltyWithTail``)."""
        if leader_count == 0 or len(domains) < 2:
            return domains
        required = count // slice_size if by_slices else count
        available = sum(d.slice_count if by_slices else d.pod_count for d in domains)
        with_tail = by_slices and tail > 0
        tails = partial_slices.cheapest_tail_domains(domains) if with_tail else None
        for i, d in enumerate(domains):
            if d.leader_count < leader_count:
                continue
            penalty = (d.slice_count - d.slice_count_with_leader) if by_slices else (
                d.pod_count - d.pod_count_with_leader)
            if tails is not None:
                penalty, home = partial_slices.leader_penalty_with_tail(domains, tails, i)
                if not home:
                    continue
            if available - penalty < required:
                continue
            if i == 0:
                return domains
            return [d] + domains[:i] + domains[i + 1:]
        return domains

    def _update_counts_to_minimum(self, domains: list[Domain], count: int, leader_count: int, slice_size: int,
                                  unconstrained: bool, by_slices: bool, tail: int = 0) -> list[Domain]:
        """``updateCountsToMinimumGeneric``: take domains in order until ``count`` pods (slices)
        and the leaders are placed, trimming the last one's counts to what it takes; a partial
        slice of ``tail`` pods (whole slices only) closes in one domain with the last whole
        slices when it can, else joins a domain with room for it."""
        domains = self._prioritize_leader_domain(domains, count, leader_count, slice_size, by_slices, tail)
        best_fit = not self._least_free(unconstrained)
        result: list[Domain] = []
        remaining = count // slice_size if by_slices else count
        leaders = leader_count
        with_leader_attr = "slice_count_with_leader" if by_slices else "pod_count_with_leader"
        primary_attr = "slice_count" if by_slices else "pod_count"
        unit = slice_size if by_slices else 1
        tail_pending = tail if by_slices else 0
        tail_hosted = False

        def finish() -> list[Domain]:
            if not tail_pending:
                return result
            placed = partial_slices.place_tail(result, domains, tail_pending)
            return [] if placed is None else placed  # Kueue: "no domain left to hold the partial slice"

        for i, dom in enumerate(domains):
            if tail_pending and not tail_hosted:
                closing = partial_slices.closing_domain(self, domains[i:], remaining, leaders, slice_size,
                                                        tail_pending, unconstrained)
                if closing is not None:
                    result.append(closing)
                    return result
            if leaders > 0:
                if best_fit and getattr(dom, with_leader_attr) >= remaining and dom.leader_count >= leaders:
                    dom = (self._best_fit_for_slices if by_slices else self._best_fit_for_pods)(
                        domains[i:], remaining, leaders)
                with_leader = getattr(dom, with_leader_attr)
                if with_leader >= remaining and dom.leader_count >= leaders:
                    setattr(dom, primary_attr, remaining)
                    dom.leader_count = leaders
                    dom.pod_count = remaining * unit
                    result.append(dom)
                    return finish()
                if with_leader > remaining:
                    with_leader = remaining
                    setattr(dom, with_leader_attr, with_leader)
                if dom.leader_count > leaders:
                    dom.leader_count = leaders
                setattr(dom, primary_attr, with_leader)
                dom.pod_count = with_leader * unit
                leaders -= dom.leader_count
                remaining -= with_leader
                result.append(dom)
                tail_hosted = tail_hosted or bool(tail_pending and partial_slices.hosts_tail_with_assigned(dom))
                continue
            if best_fit and getattr(dom, primary_attr) >= remaining:
                dom = (self._best_fit_for_slices if by_slices else self._best_fit_for_pods)(domains[i:], remaining, 0)
            dom.leader_count = 0
            if by_slices:
                if dom.slice_count >= remaining:
                    dom.pod_count = remaining * slice_size
                    dom.slice_count = remaining
                    result.append(dom)
                    return finish()
                dom.pod_count = dom.slice_count * slice_size
                remaining -= dom.slice_count
                result.append(dom)
                tail_hosted = tail_hosted or bool(tail_pending and partial_slices.hosts_tail_with_assigned(dom))
                continue
            if dom.pod_count >= remaining:
                dom.pod_count = remaining
                result.append(dom)
                return result
            remaining -= dom.pod_count
            result.append(dom)
        return []  # Kueue logs "unexpected remainingCount" and places nothing

    # -- ordering ------------------------------------------------------------------------
    def _sorted(self, domains: list[Domain], unconstrained: bool) -> list[Domain]:
        """``sortedDomains``: affinity (when respected), slices (BestFit: most first;
        LeastFreeCapacity: fewest first), then fewest pods, then the values."""
        return self._ordered(domains, unconstrained, False)

    def _sorted_with_leader(self, domains: list[Domain], unconstrained: bool) -> list[Domain]:
        """``sortedDomainsWithLeader``: most leaders first, then as ``_sorted`` on the counts
        that leave room for the leader."""
        return self._ordered(domains, unconstrained, True)

    def _ordered(self, domains: list[Domain], unconstrained: bool, leader: bool) -> list[Domain]:
        return sorted(domains, key=self._order_key(unconstrained, leader))

    def _order_key(self, unconstrained: bool, leader: bool):
        least = self._least_free(unconstrained)
        affinity = self.gates.enabled("TASRespectNodeAffinityPreferred")
        slices = "slice_count_with_leader" if leader else "slice_count"
        pods = "pod_count_with_leader" if leader else "pod_count"

        sign = 1 if least else -1

        def key(d: Domain) -> tuple:
            # Kueue's compareValues as a key: siblings share their values but the last, so comparing
            # the whole values orders them as comparing the last one does
            return (-d.leader_count if leader else 0, -d.affinity_score if affinity else 0,
                    sign * getattr(d, slices), getattr(d, pods), d.values)

        if not leader and not affinity:  # the same order on the keys that differ (the common case, faster)
            if least:
                return lambda d: (d.slice_count, d.pod_count, d.values)
            return lambda d: (-d.slice_count, d.pod_count, d.values)
        return key

    # -- results -------------------------------------------------------------------------
    def _build_assignment(self, domains: list[Domain]) -> TopologyAssignment:
        """``buildAssignment``: the hostname only when it is the lowest level, else every level;
        under a virtual hostname level the nodes' pods summed per domain of the declared levels."""
        ordered = sorted(domains, key=_values)  # Kueue's order of the values (compareValues)
        if self.virtual_node:
            n = len(self.declared_levels)
            counts: dict[tuple[str, ...], int] = {}
            for d in ordered:
                if d.pod_count:
                    counts[d.values[:n]] = counts.get(d.values[:n], 0) + d.pod_count
            return TopologyAssignment(self.declared_levels, tuple(
                TopologyDomainAssignment(values, count) for values, count in counts.items()))
        start = len(self.levels) - 1 if self.lowest_is_node else 0
        return TopologyAssignment(
            self.levels[start:],
            tuple(TopologyDomainAssignment(d.values[start:], d.pod_count) for d in ordered if d.pod_count != 0))

    def _not_fit(self, fit: int, total: int, slice_size: int, stats: ExclusionStats) -> str:
        unit = "pod" if slice_size == 1 else "slice"
        if fit == 0:
            text = f'topology "{self.topology_name}" doesn\'t allow to fit any of {total} {unit}(s)'
        else:
            text = f'topology "{self.topology_name}" allows to fit only {fit} out of {total} {unit}(s)'
        return text + stats.suffix()

    def _multi_layer_not_fit(self, per_level: list[dict[str, Domain]], level: int, count: int, layers,
                             stats: ExclusionStats) -> str:
        text = f'topology "{self.topology_name}" doesn\'t allow to fit'
        best: Domain | None = None
        for d in per_level[level].values():
            if best is None or d.slice_count > best.slice_count or (d.slice_count == best.slice_count
                                                                    and d.id < best.id):
                best = d
        if best is None:
            return text
        for layer in layers:
            if layer.topology not in self.levels:
                continue
            target = self.levels.index(layer.topology)
            fit = _slices_in_subtree(best, level, target, layer.size)
            text += f"; {fit}/{count // layer.size} slice(s) fit on level {layer.topology}"
        return text + stats.suffix()


def _slices_in_subtree(d: Domain, level: int, target: int, size: int) -> int:
    if level == target:
        return d.pod_count // size
    return sum(_slices_in_subtree(c, level + 1, target, size) for c in d.children)


def _slice_only(r: TopologyRequest | None) -> bool:
    """``isSliceTopologyOnlyRequest``: slice layers without a required/preferred level."""
    return r is not None and r.required is None and r.preferred is None and bool(r.slice_layers())


def _lower(domains: list[Domain]) -> list[Domain]:
    return [c for d in domains for c in d.children]


def _leader_and_workers(trs: list[PodSetTASRequest]) -> tuple[PodSetTASRequest | None, PodSetTASRequest]:
    """``findLeaderAndWorkers``: of a group of two, the one with fewer pods leads."""
    workers, leader = trs[0], None
    if len(trs) > 1:
        leader = trs[1]
        if leader.count > workers.count:
            leader, workers = trs[0], trs[1]
    return leader, workers


def _values(d: Domain) -> tuple:
    return d.values


def counted_domains(f: FlavorTopology, tr: PodSetTASRequest) -> tuple[PlacementParams, NodeRequirements | None,
                                                                       list[Domain], str]:
    """Phase 1 alone for one pod set on the usage as it is (no leader, nothing assumed), for
    explain's domain view: (the run's parameters, what it asks of a node, the domains of the level
    that decides in the order Kueue tries them, why Kueue refuses the request before counting).
    The domains' counts hold until the next placement run on ``f``.  They are counted on the
    flavor's own tree, not a ``counts_cache`` copy: the view reads the real leaves (nodes, usage)."""
    p, reason = f._placement_params(tr, None)
    if reason:
        return p, None, [], reason
    node_req = NodeRequirements.of(tr.pod, f.tolerations, f.lowest_is_node,
                                   f.gates.enabled("TASRespectNodeAffinityPreferred"))
    p.per_level = f.per_level
    requests = plus(tr.single_pod_requests, ONE_POD)
    f._set_caps(requests, None, False, {})
    f._fill_own_tree(f._matched_leaves(node_req, p.stats), requests, None, {}, False, p)
    return p, node_req, f._sorted_with_leader(list(f.per_level[p.requested_level].values()), p.unconstrained), ""
