"""The TAS part of the scheduler's snapshot (Kueue's ``tasCache`` and the per-flavor snapshots
``Cache.Snapshot`` takes of it, ``pkg/cache/scheduler/tas_cache.go``, ``tas_flavor.go``,
``snapshot.go``): one ``FlavorTopology`` per TAS flavor, built from the Nodes that carry the
flavor's node labels and every level label of its Topology and are schedulable and Ready, less
the requests of the non-TAS pods running on them, less the topology assignments of admitted
workloads."""

from __future__ import annotations

from typing import NamedTuple

from quotactl.kueue.tas.resources import ONE_POD, Requests, add, amounts, plus
from quotactl.kueue.tas.snapshot import FlavorTopology, PlacementResult, PodSetTASRequest, domain_id
from quotactl.model.features import FeatureGates
from quotactl.model.kueue import KueueCluster, Workload
from quotactl.model.kueue_tas import Node, Pod


class DomainUsage(NamedTuple):
    """``workload.TopologyDomainRequests`` of one flavor: ``count`` pods of ``single`` requests."""

    flavor: str
    domain: str
    single: Requests
    count: int

    def total(self) -> Requests:
        out = {r: v * self.count for r, v in self.single.items()}
        out["pods"] = out.get("pods", 0) + self.count
        return out


def node_matches_flavor(node: Node, node_labels: dict[str, str], levels: tuple[str, ...]) -> bool:
    """``utiltas.NodeMatchesFlavor``."""
    labels = node.labels
    return all(labels.get(k) == v and k in labels for k, v in node_labels.items()) and all(
        level in labels for level in levels)


class TASState:
    """Every TAS flavor's topology, with the usage of the admitted workloads."""

    def __init__(self, flavors: dict[str, FlavorTopology], gates: FeatureGates):
        self.flavors = flavors
        self.gates = gates

    def is_tas_flavor(self, name: str) -> bool:
        return name in self.flavors

    def apply(self, usage: tuple[DomainUsage, ...], sign: int) -> None:
        """Add (1) or remove (-1) a workload's TAS usage (``updateTASUsage``)."""
        for u in usage:
            f = self.flavors.get(u.flavor)
            if f is not None:
                f.update_tas_usage(u.domain, u.total(), sign)

    def fits(self, usage: tuple[DomainUsage, ...]) -> bool:
        """``ClusterQueueSnapshot.Fits``'s TAS half."""
        by_flavor: dict[str, list] = {}
        for u in usage:
            by_flavor.setdefault(u.flavor, []).append((u.domain, u.single, u.count))
        return all(self.flavors[f].fits(rows) for f, rows in by_flavor.items() if f in self.flavors)

    def find_for_workload(self, requests: dict[str, list[PodSetTASRequest]], *,
                          simulate_empty: bool = False) -> dict[str, tuple[str, PlacementResult]]:
        """``FindTopologyAssignmentsForWorkload``: flavors in name order; under
        ``TASHandleOverlappingFlavors`` the hostname-level flavors share the pods placed so far."""
        shared: dict[str, Requests] = {}
        overlapping = self.gates.enabled("TASHandleOverlappingFlavors")
        out: dict[str, tuple[str, PlacementResult]] = {}
        for name in sorted(requests):
            f = self.flavors[name]
            assumed = shared if overlapping and f.declared_hostname else None
            for ps, res in f.find_assignments(requests[name], simulate_empty=simulate_empty, assumed=assumed).items():
                out[ps] = (name, res)
        return out


