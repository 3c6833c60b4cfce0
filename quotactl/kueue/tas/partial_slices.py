"""The partial slice of ``TASPartialSlices`` (Kueue's ``tas_partial_slices.go``).

A pod set whose count is not a multiple of its slice size is cut into whole slices and one partial
slice of ``count % size`` pods, which, like a whole one, must sit in a single domain of the slice
level.  Phase 1 counts, besides a domain's whole slices, the whole slices it still holds once it
also holds the partial one (``slice_count_with_tail``, and with the leader as well), -1 when the
partial slice does not fit in it at all; phase 2 selects domains knowing where the partial slice
will go.  Off (or with more than one slice layer, or slices of one pod) the tail is 0 and nothing
here runs: the pods that do not make a whole slice are left unplaced, as before the gate.
"""

from __future__ import annotations

from quotactl.kueue.tas.domain import Domain

NO_TAIL_FIT = -1  # ``noTailFit``: compares as "no room" against any number of slices


def tail_size(enabled: bool, layers: tuple, count: int, slice_size: int) -> int:
    """``newSliceShape``: the partial slice's pods (0 unless the gate is on, a single slice layer
    is requested and the slices hold more than one pod)."""
    if not enabled or slice_size <= 1 or len(layers) != 1:
        return 0
    return count % slice_size


def hosting(pods: int, size: int, tail: int) -> int:
    """``sliceCountHostingTail``: whole slices left in ``pods`` once the partial slice is in."""
    return NO_TAIL_FIT if pods < tail else (pods - tail) // size


def fill_at_slice_level(d: Domain, size: int, tail: int) -> None:
    """``fillTailCountsAtSliceLevel``."""
    d.slice_count_with_tail = hosting(d.pod_count, size, tail)
    d.slice_count_with_leader_and_tail = hosting(d.pod_count_with_leader, size, tail)


class Cheapest:
    """``cheapestChild``: the two lowest penalties seen (the index of the lowest one)."""

    __slots__ = ("best_idx", "best", "second", "has_best", "has_second")

    def __init__(self):
        self.best_idx, self.best, self.second, self.has_best, self.has_second = -1, 0, 0, False, False

    def add(self, idx: int, penalty: int) -> None:
        if not self.has_best or penalty < self.best:
            self.second, self.has_second = self.best, self.has_best
            self.best_idx, self.best, self.has_best = idx, penalty, True
        elif not self.has_second or penalty < self.second:
            self.second, self.has_second = penalty, True


def _lower(best: int, found: bool, candidate: int, ok: bool) -> tuple[int, bool]:
    if ok and (not found or candidate < best):
        return candidate, True
    return best, found


def fill_parent(d: Domain, size: int, tail: int, at_slice_level: bool, leader_required: bool) -> None:
    """``fillTailCounts`` of a domain at or above the slice level, from its children
    (``tailPenaltyTracker``): the cheapest child to hold the partial slice, and to hold it with
    the leader (in one child or two).  Called after the domain's own counts are final."""
    if at_slice_level:
        fill_at_slice_level(d, size, tail)
        return
    tails, leaders = Cheapest(), Cheapest()
    both, has_both = 0, False
    children_slices = 0
    for idx, c in enumerate(d.children):
        children_slices += c.slice_count
        if c.slice_count_with_tail != NO_TAIL_FIT:
            tails.add(idx, c.slice_count - c.slice_count_with_tail)
        if not (leader_required and c.leader_count > 0):
            continue
        leaders.add(idx, c.slice_count - c.slice_count_with_leader)
        if c.slice_count_with_leader_and_tail != NO_TAIL_FIT:
            both, has_both = _lower(both, has_both, c.slice_count - c.slice_count_with_leader_and_tail, True)
    d.slice_count_with_tail = d.slice_count_with_leader_and_tail = NO_TAIL_FIT
    if tails.has_best:
        d.slice_count_with_tail = min(children_slices - tails.best, hosting(d.pod_count, size, tail))
    if leaders.has_best and tails.has_best:  # ``leaderAndTailPenalty``
        if leaders.best_idx != tails.best_idx:
            both, has_both = _lower(both, has_both, leaders.best + tails.best, True)
        else:
            both, has_both = _lower(both, has_both, leaders.second + tails.best, leaders.has_second)
            both, has_both = _lower(both, has_both, leaders.best + tails.second, tails.has_second)
    if has_both:
        d.slice_count_with_leader_and_tail = min(children_slices - both, hosting(d.pod_count_with_leader, size, tail))


def slices_held(d: Domain) -> int:
    """The pod set's slices a domain holds, the partial one counted as a slice when it fits beside
    the whole ones (as Kueue's failure text counts the requested slices)."""
    if d.slice_count_with_tail == NO_TAIL_FIT:
        return d.slice_count
    return max(d.slice_count, d.slice_count_with_tail + 1)


def capacity(d: Domain, with_leader: bool, with_tail: bool) -> int:
    """``sliceCapacity``: whole slices the domain holds next to what it is asked to hold."""
    if with_tail:
        return d.slice_count_with_leader_and_tail if with_leader else d.slice_count_with_tail
    return d.slice_count_with_leader if with_leader else d.slice_count


def fits_slices(d: Domain, slices: int, leaders: int, with_tail: bool) -> bool:
    """``fitsSlices``."""
    if leaders > 0 and d.leader_count < leaders:
        return False
    return capacity(d, leaders > 0, with_tail) >= slices


def cheapest_tail_domains(domains: list[Domain]) -> Cheapest:
    """``cheapestTailDomains``: the two domains that give up the fewest whole slices for it."""
    out = Cheapest()
    for i, d in enumerate(domains):
        if d.slice_count_with_tail != NO_TAIL_FIT:
            out.add(i, d.slice_count - d.slice_count_with_tail)
    return out


