"""Whether a Workload object has the shape the model reads: every map a map, every list a list,
every quantity parseable, every count a 32-bit integer.

The model builder reads a malformed Workload as far as it can (a podSets that is a number reads as
no pod sets, an unparseable quantity as absent).  The engine commands ask this cheap test for each
Workload and run the full schema check (the one ``quotactl lint`` reports) only on the few that
fail it, so the user is told which object was read partly; checking the schema of tens of
thousands of well-formed Workloads would dominate the run time.
"""

from __future__ import annotations

from typing import Any

from quotactl.model.coerce import as_quantity

INT32_MAX = 2**31 - 1
_CONTAINER_LISTS = ("containers", "initContainers")


def _bad_map(value: Any) -> bool:
    return value is not None and not isinstance(value, dict)


def _bad_list(value: Any) -> bool:
    return value is not None and not isinstance(value, list)


def _bad_count(value: Any) -> bool:
    if value is None:
        return False
    return isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= INT32_MAX


def _bad_str(value: Any) -> bool:
    return value is not None and not isinstance(value, str)


def _bad_quantities(value: Any) -> bool:
    if _bad_map(value):
        return True
    return any(v is not None and as_quantity(v) is None for v in (value or {}).values())


def _bad_resources(res: Any) -> bool:
    if _bad_map(res):
        return True
    res = res or {}
    return _bad_quantities(res.get("requests")) or _bad_quantities(res.get("limits"))


def _bad_pod_spec(spec: Any) -> bool:
    if _bad_map(spec):
        return True
    spec = spec or {}
    for field in _CONTAINER_LISTS:
        containers = spec.get(field)
        if _bad_list(containers):
            return True
        for c in containers or ():
            if not isinstance(c, dict) or _bad_resources(c.get("resources")):
                return True
    return _bad_resources(spec.get("resources")) or _bad_quantities(spec.get("overhead"))


def _bad_pod_set(ps: Any) -> bool:
    if not isinstance(ps, dict):
        return True
    if _bad_str(ps.get("name")) or _bad_count(ps.get("count")) or _bad_count(ps.get("minCount")):
        return True
    template = ps.get("template")
    if _bad_map(template):
        return True
    template = template or {}
    return _bad_map(template.get("metadata")) or _bad_pod_spec(template.get("spec"))


def _bad_admission(admission: Any) -> bool:
    if _bad_map(admission):
        return True
    admission = admission or {}
    psas = admission.get("podSetAssignments")
    if _bad_str(admission.get("clusterQueue")) or _bad_list(psas):
        return True
    for psa in psas or ():
        if not isinstance(psa, dict) or _bad_count(psa.get("count")) or _bad_map(psa.get("flavors")) \
                or _bad_quantities(psa.get("resourceUsage")):
            return True
    return False


def _bad_status(status: Any) -> bool:
    if _bad_map(status):
        return True
    status = status or {}
    conditions = status.get("conditions")
    if _bad_list(conditions) or any(not isinstance(c, dict) for c in conditions or ()):
        return True
    return _bad_admission(status.get("admission")) or _bad_list(status.get("reclaimablePods")) \
        or _bad_list(status.get("admissionChecks"))


def workload_is_malformed(data: dict) -> bool:
    """Some field the model reads has the wrong type (or an unparseable quantity)."""
    spec = data.get("spec")
    if _bad_map(spec) or _bad_status(data.get("status")):
        return True
    spec = spec or {}
    if _bad_str(spec.get("queueName")) or _bad_list(spec.get("podSets")):
        return True
    return any(_bad_pod_set(ps) for ps in spec.get("podSets") or ())
