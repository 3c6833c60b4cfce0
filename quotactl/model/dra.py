"""Dynamic Resource Allocation as Kueue charges it to quota (kueue ``pkg/dra/claims.go``,
``pkg/dra/mapper.go``, ``pkg/controller/core/workload_controller.go handleDRA``): the devices the
ResourceClaimTemplates of a pod template request, counted per device class and charged per pod to
the logical resource the Configuration's ``resources.deviceClassMappings`` maps the class to.

A Workload whose claims Kueue cannot resolve (an unmapped device class, a request mode Kueue does
not support, a template it cannot read, a ResourceClaim reference) is not admitted: Kueue sets
QuotaReserved=False with the field error below as its message."""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.load.objects import KubeObject
from quotactl.model.coerce import as_dict, as_int, as_list, as_str
from quotactl.model.kueue_base import KueueObject

DRA_GROUP = "resource.k8s.io"
CLAIM_KINDS = ("ResourceClaimTemplate", "ResourceClaim")
# kueue handleDRA: a pod set naming a ResourceClaim (not a template) is refused as a whole
MSG_RESOURCE_CLAIMS = "KueueDRAIntegration feature does not support use of resource claims"
MSG_GATE_OFF = "Workload uses DRA resources but the KueueDRAIntegration feature gate is not enabled"
# How quotactl names the outcome in explain's detail (Kueue writes reason Misconfigured with the
# field error as message)
UNRESOLVED = "DRAResourcesUnresolved"
SATURATED = 2**63 - 1  # utilmath.SaturatingAdd: device counts add without wrapping


@dataclass(frozen=True)
class ClaimSource:
    """One ``spec.resourceClaims[]`` entry of a pod template: its name and what it points at."""

    name: str
    template: str | None  # resourceClaimTemplateName
    claim: str | None  # resourceClaimName


@dataclass(frozen=True, slots=True)
class DeviceClaimSpec(KueueObject):
    """A ResourceClaimTemplate (``spec.spec``) or ResourceClaim (``spec``): the devices it requests
    per device class (``countDevicesPerClass``), or the first request Kueue refuses."""

    name: str | None = None
    namespace: str = "default"
    devices: tuple[tuple[str, int], ...] = ()  # (device class, count), first-request order
    # the first request Kueue refuses: (field below the claim spec, bad value as printed, detail)
    problem: tuple[str, str, str] | None = None
    cel_selectors: bool = False  # a request has CEL selectors (Kueue checks them against ResourceSlices)
    # (device class, field path of its deviceClassName) per request Kueue counts, for lint findings
    class_fields: tuple[tuple[str, tuple], ...] = ()


@dataclass(frozen=True)
class DraProblem:
    """Why Kueue does not admit a Workload with DRA claims: its message and what to do."""

    message: str  # the QuotaReserved=False message Kueue writes
    detail: str  # what quotactl says about it
    fix: str


@dataclass(frozen=True)
class DraCharge:
    """A Workload's DRA claims resolved: per pod set, the logical resources one pod is charged
    (``WithPreprocessedDRAResources``), or why they cannot be resolved."""

    per_pod: dict[str, dict[str, int]] = field(default_factory=dict)  # pod set -> {logical resource: devices}
    problem: DraProblem | None = None


@dataclass(frozen=True)
class DeviceClassMapping:
    """One ``resources.deviceClassMappings[]`` entry."""

    name: str
    device_class_names: tuple[str, ...]
    has_sources: bool = False  # counter / capacity sources: charged from ResourceSlices, not by count


def device_class_mappings(raw) -> tuple[DeviceClassMapping, ...]:
    out = []
    for m in as_list(raw):
        m = as_dict(m)
        out.append(DeviceClassMapping(str(m.get("name") or ""),
                                      tuple(str(c) for c in as_list(m.get("deviceClassNames")) if c),
                                      bool(as_list(m.get("sources")))))
    return tuple(out)


