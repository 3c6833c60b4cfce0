"""Dominant resource share (fair sharing): ``pkg/cache/scheduler/fair_sharing.go``."""

from __future__ import annotations

import math
from dataclasses import dataclass

from quotactl.kueue.quota.arithmetic import potential_available, potential_available_given_parent
from quotactl.kueue.quota.nodes import FR, QuotaNode

# ------------------------------------------------------------------ dominant resource share ---

@dataclass(frozen=True)
class DRS:
    """A node's dominant resource share, comparable with ``compare_drs``."""

    fair_weight: float = 1.0
    unweighted_ratio: float = 0.0
    dominant_resource: str = ""
    borrowing: bool = False
    borrowed_frs: tuple = ()

    def is_zero(self) -> bool:
        return self.unweighted_ratio == 0

    def zero_weight_borrows(self) -> bool:
        return self.fair_weight == 0 and self.borrowing

    def precise_weighted_share(self) -> float:
        if self.zero_weight_borrows():
            return math.inf
        if self.is_zero():
            return 0.0
        return self.unweighted_ratio / self.fair_weight

    def weighted_share(self) -> int:
        """The value Kueue reports in ``status.fairSharing.weightedShare``."""
        if self.zero_weight_borrows():
            return 2**63 - 1
        return int(math.ceil(self.precise_weighted_share()))

    def is_borrowing_on(self, requested: dict) -> bool:
        return any(requested.get(fr, 0) > 0 for fr in self.borrowed_frs)


NEGATIVE_DRS = DRS(fair_weight=1.0, unweighted_ratio=-1.0)


def compare_drs(a: DRS, b: DRS) -> int:
    """``CompareDRS``: zero-weight borrowers after everyone, else by weighted share."""
    az, bz = a.zero_weight_borrows(), b.zero_weight_borrows()
    if az and bz:
        return (a.unweighted_ratio > b.unweighted_ratio) - (a.unweighted_ratio < b.unweighted_ratio)
    if az:
        return 1
    if bz:
        return -1
    x, y = a.precise_weighted_share(), b.precise_weighted_share()
    return (x > y) - (x < y)


def calculate_lendable(node: QuotaNode) -> dict[str, int]:
    """``calculateLendable``: per resource name, Σ over the root's frs of potentialAvailable(node)."""
    return lendable_of(root_potentials(node))


def root_potentials(node: QuotaNode) -> dict[FR, int]:
    """potentialAvailable(node) for each fr of its root's SubtreeQuota (what ``calculateLendable``
    sums); ``potentials_below`` then gives a child's from these in one step."""
    return {fr: potential_available(node, fr) for fr in node.root().subtree_quota}


def potentials_below(child: QuotaNode, parent_potentials: dict[FR, int]) -> dict[FR, int]:
    """``root_potentials(child)`` from its parent's."""
    return {fr: potential_available_given_parent(child, fr, v) for fr, v in parent_potentials.items()}


def lendables_up(path: list[QuotaNode]) -> list[dict[str, int]]:
    """``calculate_lendable`` of each node of ``path`` (a node, its parent, ... up to its root),
    in one walk down from the root instead of one walk up per node."""
    potentials = root_potentials(path[-1])
    out = [lendable_of(potentials)]
    for node in reversed(path[:-1]):
        potentials = potentials_below(node, potentials)
        out.append(lendable_of(potentials))
    return out[::-1]


def lendable_of(potentials: dict[FR, int]) -> dict[str, int]:
    lendable: dict[str, int] = {}
    for fr, v in potentials.items():
        lendable[fr[1]] = lendable.get(fr[1], 0) + v
    return lendable


def dominant_resource_share(node: QuotaNode, extra: dict[FR, int] | None = None,
                            parent_lendable: dict[str, int] | None = None) -> DRS:
    """``dominantResourceShare``: borrowed / what the parent could lend, max over resources.
    ``parent_lendable``: ``calculate_lendable(node.parent)`` when the caller has it already."""
    if node.parent is None:
        return DRS(fair_weight=node.fair_weight)
    borrowed: dict[str, int] = {}
    borrowed_frs = []
    for fr, quota in node.subtree_quota.items():
        b = (extra.get(fr, 0) if extra else 0) + node.usage.get(fr, 0) - quota
        if b > 0:
            borrowed[fr[1]] = borrowed.get(fr[1], 0) + b
            borrowed_frs.append(fr)
    if not borrowed:
        return DRS(fair_weight=node.fair_weight)
    lendable = calculate_lendable(node.parent) if parent_lendable is None else parent_lendable
    ratio, dominant = 0.0, ""
    for res, b in borrowed.items():
        lr = lendable.get(res, 0)
        if lr > 0:
            r = float(b) * 1000.0 / float(lr)
            if r > ratio or (r == ratio and res < dominant):
                ratio, dominant = r, res
    return DRS(node.fair_weight, ratio, dominant, True, tuple(borrowed_frs))
