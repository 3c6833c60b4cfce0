"""Shared machinery for the cross-object rules (KQ5xx): the inventory of references between objects
and the engine's view of the input (quota tree, requests) that the admissibility rules ask.

Not a rule module: it registers nothing.  The quota math, the requests of a pod set, amounts and
cohort cycles are the engine's (``quotactl.kueue``); nothing here recomputes them.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from quotactl.kueue.admissibility import quota_snapshot
from quotactl.kueue.options import EngineOptions, engine_options
from quotactl.kueue.quota import Snapshot
from quotactl.kueue.workload import PodSetRequest
from quotactl.model.kueue import ClusterQueue, KueueCluster, PodSet, Workload

SYSTEM_PRIORITY_CLASSES = frozenset({"system-cluster-critical", "system-node-critical"})
NAMESPACED = frozenset({"LocalQueue", "Workload"})
# Kinds on the admission-check side -> their KueueCluster index.
CHECK_SIDE_INDEX = {
    "AdmissionCheck": "admission_checks", "Topology": "topologies", "MultiKueueCluster": "multikueue_clusters",
    "MultiKueueConfig": "multikueue_configs", "ProvisioningRequestConfig": "provisioning_request_configs",
}


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
        index = CHECK_SIDE_INDEX.get(self.target)
        return index is None or self.name in getattr(cluster, index)


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
            refs.extend(_check_side_refs(o))
        elif kind in CHECK_SIDE_INDEX or kind == "ResourceFlavor":
            refs.extend(_check_side_refs(o))
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


def _check_side_refs(o) -> list[Ref]:
    """References along the admission-check side: ClusterQueue -> AdmissionCheck, ResourceFlavor ->
    Topology, AdmissionCheck -> its parameters object, MultiKueueConfig -> MultiKueueCluster."""
    kind = o.source.kind
    if kind == "ClusterQueue":
        # v1beta1's plain spec.admissionChecks[i] is the name itself; a strategy entry has a name field.
        return [Ref("AdmissionCheck", o, rule.path if rule.path[1] == "admissionChecks" else rule.path + ("name",),
                    rule.name) for rule in o.admission_checks if rule.name]
    if kind == "ResourceFlavor" and o.topology_name:
        return [Ref("Topology", o, ("spec", "topologyName"), o.topology_name)]
    if kind == "AdmissionCheck" and o.parameters is not None and o.parameters.is_kueue and o.parameters.name \
            and o.parameters.kind in ("ProvisioningRequestConfig", "MultiKueueConfig"):
        return [Ref(o.parameters.kind, o, ("spec", "parameters", "name"), o.parameters.name)]
    if kind == "MultiKueueConfig":
        return [Ref("MultiKueueCluster", o, ("spec", "clusters", i), c) for i, c in enumerate(o.clusters)]
    return []


def dangling(ctx, target: str, refs: list[Ref] | None = None) -> list[Ref]:
    """References to ``target`` that do not resolve, when the partial-input policy says to check."""
    if not ctx.check_refs_to(target, has_kind(ctx.cluster, target)):
        return []
    return [r for r in (refs if refs is not None else references(ctx.cluster))
            if r.target == target and not r.exists(ctx.cluster)]


# ------------------------------------------------------------------------------ engine -------

def engine_view(ctx) -> tuple[EngineOptions, Snapshot]:
    """The engine's options for this input (Configuration and --feature-gates) and its usage-free
    quota tree, built once per lint run: the KQ5xx rules ask the engine, they do not redo its math."""
    cached = ctx.__dict__.get("_kueue_engine_view")
    if cached is None:
        options = engine_options(ctx.cluster, feature_gates=ctx.options.feature_gates,
                                 release=ctx.options.kueue_version, fair_sharing_by_usage=False)
        cached = ctx.__dict__["_kueue_engine_view"] = (options, quota_snapshot(ctx.cluster, options))
    return cached


def in_cohort_cycle(snapshot: Snapshot, cq: ClusterQueue) -> bool:
    """The ClusterQueue's parent chain runs into a cycle (Kueue deactivates it)."""
    return bool(cq.cohort) and cq.cohort in snapshot.cycle_cohorts


def covered(cq: ClusterQueue) -> dict[str, list]:
    """resource -> the flavors (FlavorQuotas) of the group that covers it."""
    out: dict[str, list] = {}
    for rg in cq.resource_groups:
        for r in rg.covered_resources:
            out.setdefault(r, list(rg.flavors))
    return out


# --------------------------------------------------------------------- workload requests -----

def request_path(ps: PodSet, resource: str) -> tuple:
    """The first place a pod-set template requests (or limits) ``resource``, for pointing a
    finding at it; the pod set itself when no container names it."""
    for holder in ps.resource_holders:
        for kind, values in (("requests", holder.requests), ("limits", holder.limits)):
            if resource in values:
                return ps.path + ("template", "spec") + holder.path + ("resources", kind, resource)
    return ps.path


def smallest_count(ctx, ps: PodSet, request: PodSetRequest) -> int:
    """The fewest pods the pod set could be admitted with: its live count (reclaimable pods taken
    off), or minCount under partial admission."""
    n = request.count
    if ps.min_count is not None and ctx.gates.enabled("PartialAdmission"):
        n = min(n, ps.min_count)
    return n


def pending(wl: Workload) -> bool:
    """Waiting for admission: no quota reserved and not finished."""
    return not wl.condition_true("QuotaReserved") and not wl.is_finished


__all__ = [
    "Ref", "covered", "dangling", "did_you_mean", "engine_view", "has_kind", "in_cohort_cycle", "loc", "objects_of",
    "pending", "references", "request_path", "smallest_count",
]
