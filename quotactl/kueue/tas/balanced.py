"""Balanced placement (gate ``TASBalancedPlacement``, for ``preferred`` requests;
``pkg/cache/scheduler/tas_balanced_placement.go``): among the domains one level above the
requested one, find the set where the smallest share of slices per domain (the threshold) is
largest, then place ``threshold`` slices on every chosen domain and the rest where room is left.
Falls back to the ordinary placement (None) when no such set exists."""

from __future__ import annotations

import copy
import math
from functools import cmp_to_key

from quotactl.kueue.tas.domain import Domain, PlacementParams

# ``s`` below is the flavor's ``snapshot.FlavorTopology`` (its orderings and count roll-up), passed
# in by the snapshot: it is not imported here, the snapshot imports this module.


def _cmp_values(a: Domain, b: Domain) -> int:
    return (a.values > b.values) - (a.values < b.values)


def _greedy(s, domains: list[Domain], slice_count: int, leader_count: int):
    """``evaluateGreedyAssignment``: (fits, domains used, last with leader, last without)."""
    used = 0
    last = last_with_leader = None
    remaining, leaders = slice_count, leader_count
    idx = 0
    if leader_count > 0:
        with_leader = s._sorted_with_leader(domains, False)
        while leaders > 0 and idx < len(with_leader) and with_leader[idx].leader_count > 0:
            used += 1
            last_with_leader = with_leader[idx]
            leaders -= with_leader[idx].leader_count
            remaining -= with_leader[idx].slice_count_with_leader
            idx += 1
        without = s._sorted(with_leader[idx:], False)
    else:
        without = s._sorted(domains, False)
    if leaders > 0:
        return False, 0, None, None
    idx = 0
    while remaining > 0 and idx < len(without) and without[idx].slice_count > 0:
        used += 1
        last = without[idx]
        remaining -= without[idx].slice_count
        idx += 1
    if remaining > 0:
        return False, 0, None, None
    return True, used, last_with_leader, last


def _threshold(slice_count: int, used: int, last_with_leader, last) -> int:
    t = slice_count // used
    if last_with_leader is not None:
        t = min(t, last_with_leader.slice_count_with_leader)
    if last is not None:
        t = min(t, last.slice_count)
    return t


def _entropy(domains: list[Domain]) -> float:
    total = sum(d.pod_count for d in domains)
    if total == 0:
        return 0.0
    return sum(-(d.pod_count / total) * math.log2(d.pod_count / total) for d in domains if d.pod_count > 0)


def _cmp_capacity_entropy(a: Domain, b: Domain) -> int:
    if a.leader_count != b.leader_count:
        return b.leader_count - a.leader_count
    if a.slice_count_with_leader != b.slice_count_with_leader:
        return b.slice_count_with_leader - a.slice_count_with_leader
    ea, eb = _entropy(a.children), _entropy(b.children)
    if eb > ea:
        return 1
    if eb < ea:
        return -1
    return _cmp_values(a, b)


def _optimal_set(s, domains: list[Domain], slice_count: int, leader_count: int, slice_size: int,
                 by_entropy: bool) -> list[Domain] | None:
    """``selectOptimalDomainSetToFit``: as few domains as the greedy placement needs, and of
    those sets the one leaving the least room (dynamic programming over leaders and pods left)."""
    fit, n, _l, _d = _greedy(s, domains, slice_count, leader_count)
    if not fit:
        return None
    ordered = sorted(domains, key=cmp_to_key(_cmp_capacity_entropy if by_entropy else _cmp_values))
    table: list[dict[int, dict[int, list]]] = [{} for _ in range(n + 1)]
    table[0][leader_count] = {slice_count * slice_size: []}
    for d in ordered:
        for i in range(n, 0, -1):
            for before_leader in sorted(table[i - 1]):
                for before_pods in sorted(table[i - 1][before_leader]):
                    placed = table[i - 1][before_leader][before_pods]
                    if before_leader <= 0 and before_pods <= 0:
                        continue
                    chosen = placed + [d]
                    if before_leader > 0 and d.leader_count > 0:
                        row = table[i].setdefault(before_leader - d.leader_count, {})
                        row.setdefault(before_pods - d.pod_count_with_leader, chosen)
                    if d.slice_count > 0:
                        row = table[i].setdefault(before_leader, {})
                        row.setdefault(before_pods - d.pod_count, chosen)
    best, best_left = None, -(1 << 31)
    for left in sorted(table[n].get(0, {})):
        if best_left < left <= 0:
            best_left, best = left, table[n][0][left]
    return best


