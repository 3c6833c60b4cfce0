"""Typed AdmissionChecks and the objects they lean on: Topology (topology-aware scheduling),
MultiKueueConfig / MultiKueueCluster and ProvisioningRequestConfig (Kueue
``apis/kueue/v1beta2/admissioncheck_types.go``, ``topology_types.go``, ``multikueue_types.go``,
``provisioningrequestconfig_types.go``).

Only what quotas and cross-references need is modelled: names, the parameters reference, the
topology levels and the clusters of a MultiKueueConfig."""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.load.object_ids import object_id
from quotactl.load.objects import KUEUE_GROUP, KubeObject
from quotactl.model.coerce import as_dict, as_list, as_str
from quotactl.model.kueue_base import KueueObject

# The controllers Kueue ships and the parameters kind each reads (pkg/controller/admissionchecks/).
PROVISIONING_CONTROLLER = "kueue.x-k8s.io/provisioning-request"
MULTIKUEUE_CONTROLLER = "kueue.x-k8s.io/multikueue"
PARAMETERS_KIND = {PROVISIONING_CONTROLLER: "ProvisioningRequestConfig", MULTIKUEUE_CONTROLLER: "MultiKueueConfig"}


@dataclass(frozen=True)
class ParametersRef:
    api_group: str | None
    kind: str | None
    name: str | None

    @property
    def is_kueue(self) -> bool:
        return self.api_group == KUEUE_GROUP


@dataclass(frozen=True)
class AdmissionCheck(KueueObject):
    name: str | None = None
    active: bool = False  # condition Active=True
    controller_name: str | None = None
    parameters: ParametersRef | None = None


@dataclass(frozen=True)
class Topology(KueueObject):
    name: str | None = None
    levels: tuple[str | None, ...] = ()  # nodeLabel of each level, highest first


@dataclass(frozen=True)
class MultiKueueCluster(KueueObject):
    name: str | None = None
    # The ways of reaching the worker set in spec.clusterSource (kubeConfig, clusterProfileRef);
    # None when clusterSource is missing or not a mapping (the schema reports that).
    cluster_sources: tuple[str, ...] | None = None


@dataclass(frozen=True)
class MultiKueueConfig(KueueObject):
    name: str | None = None
    clusters: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProvisioningRequestConfig(KueueObject):
    name: str | None = None


@dataclass(frozen=True)
class AlphaObject(KueueObject):
    """An object of a Kueue alpha kind quotactl recognises but does not model
    (``load.objects.KUEUE_ALPHA_KINDS``: PreemptionConfig, DynamicQuotaOrchestrator, ...)."""

    kind: str = ""
    name: str | None = None

    @property
    def display(self) -> str:
        """Its scope is unknown to quotactl: the namespace is shown only when given."""
        return object_id(self.kind, self.name, self.source.namespace, known_scope=False)


def build_alpha_object(obj: KubeObject) -> AlphaObject:
    return AlphaObject(source=obj, kind=obj.kind, name=obj.name)


def build_admission_check(obj: KubeObject) -> AdmissionCheck:
    spec = as_dict(obj.data.get("spec"))
    conditions = as_list(as_dict(obj.data.get("status")).get("conditions"))
    active = any(as_dict(c).get("type") == "Active" and as_dict(c).get("status") == "True" for c in conditions)
    raw = spec.get("parameters")
    parameters = None
    if isinstance(raw, dict):
        parameters = ParametersRef(as_str(raw.get("apiGroup")), as_str(raw.get("kind")), as_str(raw.get("name")))
    return AdmissionCheck(source=obj, name=obj.name, active=active,
                          controller_name=as_str(spec.get("controllerName")), parameters=parameters)


def build_topology(obj: KubeObject) -> Topology:
    levels = as_list(as_dict(obj.data.get("spec")).get("levels"))
    return Topology(source=obj, name=obj.name, levels=tuple(as_str(as_dict(lv).get("nodeLabel")) for lv in levels))


def build_multikueue_cluster(obj: KubeObject) -> MultiKueueCluster:
    source = as_dict(obj.data.get("spec")).get("clusterSource")
    sources = (tuple(k for k in ("kubeConfig", "clusterProfileRef") if source.get(k) is not None)
               if isinstance(source, dict) else None)
    return MultiKueueCluster(source=obj, name=obj.name, cluster_sources=sources)


def build_multikueue_config(obj: KubeObject) -> MultiKueueConfig:
    clusters = as_list(as_dict(obj.data.get("spec")).get("clusters"))
    return MultiKueueConfig(source=obj, name=obj.name, clusters=tuple(c for c in clusters if isinstance(c, str)))


def build_provisioning_request_config(obj: KubeObject) -> ProvisioningRequestConfig:
    return ProvisioningRequestConfig(source=obj, name=obj.name)


CHECK_BUILDERS = {
    "AdmissionCheck": build_admission_check,
    "Topology": build_topology,
    "MultiKueueCluster": build_multikueue_cluster,
    "MultiKueueConfig": build_multikueue_config,
    "ProvisioningRequestConfig": build_provisioning_request_config,
}
