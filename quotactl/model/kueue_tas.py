"""Typed inputs of Kueue's topology-aware scheduling (TAS): a pod set's topology request, an
admitted pod set's topology assignment (v1beta2's compact form and v1beta1's domains, both read
into the decompressed form Kueue uses internally), and the v1 Nodes and Pods that are the TAS
capacity and its non-TAS usage.

Sources: kueue ``apis/kueue/v1beta2/workload_types.go`` (``PodSetTopologyRequest``,
``TopologyAssignment``), ``pkg/util/tas/tas_assignment.go`` (``InternalFrom``: the compact form
decompressed), ``pkg/controller/jobframework/tas.go`` (the pod-template annotations a job
integration turns into a topology request), ``pkg/cache/scheduler/tas_nodes_cache.go`` and
``tas_non_tas_pod_cache.go`` (which Nodes and Pods count).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from quotactl.load.objects import KubeObject
from quotactl.model.coerce import as_bool, as_dict, as_int, as_list, as_str, quantity_map, str_map
from quotactl.model.kueue_base import KueueObject
from quotactl.model.podspec import Taint, effective_pod_requests, parse_taints
from quotactl.model.quantity import Quantity

HOSTNAME = "kubernetes.io/hostname"

# Pod-template annotations of Kueue's job integrations (apis/kueue/v1beta2 constants).
REQUIRED_ANNOTATION = "kueue.x-k8s.io/podset-required-topology"
PREFERRED_ANNOTATION = "kueue.x-k8s.io/podset-preferred-topology"
UNCONSTRAINED_ANNOTATION = "kueue.x-k8s.io/podset-unconstrained-topology"
SLICE_TOPOLOGY_ANNOTATION = "kueue.x-k8s.io/podset-slice-required-topology"
SLICE_SIZE_ANNOTATION = "kueue.x-k8s.io/podset-slice-size"
SLICE_CONSTRAINTS_ANNOTATION = "kueue.x-k8s.io/podset-slice-required-topology-constraints"
GROUP_NAME_ANNOTATION = "kueue.x-k8s.io/podset-group-name"


@dataclass(frozen=True)
class SliceConstraint:
    """One layer of ``podsetSliceRequiredTopologyConstraints``: slices of ``size`` pods per domain
    of level ``topology``."""

    topology: str
    size: int


@dataclass(frozen=True)
class TopologyRequest:
    """``spec.podSets[].topologyRequest``."""

    required: str | None = None
    preferred: str | None = None
    unconstrained: bool | None = None
    pod_set_group_name: str | None = None
    slice_required_topology: str | None = None
    slice_size: int | None = None
    slice_constraints: tuple[SliceConstraint, ...] = ()

    @property
    def is_explicit(self) -> bool:
        """``workload.IsExplicitlyRequestingTAS``."""
        return (self.unconstrained is not None or self.required is not None or self.preferred is not None
                or self.slice_required_topology is not None or self.slice_size is not None
                or bool(self.slice_constraints))

    def slice_layers(self) -> tuple[SliceConstraint, ...]:
        """``utiltas.PodSetSliceRequiredTopologyConstraints``: the multi-layer list, else the single
        legacy layer (size 0 when the size is missing)."""
        if self.slice_constraints:
            return self.slice_constraints
        if self.slice_required_topology is None:
            return ()
        return (SliceConstraint(self.slice_required_topology, self.slice_size or 0),)


def build_topology_request(raw, annotations: dict[str, str]) -> TopologyRequest | None:
    """The pod set's ``topologyRequest``; without one, the request the job integrations would derive
    from the pod template's annotations (``jobframework.podSetTopologyRequest``)."""
    if isinstance(raw, dict):
        return TopologyRequest(
            required=as_str(raw.get("required")),
            preferred=as_str(raw.get("preferred")),
            unconstrained=as_bool(raw.get("unconstrained")),
            pod_set_group_name=as_str(raw.get("podSetGroupName")),
            slice_required_topology=as_str(raw.get("podSetSliceRequiredTopology")),
            slice_size=as_int(raw.get("podSetSliceSize")),
            slice_constraints=_constraints(raw.get("podsetSliceRequiredTopologyConstraints")),
        )
    return _from_annotations(annotations)


def _constraints(raw) -> tuple[SliceConstraint, ...]:
    out = []
    for c in as_list(raw):
        c = as_dict(c)
        topology, size = as_str(c.get("topology")), as_int(c.get("size"))
        if topology is not None:
            out.append(SliceConstraint(topology, size or 0))
    return tuple(out)


