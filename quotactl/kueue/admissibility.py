"""Whether Kueue could ever admit a workload, decided once for the scheduler, ``explain`` and
``lint``.

Sources: ``pkg/workload/resources.go: ValidateResources`` (called by ``ValidateAdmissibility``
before the flavor assignment), ``pkg/resources/requests.go: GreaterKeys, ResourceValue``; the
maximum capacity is ``quota.potential_available`` on a usage-free snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.kueue.amounts import to_amount
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.quota import Snapshot, build_snapshot
from quotactl.model.kueue import KueueCluster, Workload
from quotactl.model.podspec import ResourceHolder
from quotactl.model.quantity import Quantity


@dataclass(frozen=True)
class LimitViolation:
    """A container, init container or pod-level ``resources`` of one pod set that requests more
    than its limit of the named resources."""

    pod_set: int  # index in spec.podSets
    holder: ResourceHolder
    resources: tuple[str, ...]

    @property
    def path(self) -> tuple:
        """The holder inside the Workload."""
        return ("spec", "podSets", self.pod_set, "template", "spec") + self.holder.path

    def request_path(self, resource: str) -> tuple:
        return self.path + ("resources", "requests", resource)


def greater_keys(requests: dict[str, Quantity], limits: dict[str, Quantity]) -> tuple[str, ...]:
    """``MapRequests.GreaterKeys``: resources whose request is above the limit, compared as Kueue
    amounts (``ResourceValue``: rounded up, saturated at int64), in request order."""
    return tuple(r for r, q in requests.items() if r in limits and to_amount(r, q) > to_amount(r, limits[r]))


def requests_over_limits(wl: Workload) -> tuple[LimitViolation, ...]:
    """``ValidateResources``: every init container, container and pod-level ``resources``
    (KEP-2837) whose requests exceed its limits."""
    out = []
    for i, ps in enumerate(wl.pod_sets):
        for holder in ps.resource_holders:
            names = greater_keys(holder.requests, holder.limits)
            if names:
                out.append(LimitViolation(i, holder, names))
    return tuple(out)


def _field_path(path: tuple) -> str:
    text = ""
    for p in path:
        text += f"[{p}]" if isinstance(p, int) else (f".{p}" if text else p)
    return text


def resource_validation_error(wl: Workload) -> str | None:
    """The message the scheduler records when ``ValidateResources`` fails (reason Misconfigured:
    the workload stays pending until its spec changes), or None.

    Kueue's text: ``ErrInvalidWLResources`` + the aggregate of one ``field.Invalid`` per holder,
    whose value (a ``[]v1.ResourceName``) apimachinery prints with Go's ``%#v``; an aggregate of
    several errors is bracketed (``utilerrors.aggregate.Error``)."""
    errors = []
    for v in requests_over_limits(wl):
        names = ", ".join(f'"{r}"' for r in sorted(v.resources))
        holder = v.path if v.holder.field is not None else v.path + ("resources",)  # pod-level resources
        errors.append(f"{_field_path(holder)}: Invalid value: []v1.ResourceName{{{names}}}: "
                      "requests must not exceed its limits")
    if not errors:
        return None
    joined = errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"
    return f"resources validation failed: {joined}"


def quota_snapshot(cluster: KueueCluster, options: EngineOptions) -> Snapshot:
    """The quota tree without any usage: what a ClusterQueue could get if nothing else ran
    (``potential_available`` on it is Kueue's maximum capacity)."""
    return build_snapshot(cluster, options, workload_filter=_no_workload)


def _no_workload(_wl: Workload) -> bool:
    return False