def _place(s, domains: list[Domain], slice_count: int, leader_count: int, slice_size: int,
           threshold: int) -> list[Domain] | None:
    """``placeSlicesOnDomainsBalanced``."""
    chosen = _optimal_set(s, domains, slice_count, leader_count, slice_size, False)
    if chosen is None or slice_count < len(chosen) * threshold:
        return None
    chosen = s._sorted_with_leader(chosen, False)
    extra, leaders = slice_count - len(chosen) * threshold, leader_count
    for d in chosen:
        if leaders > 0:
            take = min(d.slice_count_with_leader - threshold, extra)
            d.leader_count = 1
            leaders -= 1
        elif extra > 0:
            take = min(d.slice_count - threshold, extra)
            d.leader_count = 0
        else:
            d.leader_count, take = 0, 0
        d.pod_count = (threshold + take) * slice_size
        d.slice_count = threshold + take
        d.slice_count_with_leader = d.slice_count
        d.pod_count_with_leader = d.pod_count - d.leader_count
        extra -= take
    if extra > 0 or leaders > 0:
        return None
    return chosen


def _clone(d: Domain, parent: Domain | None) -> Domain:
    twin = copy.copy(d)
    twin.parent = parent
    twin.children = [_clone(c, twin) for c in d.children]
    return twin


def _clear(d: Domain) -> None:
    score = d.affinity_score
    d.reset()
    d.affinity_score = score
    for c in d.children:
        _clear(c)


def _clear_leader(d: Domain) -> None:
    d.pod_count_with_leader = d.slice_count_with_leader = d.leader_count = 0
    for c in d.children:
        _clear_leader(c)


def _prune_node(d: Domain, threshold: int, leader_required: bool) -> None:
    if d.slice_count < threshold:
        _clear(d)
        return
    if leader_required and d.leader_count > 0 and d.slice_count_with_leader < threshold:
        _clear_leader(d)


def _prune(s, domains: list[Domain], threshold: int, p: PlacementParams, level: int) -> None:
    leader_required = p.leader_count > 0
    for d in domains:
        for c in d.children:
            _prune_node(c, threshold, leader_required)
    for d in domains:
        s._fill_helper(d, p.slice_size, p.slice_level, level, {}, leader_required)
        _prune_node(d, threshold, leader_required)


def _best_domains(s, p: PlacementParams) -> tuple[list[Domain], int]:
    """``findBestDomainsForBalancedPlacement``: the candidate domains and the best threshold."""
    slice_count = p.count // p.slice_size
    level = p.requested_level
    if level == 0:
        groups = [list(p.per_level[0].values())]
    else:
        groups = [h.children for h in sorted(p.per_level[level - 1].values(), key=cmp_to_key(_cmp_values))]
    best_threshold, best_count, best = 0, 0, []
    for siblings in groups:
        candidates = [_clone(d, None) for d in siblings]
        lower = [c for d in candidates for c in d.children] if level < p.slice_level else candidates
        fits, used, last_with_leader, last = _greedy(s, lower, slice_count, p.leader_count)
        if not fits:
            continue
        threshold = _threshold(slice_count, used, last_with_leader, last)
        with_reservation = threshold
        if p.leader_count > 0 and last is not None:
            with_reservation = min(threshold, last.slice_count_with_leader)
        if threshold < best_threshold:
            continue
        _prune(s, candidates, threshold, p, level)
        fits, count, _a, _b = _greedy(s, candidates, slice_count, p.leader_count)
        if not fits and with_reservation < threshold:
            if with_reservation <= 0 or with_reservation < best_threshold:
                continue
            threshold = with_reservation
            candidates = [_clone(d, None) for d in siblings]
            _prune(s, candidates, threshold, p, level)
            fits, count, _a, _b = _greedy(s, candidates, slice_count, p.leader_count)
        if not fits:
            continue
        if threshold > best_threshold or (threshold == best_threshold and count < best_count):
            best_threshold, best_count, best = threshold, count, candidates
    return best, best_threshold


def balanced_placement(s, p: PlacementParams) -> tuple[list[Domain], int] | None:
    """The domains to walk down from and their level, or None to use the ordinary placement
    (``applyBalancedPlacementAlgorithm``)."""
    domains, threshold = _best_domains(s, p)
    if threshold <= 0:
        return None
    slice_count = p.count // p.slice_size
    level = p.requested_level
    if p.requested_level < p.slice_level:
        chosen = _optimal_set(s, domains, slice_count, p.leader_count, p.slice_size, True)
        if chosen is None:
            return None
        domains = [c for d in chosen for c in d.children]
        level = p.requested_level + 1
    placed = _place(s, domains, slice_count, p.leader_count, p.slice_size, threshold)
    if placed is None:
        return None
    return placed, level