def class_to_resource(mappings: tuple[DeviceClassMapping, ...]) -> dict[str, str]:
    """``ResourceMapper.PopulateFromConfiguration``: device class -> logical resource, the first
    mapping naming a class wins."""
    out: dict[str, str] = {}
    for m in mappings:
        for dc in m.device_class_names:
            out.setdefault(dc, m.name)
    return out


def claim_sources(spec: dict) -> tuple[ClaimSource, ...]:
    out = []
    for c in as_list(as_dict(spec).get("resourceClaims")):
        c = as_dict(c)
        out.append(ClaimSource(as_str(c.get("name")) or "", as_str(c.get("resourceClaimTemplateName")),
                               as_str(c.get("resourceClaimName"))))
    return tuple(out)


def _request(req: dict) -> tuple[str, int] | tuple[str, str, str] | None:
    """A request in Kueue's terms (``countDevicesPerClass``): (device class, count), None to skip
    it (admin access, no class), or (field, bad value, detail) for a request Kueue refuses."""
    if "exactly" not in req and "firstAvailable" not in req and "deviceClassName" in req:
        exactly = req  # resource.k8s.io/v1beta1: the request is the exact request
    elif req.get("firstAvailable") is not None:
        return ("", '"null"', "FirstAvailable device selection is not supported")
    elif not isinstance(req.get("exactly"), dict):
        return ("", '"null"', "Exactly must be set if FirstAvailable is nil")
    else:
        exactly = req["exactly"]
    if exactly.get("adminAccess") is True:
        return None
    mode = exactly.get("allocationMode", "ExactCount")
    where = ".allocationMode" if exactly is req else ".exactly.allocationMode"
    if mode == "All":
        return (where, '"All"', "AllocationMode 'All' is not supported")
    if mode != "ExactCount":
        return (where, f'"{mode}"', f"unsupported allocation mode: {mode}")
    dc = as_str(exactly.get("deviceClassName")) or ""
    count = as_int(exactly.get("count"))
    return (dc, 1 if count is None else count) if dc else None


def build_device_claim_spec(obj: KubeObject) -> DeviceClaimSpec:
    spec = as_dict(obj.data.get("spec"))
    base: tuple = ("spec",)
    if obj.kind == "ResourceClaimTemplate":
        spec, base = as_dict(spec.get("spec")), ("spec", "spec")
    fields = []
    counts: dict[str, int] = {}
    problem = None
    requests = as_list(as_dict(spec.get("devices")).get("requests"))
    cel = any(as_dict(sel).get("cel") is not None for req in requests
              for sel in as_list(as_dict(as_dict(req).get("exactly", req)).get("selectors")))
    for i, req in enumerate(requests):
        got = _request(as_dict(req))
        if got is None:
            continue
        if len(got) == 3:
            problem = (f".devices.requests[{i}]{got[0]}", got[1], got[2])
            break
        dc, count = got
        exact = () if "exactly" not in as_dict(req) else ("exactly",)
        fields.append((dc, (*base, "devices", "requests", i, *exact, "deviceClassName")))
        counts[dc] = min(SATURATED, counts.get(dc, 0) + max(count, 0))
    return DeviceClaimSpec(source=obj, name=obj.name, namespace=obj.namespace or "default",
                           devices=tuple(counts.items()), problem=problem, cel_selectors=cel,
                           class_fields=tuple(fields))


def is_claim_kind(obj: KubeObject) -> bool:
    return obj.group == DRA_GROUP and obj.kind in CLAIM_KINDS


