"""Explain's view of a TAS pod set that Kueue cannot place now: the candidate domains at the level
that decides (the required or preferred level, the top level for slice-only requests, the lowest
for unconstrained ones), in the order Kueue's placement tries them, each with its nodes, free
capacity, how many of the pod set's pods (slices) fit and the nodes excluded by cause; and which
admitted workloads, once gone (finished or preempted), would let it fit.

Every count comes from the placement engine itself (``snapshot.counted_domains`` is phase 1 of
``FindTopologyAssignmentsForFlavor``; "fits" is ``find_assignments``), on the usage as it is or
with some workloads' TAS usage taken out and put back (``TASState.apply``).  Bounded: the first
``SHOWN`` domains, and at most ``FIT_RUNS`` placement runs for the search, so a 5,000-node
snapshot stays fast."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from quotactl.kueue.tas import partial_slices
from quotactl.kueue.tas.domain import Domain, Leaf
from quotactl.kueue.tas.feasibility import ExclusionStats, feasible_leaves
from quotactl.kueue.tas.resources import ONE_POD, Requests, add, count_in_with_limit, plus
from quotactl.kueue.tas.snapshot import FlavorTopology, PodSetTASRequest, counted_domains, domain_id
from quotactl.kueue.tas.state import DomainUsage, TASState

SHOWN = 10  # candidate domains listed; the rest are counted
FIT_RUNS = 8  # placement runs the "what would admit it" search may take
FREED_SETS = 3  # workload sets it names


class DomainRow(NamedTuple):
    """One candidate domain as the placement run saw it."""

    values: tuple[str, ...]
    nodes: int
    free: Requests  # allocatable less non-TAS pods and TAS usage, per requested resource (never negative)
    pods_fit: int
    slices_fit: int | None  # None: the pod set is not sliced
    excluded: dict[str, int]  # Kueue's exclusion causes (nodeSelector, taint "k=v:E", resource "r", ...)


class Holder(NamedTuple):
    """An admitted workload holding TAS capacity: its key, its usage, whether this workload's
    preemption policies allow evicting it."""

    key: str
    usage: tuple[DomainUsage, ...]
    preemptable: bool


class FreedBy(NamedTuple):
    """Workloads whose going lets the pod set fit, the domain it then lands in, and how many of
    its pods that domain takes then (its nodes counted as phase 1 counts them)."""

    workloads: tuple[Holder, ...]
    values: tuple[str, ...]
    pods_fit_after: int


class DomainView(NamedTuple):
    level: str
    count: int  # the pod set's pods
    slices: int | None  # the slices they make (None: not sliced)
    domains: tuple[DomainRow, ...]
    omitted: int
    frees_up_when: tuple[FreedBy, ...]


def domain_view(state: TASState, flavor: str, tr: PodSetTASRequest, holders: list[Holder], *,
                fits_when_empty: bool | None = None) -> DomainView | None:
    """The view of ``tr`` on ``flavor`` (None when Kueue refuses the request before counting);
    ``holders``: the admitted TAS workloads in the order to try them (Kueue's candidates first);
    ``fits_when_empty``: whether it fits with every TAS workload gone, when the caller knows."""
    f = state.flavors.get(flavor)
    if f is None:
        return None
    p, node_req, ordered, reason = counted_domains(f, tr)
    if reason:
        return None
    sliced = p.slice_size > 1
    shown = ordered[:SHOWN]
    requests = plus(tr.single_pod_requests, ONE_POD)
    node_counts = None if f.lowest_is_node else Counter(f.node_to_leaf.values())
    rows = tuple(_row(f, d, requests, node_req, node_counts, sliced, p.tail_size > 0) for d in shown)
    level = f.levels[p.requested_level]
    targets = _targets(p.required, tr.count, ordered)  # before a placement run resets the counts
    search = _Search(state, f, tr, p.requested_level, ordered)
    if fits_when_empty is None:
        fits_when_empty = bool(f.find_assignments([tr], simulate_empty=True)[tr.name].assignment)
    freed = _frees_up_when(search, targets, holders) if fits_when_empty else ()
    # a partial slice (TASPartialSlices) counts as one, as in Kueue's failure text
    slices = tr.count // p.slice_size + (1 if p.tail_size else 0) if sliced else None
    return DomainView(level, tr.count, slices, rows, len(ordered) - len(shown), freed)


def _leaves(d: Domain) -> list[Leaf]:
    if not d.children:
        return [d]
    return [leaf for c in d.children for leaf in _leaves(c)]


def _row(f: FlavorTopology, d: Domain, requests: Requests, node_req, node_counts: Counter | None,
         sliced: bool, partial: bool) -> DomainRow:
    leaves = _leaves(d)
    stats = ExclusionStats()
    usable = [leaf for leaf, _score in feasible_leaves(leaves, node_req, stats)] if f.lowest_is_node else leaves
    for leaf in usable:
        if leaf.pod_count == 0:  # the resource that leaves no room, as phase 1 counts it
            _fit, limiting = count_in_with_limit(requests, f.remaining(leaf, False))
            if limiting:
                stats.resources[limiting] = stats.resources.get(limiting, 0) + 1
    free: Requests = {}
    for leaf in leaves:
        remaining = f.remaining(leaf, False)
        for r in requests:
            free[r] = free.get(r, 0) + max(0, remaining.get(r, 0))
    held = f.domain_usage_under(d)  # admitted usage a virtual hostname level keeps off the leaves
    for r, v in held.items():
        if r in free:
            free[r] = max(0, free[r] - v)
    shown_free = {r: v for r, v in sorted(free.items()) if r != "pods" or len(requests) == 1}
    nodes = len(leaves) if node_counts is None else sum(node_counts[leaf.id] for leaf in leaves)
    slices = (partial_slices.slices_held(d) if partial else d.slice_count) if sliced else None
    return DomainRow(d.values, nodes, shown_free, d.pod_count, slices, _causes(stats))


def _causes(stats: ExclusionStats) -> dict[str, int]:
    """Excluded nodes by cause, named as in Kueue's failure text (``formatReasons``)."""
    out = {"nodeSelector": stats.node_selector, "affinity": stats.affinity, "topologyDomain": stats.topology_domain}
    out.update({f'taint "{k}"': v for k, v in stats.taints.items()})
    out.update({f'resource "{k}"': v for k, v in stats.resources.items()})
    return {k: v for k, v in sorted(out.items()) if v}


# -------------------------------------------------------------- what would admit it ---

class _Target(NamedTuple):
    """Where the pod set could come to fit: a candidate domain (required: the pod set must fit in
    one), or the whole flavor (values ``()``: the others may spread), and the pods it lacks there."""

    values: tuple[str, ...]
    gap: int


class _Search:
    """Placement runs on ``f`` with some holders' usage taken out, within ``FIT_RUNS``."""

    def __init__(self, state: TASState, f: FlavorTopology, tr: PodSetTASRequest, level: int,
                 ordered: list[Domain]):
        self.state, self.f, self.tr, self.level = state, f, tr, level
        self.pods_now = {d.values: d.pod_count for d in ordered}  # before a placement run resets the counts
        self.requests = plus(tr.single_pod_requests, ONE_POD)
        self.runs = 0

    def spent(self) -> bool:
        return self.runs >= FIT_RUNS

    def gain(self, gone: list[Holder], values: tuple[str, ...]) -> int:
        """How many more of the pod set's pods the leaves under ``values`` take with ``gone``'s
        usage out (each leaf counted as phase 1 counts it): a filter before a placement run."""
        freed: dict[str, Requests] = {}
        n = len(values)
        for h in gone:
            for u in h.usage:
                dom = self.f.usage_domain(u.domain) if u.flavor == self.f.flavor else None
                if dom is not None and dom.values[:n] == values:
                    add(freed.setdefault(u.domain, {}), u.total())
        out = 0
        for did, more in freed.items():
            dom = self.f.usage_domain(did)
            out += self.f.pods_in(dom, self.requests, more) - self.f.pods_in(dom, self.requests)
        return out

    def landing(self, gone: list[Holder]) -> FreedBy | None:
        """Where the pod set lands with ``gone``'s usage out, or None when it still does not fit."""
        self.runs += 1
        for h in gone:
            self.state.apply(h.usage, -1)
        try:
            res = self.f.find_assignments([self.tr])[self.tr.name]
            if res.reason or res.assignment is None or not res.assignment.domains:
                return None
            dom = self.f.usage_domain(domain_id(res.assignment.domains[0].values))
            if dom is None:
                return None
            values = dom.values[:self.level + 1]
        finally:
            for h in gone:
                self.state.apply(h.usage, 1)
        return FreedBy(tuple(gone), values, self.pods_now.get(values, 0) + self.gain(gone, values))


def _targets(required: bool, count: int, ordered: list[Domain]) -> list[_Target]:
    if required:
        return [_Target(d.values, count - d.pod_count) for d in ordered[:SHOWN] if d.pod_count < count]
    return [_Target((), count - sum(d.pod_count for d in ordered))]


def _frees_up_when(search: _Search, targets: list[_Target], holders: list[Holder]) -> tuple[FreedBy, ...]:
    """Single workloads first (in ``holders``' order), then, per target in Kueue's order, its
    holders taken out one by one until they free enough; each candidate set checked by a
    placement run.  Only for a pod set that fits with every TAS workload gone."""
    found: list[FreedBy] = []
    for h in holders:
        if len(found) >= FREED_SETS or search.spent():
            return tuple(found)
        if any(t.gap > 0 and search.gain([h], t.values) >= t.gap for t in targets):
            hit = search.landing([h])
            if hit is not None:
                found.append(hit)
    if found:
        return tuple(found)
    for t in targets:
        gone: list[Holder] = []
        for h in holders:
            if search.gain([h], t.values) <= 0:
                continue
            gone.append(h)
            if len(gone) > 1 and search.gain(gone, t.values) >= t.gap:
                break
        if len(gone) < 2 or search.spent():
            continue
        hit = search.landing(gone)
        if hit is not None:
            found.append(hit)
            if len(found) >= FREED_SETS:
                break
    return tuple(sorted(found, key=lambda b: len(b.workloads)))
