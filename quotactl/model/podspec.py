"""The parts of a core/v1 PodSpec that quota decisions use: effective requests, node selection
and tolerations.  Shared by Kueue pod-set templates and YuniKorn pods."""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.model.coerce import as_dict, as_list, as_str, quantity_map, str_map
from quotactl.model.quantity import Quantity


@dataclass(frozen=True)
class Toleration:
    key: str | None = None
    operator: str | None = None  # Equal (default) or Exists
    value: str | None = None
    effect: str | None = None
    toleration_seconds: int | None = None

    def tolerates(self, taint: Taint) -> bool:
        """core/v1 Toleration.ToleratesTaint."""
        if self.effect and self.effect != taint.effect:
            return False
        if self.key and self.key != taint.key:
            return False
        op = self.operator or "Equal"
        if op == "Exists":
            return True
        if op == "Equal":
            return (self.value or "") == (taint.value or "")
        return False


@dataclass(frozen=True)
class Taint:
    key: str | None
    value: str | None
    effect: str | None


@dataclass(frozen=True)
class SelectorRequirement:
    key: str
    operator: str
    values: tuple[str, ...] = ()

    def matches(self, labels: dict[str, str]) -> bool:
        """A node-selector requirement (In, NotIn, Exists, DoesNotExist, Gt, Lt)."""
        present = self.key in labels
        value = labels.get(self.key)
        if self.operator == "In":
            return present and value in self.values
        if self.operator == "NotIn":
            return not present or value not in self.values
        if self.operator == "Exists":
            return present
        if self.operator == "DoesNotExist":
            return not present
        if self.operator in ("Gt", "Lt") and present and len(self.values) == 1:
            try:
                a, b = int(value), int(self.values[0])
            except (TypeError, ValueError):
                return False
            return a > b if self.operator == "Gt" else a < b
        return False


@dataclass(frozen=True)
class NodeSelectorTerm:
    match_expressions: tuple[SelectorRequirement, ...] = ()

    def matches(self, labels: dict[str, str]) -> bool:
        return all(r.matches(labels) for r in self.match_expressions)


@dataclass(frozen=True)
class ResourceHolder:
    """One place of a pod spec that declares requests and limits, as written: a container, an
    init container (``field`` and ``index``) or the pod itself (pod-level ``spec.resources``,
    ``field`` None)."""

    field: str | None
    index: int | None
    requests: dict[str, Quantity]
    limits: dict[str, Quantity]

    @property
    def path(self) -> tuple:
        """Where it is, relative to the pod spec."""
        return (self.field, self.index) if self.field is not None else ()


@dataclass(frozen=True)
class PodSpecInfo:
    """What quota engines need from a pod spec."""

    requests: dict[str, Quantity] = field(default_factory=dict)  # effective per-pod requests
    node_selector: dict[str, str] = field(default_factory=dict)
    required_affinity: tuple[NodeSelectorTerm, ...] = ()  # ORed terms; empty = no constraint
    tolerations: tuple[Toleration, ...] = ()
    priority_class_name: str | None = None
    # Dynamic Resource Allocation: spec.resourceClaims[].name and containers' resources.claims[].name
    resource_claims: tuple[str, ...] = ()
    # Scheduling constraints between pods a node filter checks: "podAffinity" / "podAntiAffinity"
    # (required terms), "topologySpreadConstraints" (whenUnsatisfiable DoNotSchedule)
    inter_pod_constraints: tuple[str, ...] = ()
    # nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution: (weight, preference) per term
    preferred_affinity: tuple[tuple[int, NodeSelectorTerm], ...] = ()


def parse_tolerations(raw) -> tuple[Toleration, ...]:
    out = []
    for t in as_list(raw):
        t = as_dict(t)
        secs = t.get("tolerationSeconds")
        out.append(
            Toleration(
                as_str(t.get("key")), as_str(t.get("operator")), _scalar_str(t.get("value")), as_str(t.get("effect")),
                secs if isinstance(secs, int) and not isinstance(secs, bool) else None,
            )
        )
    return tuple(out)


def parse_taints(raw) -> tuple[Taint, ...]:
    return tuple(
        Taint(as_str(as_dict(t).get("key")), _scalar_str(as_dict(t).get("value")), as_str(as_dict(t).get("effect")))
        for t in as_list(raw)
    )


def _scalar_str(v) -> str | None:
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    return getattr(v, "raw", None) or str(v)


def container_requests(container: dict) -> dict[str, Quantity]:
    """Requests of one container; a resource with only a limit uses the limit as its request."""
    res = as_dict(as_dict(container).get("resources"))
    requests = quantity_map(res.get("requests"))
    for name, limit in quantity_map(res.get("limits")).items():
        requests.setdefault(name, limit)
    return requests


def _add(into: dict[str, Quantity], more: dict[str, Quantity]) -> dict[str, Quantity]:
    out = dict(into)
    for k, v in more.items():
        out[k] = out[k] + v if k in out else v
    return out


def _max(a: dict[str, Quantity], b: dict[str, Quantity]) -> dict[str, Quantity]:
    out = dict(a)
    for k, v in b.items():
        if k not in out or v > out[k]:
            out[k] = v
    return out