def resolve_claims(namespace: str, pod_sets, templates: dict[tuple[str, str], DeviceClaimSpec],
                   mapping: dict[str, str]) -> DraCharge:
    """``GetResourceRequestsForResourceClaimTemplates`` for one Workload: ``pod_sets`` are
    (name, index, claim sources) of its pod sets; ``templates`` the input's ResourceClaimTemplates
    by (namespace, name); ``mapping`` device class -> logical resource."""
    for ps_name, _i, sources in pod_sets:
        if any(s.claim for s in sources):
            return DraCharge(problem=DraProblem(
                MSG_RESOURCE_CLAIMS,
                f"{UNRESOLVED}: pod set {ps_name} names a ResourceClaim (resourceClaimName): Kueue counts devices of "
                "ResourceClaimTemplates only and does not admit a workload that shares a claim",
                "use a resourceClaimTemplateName instead of a resourceClaimName"))
    per_pod: dict[str, dict[str, int]] = {}
    for ps_name, i, sources in pod_sets:
        charged: dict[str, int] = {}
        for j, src in enumerate(sources):
            if src.template is None:
                continue
            path = f"spec.podSets[{i}].template.spec.resourceClaims[{j}]"
            spec = templates.get((namespace, src.template))
            if spec is None:
                return DraCharge(problem=DraProblem(
                    f"{path}: Internal error: failed to get claim spec for ResourceClaimTemplate {src.template} in "
                    f"podset {ps_name}: resourceclaimtemplates.resource.k8s.io \"{src.template}\" not found",
                    f"{UNRESOLVED}: pod set {ps_name} uses ResourceClaimTemplate {namespace}/{src.template}, which is not in the "
                    "input: Kueue cannot count its devices and does not admit the workload",
                    f"add ResourceClaimTemplate {namespace}/{src.template} to the input (kubectl get "
                    "resourceclaimtemplates -A -o yaml), or create it"))
            if spec.problem is not None:
                where, value, detail = spec.problem
                return DraCharge(problem=DraProblem(
                    f"{path}{where}: Invalid value: {value}: ResourceClaimTemplate {src.template}: {detail}",
                    f"{UNRESOLVED}: ResourceClaimTemplate {namespace}/{src.template} asks for devices in a way Kueue does not "
                    "count (FirstAvailable or allocationMode All)",
                    "request an exact count of devices of one device class"))
            for dc, count in sorted(spec.devices):
                logical = mapping.get(dc)
                if logical is None:
                    return DraCharge(problem=unmapped_problem(path, dc, ps_name))
                charged[logical] = min(SATURATED, charged.get(logical, 0) + count)
        if charged:
            per_pod[ps_name] = charged
    return DraCharge(per_pod=per_pod)


def unmapped_problem(path: str, device_class: str, pod_set: str) -> DraProblem:
    return DraProblem(
        f"{path}.resourceClaimTemplateName: Not found: \"DeviceClass {device_class} is not mapped in DRA "
        f"configuration for podset {pod_set}\"",
        f"{UNRESOLVED}: device class {device_class} is in no resources.deviceClassMappings entry of "
        "the Configuration, so Kueue cannot charge its devices to any quota and does not admit the workload",
        f"add {device_class} to the deviceClassNames of a resources.deviceClassMappings entry (and restart "
        "Kueue's manager: it reads the mapping at start-up)")


def integration_enabled(gates) -> bool:
    """Whether Kueue counts DRA devices: gate KueueDRAIntegration (Beta, on since v0.18), before it
    DynamicResourceAllocation (Alpha, off; removed in v0.19)."""
    return gates.enabled("KueueDRAIntegration") or gates.enabled("DynamicResourceAllocation")


def refused_when_disabled(gates) -> bool:
    """Gate KueueDRARejectWorkloadsWhenDRADisabled (Beta, on since v0.18): with the integration
    off, a workload with DRA claims is refused rather than admitted without its devices."""
    return gates.enabled("KueueDRARejectWorkloadsWhenDRADisabled")


def dra_problem(wl_claims: bool, charge: DraCharge | None, gates) -> DraProblem | None:
    """Why Kueue does not queue a workload with DRA claims (workload_controller.go Reconcile, then
    ``handleDRA``), or None."""
    if not wl_claims:
        return None
    if not integration_enabled(gates):
        if refused_when_disabled(gates):
            return DraProblem(MSG_GATE_OFF, "the workload has DRA resource claims and Kueue runs with the "
                              "KueueDRAIntegration feature gate off", "turn the KueueDRAIntegration gate on")
        return None
    return charge.problem if charge is not None else None
