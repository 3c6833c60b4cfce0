"""Kueue's ``workload.AdjustResources`` on a pod template, and the per-pod request it leads to.

Order matters and is Kueue's: RuntimeClass overhead, then LimitRange defaults, then limits as
missing requests (so a LimitRange ``defaultRequest`` wins over the container's own limit)."""

from __future__ import annotations

from quotactl.jobs.context import JobContext
from quotactl.jobs.podtemplate import CONTAINER_LISTS
from quotactl.model.podspec import effective_pod_requests
from quotactl.model.quantity import Quantity


def adjust_resources(template: dict, namespace: str, ctx: JobContext) -> dict:
    """The template with overhead, LimitRange defaults and limits-as-requests filled in (in place)."""
    spec = template.setdefault("spec", {})
    _add_runtime_overhead(spec, ctx)
    _apply_limit_ranges(spec, ctx.limit_ranges.get(namespace, []))
    _limits_as_requests(spec)
    return template


def per_pod_requests(template: dict) -> dict[str, Quantity]:
    """What the scheduler charges for one pod of an adjusted template (negative values floor to 0)."""
    zero = Quantity(0)
    return {k: max(v, zero) for k, v in effective_pod_requests(template.get("spec") or {}).items()}


def _add_runtime_overhead(spec: dict, ctx: JobContext) -> None:
    name = spec.get("runtimeClassName")
    if not name or spec.get("overhead"):
        return
    podfixed = ((ctx.runtime_classes.get(name) or {}).get("overhead") or {}).get("podFixed")
    if isinstance(podfixed, dict) and podfixed:
        spec["overhead"] = dict(podfixed)


def _apply_limit_ranges(spec: dict, ranges: list[dict]) -> None:
    summary = _summarize(ranges)
    container = summary.get("Container")
    if container is not None:
        for key in CONTAINER_LISTS:
            for c in spec.get(key) or []:
                _fill(c.setdefault("resources", {}), container)
    pod = summary.get("Pod")
    if pod is not None and spec.get("resources") is not None:
        _fill(spec["resources"], pod)


def _summarize(ranges: list[dict]) -> dict[str, dict[str, dict]]:
    """pkg/util/limitrange.Summarize: per item type, the first default / defaultRequest seen wins."""
    summary: dict[str, dict[str, dict]] = {}
    for lr in ranges:
        for item in (lr.get("spec") or {}).get("limits") or []:
            if not isinstance(item, dict) or item.get("type") not in ("Container", "Pod"):
                continue
            entry = summary.setdefault(item["type"], {"limits": {}, "requests": {}})
            _keep_first(entry["limits"], item.get("default"))
            _keep_first(entry["requests"], item.get("defaultRequest"))
    return summary


def _fill(resources: dict, defaults: dict[str, dict]) -> None:
    for key in ("limits", "requests"):
        if defaults[key]:
            resources[key] = _keep_first(dict(resources.get(key) or {}), defaults[key])


def _limits_as_requests(spec: dict) -> None:
    for key in CONTAINER_LISTS:
        for c in spec.get(key) or []:
            resources = c.get("resources") or {}
            if resources.get("limits"):
                resources["requests"] = _keep_first(dict(resources.get("requests") or {}), resources["limits"])
    pod = spec.get("resources")
    if isinstance(pod, dict) and pod.get("limits"):
        pod["requests"] = _keep_first(dict(pod.get("requests") or {}), pod["limits"])


def _keep_first(into: dict, more) -> dict:
    for name, value in (more or {}).items() if isinstance(more, dict) else ():
        into.setdefault(name, value)
    return into
