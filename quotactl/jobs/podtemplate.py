"""Pod templates as the job integrations copy them into a Workload: checked, then copied."""

from __future__ import annotations

import copy

from quotactl.jobs.fields import Malformed, Path, check_quantities, opt_dict, opt_list, opt_str, req_dict

CONTAINER_LISTS = ("initContainers", "containers")


def pod_template(data: dict, path: Path) -> dict:
    """A deep copy of the PodTemplateSpec at ``path``; Malformed unless it has a spec with containers."""
    template = req_dict(data, path, "pod template")
    spec = req_dict(data, path + ("spec",), "pod template spec")
    check_pod_spec(data, path + ("spec",))
    if not spec.get("containers"):
        raise Malformed(path + ("spec", "containers"), "pod template has no containers")
    # the integrations add queue/priority labels to the template's metadata: it must be a mapping
    # (a list there crashed them; found by the fuzzer); null is no metadata
    for key in ("metadata", ("metadata", "labels"), ("metadata", "annotations")):
        opt_dict(data, path + (key if isinstance(key, tuple) else (key,)))
    out = copy.deepcopy(template)
    if "metadata" in out and out["metadata"] is None:
        out["metadata"] = {}
    meta = out.get("metadata", {})
    for key in ("labels", "annotations"):
        if key in meta and meta[key] is None:
            meta[key] = {}
    return out


def check_pod_spec(data: dict, path: Path) -> None:
    """The parts of a PodSpec the request math reads must have the right types."""
    for key in CONTAINER_LISTS:
        for i, container in enumerate(opt_list(data, path + (key,))):
            cpath = path + (key, i)
            if not isinstance(container, dict):
                raise Malformed(cpath, "container must be an object")
            opt_str(data, cpath + ("restartPolicy",))
            opt_dict(data, cpath + ("resources",))
            check_quantities(data, cpath + ("resources", "requests"))
            check_quantities(data, cpath + ("resources", "limits"))
    check_quantities(data, path + ("overhead",))
    opt_dict(data, path + ("resources",))
    check_quantities(data, path + ("resources", "requests"))
    check_quantities(data, path + ("resources", "limits"))
    opt_str(data, path + ("priorityClassName",))
    opt_str(data, path + ("runtimeClassName",))

