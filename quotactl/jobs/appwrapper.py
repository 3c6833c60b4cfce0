"""AppWrapper (``appwrapper/appwrapper_controller.go``): the pod sets of all its components in
order, declared or inferred as the appwrapper library does, named ``<appwrapper>-<index>``."""

from __future__ import annotations

import re

from quotactl.jobs.batch import pods_count
from quotactl.jobs.fields import Malformed, Path, opt_dict, opt_int, opt_list, opt_str, req_dict
from quotactl.jobs.generic import GenericJob, PodSetSpec
from quotactl.jobs.podtemplate import pod_template
from quotactl.load.document import get_in

DECLARED = "podSets"
_SEGMENT = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class AppWrapper(GenericJob):
    kind = "AppWrapper"
    api_group = "workload.codeflare.dev"
    versions = ("v1beta2",)

    def finished(self) -> bool:
        return opt_dict(self.data, ("status",)).get("phase") in ("Succeeded", "Failed")

    def pod_sets(self) -> list[PodSetSpec]:
        out = []
        for i, _ in enumerate(opt_list(self.data, ("spec", "components"))):
            component = ("spec", "components", i)
            for path, replicas in self._component_pod_sets(component):
                name = f"{self.name}-{len(out)}"
                out.append(PodSetSpec(name, replicas, pod_template(self.data, path)))
        if not out:
            raise Malformed(("spec", "components"), "no component with pods")
        return out

    def _component_pod_sets(self, component: Path) -> list[tuple[Path, int]]:
        # The Go field DeclaredPodSets is written `podSets` (appwrapper api/v1beta2/appwrapper_types.go).
        declared = opt_list(self.data, component + (DECLARED,))
        if not declared:
            req_dict(self.data, component + ("template",), "component template")
            return infer_pod_sets(self.data, component + ("template",))
        out = []
        for k, _ in enumerate(declared):
            entry = component + (DECLARED, k)
            text = opt_str(self.data, entry + ("path",))
            if not text:
                raise Malformed(entry + ("path",), "declared pod set has no path")
            out.append((component + parse_path(text), opt_int(self.data, entry + ("replicas",), 1)))
        return out


def parse_path(text: str) -> Path:
    """``template.spec.replicatedJobs[0].template`` -> a path tuple."""
    return tuple(_index(idx) if idx else key for key, idx in _SEGMENT.findall(text))


def _index(digits: str) -> int:
    """A list index; one of thousands of digits (past any list, and past what Python's int() reads:
    fuzzer) is just out of range."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) < 19 else 2**63


def infer_pod_sets(data: dict, obj: Path) -> list[tuple[Path, int]]:
    """The appwrapper library's InferPodSets for the kinds it knows."""
    kind = opt_str(data, obj + ("kind",))
    spec = obj + ("spec",)
    if kind == "Job":
        return [(spec + ("template",), pods_count(data, spec))]
    if kind == "JobSet":
        return [(spec + ("replicatedJobs", i, "template", "spec", "template"),
                 opt_int(data, spec + ("replicatedJobs", i, "replicas"), 1)
                 * pods_count(data, spec + ("replicatedJobs", i, "template", "spec")))
                for i, _ in enumerate(opt_list(data, spec + ("replicatedJobs",)))]
    if kind == "PyTorchJob":
        specs = spec + ("pytorchReplicaSpecs",)
        return [(specs + (r, "template"), opt_int(data, specs + (r, "replicas"), 1))
                for r in ("Master", "Worker") if get_in(data, specs + (r,)) is not None]
    if kind in ("RayCluster", "RayJob"):
        cluster = spec if kind == "RayCluster" else spec + ("rayClusterSpec",)
        return [(cluster + ("headGroupSpec", "template"), 1)] + [
            (cluster + ("workerGroupSpecs", i, "template"), opt_int(data, cluster + ("workerGroupSpecs", i, "replicas"), 0))
            for i, _ in enumerate(opt_list(data, cluster + ("workerGroupSpecs",)))]
    if kind == "Pod":
        return [(obj, 1)]
    if kind in ("Deployment", "StatefulSet"):
        return [(spec + ("template",), opt_int(data, spec + ("replicas",), 1))]
    raise Malformed(obj + ("kind",), f"component kind {kind!r} needs podSets (it cannot be inferred)")