def leader_penalty_with_tail(domains: list[Domain], tails: Cheapest, idx: int) -> tuple[int, bool]:
    """``leaderPenaltyWithTail``: whole slices given up when ``domains[idx]`` takes the leader and
    the partial slice goes where it costs least; False when the partial slice is left no home."""
    d = domains[idx]
    penalty, found = 0, False
    if d.slice_count_with_leader_and_tail != NO_TAIL_FIT:
        penalty, found = d.slice_count - d.slice_count_with_leader_and_tail, True
    if tails.has_best:
        tail_penalty, elsewhere = tails.best, True
        if tails.best_idx == idx:
            tail_penalty, elsewhere = tails.second, tails.has_second
        split = d.slice_count - d.slice_count_with_leader + tail_penalty
        if elsewhere and (not found or split < penalty):
            penalty, found = split, True
    return penalty, found


def hosts_tail_with_assigned(d: Domain) -> bool:
    """``hostsTailWithAssignedSlices``: the partial slice fits next to the whole slices the
    descent gave the domain (its ``slice_count`` now)."""
    room = d.slice_count_with_leader_and_tail if d.leader_count > 0 else d.slice_count_with_tail
    return room != NO_TAIL_FIT and d.slice_count <= room


def first_domain_hosting_tail(candidates: list[Domain], selected: list[Domain]) -> Domain | None:
    """``firstDomainHostingTail``: the first candidate not selected yet that can hold it."""
    taken = {id(d) for d in selected}
    for d in candidates:
        if id(d) not in taken and d.slice_count_with_tail != NO_TAIL_FIT:
            return d
    return None


def selection_holds_tail(selected: list[Domain], assigned: list[int], takes_leader: list[bool]) -> bool:
    """``selectionHoldsTail``: one selected domain has room for it next to its expected slices."""
    for d, slices, leader in zip(selected, assigned, takes_leader, strict=True):
        room = capacity(d, leader, True)
        if room != NO_TAIL_FIT and slices <= room:
            return True
    return False


def place_tail(assigned: list[Domain], candidates: list[Domain], tail: int) -> list[Domain] | None:
    """``appendTailDomain``/``placeTail``: the partial slice joins an assigned domain with room
    for it, else opens the first unused candidate that holds it; None when none can."""
    for d in assigned:
        if hosts_tail_with_assigned(d):
            d.pod_count += tail
            return assigned
    extra = first_domain_hosting_tail(candidates, assigned)
    if extra is None:
        return None
    extra.slice_count = extra.leader_count = 0
    extra.pod_count = tail
    return assigned + [extra]


def slice_aligned(groups: list[int], size: int) -> bool:
    """``assignmentSliceAligned`` after ``normalizeTailLast``: the pods per domain of the slice
    level are whole slices but in one domain, which holds the remainder (the first such)."""
    total = sum(groups)
    remainder = total % size
    rest = list(groups)
    if remainder:
        for i, pods in enumerate(rest):
            if pods % size == remainder:
                del rest[i]
                break
        else:
            return False
    return all(pods % size == 0 for pods in rest)


def best_fit_with_tail(f, domains: list[Domain], slice_count: int, leader_count: int) -> Domain:
    """``findBestFitDomainForSlicesWithTail`` (``f``: the flavor's ``snapshot.FlavorTopology``): the
    fewest whole slices next to the partial one that still cover ``slice_count``, ties to the
    fewest whole slices; else the first of the top affinity tier."""
    candidates = f._top_affinity_tier(domains)
    with_leader = leader_count > 0
    best, best_key = candidates[0], None
    for d in candidates:
        if d.leader_count < leader_count:
            continue
        tail_count = capacity(d, with_leader, True)
        key = (tail_count, capacity(d, with_leader, False))
        if tail_count >= slice_count and (best_key is None or key < best_key):
            best, best_key = d, key
    return best


def closing_domain(f, candidates: list[Domain], remaining: int, leaders: int, size: int, tail: int,
                   unconstrained: bool) -> Domain | None:
    """``closingDomainWithTail``: one domain that takes the remaining whole slices, leaders and the
    partial slice, when that needs no roomier domain than the best fit for the whole ones (its
    counts then trimmed to what it takes); None otherwise."""
    dom = candidates[0]
    with_leader = leaders > 0
    if capacity(dom, with_leader, False) < remaining or dom.leader_count < leaders:
        return None
    tail_dom = whole_fit = dom
    if not f._least_free(unconstrained):
        tail_dom = best_fit_with_tail(f, candidates, remaining, leaders)
        whole_fit = f._best_fit_for_slices(candidates, remaining, leaders)
    if (capacity(tail_dom, with_leader, True) < remaining or tail_dom.leader_count < leaders
            or capacity(tail_dom, with_leader, False) > capacity(whole_fit, with_leader, False)):
        return None
    tail_dom.leader_count = leaders
    tail_dom.slice_count_with_leader = tail_dom.slice_count = remaining
    tail_dom.pod_count = remaining * size + tail
    return tail_dom


def tail_placed(fit: list[Domain], p) -> bool:
    """Every pod of the placement (``p``: its ``PlacementParams``) placed, in whole slices per
    domain of the slice level but the one holding the partial slice (Kueue's guard in
    ``findTopologyAssignment``: ``CountPodsInAssignment``, ``assignmentSliceAligned``)."""
    per_domain: dict[tuple, int] = {}
    for d in fit:
        if d.pod_count:
            key = d.values[:p.slice_level + 1]
            per_domain[key] = per_domain.get(key, 0) + d.pod_count
    return (sum(per_domain.values()) == p.count
            and slice_aligned([per_domain[k] for k in sorted(per_domain)], p.slice_size))
