"""What Kueue's job integrations look up besides the job itself: the manager Configuration,
namespaces, LocalQueues, priority classes, RuntimeClasses, LimitRanges and training runtimes."""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.load.objects import KubeObject
from quotactl.model.kueue import KueueCluster, LabelSelector, LabelSelectorRequirement

METADATA_NAME = "kubernetes.io/metadata.name"
# Configuration default (apis/config/v1beta2/defaults.go): every namespace but Kubernetes' and Kueue's own.
DEFAULT_MANAGED_NAMESPACES = LabelSelector(
    {}, (LabelSelectorRequirement(METADATA_NAME, "NotIn", ("kube-system", "kueue-system"), ()),), ())
RUNTIME_KINDS = ("ClusterTrainingRuntime", "TrainingRuntime")


@dataclass
class JobContext:
    cluster: KueueCluster
    manage_without_queue_name: bool = False
    managed_namespaces: LabelSelector = DEFAULT_MANAGED_NAMESPACES
    runtime_classes: dict[str, dict] = field(default_factory=dict)
    limit_ranges: dict[str, list[dict]] = field(default_factory=dict)  # namespace -> LimitRanges by name
    runtimes: dict[tuple[str, str | None, str], KubeObject] = field(default_factory=dict)  # (kind, ns, name)

    def namespace_managed(self, namespace: str) -> tuple[bool, bool]:
        """(managed, assumed): without a Namespace object only its name label is known, and the
        selector's other requirements are assumed to match (assumed=True when there are any)."""
        ns = self.cluster.namespaces.get(namespace)
        if ns is not None:
            return self.managed_namespaces.matches(ns.labels), False
        selector = self.managed_namespaces
        labels = {k: v for k, v in selector.match_labels.items() if k == METADATA_NAME}
        exprs = tuple(r for r in selector.match_expressions if r.key == METADATA_NAME)
        by_name = LabelSelector(labels, exprs, ())
        assumed = len(labels) + len(exprs) < len(selector.match_labels) + len(selector.match_expressions)
        return by_name.matches({METADATA_NAME: namespace}), assumed

    def has_local_queue(self, namespace: str, name: str) -> bool:
        return (namespace, name) in self.cluster.local_queues


def build_context(cluster: KueueCluster, objects: list[KubeObject]) -> JobContext:
    """``cluster``: the input's model, built by the caller (its configuration is what is read);
    ``objects``: the input, for the objects the model does not hold (RuntimeClasses, LimitRanges,
    training runtimes)."""
    ctx = JobContext(cluster)
    config = cluster.configuration
    if config is not None:
        ctx.manage_without_queue_name = config.manage_jobs_without_queue_name
        if config.managed_jobs_namespace_selector is not None:
            ctx.managed_namespaces = config.managed_jobs_namespace_selector
    for obj in objects:
        if obj.kind == "RuntimeClass" and obj.name:
            ctx.runtime_classes.setdefault(obj.name, obj.data)
        elif obj.kind == "LimitRange":
            ctx.limit_ranges.setdefault(obj.namespace or "default", []).append(obj.data)
        elif obj.kind in RUNTIME_KINDS and obj.name:
            ns = obj.namespace or "default" if obj.kind == "TrainingRuntime" else None
            ctx.runtimes.setdefault((obj.kind, ns, obj.name), obj)
    for ranges in ctx.limit_ranges.values():
        ranges.sort(key=lambda lr: str((lr.get("metadata") or {}).get("name", "")))
    return ctx
