"""Plain Pods and pod groups (``pod/pod_controller.go``): a single pod is one pod set ``main``; a
group (``pod-group-name`` + ``pod-group-total-count``) is one Workload with a pod set per role."""

from __future__ import annotations

import hashlib
import json

from quotactl.jobs.context import JobContext
from quotactl.jobs.fields import Malformed, int_text, opt_dict, opt_list
from quotactl.jobs.generic import GenericJob, PodSetSpec, WorkloadPlan
from quotactl.jobs.podtemplate import check_pod_spec
from quotactl.load.objects import KubeObject
from quotactl.model.coerce import quantity_map, str_map

GROUP_NAME = "kueue.x-k8s.io/pod-group-name"
GROUP_TOTAL = "kueue.x-k8s.io/pod-group-total-count"
FAST_ADMISSION = "kueue.x-k8s.io/pod-group-fast-admission"
ROLE_HASH = "kueue.x-k8s.io/role-hash"
# The pod spec fields that make two pods the same role (utilpod.GenerateRoleHash).
ROLE_FIELDS = ("nodeSelector", "affinity", "tolerations", "runtimeClassName", "priority",
               "topologySpreadConstraints", "overhead", "resourceClaims")


def pod_template_of(obj: KubeObject) -> dict:
    check_pod_spec(obj.data, ("spec",))
    spec = opt_dict(obj.data, ("spec",))
    if not spec.get("containers"):
        raise Malformed(("spec", "containers"), "pod has no containers")
    md = obj.metadata
    meta = {k: dict(md[k]) for k in ("labels", "annotations") if isinstance(md.get(k), dict)}
    return json.loads(json.dumps({"metadata": meta, "spec": spec}, default=str))


def group_name(obj: KubeObject) -> str | None:
    return str_map(obj.metadata.get("labels")).get(GROUP_NAME) or str_map(obj.metadata.get("annotations")).get(GROUP_NAME)


def is_runnable(obj: KubeObject) -> bool:
    """Failed pods, and deleted pods never scheduled, do not count towards the group."""
    if opt_dict(obj.data, ("status",)).get("phase") == "Failed":
        return False
    return not (obj.metadata.get("deletionTimestamp") and not opt_dict(obj.data, ("spec",)).get("nodeName"))


class Pod(GenericJob):
    kind = "Pod"
    api_group = ""
    versions = ("v1",)

    def finished(self) -> bool:
        return opt_dict(self.data, ("status",)).get("phase") in ("Succeeded", "Failed")

    def pod_sets(self) -> list[PodSetSpec]:
        return [PodSetSpec("main", 1, pod_template_of(self.obj))]


class PodGroup(Pod):
    """The member pods of one group; the first member stands for the group in messages."""

    def __init__(self, members: list[KubeObject], ctx: JobContext):
        super().__init__(members[0], ctx)
        self.members = members
        self.group = group_name(members[0]) or ""

    @property
    def refs(self) -> list[str]:
        return [f"pod/{self.namespace}/{m.name}" for m in self.members]

    def finished(self) -> bool:
        return all(Pod(m, self.ctx).finished() for m in self.members)

    def skip_reason(self) -> str | None:
        queues = {str_map(m.metadata.get("labels")).get("kueue.x-k8s.io/queue-name") for m in self.members}
        totals = {str_map(m.metadata.get("annotations")).get(GROUP_TOTAL) for m in self.members}
        if len(queues) > 1 or len(totals) > 1:
            return f"pod group {self.group}: members disagree on the queue name or the total count"
        runnable = [m for m in self.members if is_runnable(m)]
        total = self.total_count()
        if len(runnable) < total and not self._fast_admission():
            return f"pod group {self.group}: {len(runnable)} of {total} pods exist; Kueue waits for the rest"
        return None

    def total_count(self) -> int:
        raw = str_map(self.obj.metadata.get("annotations")).get(GROUP_TOTAL)
        path = ("metadata", "annotations", GROUP_TOTAL)
        if raw is None:
            raise Malformed(path, f"pod group {self.group} has no {GROUP_TOTAL} annotation")
        return int_text(raw, path, 1)

    def _fast_admission(self) -> bool:
        return str_map(self.obj.metadata.get("annotations")).get(FAST_ADMISSION) == "true"

    def pod_sets(self) -> list[PodSetSpec]:
        runnable = [m for m in self.members if is_runnable(m)]
        if len(runnable) < self.total_count():
            first = runnable[0] if runnable else self.members[0]
            return [PodSetSpec(role_hash(first), self.total_count(), pod_template_of(first))]
        roles: dict[str, list[KubeObject]] = {}
        for m in runnable:
            roles.setdefault(role_hash(m), []).append(m)
        return [PodSetSpec(role, len(pods), pod_template_of(pods[0])) for role, pods in sorted(roles.items())]

    def plans(self) -> list[WorkloadPlan]:
        refs = [Pod(m, self.ctx).owner_ref() for m in self.members]
        return [WorkloadPlan(self.group, self.derived_pod_sets, refs)]


def role_hash(obj: KubeObject) -> str:
    """The ``role-hash`` annotation, else the first 8 hex digits of sha256 over the Go JSON of the
    fields that decide scheduling (``null`` for what is absent, ``null`` for empty lists)."""
    given = str_map(obj.metadata.get("annotations")).get(ROLE_HASH)
    if given:
        return given
    spec = opt_dict(obj.data, ("spec",))
    shape = {"containers": _containers_shape(obj, "containers"), "initContainers": _containers_shape(obj, "initContainers")}
    for key in ROLE_FIELDS:
        shape[key] = spec.get(key)
    if isinstance(spec.get("resources"), dict):
        shape["resources"] = _requests(opt_dict(obj.data, ("spec", "resources", "requests")))
    text = json.dumps({"spec": shape}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def _containers_shape(obj: KubeObject, key: str) -> list | None:
    containers = opt_list(obj.data, ("spec", key))
    if not containers:
        return None
    return [{"resources": _requests(opt_dict(c, ("resources", "requests"))), "ports": c.get("ports")}
            for c in containers]


def _requests(requests: dict) -> dict:
    """ResourceRequirements as Go prints it: empty requests are left out (omitempty)."""
    quantities = {name: q.canonical() for name, q in quantity_map(requests).items()}
    return {"requests": quantities} if quantities else {}
