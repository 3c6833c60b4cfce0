"""The usage side of a TAS flavor's tree (``tas_flavor_snapshot.go``: ``addNonTASUsage``,
``updateTASUsage``, ``Fits`` and, under a virtual hostname level, the usage domains of
``domainTASUsage`` / ``domainRemainingCapacity``): non-TAS pods charge their node's leaf, admitted
assignments their leaf (or their declared lowest-level domain), and every change stamps the leaf
for ``counts_cache``.  ``TASUsage`` is mixed into ``snapshot.FlavorTopology``.
"""

from __future__ import annotations

from quotactl.kueue.tas.domain import Domain, Leaf, domain_id
from quotactl.kueue.tas.resources import INT32_MAX, Requests, add, count_in, sub
from quotactl.model.kueue_tas import TopologyAssignment


class TASUsage:
    """The usage methods of ``FlavorTopology``."""

    def add_non_tas_usage(self, node_name: str, usage: Requests) -> None:
        did = self.node_to_leaf.get(node_name)
        if did is not None:
            sub(self.leaves[did].free, usage)
            self._changed(self.leaves[did])

    def update_tas_usage(self, did: str, usage: Requests, sign: int) -> None:
        """Add (``sign`` 1) or remove (-1) usage on a leaf (virtual hostname: on a domain of the
        declared lowest level, whose leaves are then recounted); a domain the flavor does not hold
        (its node is gone or not Ready) is skipped, as Kueue does."""
        dom = self.usage_domain(did)
        if dom is None:
            return
        held = self.domain_usage.setdefault(did, {}) if self.virtual_node else dom.tas_usage
        for r, v in usage.items():
            held[r] = held.get(r, 0) + sign * v
        for leaf in dom.children if self.virtual_node else (dom,):
            self._changed(leaf)

    def usage_domain(self, did: str) -> Domain | None:
        """The domain an assignment's domain id names: a leaf, or under a virtual hostname level a
        domain of the declared lowest level."""
        if self.virtual_node:
            return self.per_level[self.usage_level].get(did)
        return self.leaves.get(did)

    def domain_remaining(self, dom: Domain, simulate_empty: bool) -> Requests:
        """``domainRemainingCapacity``: a usage domain's leaves' free capacity less its TAS usage."""
        out: Requests = {}
        for leaf in self.per_level[self.usage_level][dom.id].children:  # the flavor's own leaves
            add(out, leaf.free)
        if not simulate_empty:
            sub(out, self.domain_usage.get(dom.id, {}))
        return out

    def domain_usage_under(self, d: Domain) -> Requests:
        """The TAS usage the usage domains at or below ``d`` hold (none when leaves hold it)."""
        out: Requests = {}
        n = len(d.values)
        for did, usage in self.domain_usage.items():
            dom = self.per_level[self.usage_level].get(did)
            if dom is not None and dom.values[:n] == d.values:
                add(out, usage)
        return out

    def pods_in(self, dom: Domain, single: Requests, freed: Requests | None = None) -> int:
        """How many pods of ``single`` requests a usage domain (``usage_domain``) takes, with
        ``freed`` more room: its leaf's, or its leaves' count bounded by the domain's remaining."""
        if not self.virtual_node:
            remaining = self.remaining(dom, False)
            if freed:
                add(remaining, freed)
            return count_in(single, remaining)
        on_leaves = sum(count_in(single, self.remaining(leaf, False)) for leaf in dom.children)
        remaining = self.domain_remaining(dom, False)
        if freed:
            add(remaining, freed)
        return min(on_leaves, count_in(single, remaining))

    def _changed(self, leaf: Leaf) -> None:
        """Stamp a leaf whose usage changed (what ``counts_cache`` recounts)."""
        self.usage_version += 1
        leaf.version = self.usage_version
        self.usage_log.append(leaf)

    def remaining(self, leaf: Leaf, simulate_empty: bool) -> Requests:
        out = dict(leaf.free)
        if not simulate_empty:
            sub(out, leaf.tas_usage)
        return out

    def fits(self, usage: list[tuple[str, Requests, int]]) -> bool:
        """``Fits``: every (domain, per-pod requests, count) still fits on its leaf (its leaves,
        bounded by the domain)."""
        for did, single, count in usage:
            if not self.virtual_node:
                leaf = self.leaves.get(did)
                if leaf is None or not _takes(single, leaf.free, leaf.tas_usage, count):
                    return False
                continue
            dom = self.usage_domain(did)
            if dom is None or self.pods_in(dom, single) < count:
                return False
        return True


def usage_per_domain(ta: TopologyAssignment, single: Requests) -> dict[str, Requests]:
    """``ComputeUsagePerDomain``: per domain of an assignment, its pods' requests plus the pods."""
    return {domain_id(d.values): pods_usage(single, d.count) for d in ta.domains}


def pods_usage(single: Requests, count: int) -> Requests:
    """``count`` pods of ``single`` requests, each also taking one of the node's pods."""
    usage = {r: v * count for r, v in single.items()}
    usage["pods"] = usage.get("pods", 0) + count
    return usage


def _takes(single: Requests, free: Requests, used: Requests, count: int) -> bool:
    """``count_in(single, free - used) >= count``, without building the remaining capacity (this
    runs for every domain of every entry the scheduler processes)."""
    if not single:
        return count <= 0
    for r, v in single.items():
        if v and min(max(0, (free.get(r, 0) - used.get(r, 0)) // v), INT32_MAX) < count:
            return False
    return count <= INT32_MAX
