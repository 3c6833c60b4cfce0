"""How an object is named in every command's output: ``Kind/namespace/name`` for a namespaced
object, ``Kind/name`` for a cluster-scoped one (``ClusterQueue/team-a``), the way ``kubectl get``
names them with ``-o name`` plus the namespace, so that two LocalQueues called ``shared`` in two
namespaces are told apart."""

from __future__ import annotations

# Cluster-scoped kinds quotactl knows (Kueue's kubebuilder markers ``scope=Cluster`` in
# apis/kueue/*/*_types.go; Kubernetes' Namespace, PriorityClass, Node, RuntimeClass; Kubeflow
# trainer's ClusterTrainingRuntime). The Kueue Configuration and YuniKorn's config documents are
# not API objects; they have no namespace either.
CLUSTER_SCOPED_KINDS = frozenset({
    "ResourceFlavor", "ClusterQueue", "Cohort", "WorkloadPriorityClass", "AdmissionCheck", "Topology",
    "MultiKueueCluster", "MultiKueueConfig", "ProvisioningRequestConfig", "PreemptionConfig",
    "Namespace", "PriorityClass", "Node", "RuntimeClass", "ClusterTrainingRuntime",
    "Configuration", "SchedulerConfig", "ConfigMapData", "PartitionFragment",
})
UNNAMED = "<unnamed>"


def object_id(kind: str, name: str | None, namespace: str | None, *, known_scope: bool = True) -> str:
    """``Kind/namespace/name`` or ``Kind/name``. A namespaced object without metadata.namespace is in
    ``default`` (where ``kubectl apply`` without ``-n`` puts it, and where the model places it).
    ``known_scope=False`` (a kind quotactl does not model): the namespace is shown only when given."""
    shown = name if name is not None else UNNAMED
    if kind in CLUSTER_SCOPED_KINDS:
        return f"{kind}/{shown}"
    if namespace is None and not known_scope:
        return f"{kind}/{shown}"
    return f"{kind}/{namespace or 'default'}/{shown}"


def raw_object_id(kind: str, data: dict, *, known_scope: bool = True) -> str:
    """The id of an object read straight from its data (one quotactl does not model)."""
    md = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    name, namespace = md.get("name"), md.get("namespace")
    return object_id(kind, name if isinstance(name, str) else (None if name is None else str(name)),
                     namespace if isinstance(namespace, str) else None, known_scope=known_scope)
