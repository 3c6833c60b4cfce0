"""Typed Kubernetes ``Pod`` / ``Node`` / ``PriorityClass`` records for the YuniKorn engine, built
once from the loaded objects with their source positions.

Built leniently where the API server is lenient (a missing field takes its default), but a Pod or
Node whose fields have the wrong shape (a container that is not a map, requests that are not a map, a
quantity that does not parse or exceeds int64) could never be in a cluster: it becomes a
``Malformed`` entry with its file position and is left out, so the engine never guesses at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from quotactl.load.document import Pos, format_path
from quotactl.load.objects import KubeObject
from quotactl.model.coerce import as_dict, as_int, as_list, as_str, quantity_map, str_map
from quotactl.model.podspec import PodSpecInfo, Taint, effective_pod_requests, parse_taints, pod_spec_info
from quotactl.model.quantity import INT64_MAX, Quantity
from quotactl.model.yunikorn_shape import node_problem, pod_problem

ALLOW_PREEMPTION = "yunikorn.apache.org/allow-preemption"


@dataclass(frozen=True)
class Malformed:
    """An object left out of the simulation: which, where, and what is wrong with it."""

    display: str  # "Pod/default/web"
    pos: Pos
    file: str
    field: str  # "spec.containers[0]"
    problem: str  # "is an integer, not a map"

    def location(self) -> str:
        return f"{self.file}:{self.pos.line}:{self.pos.column}"


@dataclass(frozen=True)
class OwnerRef:
    kind: str | None
    uid: str | None


@dataclass(frozen=True)
class PriorityClass:
    name: str
    value: int
    global_default: bool
    preemption_policy: str | None
    allow_preemption: bool | None  # the yunikorn.apache.org/allow-preemption annotation
    source: KubeObject = field(compare=False, repr=False)


@dataclass(frozen=True)
class Pod:
    name: str
    namespace: str  # "default" when unset
    uid: str
    labels: dict[str, str]
    annotations: dict[str, str]
    owners: tuple[OwnerRef, ...]
    created: float  # metadata.creationTimestamp, epoch seconds (0 when missing)
    phase: str  # "Pending" when unset
    node_name: str | None
    scheduler_name: str  # "default-scheduler" when unset
    priority: int | None  # spec.priority
    preemption_policy: str | None  # spec.preemptionPolicy
    spec: PodSpecInfo  # requests: the spec's effective pod request
    requests: dict[str, Quantity]  # what the shim asks for (a bound pod: resized requests count)
    required_node: str | None  # a DaemonSet pod pinned to one node
    source: KubeObject = field(compare=False, repr=False)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True)
class Node:
    name: str
    allocatable: dict[str, Quantity]  # status.allocatable (status.capacity when absent)
    resource_names: frozenset[str]  # every name listed there, readable or not
    ready: bool
    schedulable: bool  # false when cordoned (spec.unschedulable)
    labels: dict[str, str]
    taints: tuple[Taint, ...]
    source: KubeObject = field(compare=False, repr=False)


@dataclass(frozen=True)
class ClusterObjects:
    """The Pods, Nodes and PriorityClasses of one input, in input order."""

    pods: tuple[Pod, ...] = ()
    nodes: tuple[Node, ...] = ()
    priority_classes: dict[str, PriorityClass] = field(default_factory=dict)
    malformed: tuple[Malformed, ...] = ()

    @property
    def default_priority_class(self) -> PriorityClass | None:
        return next((pc for pc in self.priority_classes.values() if pc.global_default), None)


# ------------------------------------------------------------------------------- values -------

def parse_time(value) -> float:
    """``metadata.creationTimestamp`` -> epoch seconds (0 when missing / unreadable)."""
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, str) and value:
        try:
            dt = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return 0.0
    else:
        return 0.0
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.timestamp()


def parse_go_bool(value: str | None) -> bool | None:
    """Go's ``strconv.ParseBool`` (None: absent or unreadable)."""
    if value in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if value in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    return None


def is_too_large(q: Quantity) -> bool:
    """Quantities are clamped to int64 units on parsing; one at the bound did not fit."""
    return abs(q.value()) >= INT64_MAX


# ------------------------------------------------------------------------------ builders ------

def _malformed(obj: KubeObject, path: tuple, problem: str) -> Malformed:
    return Malformed(obj.display, obj.ref.pos(path), obj.ref.file, format_path(path), problem)


def _resized_requests(spec: dict, status: dict, spec_requests: dict[str, Quantity]) -> dict[str, Quantity]:
    """Per container, the larger of the spec request and the resized (status) request."""
    statuses = {as_str(as_dict(s).get("name")): as_dict(s) for s in as_list(status.get("containerStatuses"))}
    if not statuses:
        return spec_requests
    containers = []
    changed = False
    for c in as_list(spec.get("containers")):
        c = as_dict(c)
        st = statuses.get(as_str(c.get("name")))
        resized = _status_requests(st) if st else {}
        if not resized:
            containers.append(c)
            continue
        res = dict(as_dict(c.get("resources")))
        req = quantity_map(res.get("requests"))
        for k, v in resized.items():
            if k not in req or v > req[k]:
                req[k] = v
                changed = True
        res["requests"] = {k: str(v) for k, v in req.items()}
        containers.append({**c, "resources": res})
    return effective_pod_requests({**spec, "containers": containers}) if changed else spec_requests