def build_tas_state(cluster: KueueCluster, gates: FeatureGates) -> TASState | None:
    """The TAS flavors of the input (a ResourceFlavor naming a Topology the input holds); None
    when TAS is off or there is none."""
    if not gates.enabled("TopologyAwareScheduling"):
        return None
    flavors: dict[str, FlavorTopology] = {}
    ready = [n for n in cluster.nodes.values() if n.schedulable_and_ready]
    for name, rf in sorted(cluster.resource_flavors.items()):
        topology = cluster.topologies.get(rf.topology_name or "") if rf.topology_name else None
        if topology is None:
            continue
        levels = tuple(level for level in topology.levels if level)
        if not levels:
            continue
        nodes = [n for n in ready if node_matches_flavor(n, rf.node_labels, levels)]
        flavors[name] = FlavorTopology(name, rf.topology_name or "", levels, nodes, tuple(rf.tolerations), gates)
    if not flavors:
        return None
    for node_name, usage in non_tas_usage_by_node(cluster.pods).items():
        for f in flavors.values():
            f.add_non_tas_usage(node_name, usage)
    return TASState(flavors, gates)


def non_tas_usage_by_node(pods: list[Pod]) -> dict[str, Requests]:
    """The requests of the running non-TAS pods (``uses_node``), summed per node. A snapshot's
    pods come in few shapes: each shape's request is computed once."""
    by_shape: dict[tuple, Requests] = {}
    by_node: dict[str, Requests] = {}
    for pod in pods:
        node = pod.node_in_use
        if node is None:
            continue
        shape = pod.plain_requests_key
        usage = by_shape.get(shape) if shape is not None else None
        if usage is None:
            usage = _pod_usage(pod)
            if shape is not None:
                by_shape[shape] = usage
        total = by_node.get(node)
        if total is None:
            by_node[node] = dict(usage)
        else:
            add(total, usage)
    return by_node


def _pod_usage(pod: Pod) -> Requests:
    return plus(amounts(pod.requests), ONE_POD)  # each pod also takes one of the node's pods


def admitted_usage(wl: Workload, state: TASState | None) -> tuple[DomainUsage, ...]:
    """``Info.TASUsage`` of an admitted workload: every podSetAssignment's topology assignment,
    charged to each TAS flavor of the pod set with the pod template's requests."""
    if state is None or wl.admission is None:
        return ()
    specs = {ps.name: ps for ps in wl.pod_sets}
    out: list[DomainUsage] = []
    for psa in wl.admission.pod_set_assignments:
        ta = psa.topology_assignment
        if ta is None:
            continue
        ps = specs.get(psa.name)
        single = amounts(ps.pod.requests) if ps is not None else {}
        for flavor in sorted(set(psa.flavors.values())):
            if state.is_tas_flavor(flavor):
                out.extend(DomainUsage(flavor, domain_id(d.values), single, d.count) for d in ta.domains)
    return tuple(out)


def placed_usage(pod_sets, placements: dict) -> tuple[DomainUsage, ...]:
    """``ComputeTASNetUsage`` of an assignment made in the run: each placed pod set's domains on
    its TAS flavor (``placements``: pod set -> ``assigner.PodSetTopology``)."""
    out: list[DomainUsage] = []
    for ps in pod_sets:
        t = placements.get(ps.name)
        if t is None or t.assignment is None or t.flavor is None:
            continue
        single = amounts(ps.pod.requests)
        out.extend(DomainUsage(t.flavor, domain_id(d.values), single, d.count) for d in t.assignment.domains)
    return tuple(out)


def load_admitted(state: TASState, usages: list[tuple[DomainUsage, ...]]) -> None:
    """Charge the admitted workloads at snapshot time: under ``TASHandleOverlappingFlavors`` a
    hostname-level flavor sees every flavor's usage of its nodes (``snapshotTopologyDomainUsages``)."""
    per_flavor: dict[str, dict[str, Requests]] = {}
    aggregated: dict[str, Requests] = {}
    for rows in usages:
        for u in rows:
            total = u.total()
            add(per_flavor.setdefault(u.flavor, {}).setdefault(u.domain, {}), total)
            add(aggregated.setdefault(u.domain, {}), total)
    overlapping = state.gates.enabled("TASHandleOverlappingFlavors")
    for name, f in state.flavors.items():
        source = aggregated if overlapping and f.declared_hostname else per_flavor.get(name, {})
        for did, usage in source.items():
            f.update_tas_usage(did, usage, 1)