def _from_annotations(annotations: dict[str, str]) -> TopologyRequest | None:
    required = annotations.get(REQUIRED_ANNOTATION)
    preferred = annotations.get(PREFERRED_ANNOTATION)
    unconstrained = annotations.get(UNCONSTRAINED_ANNOTATION)
    slice_topology = annotations.get(SLICE_TOPOLOGY_ANNOTATION)
    size_text = annotations.get(SLICE_SIZE_ANNOTATION)
    constraints_text = annotations.get(SLICE_CONSTRAINTS_ANNOTATION)
    group = annotations.get(GROUP_NAME_ANNOTATION)
    if all(v is None for v in (required, preferred, unconstrained, slice_topology, constraints_text, group)):
        return None
    size = int(size_text) if size_text is not None and size_text.strip().lstrip("-").isdigit() else None
    constraints: tuple[SliceConstraint, ...] = ()
    if constraints_text is not None:
        try:
            constraints = _constraints(json.loads(constraints_text))
        except ValueError:
            constraints = ()
    return TopologyRequest(
        required=required, preferred=preferred,
        unconstrained=(unconstrained.strip().lower() == "true") if unconstrained is not None else None,
        pod_set_group_name=group, slice_required_topology=slice_topology,
        slice_size=size if slice_topology is not None else None, slice_constraints=constraints)


# ------------------------------------------------------------------- topology assignments ----

@dataclass(frozen=True)
class TopologyDomainAssignment:
    values: tuple[str, ...]  # one value per level of the assignment
    count: int


@dataclass(frozen=True)
class TopologyAssignment:
    """``utiltas.TopologyAssignment``: the decompressed form (levels, and pods per domain)."""

    levels: tuple[str, ...]
    domains: tuple[TopologyDomainAssignment, ...]

    @property
    def pod_count(self) -> int:
        return sum(d.count for d in self.domains)


def build_topology_assignment(raw) -> TopologyAssignment | None:
    """``status.admission.podSetAssignments[].topologyAssignment``: v1beta2's ``slices`` (compact,
    ``InternalFrom``) or v1beta1's ``domains``; None when absent or unreadable."""
    if not isinstance(raw, dict):
        return None
    levels = tuple(v for v in (as_str(x) for x in as_list(raw.get("levels"))) if v is not None)
    if not levels:
        return None
    domains: list[TopologyDomainAssignment] = []
    if "domains" in raw:  # v1beta1
        for d in as_list(raw.get("domains")):
            d = as_dict(d)
            values = tuple(str(v) for v in as_list(d.get("values")))
            count = as_int(d.get("count"))
            if len(values) == len(levels) and count is not None:
                domains.append(TopologyDomainAssignment(values, count))
        return TopologyAssignment(levels, tuple(domains))
    for s in as_list(raw.get("slices")):
        domains.extend(_slice_domains(as_dict(s), len(levels)))
    return TopologyAssignment(levels, tuple(domains))


def _slice_domains(s: dict, n_levels: int) -> list[TopologyDomainAssignment]:
    n = as_int(s.get("domainCount")) or 0
    per_level = [as_dict(v) for v in as_list(s.get("valuesPerLevel"))]
    if len(per_level) != n_levels or n <= 0:
        return []
    counts = as_dict(s.get("podCounts"))
    universal_count = as_int(counts.get("universal"))
    individual_counts = [as_int(c) for c in as_list(counts.get("individual"))]
    out = []
    for i in range(n):
        values = tuple(_value_at(level, i) for level in per_level)
        count = universal_count if universal_count is not None else (
            individual_counts[i] if i < len(individual_counts) else None)
        if count is None or any(v is None for v in values):
            return []
        out.append(TopologyDomainAssignment(values, count))  # type: ignore[arg-type]
    return out


def _value_at(level: dict, i: int) -> str | None:
    universal = as_str(level.get("universal"))
    if universal is not None:
        return universal
    individual = as_dict(level.get("individual"))
    roots = as_list(individual.get("roots"))
    if i >= len(roots):
        return None
    return (as_str(individual.get("prefix")) or "") + str(roots[i]) + (as_str(individual.get("suffix")) or "")


# ------------------------------------------------------------------------ nodes and pods ----

@dataclass(frozen=True, slots=True)
class Node(KueueObject):
    """A v1 Node as TAS sees it: labels, allocatable, taints, and whether it takes pods."""

    name: str | None = None
    labels: dict[str, str] = field(default_factory=dict)
    allocatable: dict[str, Quantity] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()
    unschedulable: bool = False
    ready: bool = False

    @property
    def schedulable_and_ready(self) -> bool:
        """``nodesCache.sync``: not cordoned and condition Ready=True."""
        return self.ready and not self.unschedulable