def _status_requests(container_status: dict) -> dict[str, Quantity]:
    """A container status's resize: ``allocatedResources`` and ``resources.requests``, the larger."""
    out = dict(quantity_map(container_status.get("allocatedResources")))
    for k, v in quantity_map(as_dict(container_status.get("resources")).get("requests")).items():
        if k not in out or v > out[k]:
            out[k] = v
    return out


def _owners(md: dict) -> tuple[OwnerRef, ...]:
    return tuple(OwnerRef(as_str(as_dict(r).get("kind")), as_str(as_dict(r).get("uid")))
                 for r in as_list(md.get("ownerReferences")))


def _required_node(owners: tuple[OwnerRef, ...], spec: dict) -> str | None:
    """DaemonSet pods pinned to one node by node affinity on ``metadata.name``."""
    if not any(r.kind == "DaemonSet" for r in owners):
        return None
    req = as_dict(as_dict(as_dict(spec.get("affinity")).get("nodeAffinity")).get(
        "requiredDuringSchedulingIgnoredDuringExecution"))
    for term in as_list(req.get("nodeSelectorTerms")):
        for f in as_list(as_dict(term).get("matchFields")):
            f = as_dict(f)
            values = as_list(f.get("values"))
            if f.get("key") == "metadata.name" and f.get("operator") == "In" and len(values) == 1:
                return str(values[0])
    return None


def build_pod(obj: KubeObject) -> Pod:
    md, spec, status = obj.metadata, as_dict(obj.data.get("spec")), as_dict(obj.data.get("status"))
    info = pod_spec_info(spec)
    node = as_str(spec.get("nodeName"))
    owners = _owners(md)
    return Pod(
        name=obj.name or "", namespace=obj.namespace or "default", uid=as_str(md.get("uid")) or "",
        labels=str_map(md.get("labels")), annotations=str_map(md.get("annotations")), owners=owners,
        created=parse_time(md.get("creationTimestamp")), phase=as_str(status.get("phase")) or "Pending",
        node_name=node, scheduler_name=as_str(spec.get("schedulerName")) or "default-scheduler",
        priority=as_int(spec.get("priority")), preemption_policy=as_str(spec.get("preemptionPolicy")),
        spec=info, requests=_resized_requests(spec, status, info.requests) if node else info.requests,
        required_node=_required_node(owners, spec), source=obj,
    )


def _node_allocatable(status: dict) -> dict:
    alloc = status.get("allocatable")
    return alloc if isinstance(alloc, dict) else as_dict(status.get("capacity"))


def _ready(status: dict) -> bool:
    ready = True
    for c in as_list(status.get("conditions")):
        c = as_dict(c)
        if c.get("type") == "Ready":
            ready = str(c.get("status")) == "True"
    return ready


def build_node(obj: KubeObject) -> Node:
    status, spec = as_dict(obj.data.get("status")), as_dict(obj.data.get("spec"))
    allocatable = _node_allocatable(status)
    return Node(
        name=obj.name or "", allocatable=quantity_map(allocatable), resource_names=frozenset(map(str, allocatable)),
        ready=_ready(status), schedulable=spec.get("unschedulable") is not True,
        labels=str_map(obj.metadata.get("labels")), taints=parse_taints(spec.get("taints")), source=obj,
    )


def build_priority_class(obj: KubeObject) -> PriorityClass:
    value = as_int(obj.data.get("value"))
    annotations = str_map(obj.metadata.get("annotations"))
    return PriorityClass(obj.name or "", value if value is not None else 0, obj.data.get("globalDefault") is True,
                         as_str(obj.data.get("preemptionPolicy")), parse_go_bool(annotations.get(ALLOW_PREEMPTION)),
                         source=obj)


_KINDS = {
    "Pod": (pod_problem, build_pod),
    "Node": (node_problem, build_node),
    # PriorityClasses are schema-checked with the configuration objects and read leniently
    "PriorityClass": (lambda data: None, build_priority_class),
}


def build_objects(objects: list[KubeObject]) -> ClusterObjects:
    """The typed Pods, Nodes and PriorityClasses of ``objects``; malformed ones are left out."""
    built: dict[str, list] = {kind: [] for kind in _KINDS}
    malformed: list[Malformed] = []
    for obj in objects:
        if obj.kind not in _KINDS:
            continue
        check, build = _KINDS[obj.kind]
        problem = check(obj.data)
        if problem is not None:
            malformed.append(_malformed(obj, *problem))
        elif obj.name:
            built[obj.kind].append(build(obj))
    classes: dict[str, PriorityClass] = {}
    for pc in built["PriorityClass"]:
        classes[pc.name] = pc  # a later duplicate replaces the earlier one
    return ClusterObjects(tuple(built["Pod"]), tuple(built["Node"]), classes, tuple(malformed))
