"""The shim's predicate checks for a pod on a node (yunikorn-k8shim ``pkg/plugin/predicates``): the
Kubernetes filter plugins quotactl can evaluate offline — node name, nodeSelector, required node
affinity, taints / tolerations, cordoned nodes — plus resource fit on YuniKorn's view of the node.

YuniKorn's core itself never reads these; the shim answers the core's ``Predicates`` /
``PreemptionPredicates`` callbacks with them.
"""

from __future__ import annotations

from quotactl.model.yunikorn_resources import Resource, add, fit_in, format_resource
from quotactl.yunikorn.cluster import Node, Task

HOSTNAME = "kubernetes.io/hostname"


def placement_failure(task: Task, node: Node) -> str | None:
    """Why the pod may not run on the node regardless of resources; None when it may."""
    spec = task.spec
    if task.required_node and task.required_node != node.name:
        return f"pinned to node {task.required_node}"
    if not node.schedulable:
        return "node is cordoned (spec.unschedulable)"
    for key, value in spec.node_selector.items():
        if node.labels.get(key) != value:
            return f"nodeSelector {key}={value} does not match"
    if spec.required_affinity and not any(t.matches(node.labels) for t in spec.required_affinity):
        return "required node affinity does not match"
    for taint in node.taints:
        if taint.effect not in ("NoSchedule", "NoExecute"):
            continue
        if not any(tol.tolerates(taint) for tol in spec.tolerations):
            shown = taint.key + (f"={taint.value}" if taint.value else "")
            return f"untolerated taint {shown}:{taint.effect}"
    return None


def shortfall(ask: Resource, available: Resource) -> Resource:
    """What the node lacks for the ask, per type (only the types that are short)."""
    out = {}
    for k, v in ask.items():
        have = max(0, available.get(k, 0))
        if v > have:
            out[k] = v - have
    return out


def fit_failure(task: Task, node: Node, available: Resource | None = None) -> str | None:
    """Resource fit against the node's available resource (``FitIn``: a type the node lacks is 0)."""
    avail = node.available if available is None else available
    if fit_in(avail, task.resource):
        return None
    short = shortfall(task.resource, avail)
    return "insufficient " + ", ".join(f"{k} ({v} more needed)" for k, v in
                                       (part.split(" ", 1) for part in format_resource(short).split(", ")))


def predicates(task: Task, node: Node) -> str | None:
    """The shim's normal ``Predicates`` check: placement rules, then resources."""
    return placement_failure(task, node) or fit_failure(task, node)


def preemption_predicates(task: Task, node: Node, victims: list[Task], start_index: int) -> int:
    """The shim's ``PreemptionPredicates``: remove the victims before ``start_index``, then one by
    one from there until the pod fits; the index of the last victim needed, or -1 (no fit)."""
    if placement_failure(task, node) is not None:
        return -1
    available = dict(node.available)
    for v in victims[: max(0, start_index)]:
        available = add(available, v.resource)
    for i in range(max(0, start_index), len(victims)):
        available = add(available, victims[i].resource)
        if fit_in(available, task.resource):
            return i
    return -1


__all__ = ["placement_failure", "fit_failure", "predicates", "preemption_predicates", "shortfall"]
