"""Kueue's ``ExtractPriority``: the Workload's priority class reference and value for a job."""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.jobs.context import JobContext

PRIORITY_LABEL = "kueue.x-k8s.io/priority-class"
DEFAULT_WPC = "default"


class PriorityNotFound(Exception):
    """The named class does not exist: Kueue creates no Workload (the message is Kueue's)."""


@dataclass(frozen=True)
class Priority:
    ref: dict | None  # priorityClassRef {group, kind, name}
    value: int


def resolve_priority(labels: dict, pod_class_name: str | None, ctx: JobContext) -> Priority:
    """First hit wins: the WorkloadPriorityClass label (defaulted to ``default`` when that class
    exists), the integration's pod priority class name, the globalDefault PriorityClass, else 0."""
    wpcs = ctx.cluster.workload_priority_classes
    name = labels.get(PRIORITY_LABEL)
    if name is None and DEFAULT_WPC in wpcs:
        name = DEFAULT_WPC
    if name:
        wpc = wpcs.get(name)
        if wpc is None:
            raise PriorityNotFound(f'WorkloadPriorityClass "{name}" not found')
        return Priority(_ref("kueue.x-k8s.io", "WorkloadPriorityClass", name), wpc.value or 0)
    pcs = ctx.cluster.priority_classes
    if pod_class_name:
        pc = pcs.get(pod_class_name)
        if pc is None:
            raise PriorityNotFound(f'PriorityClass "{pod_class_name}" not found')
        return Priority(_ref("scheduling.k8s.io", "PriorityClass", pod_class_name), pc.value or 0)
    defaults = sorted((pc.value or 0, pc.name) for pc in pcs.values() if pc.global_default)
    if defaults:
        value, default_name = defaults[0]
        return Priority(_ref("scheduling.k8s.io", "PriorityClass", default_name), value)
    return Priority(None, 0)


def _ref(group: str, kind: str, name: str) -> dict:
    return {"group": group, "kind": kind, "name": name}
