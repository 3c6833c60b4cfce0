"""Shared machinery for the cross-object rules (KQ5xx): the inventory of references between objects,
cohort-tree walks (cycles, roots), the static quota math of kueue-scheduling.md §3.2/§3.5
(SubtreeQuota, localQuota, PotentialAvailable), and what a pending Workload requests (§2.2).

Not a rule module: it registers nothing.  Amounts are Kueue's integers (cpu in millicores, other
resources in whole units, see ``common.amount``).
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from dataclasses import dataclass

from quotactl.lint.rules.kueue.common import amount
from quotactl.model.coerce import as_dict
from quotactl.model.kueue import ClusterQueue, Cohort, KueueCluster, Workload

SYSTEM_PRIORITY_CLASSES = frozenset({"system-cluster-critical", "system-node-critical"})
NAMESPACED = frozenset({"LocalQueue", "Workload"})


def loc(model) -> str:
    """``file:line`` of an object, for ``Finding.related``."""
    return f"{model.source.ref.file}:{model.source.ref.pos().line}"


def did_you_mean(name: str, candidates) -> str:
    close = difflib.get_close_matches(name, sorted(set(c for c in candidates if c)), n=3, cutoff=0.6)
    if not close:
        return ""
    return " Did you mean " + " or ".join(f'"{c}"' for c in close) + "?"


def objects_of(cluster: KueueCluster, kind: str) -> list:
    return [o for o in cluster.all_objects if o.source.kind == kind]


def has_kind(cluster: KueueCluster, kind: str) -> bool:
    return cluster.has_kind(kind)


# ---------------------------------------------------------------------------- references ----

@dataclass(frozen=True)
class Ref:
    target: str  # kind referenced: ResourceFlavor, ClusterQueue, LocalQueue, WorkloadPriorityClass, PriorityClass
    subject: object  # the model object holding the reference
    path: tuple  # where, inside the subject
    name: str
    namespace: str | None = None  # for LocalQueue references

    def exists(self, cluster: KueueCluster) -> bool:
        if self.target == "ResourceFlavor":
            return self.name in cluster.resource_flavors
        if self.target == "ClusterQueue":
            return self.name in cluster.cluster_queues
        if self.target == "LocalQueue":
            return (self.namespace, self.name) in cluster.local_queues
        if self.target == "WorkloadPriorityClass":
            return self.name in cluster.workload_priority_classes
        if self.target == "PriorityClass":
            return self.name in cluster.priority_classes or self.name in SYSTEM_PRIORITY_CLASSES
        return True


def references(cluster: KueueCluster) -> list[Ref]:
    """Every name-based reference in the input that must resolve to another object."""
    refs: list[Ref] = []
    for o in cluster.all_objects:
        kind = o.source.kind
        if kind in ("ClusterQueue", "Cohort"):
            for rg in o.resource_groups:
                for f in rg.flavors:
                    if f.name:
                        refs.append(Ref("ResourceFlavor", o, f.path + ("name",), f.name))
        elif kind == "LocalQueue":
            if o.cluster_queue:
                refs.append(Ref("ClusterQueue", o, ("spec", "clusterQueue"), o.cluster_queue))
        elif kind == "Workload":
            if o.queue_name:
                refs.append(Ref("LocalQueue", o, ("spec", "queueName"), o.queue_name, o.namespace))
            ref = o.priority_class_ref
            if ref is not None and ref.name:
                if ref.is_workload_priority_class:
                    refs.append(Ref("WorkloadPriorityClass", o, o.priority_class_ref_path, ref.name))
                elif ref.is_pod_priority_class:
                    refs.append(Ref("PriorityClass", o, o.priority_class_ref_path, ref.name))
            for ps in o.pod_sets:
                pcn = ps.pod.priority_class_name
                if pcn and pcn not in SYSTEM_PRIORITY_CLASSES:
                    refs.append(Ref("PriorityClass", o, ps.path + ("template", "spec", "priorityClassName"), pcn))
            if o.admission is not None and o.admission.cluster_queue:
                refs.append(Ref("ClusterQueue", o, ("status", "admission", "clusterQueue"), o.admission.cluster_queue))
    return refs


def dangling(ctx, target: str, refs: list[Ref] | None = None) -> list[Ref]:
    """References to ``target`` that do not resolve, when the partial-input policy says to check."""
    if not ctx.check_refs_to(target, has_kind(ctx.cluster, target)):
        return []
    return [r for r in (refs if refs is not None else references(ctx.cluster))
            if r.target == target and not r.exists(ctx.cluster)]


# ----------------------------------------------------------------------------- cohorts ------

def cohort_parent(cluster: KueueCluster, name: str) -> str | None:
    co = cluster.cohorts.get(name)
    return co.parent if co is not None else None


def cohort_cycles(cluster: KueueCluster) -> list[list[str]]:
    """Each parent cycle once, as the list of its members in parent order."""
    cycles: list[list[str]] = []
    done: set[str] = set()
    for start in cluster.cohorts:
        if start in done:
            continue
        path: list[str] = []
        index: dict[str, int] = {}
        cur: str | None = start
        while cur is not None and cur not in done and cur not in index:
            index[cur] = len(path)
            path.append(cur)
            cur = cohort_parent(cluster, cur)
        if cur is not None and cur in index:
            cycles.append(path[index[cur]:])
        done.update(path)
    return cycles


def cohorts_in_cycles(cluster: KueueCluster) -> set[str]:
    return {n for c in cohort_cycles(cluster) for n in c}


def cohort_chain(cluster: KueueCluster, name: str | None) -> list[str] | None:
    """The cohort and its ancestors, root last; None when the chain loops."""
    chain: list[str] = []
    cur = name
    while cur is not None:
        if cur in chain:
            return None
        chain.append(cur)
        cur = cohort_parent(cluster, cur)
    return chain


# ------------------------------------------------------------------------------ quotas ------

FR = tuple  # (flavor, resource)


class QuotaTree:
    """Static quota of the cohort forest (kueue-scheduling.md §3.2, §3.5), per (flavor, resource).

    Nodes are ("cq", name) or ("cohort", name); a cohort named only by a ClusterQueue or a
    parentName (no object) is an implicit root with no quota of its own."""

    def __init__(self, cluster: KueueCluster):
        self.cluster = cluster
        self.cq_children: dict[str, list[ClusterQueue]] = defaultdict(list)
        self.cohort_children: dict[str, list[str]] = defaultdict(list)
        for cq in cluster.cluster_queues.values():
            if cq.cohort:
                self.cq_children[cq.cohort].append(cq)
        for co in cluster.cohorts.values():
            if co.parent and co.name:
                self.cohort_children[co.parent].append(co.name)
        self.cyclic = cohorts_in_cycles(cluster)
        self._subtree: dict[tuple, int] = {}

    # -- per-node quota entries -------------------------------------------------------------
    def _quota(self, node: tuple, fr: FR):
        kind, name = node
        obj = self.cluster.cluster_queues.get(name) if kind == "cq" else self.cluster.cohorts.get(name)
        if obj is None:
            return None
        flavor, resource = fr
        for rg in obj.resource_groups:
            for f in rg.flavors:
                if f.name == flavor:
                    for r in f.resources:
                        if r.name == resource:
                            return r
        return None

    def nominal(self, node: tuple, fr: FR) -> int:
        q = self._quota(node, fr)
        return amount(fr[1], q.nominal) if q is not None and q.nominal is not None else 0

    def borrowing_limit(self, node: tuple, fr: FR) -> int | None:
        q = self._quota(node, fr)
        return amount(fr[1], q.borrowing_limit) if q is not None and q.borrowing_limit is not None else None

    def lending_limit(self, node: tuple, fr: FR) -> int | None:
        q = self._quota(node, fr)
        return amount(fr[1], q.lending_limit) if q is not None and q.lending_limit is not None else None

    def parent(self, node: tuple) -> tuple | None:
        kind, name = node
        if kind == "cq":
            cq = self.cluster.cluster_queues.get(name)
            return ("cohort", cq.cohort) if cq is not None and cq.cohort else None
        p = cohort_parent(self.cluster, name)
        return ("cohort", p) if p else None

    def in_cycle(self, node: tuple) -> bool:
        cur = node if node[0] == "cohort" else self.parent(node)
        return cur is not None and cohort_chain(self.cluster, cur[1]) is None

    # -- §3.2 ----------------------------------------------------------------------------
    def subtree_quota(self, node: tuple, fr: FR, _seen: frozenset = frozenset()) -> int:
        key = (node, fr)
        if key in self._subtree:
            return self._subtree[key]
        total = self.nominal(node, fr)
        if node[0] == "cohort" and node not in _seen:
            seen = _seen | {node}
            for cq in self.cq_children.get(node[1], ()):
                child = ("cq", cq.name)
                total += self.subtree_quota(child, fr, seen) - self.local_quota(child, fr, seen)
            for co in self.cohort_children.get(node[1], ()):
                child = ("cohort", co)
                if child in seen:
                    continue
                total += self.subtree_quota(child, fr, seen) - self.local_quota(child, fr, seen)
        self._subtree[key] = total
        return total

    def local_quota(self, node: tuple, fr: FR, _seen: frozenset = frozenset()) -> int:
        ll = self.lending_limit(node, fr)
        if ll is None:
            return 0
        return max(0, self.subtree_quota(node, fr, _seen) - ll)

    # -- §3.5 ----------------------------------------------------------------------------
    def potential_available(self, node: tuple, fr: FR) -> int | None:
        """What ``node`` could ever use of ``fr`` if nothing else ran; None inside a cohort cycle."""
        if self.in_cycle(node):
            return None
        parent = self.parent(node)
        if parent is None:
            return self.subtree_quota(node, fr)
        p = self.local_quota(node, fr) + self.potential_available(parent, fr)
        bl = self.borrowing_limit(node, fr)
        if bl is not None:
            p = min(p, self.subtree_quota(node, fr) + bl)
        return p

    def root(self, cq: ClusterQueue) -> str | None:
        if not cq.cohort:
            return None
        chain = cohort_chain(self.cluster, cq.cohort)
        return None if chain is None else chain[-1]


def covered(cq: ClusterQueue) -> dict[str, list]:
    """resource -> the flavors (FlavorQuotas) of the group that covers it."""
    out: dict[str, list] = {}
    for rg in cq.resource_groups:
        for r in rg.covered_resources:
            out.setdefault(r, list(rg.flavors))
    return out


# --------------------------------------------------------------------- workload requests -----

def transformation_rules(cluster: KueueCluster) -> dict[str, tuple[bool, list[str]]]:
    """Configuration resources.transformations: input -> (replace?, output resource names)."""
    cfg = cluster.configuration
    out: dict[str, tuple[bool, list[str]]] = {}
    if cfg is None:
        return out
    for t in cfg.transformations:
        inp = t.get("input")
        if not isinstance(inp, str) or inp in out:
            continue
        outputs = [str(k) for k in as_dict(t.get("outputs"))]
        out[inp] = (t.get("strategy") == "Replace", outputs)
    return out


def excluded(cluster: KueueCluster, resource: str) -> bool:
    cfg = cluster.configuration
    return bool(cfg and any(resource.startswith(p) for p in cfg.exclude_resource_prefixes))


def podset_requests(cluster: KueueCluster, wl: Workload) -> list[tuple[int, object, dict[str, int], set[str]]]:
    """Per pod set: (index, PodSet, per-pod amounts of directly requested resources, names of resources
    produced by transformations).  Zero requests and excluded resources are dropped (§2.2)."""
    rules = transformation_rules(cluster)
    out = []
    for i, ps in enumerate(wl.pod_sets):
        direct: dict[str, int] = {}
        derived: set[str] = set()
        for r, q in ps.pod.requests.items():
            if q.is_zero() or q.is_negative() or excluded(cluster, r):
                continue
            if r in rules:
                replace, outputs = rules[r]
                derived.update(o for o in outputs if not excluded(cluster, o))
                if replace:
                    continue
            direct[r] = amount(r, q)
        out.append((i, ps, direct, derived))
    return out


def smallest_count(ctx, wl: Workload, ps) -> int:
    """The fewest pods the pod set could be admitted with: count minus reclaimable pods, or
    minCount under partial admission."""
    n = max(0, ps.count - wl.reclaimable_pods.get(ps.name, 0))
    if ps.min_count is not None and ctx.gates.enabled("PartialAdmission"):
        n = min(n, ps.min_count)
    return n


def pending(wl: Workload) -> bool:
    """Waiting for admission: no quota reserved and not finished."""
    return not wl.condition_true("QuotaReserved") and not wl.is_finished


__all__ = [
    "Cohort", "QuotaTree", "Ref", "cohort_chain", "cohort_cycles", "cohorts_in_cycles", "covered", "dangling",
    "did_you_mean", "excluded", "has_kind", "loc", "objects_of", "pending", "podset_requests", "references",
    "smallest_count",
]