def effective_pod_requests(spec: dict) -> dict[str, Quantity]:
    """Kubernetes' effective pod request (the helper kube-scheduler and Kueue use).

    max(sum(containers) + sum(sidecars), for each plain init container: its request + the
    sidecars started before it), plus pod overhead.  Pod-level ``resources`` replace the
    container sum for the resources they name.
    """
    spec = as_dict(spec)
    total: dict[str, Quantity] = {}
    for c in as_list(spec.get("containers")):
        total = _add(total, container_requests(c))
    sidecars: dict[str, Quantity] = {}
    init_max: dict[str, Quantity] = {}
    for c in as_list(spec.get("initContainers")):
        req = container_requests(c)
        if as_dict(c).get("restartPolicy") == "Always":
            sidecars = _add(sidecars, req)
            init_max = _max(init_max, sidecars)
        else:
            init_max = _max(init_max, _add(req, sidecars))
    total = _max(_add(total, sidecars), init_max)
    pod_level = as_dict(spec.get("resources"))
    if pod_level:
        level = quantity_map(pod_level.get("requests"))
        for name, limit in quantity_map(pod_level.get("limits")).items():
            level.setdefault(name, limit)
        total.update(level)
    total = _add(total, quantity_map(spec.get("overhead")))
    return total


def resource_holders(spec: dict) -> tuple[ResourceHolder, ...]:
    """Every requests/limits pair of the pod spec: init containers, containers, and the pod-level
    ``resources`` when present (a value that is not a quantity is left out)."""
    spec = as_dict(spec)
    out = []
    for kind in ("initContainers", "containers"):
        for i, c in enumerate(as_list(spec.get(kind))):
            res = as_dict(as_dict(c).get("resources"))
            out.append(ResourceHolder(kind, i, quantity_map(res.get("requests")), quantity_map(res.get("limits"))))
    pod_level = spec.get("resources")
    if isinstance(pod_level, dict):
        out.append(ResourceHolder(None, None, quantity_map(pod_level.get("requests")),
                                  quantity_map(pod_level.get("limits"))))
    return tuple(out)


def pod_spec_info(spec: dict) -> PodSpecInfo:
    spec = as_dict(spec)
    affinity = as_dict(as_dict(as_dict(spec.get("affinity")).get("nodeAffinity")))
    required = as_dict(affinity.get("requiredDuringSchedulingIgnoredDuringExecution"))
    terms = [_selector_term(term) for term in as_list(required.get("nodeSelectorTerms"))]
    preferred = []
    for p in as_list(affinity.get("preferredDuringSchedulingIgnoredDuringExecution")):
        weight = as_dict(p).get("weight")
        if isinstance(weight, int) and not isinstance(weight, bool):
            preferred.append((weight, _selector_term(as_dict(p).get("preference"))))
    return PodSpecInfo(
        requests=effective_pod_requests(spec),
        node_selector=str_map(spec.get("nodeSelector")),
        required_affinity=tuple(terms),
        tolerations=parse_tolerations(spec.get("tolerations")),
        priority_class_name=as_str(spec.get("priorityClassName")),
        resource_claims=resource_claim_names(spec),
        inter_pod_constraints=_inter_pod_constraints(spec),
        preferred_affinity=tuple(preferred),
    )


def _selector_term(term) -> NodeSelectorTerm:
    reqs = []
    for e in as_list(as_dict(term).get("matchExpressions")):
        e = as_dict(e)
        reqs.append(SelectorRequirement(str(e.get("key", "")), str(e.get("operator", "")),
                                        tuple(_scalar_str(v) or "" for v in as_list(e.get("values")))))
    return NodeSelectorTerm(tuple(reqs))


def _inter_pod_constraints(spec: dict) -> tuple[str, ...]:
    affinity = as_dict(spec.get("affinity"))
    out = [kind for kind in ("podAffinity", "podAntiAffinity")
           if as_list(as_dict(affinity.get(kind)).get("requiredDuringSchedulingIgnoredDuringExecution"))]
    if any(as_dict(c).get("whenUnsatisfiable", "DoNotSchedule") == "DoNotSchedule"
           for c in as_list(spec.get("topologySpreadConstraints"))):
        out.append("topologySpreadConstraints")
    return tuple(out)


def has_resource_claims(spec: dict) -> bool:
    """Whether a pod spec has Dynamic Resource Allocation claims (without listing them)."""
    if spec.get("resourceClaims"):
        return True
    return any(isinstance(c, dict) and isinstance(c.get("resources"), dict) and c["resources"].get("claims")
               for key in ("initContainers", "containers") for c in as_list(spec.get(key)))


def resource_claim_names(spec: dict) -> tuple[str, ...]:
    """Dynamic Resource Allocation claims of a pod spec: its resourceClaims and its containers'."""
    names = [as_str(as_dict(c).get("name")) or "" for c in as_list(spec.get("resourceClaims"))]
    for key in ("initContainers", "containers"):
        for c in as_list(spec.get(key)):
            claims = as_dict(as_dict(c).get("resources")).get("claims")
            names.extend(as_str(as_dict(x).get("name")) or "" for x in as_list(claims))
    return tuple(dict.fromkeys(names))