def build_node(obj: KubeObject) -> Node:
    spec = as_dict(obj.data.get("spec"))
    status = as_dict(obj.data.get("status"))
    ready = next((as_dict(c).get("status") == "True" for c in as_list(status.get("conditions"))
                  if as_dict(c).get("type") == "Ready"), False)
    return Node(source=obj, name=obj.name, labels=str_map(obj.metadata.get("labels")),
                allocatable=quantity_map(status.get("allocatable")), taints=parse_taints(spec.get("taints")),
                unschedulable=spec.get("unschedulable") is True, ready=ready)


_TAS_POD_ANNOTATIONS = (REQUIRED_ANNOTATION, PREFERRED_ANNOTATION, SLICE_TOPOLOGY_ANNOTATION,
                        SLICE_CONSTRAINTS_ANNOTATION, UNCONSTRAINED_ANNOTATION)


@dataclass(frozen=True, slots=True)
class Pod(KueueObject):
    """A v1 Pod as TAS sees it: the node whose capacity it takes, if any.  A big snapshot holds
    100,000 of them: one field, set in one read of the object (``build_pod``); the rest is read
    from the object when asked."""

    node_in_use: str | None = None  # the node it is scheduled to when ``uses_node``, else None

    @property
    def name(self) -> str | None:
        return self.source.name

    @property
    def namespace(self) -> str:
        return self.source.namespace or "default"

    @property
    def node_name(self) -> str | None:
        return as_str(as_dict(self.source.data.get("spec")).get("nodeName"))

    @property
    def phase(self) -> str | None:
        return as_str(as_dict(self.source.data.get("status")).get("phase"))

    @property
    def annotations(self) -> dict[str, str]:
        return str_map(self.source.metadata.get("annotations"))

    @property
    def is_tas(self) -> bool:
        """``utiltas.IsTAS``: a pod of a TAS pod set (its usage is the Workload's assignment)."""
        return _is_tas(self.source.metadata.get("annotations"))

    @property
    def uses_node(self) -> bool:
        """``PodUsageReconciler``: scheduled to a node and not terminated, and not a TAS pod."""
        return self.node_in_use is not None

    @property
    def plain_requests_key(self) -> tuple | None:
        """The containers' requests as written, when they alone make the pod's request (no init
        containers, overhead or pod-level resources): pods of one shape share it, so their request
        is computed once (``tas.state``); None otherwise.  (Requests written in another order make
        another key, of the same request.)"""
        spec = self.source.data.get("spec")
        if not isinstance(spec, dict):
            return ()
        if spec.get("initContainers") or spec.get("overhead") or spec.get("resources"):
            return None
        containers = spec.get("containers")
        key = []
        for c in containers if isinstance(containers, list) else ():
            resources = c.get("resources") if isinstance(c, dict) else None
            requests = resources.get("requests") if isinstance(resources, dict) else None
            if not isinstance(requests, dict):
                key.append(())
                continue
            for v in requests.values():
                if type(v) is not str:
                    return None
            key.append(tuple(requests.items()))
        return tuple(key)

    @property
    def requests(self) -> dict[str, Quantity]:
        """The effective pod request (read when asked: only the pods using a TAS node are)."""
        return effective_pod_requests(as_dict(self.source.data.get("spec")))


_TERMINATED = frozenset({"Succeeded", "Failed"})


def _is_tas(annotations) -> bool:
    return isinstance(annotations, dict) and any(a in annotations for a in _TAS_POD_ANNOTATIONS)


def build_pod(obj: KubeObject) -> Pod:
    """The Pod and the node it uses (``uses_node``), in one read of the object."""
    data = obj.data
    spec = data.get("spec")
    node = spec.get("nodeName") if isinstance(spec, dict) else None
    if not node or not isinstance(node, str):
        return Pod(source=obj)
    status = data.get("status")
    phase = status.get("phase") if isinstance(status, dict) else None
    if isinstance(phase, str) and phase in _TERMINATED:
        return Pod(source=obj)
    metadata = data.get("metadata")
    if isinstance(metadata, dict) and _is_tas(metadata.get("annotations")):
        return Pod(source=obj)
    return Pod(source=obj, node_in_use=node)


TAS_BUILDERS = {"Node": build_node, "Pod": build_pod}
