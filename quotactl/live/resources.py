"""What quotactl reads from a cluster, per scheduler: the kinds the loader classifies
(quotactl/load/objects.py ``classify``) and the job kinds Kueue integrates
(quotactl/jobs/registry.py), plus the schedulers' ConfigMaps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from quotactl.load.objects import (
    JOB_CONTEXT_KINDS,
    KUEUE_CONFIG_GROUP,
    KUEUE_GROUP,
    KUEUE_KINDS,
)

# Kueue serves v1beta2 in its newer releases and keeps v1beta1; older releases served Cohort at v1alpha1 only.
KUEUE_VERSIONS = ("v1beta2", "v1beta1", "v1alpha1")
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
POD_GROUP_LABEL = "kueue.x-k8s.io/pod-group-name"

# Kueue's manager Configuration as its Helm chart and kustomize manifests install it.
KUEUE_NAMESPACE = "kueue-system"
KUEUE_CONFIGMAP = "kueue-manager-config"
# YuniKorn's Helm chart installs into "yunikorn"; the shim reads these two ConfigMaps
# (yunikorn-k8shim pkg/conf/schedulerconf.go).
YUNIKORN_NAMESPACE = "yunikorn"
YUNIKORN_CONFIGMAPS = ("yunikorn-defaults", "yunikorn-configs")


@dataclass(frozen=True)
class Wanted:
    """One kind to list. ``versions``: the preference (empty = the server's preferred version);
    ``selectors``: label selectors listed one by one and merged (empty = every object)."""

    group: str
    kind: str
    versions: tuple[str, ...] = ()
    selectors: tuple[str, ...] = ()
    field_selector: str | None = None  # the server filters the list (fieldSelector=)
    trim: Callable[[dict, str, str], dict] | None = None  # (item, apiVersion, kind) -> the fields kept

    @property
    def label(self) -> str:
        return f"{self.kind} ({self.group or 'core'})"


@dataclass(frozen=True)
class NamedConfigMap:
    """A ConfigMap read by name from the scheduler's namespace."""

    name: str
    namespace: str


def _kueue_kinds() -> list[Wanted]:
    order = ("ResourceFlavor", "Cohort", "ClusterQueue", "LocalQueue", "WorkloadPriorityClass", "Workload")
    kinds = list(order) + sorted(KUEUE_KINDS - set(order))
    return [Wanted(KUEUE_GROUP, k, KUEUE_VERSIONS) for k in kinds]


def _job_kinds() -> list[Wanted]:
    """The kinds Kueue's integrations turn into Workloads. Pods, Deployments and StatefulSets are
    read only when they carry Kueue's labels: every cluster runs many that Kueue never sees."""
    from quotactl.jobs.registry import INTEGRATIONS

    by_label = {"Pod": (QUEUE_LABEL, POD_GROUP_LABEL), "Deployment": (QUEUE_LABEL,), "StatefulSet": (QUEUE_LABEL,)}
    return [Wanted(group, kind, (), by_label.get(kind, ()) if group in ("", "apps") else ())
            for group, kind in sorted(INTEGRATIONS)]


def kueue_wanted() -> list[Wanted]:
    context = [Wanted("", "Namespace"), Wanted("scheduling.k8s.io", "PriorityClass")]
    context += [Wanted(g, k) for g, k in sorted(JOB_CONTEXT_KINDS)]
    return _kueue_kinds() + context + _job_kinds()


def yunikorn_wanted() -> list[Wanted]:
    return [Wanted("", "Namespace"), Wanted("scheduling.k8s.io", "PriorityClass"), Wanted("", "Node"),
            Wanted("", "Pod")]


# Topology-aware scheduling places pods on Nodes and counts what the pods already running there use
# (kueue pkg/cache/scheduler/tas_nodes_cache.go, tas_non_tas_usage_cache.go): a cluster with a
# ResourceFlavor naming a Topology needs its Nodes and its live Pods. Finished Pods use nothing.
ACTIVE_PODS = "status.phase!=Succeeded,status.phase!=Failed"
# Sets: the kept keys are found by intersecting with the item's (fast on 100,000 Pods); the
# snapshot's keys are sorted when it is rendered, so their order here does not matter.
_POD_META = frozenset({"name", "namespace", "uid", "labels", "annotations", "ownerReferences", "creationTimestamp",
                       "deletionTimestamp"})
_POD_SPEC = frozenset({"nodeName", "nodeSelector", "affinity", "tolerations", "priority", "priorityClassName",
                       "schedulerName", "overhead", "schedulingGates"})
_CONTAINER = frozenset({"name", "resources", "restartPolicy"})  # restartPolicy: an init container that is a sidecar


_NODE_META = ("name", "uid", "labels", "annotations", "creationTimestamp")


def tas_wanted() -> list[Wanted]:
    return [Wanted("", "Node", trim=trim_node), Wanted("", "Pod", field_selector=ACTIVE_PODS, trim=trim_pod)]


def uses_topology(objects: list[dict]) -> bool:
    """Whether a ResourceFlavor of ``objects`` names a Topology (a TAS flavor)."""
    return any(o.get("kind") == "ResourceFlavor" and str(o.get("apiVersion", "")).startswith(KUEUE_GROUP + "/")
               and (o.get("spec") or {}).get("topologyName") for o in objects if isinstance(o.get("spec"), dict))


def trim_pod(pod: dict, api_version: str, kind: str) -> dict:
    """A listed Pod cut down to what placement and usage read: identity, owner, where it runs, what it
    asks for and its phase (100,000 whole Pods would make a snapshot of gigabytes)."""
    md, spec, status = _mapping(pod, "metadata"), _mapping(pod, "spec"), _mapping(pod, "status")
    out_spec = {k: spec[k] for k in _POD_SPEC.intersection(spec)}
    for key in ("initContainers", "containers"):
        if isinstance(spec.get(key), list):
            out_spec[key] = [{k: c[k] for k in _CONTAINER.intersection(c)} for c in spec[key] if isinstance(c, dict)]
    out = {"apiVersion": api_version, "kind": kind, "metadata": {k: md[k] for k in _POD_META.intersection(md)},
           "spec": out_spec}
    if "phase" in status:
        out["status"] = {"phase": status["phase"]}
    return out


def _mapping(obj: dict, key: str) -> dict:
    value = obj.get(key)
    return value if isinstance(value, dict) else {}


def trim_node(node: dict, api_version: str, kind: str) -> dict:
    """A listed Node without what placement never reads (status.images, nodeInfo, addresses, ... can be
    most of its bytes): labels, unschedulable, taints, allocatable and conditions (Ready)."""
    md, spec, status = _mapping(node, "metadata"), _mapping(node, "spec"), _mapping(node, "status")
    out = {"apiVersion": api_version, "kind": kind, "metadata": {k: md[k] for k in _NODE_META if k in md},
           "spec": {k: spec[k] for k in ("unschedulable", "taints") if k in spec}}
    kept = {k: status[k] for k in ("allocatable", "capacity", "conditions") if k in status}
    if kept:
        out["status"] = kept
    return out


def kueue_configmaps(namespace: str | None) -> list[NamedConfigMap]:
    return [NamedConfigMap(KUEUE_CONFIGMAP, namespace or KUEUE_NAMESPACE)]


def yunikorn_configmaps(namespace: str | None) -> list[NamedConfigMap]:
    return [NamedConfigMap(n, namespace or YUNIKORN_NAMESPACE) for n in YUNIKORN_CONFIGMAPS]


__all__ = ["KUEUE_CONFIG_GROUP", "Wanted", "NamedConfigMap", "kueue_wanted", "yunikorn_wanted", "tas_wanted",
           "trim_node", "trim_pod", "uses_topology"]
